// The notification's settings: the address checked without ever being echoed, the format guessed
// from the host (or asked for), notify-on's words, and the gate a notifying job runs.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DEFAULT_GATE } from '../../../src/pipeline/gate/judge.js';
import {
  gateForNotify,
  parseNotifyFormat,
  parseNotifyOn,
  parseNotifyWebhook,
  readNotifySettings,
} from '../../../src/pipeline/notify/settings.js';
import { SettingsProblems } from '../../../src/pipeline/common/settings-problems.js';

function problemOf(parse: () => unknown): string {
  try {
    parse();
  } catch (error) {
    return (error as Error).message;
  }
  return '';
}

describe('notify: settings', () => {
  it('the address: https (http only to a loopback host), never echoed in a problem', () => {
    const slack = 'https://hooks.slack.com/services/T0/B0/s3cretS3cret';
    assert.equal(parseNotifyWebhook('w', slack), slack);
    assert.equal(parseNotifyWebhook('w', '  '), undefined);
    assert.equal(parseNotifyWebhook('w', 'http://127.0.0.1:9/h'), 'http://127.0.0.1:9/h');
    for (const bad of [
      'http://hooks.slack.com/services/s3cretS3cret',
      'https://u:s3cretS3cret@hooks.slack.com/x',
      'not a url s3cretS3cret',
      'ftp://x/s3cretS3cret',
    ]) {
      const problem = problemOf(() => parseNotifyWebhook('input w', bad));
      assert.match(problem, /^input w /);
      assert.doesNotMatch(problem, /s3cretS3cret/);
    }
  });

  it('the format: asked for, else guessed from the host, else a problem', () => {
    const workflows = 'https://prod-01.westeurope.logic.azure.com/workflows/x/triggers/manual';
    assert.equal(parseNotifyFormat('f', '', workflows), 'teams');
    assert.equal(
      parseNotifyFormat('f', '', 'https://x.environment.api.powerplatform.com/p'),
      'teams',
    );
    assert.equal(parseNotifyFormat('f', '', 'https://hooks.slack.com/services/a'), 'slack');
    assert.equal(parseNotifyFormat('f', 'SLACK', workflows), 'slack');
    assert.equal(parseNotifyFormat('f', '', undefined), undefined);
    assert.match(
      problemOf(() => parseNotifyFormat('f', '', 'https://chat.example/h')),
      /f is needed/,
    );
    assert.match(
      problemOf(() => parseNotifyFormat('f', 'discord', undefined)),
      /teams, slack/,
    );
  });

  it('notify-on: change by default, the four words, anything else one line', () => {
    assert.equal(parseNotifyOn('o', ''), 'change');
    assert.equal(parseNotifyOn('o', 'Always'), 'always');
    assert.match(
      problemOf(() => parseNotifyOn('o', 'daily')),
      /change, new, failure, always/,
    );
  });

  it('change and new read the previous scan as the baseline when none is set', () => {
    assert.deepEqual(gateForNotify(DEFAULT_GATE, 'change').baseline, { kind: 'previous' });
    assert.deepEqual(gateForNotify(DEFAULT_GATE, 'new').baseline, { kind: 'previous' });
    assert.equal(gateForNotify(DEFAULT_GATE, 'failure'), DEFAULT_GATE);
    const file = { ...DEFAULT_GATE, baseline: { kind: 'file', path: 'b.json' } as const };
    assert.equal(gateForNotify(file, 'change'), file);
  });

  it('read from a face: the rows, then the format the host tells when none is given', () => {
    const read = (webhook: string, given: Record<string, string>) => {
      const problems = new SettingsProblems();
      const notify = readNotifySettings(
        (row) => ({ name: `--${row.flag}`, raw: given[row.flag ?? ''] }),
        { name: 'HOOK', raw: webhook },
        problems,
      );
      return { notify, problems: problems.problems };
    };
    const slack = 'https://hooks.slack.com/services/T0/B0/s3cret';
    assert.deepEqual(read(slack, {}).notify, { webhook: slack, format: 'slack', on: 'change' });
    assert.deepEqual(read(slack, { 'notify-format': 'teams', 'notify-on': 'new' }).notify, {
      webhook: slack,
      format: 'teams',
      on: 'new',
    });
    const unknownHost = read('https://chat.example/h', {});
    assert.equal(unknownHost.notify, undefined);
    assert.match(unknownHost.problems.join('\n'), /^--notify-format is needed/);
    const noWebhook = read('', { 'notify-format': 'discord', 'notify-on': 'daily' });
    assert.equal(noWebhook.notify, undefined);
    assert.equal(noWebhook.problems.length, 2, 'a typo shows without a webhook too');
    assert.ok(!JSON.stringify(read('ftp://hooks.slack.com/s3cret', {})).includes('s3cret'));
  });
});
