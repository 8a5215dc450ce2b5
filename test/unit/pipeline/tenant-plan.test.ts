// The plan: drift field by field and hygiene problems with their codes (pure).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ApiKey, NotificationSettings, Scan } from '../../../src/client/types.js';
import { parseTenantFile } from '../../../src/pipeline/tenant-settings/file.js';
import { planTenant, type TenantState } from '../../../src/pipeline/tenant-settings/plan.js';
import { planFails } from '../../../src/pipeline/tenant-settings/document.js';
import { readTarget } from '../../../src/pipeline/tenant-settings/read.js';

const NOW = Date.parse('2026-11-26T00:00:00Z');
const DAY = 86_400_000;
const ago = (days: number) => new Date(NOW - days * DAY).toISOString();

const QUIET: NotificationSettings = {
  emailOnComplete: false,
  emailOnFail: true,
  teamsWebhookUrl: null,
  teamsOnComplete: false,
  teamsOnFail: false,
};

function key(name: string, createdDays: number, usedDays: number | null): ApiKey {
  const k = { id: name, name, keyPrefix: 'ak_live_abcd...wxyz', msTenantId: null };
  return {
    ...k,
    createdAt: ago(createdDays),
    lastUsedAt: usedDays === null ? null : ago(usedDays),
    raw: {},
  };
}

function scan(type: string, days: number, status = 'completed'): Scan {
  return {
    id: `${type}-${days}`,
    status,
    phase: status === 'completed' ? 'succeeded' : 'failed',
    knownStatus: true,
    terminal: true,
    scanType: type,
    createdAt: ago(days),
    completedAt: ago(days),
    raw: {},
  };
}

function state(patch: Partial<TenantState> = {}): TenantState {
  return {
    notifications: QUIET,
    keys: [key('fresh', 1, 0)],
    targets: [],
    scans: [scan('compliance', 1)],
    ...patch,
  };
}

const codes = (s: TenantState, yaml = '') =>
  planTenant(s, { file: parseTenantFile('t.yml', yaml) }, NOW).problems.map(
    (p) => `${p.code} ${p.subject}`,
  );

describe('tenant plan', () => {
  it('a tidy tenant against the smallest file: nothing', () => {
    const plan = planTenant(
      state(),
      { file: parseTenantFile('t.yml', 'notifications: {emailOnFail: true}') },
      NOW,
    );
    assert.deepEqual(plan, { drift: [], problems: [], changes: [] });
    assert.equal(planFails(plan, 'any'), false);
  });

  it('the issue tenant: nobody notified, a key unused 120 days, one 400 days old, compliance 20 days stale', () => {
    const s = state({
      notifications: { ...QUIET, emailOnFail: false },
      keys: [key('ci', 1, 0), key('idle', 200, 120), key('ancient', 400, 2)],
      scans: [
        scan('compliance', 20),
        scan('compliance', 25),
        scan('eas', 2),
        scan('posture', 1, 'failed'),
      ],
    });
    assert.deepEqual(codes(s).sort(), [
      'failures-notify-nobody notifications',
      'key-old ancient (ak_live_abcd...wxyz)',
      'key-old idle (ak_live_abcd...wxyz)',
      'key-unused idle (ak_live_abcd...wxyz)',
      'scan-stale compliance scans',
    ]);
  });

  it('drift is field by field and the change patches only those fields', () => {
    const file = parseTenantFile(
      't.yml',
      'notifications: {emailOnFail: true, emailOnComplete: false, teamsOnFail: true}',
    );
    const plan = planTenant(
      state({ notifications: { ...QUIET, emailOnFail: false } }),
      { file },
      NOW,
    );
    assert.deepEqual(plan.drift, [
      { area: 'notifications', field: 'emailOnFail', current: false, desired: true },
      { area: 'notifications', field: 'teamsOnFail', current: false, desired: true },
    ]);
    assert.deepEqual(plan.changes, [
      { kind: 'notifications', patch: { emailOnFail: true, teamsOnFail: true } },
    ]);
  });

  it('a webhook shows by its host only, in drift and problems', () => {
    const old = 'https://contoso.webhook.office.com/webhookb2/abc@def/IncomingWebhook/SIG1';
    const fresh = 'https://prod-1.westeurope.logic.azure.com/workflows/x/triggers?sig=SIG2';
    const file = parseTenantFile('t.yml', 'notifications: {teamsWebhookUrlEnv: HOOK}');
    const plan = planTenant(
      state({ notifications: { ...QUIET, teamsWebhookUrl: old, teamsOnFail: true } }),
      { file, webhook: fresh },
      NOW,
    );
    assert.deepEqual(plan.drift, [
      {
        area: 'notifications',
        field: 'teamsWebhookUrl',
        current: 'https://contoso.webhook.office.com/…',
        desired: 'https://prod-1.westeurope.logic.azure.com/…',
      },
    ]);
    assert.deepEqual(
      plan.problems.map((p) => p.code),
      ['webhook-retired'],
    );
    assert.ok(!JSON.stringify({ drift: plan.drift, problems: plan.problems }).includes('SIG'));
  });

  it('a webhook outside the chat services is webhook-unknown-host, shown by its host only', () => {
    const at = (url: string) =>
      codes(state({ notifications: { ...QUIET, teamsWebhookUrl: url, teamsOnFail: true } }));
    assert.deepEqual(at('https://collector.example.net/in/SIG'), [
      'webhook-unknown-host notifications.teamsWebhookUrl (https://collector.example.net/…)',
    ]);
    assert.deepEqual(at('https://prod-1.westeurope.logic.azure.com/workflows/x?sig=SIG'), []);
    assert.deepEqual(at('https://hooks.slack.com/services/T0/B0/SIG'), []);
    assert.deepEqual(at('https://x.environment.api.powerplatform.com/powerautomate/SIG'), []);
  });

  it('posts switched on without a webhook; keys near the cap; a never-used old key', () => {
    const keys = Array.from({ length: 8 }, (_, i) => key(`k${i}`, 5, 1));
    keys.push(key('never', 31, null));
    const got = codes(state({ notifications: { ...QUIET, teamsOnComplete: true }, keys }));
    assert.deepEqual(got, [
      'key-unused never (ak_live_abcd...wxyz)',
      'keys-near-cap API keys',
      'webhook-missing notifications.teamsWebhookUrl',
    ]);
  });

  it('posts to a channel only count with a webhook', () => {
    const s = state({ notifications: { ...QUIET, emailOnFail: false, teamsOnFail: true } });
    assert.deepEqual(codes(s), [
      'failures-notify-nobody notifications',
      'webhook-missing notifications.teamsWebhookUrl',
    ]);
    const hook = 'https://prod-1.westeurope.logic.azure.com/workflows/x';
    assert.deepEqual(
      codes(
        state({
          notifications: { ...QUIET, emailOnFail: false, teamsOnFail: true, teamsWebhookUrl: hook },
        }),
      ),
      [],
    );
  });

  it('rules hold at their bounds and can be switched off or moved', () => {
    const keys = (n: number) => Array.from({ length: n }, (_, i) => key(`k${i}`, 5, 1));
    assert.deepEqual(codes(state({ keys: keys(8) })), ['keys-near-cap API keys']);
    assert.deepEqual(codes(state({ keys: keys(7) })), []);
    const s = state({
      keys: [key('edge', 30, 30), key('ninety', 90, 0), key('old', 91, 0)],
      scans: [scan('compliance', 8)],
    });
    assert.deepEqual(codes(s), ['key-old old (ak_live_abcd...wxyz)']);
    assert.deepEqual(
      codes(s, 'hygiene: {keyMaxAgeDays: false, keyUnusedDays: 29, scanStaleDays: 7}'),
      ['key-unused edge (ak_live_abcd...wxyz)', 'scan-stale compliance scans'],
    );
  });

  it('targets: added, relabelled, verified when asked, removed only with prune', () => {
    const targets = [
      readTarget({ id: 't1', host: 'a.example.com', label: 'old', verified: false }),
      readTarget({
        id: 't2',
        host: 'stray.example.com',
        label: null,
        verificationStatus: 'Verified',
      }),
      readTarget({ id: 't3', host: 'unknown.example.com' }),
    ];
    const yaml = (prune: boolean) =>
      `attackSurface:\n  prune: ${prune}\n  targets:\n    - {host: a.example.com, label: new, verify: true}\n    - {host: b.example.com, label: B}\n    - {host: unknown.example.com, verify: true}\n`;
    const kept = planTenant(
      state({ targets }),
      { file: parseTenantFile('t.yml', yaml(false)) },
      NOW,
    );
    assert.deepEqual(
      kept.changes.map((c) => c.kind),
      ['relabel-target', 'verify-target', 'add-target'],
    );
    assert.deepEqual(
      kept.problems.map((p) => `${p.code} ${p.subject}`),
      ['target-unverified a.example.com'],
    );
    const pruned = planTenant(
      state({ targets }),
      { file: parseTenantFile('t.yml', yaml(true)) },
      NOW,
    );
    assert.deepEqual(pruned.drift.at(-1), {
      area: 'targets',
      field: 'stray.example.com',
      current: 'present',
      desired: 'absent',
    });
    assert.deepEqual(pruned.changes.at(-1), {
      kind: 'remove-target',
      id: 't2',
      host: 'stray.example.com',
    });
  });

  it('--fail-on: drift, problems, any, none', () => {
    const both = {
      drift: [{ area: 'notifications' as const, field: 'x', current: 1, desired: 2 }],
      problems: [],
    };
    assert.equal(planFails(both, 'drift'), true);
    assert.equal(planFails(both, 'problems'), false);
    assert.equal(planFails(both, 'any'), true);
    assert.equal(planFails(both, 'none'), false);
  });
});
