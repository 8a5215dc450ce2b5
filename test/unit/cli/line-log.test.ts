// lineLog, the one log the CLI gives the pipeline (the gate, the notifications of scan run and
// rollup): info as it is, a warning marked `warning: `, each one line through the CLI's writer.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { lineLog } from '../../../src/cli/line-log.js';
import { redactingLog } from '../../../src/pipeline/notify/notify.js';

describe('lineLog', () => {
  it('says info as it is and marks a warning, in order, one line each', () => {
    const lines: string[] = [];
    const log = lineLog((line) => lines.push(line));
    log.info('Notification: sent to Slack — 1 tenant changed');
    log.warning('Notification failed: HTTP 500; the verdict is not affected');
    log.info('Baseline: none');
    assert.deepEqual(lines, [
      'Notification: sent to Slack — 1 tenant changed',
      'warning: Notification failed: HTTP 500; the verdict is not affected',
      'Baseline: none',
    ]);
  });

  it('under redactingLog, the marked line carries no secret', () => {
    const webhook = 'https://hooks.example.test/services/T000/B000/XXXXsecretXXXX';
    const lines: string[] = [];
    const log = redactingLog(
      lineLog((line) => lines.push(line)),
      [webhook],
    );
    log.warning(`could not reach ${webhook}`);
    assert.deepEqual(lines, ['warning: could not reach [redacted]']);
  });
});
