// redactingLog, the adapter every face gives the pipeline: the sink never receives a secret, in
// any form a line may carry it, including a secret added after the log was made.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { redactingLog } from '../../../src/pipeline/notify/notify.js';

const API_KEY = `ak_live_${'k'.repeat(40)}`;
const WEBHOOK = 'https://hooks.example.test/services/T000/B000/XXXXsecretXXXX';
const NEW_KEY = `ak_live_${'n'.repeat(40)}`;

function sinkOf() {
  const lines: Array<['info' | 'warning', string]> = [];
  return {
    lines,
    sink: {
      info: (message: string) => lines.push(['info', message]),
      warning: (message: string) => lines.push(['warning', message]),
    },
  };
}

describe('redactingLog', () => {
  it('passes each line on, at its level, without any secret', () => {
    const { lines, sink } = sinkOf();
    const log = redactingLog(sink, [API_KEY, WEBHOOK]);
    log.info(`sent to ${WEBHOOK}`);
    log.warning(`the service said: ${encodeURIComponent(API_KEY)} is wrong`);
    log.info('nothing secret');
    assert.deepEqual(lines, [
      ['info', 'sent to [redacted]'],
      ['warning', 'the service said: [redacted] is wrong'],
      ['info', 'nothing secret'],
    ]);
  });

  it('redacts a secret added after it was made (a new key from a rotation)', () => {
    const { lines, sink } = sinkOf();
    const secrets = [API_KEY];
    const log = redactingLog(sink, secrets);
    secrets.push(NEW_KEY);
    log.info(`created ${NEW_KEY}`);
    assert.deepEqual(lines, [['info', 'created [redacted]']]);
  });
});
