// The chat messages: a Teams Workflows card parsed by Microsoft's adaptivecards without a problem
// and under 28 KB with 10,000 failed findings, Slack blocks within Block Kit's documented limits,
// new and fixed first and worst first, hostile service text shown as text (no mention, no live
// link, no markup element), and only our own links live.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { FindingView, Scan, Severity } from '../../../src/client/types.js';
import { judgeFindings, type BaselineRead } from '../../../src/pipeline/gate/judge.js';
import type { JobResult } from '../../../src/pipeline/job/types.js';
import {
  changedSinceBaseline,
  changesOf,
  decideNotify,
} from '../../../src/pipeline/notify/changes.js';
import type { NotifyMessage } from '../../../src/pipeline/notify/notify.js';
import { renderNotification } from '../../../src/render/notify.js';
import {
  slackProblems,
  slackTexts,
  teamsCard,
  teamsProblems,
  teamsTexts,
  TEAMS_MAX_BYTES,
} from '../../helpers/chat-validators.js';

const HOSTILE =
  '<at>everyone</at> @channel <!here> <!channel> [click](https://evil.example/x) ' +
  '**bold** https://evil.example/p www.evil.example mail@evil.example #12 ' +
  '<https://evil.example|ok> ak_live_0123456789abcdef0123456789abcdef \u0007\u001b[31m';

function finding(
  identity: string,
  severity: Severity,
  title = `Title of ${identity}`,
): FindingView {
  return { id: identity, identity, title, severity, result: 'fail' };
}

const SCAN: Scan = {
  id: 'scan-2',
  status: 'completed',
  phase: 'succeeded',
  knownStatus: true,
  terminal: true,
  raw: {},
};

function messageOf(
  failed: FindingView[],
  before: FindingView[],
  tenant = 'Contoso',
): NotifyMessage {
  const baseline: BaselineRead = {
    kind: 'found',
    source: 'scan scan-1 of 2026-11-25',
    failed: before,
    at: '2026-11-25T00:00:00Z',
  };
  const gate = judgeFindings(
    failed,
    { threshold: 'info', failOn: 'any', baseline: { kind: 'previous' } },
    { baseline, waivers: [] },
    Date.parse('2026-11-26T00:00:00Z'),
  );
  const verdict = gate.counts.gating > 0 ? 'failed' : 'passed';
  const result: JobResult = {
    scanId: SCAN.id,
    status: SCAN.status,
    scan: SCAN,
    tenantName: tenant,
    verdict,
    total: failed.length + 10,
    failed: failed.length,
    findings: gate.findings,
    gate,
    fixed: gate.fixed,
    report: { policy: 'none' },
    verdictReason: `${failed.length} failed findings`,
    failStep: verdict === 'failed',
    triggered: true,
  };
  return {
    result,
    changes: changesOf(gate),
    changed: changedSinceBaseline(gate, verdict),
    why: decideNotify('always', { kind: 'judged', verdict, gate }).why,
    links: {
      run: 'https://github.com/o/r/actions/runs/1',
      pullRequest: 'https://github.com/o/r/pull/7',
      report: 'javascript:alert(1)',
    },
  };
}

const SMALL = messageOf(
  [finding('LOW-1', 'low'), finding('CRIT-1', 'critical'), finding('OLD-1', 'high')],
  [finding('OLD-1', 'high'), finding('GONE-1', 'medium')],
);

function many(n: number): FindingView[] {
  const levels: Severity[] = ['critical', 'high', 'medium', 'low', 'info'];
  return Array.from({ length: n }, (_, i) =>
    finding(`CHK-${i}`, levels[i % levels.length] ?? 'info', `${HOSTILE} ${'x'.repeat(i % 50)}`),
  );
}

/** What a chat client would turn into a mention or a link even in plain text, a secret, or a
 *  control character (a Slack section's line breaks are ours). Markup (** [x](y) <at>) is not
 *  here: a TextRun and a plain_text object never read it. */
// eslint-disable-next-line no-control-regex
const LIVE = /https?:\/\/|www\.|@|<!|ak_live_[0-9a-f]{8}|[\u0000-\u0009\u000b-\u001f\u007f]/i;

describe('notify: chat messages', () => {
  it('Teams: the Workflows envelope around a card adaptivecards parses without a problem', () => {
    const body = renderNotification('teams', SMALL);
    assert.deepEqual(teamsProblems(body), []);
    const texts = teamsTexts(teamsCard(body).card).map((t) => t.text);
    const at = (text: string) => texts.findIndex((t) => t.includes(text));
    // New first (worst first), then fixed, then what still fails.
    assert.ok(at('New failing (2)') < at('CRITICAL · CRIT-1'));
    assert.ok(at('CRITICAL · CRIT-1') < at('LOW · LOW-1'));
    assert.ok(at('LOW · LOW-1') < at('Fixed (1)'));
    assert.ok(at('Fixed (1)') < at('MEDIUM · GONE-1'));
    assert.ok(at('MEDIUM · GONE-1') < at('Still failing the gate (1)'));
    assert.ok(at('HIGH · OLD-1') > at('Still failing the gate (1)'));
    assert.ok(texts.some((t) => t.includes('Changed: 2 new failing findings, 1 fixed')));
    // Our links only, and only http(s) ones.
    const card = teamsCard(body).card as { actions: Array<{ url: string }> };
    assert.deepEqual(
      card.actions.map((a) => a.url),
      ['https://github.com/o/r/actions/runs/1', 'https://github.com/o/r/pull/7'],
    );
  });

  it('Teams: 10,000 hostile findings stay under 28 KB, cut with a line that counts the rest', () => {
    const body = renderNotification('teams', messageOf(many(10_000), [], HOSTILE));
    assert.deepEqual(teamsProblems(body), []);
    assert.ok(Buffer.byteLength(body) <= TEAMS_MAX_BYTES);
    assert.doesNotMatch(body, /"entities"/, 'no mention entity: <at> stays text');
    const texts = teamsTexts(teamsCard(body).card);
    const more = texts.find((t) => /^…and [\d,]+ more lines not shown/.test(t.text));
    assert.ok(more, 'a line says how many more');
    const shown = texts.filter((t) => /^[A-Z]+ · CHK-/.test(t.text)).length;
    assert.ok(shown > 20, `${shown} findings shown`);
    assert.match(more.text, new RegExp(`^…and ${10_000 - shown} more lines`));
    // Hostile text is text: in TextRuns only (never Markdown), with nothing live left in it.
    for (const { type, text } of texts.filter((t) => t.type !== 'Action.OpenUrl')) {
      assert.equal(type, 'TextRun', `only TextRuns carry words: ${type} ${text}`);
      assert.doesNotMatch(text, LIVE, text);
    }
  });

  it('Slack: blocks within the documented limits, plain_text only, 10,000 findings cut', () => {
    const small = renderNotification('slack', SMALL);
    assert.deepEqual(slackProblems(small), []);
    const body = renderNotification('slack', messageOf(many(10_000), [], HOSTILE));
    assert.deepEqual(slackProblems(body), []);
    const texts = slackTexts(body);
    assert.ok(
      texts.every((t) => t.type === 'plain_text'),
      'no mrkdwn anywhere',
    );
    for (const { text } of texts.filter((t) => !/^(Open the run|Pull request)$/.test(t.text)))
      assert.doesNotMatch(text, LIVE, text);
    assert.ok(texts.some((t) => /…and [\d,]+ more lines not shown/.test(t.text)));
    const fallback = (JSON.parse(body) as { text: string }).text;
    assert.doesNotMatch(fallback, /[<>]|@|https?:\/\//);
  });

  it('a run with nothing failing still renders cleanly in both formats', () => {
    const clean = messageOf([], [finding('GONE', 'high')]);
    assert.deepEqual(teamsProblems(renderNotification('teams', clean)), []);
    assert.deepEqual(slackProblems(renderNotification('slack', clean)), []);
  });
});
