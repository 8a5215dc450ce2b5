// The saved plan's format and the lines an apply of it refuses with (pure): a file that is not a
// plan, another version of the settings file, another tenant, another webhook address, an altered
// plan, and the tenant changed since (the issue's own line). The plan file holds no secret.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { NotificationSettings } from '../../../src/client/types.js';
import { parseTenantFile } from '../../../src/pipeline/tenant-settings/file.js';
import { changesToApply, PlanRefused } from '../../../src/pipeline/tenant-settings/plan-check.js';
import {
  planTenant,
  type Desired,
  type TenantState,
} from '../../../src/pipeline/tenant-settings/plan.js';
import {
  makeSavedPlan,
  parseSavedPlan,
  PlanFileError,
  savedPlanText,
  type SavedPlan,
} from '../../../src/pipeline/tenant-settings/saved-plan.js';
import { propertyParameters } from '../../helpers/property.js';

const NOW = Date.parse('2026-05-01T10:00:00Z');
const HOOK = 'https://prod-1.westeurope.logic.azure.com/workflows/w/triggers?sig=SECRETSIG';
const SHA = 'a'.repeat(64);
const IDENTITY = { tenant: 'Contoso', tenantId: 'tenant-1' };

const QUIET: NotificationSettings = {
  emailOnComplete: false,
  emailOnFail: false,
  teamsWebhookUrl: null,
  teamsOnComplete: false,
  teamsOnFail: false,
};

const YAML = [
  'notifications:',
  '  emailOnFail: true',
  '  teamsWebhookUrlEnv: HOOK',
  'attackSurface:',
  '  prune: true',
  '  targets:',
  '    - {host: app.example.com, label: Production}',
  '',
].join('\n');

function tenant(patch: Partial<TenantState> = {}): TenantState {
  return {
    notifications: QUIET,
    keys: [],
    targets: [{ id: 't1', host: 'old.example.com', label: null }],
    scans: [],
    ...patch,
  };
}

const desired = (webhook = HOOK): Desired => ({
  file: parseTenantFile('tenant.yml', YAML),
  webhook,
});

function saved(state = tenant(), d = desired()): SavedPlan {
  const plan = planTenant(state, d, NOW);
  return makeSavedPlan({
    plan,
    state,
    desired: d,
    fileSha256: SHA,
    identity: IDENTITY,
    nowMs: NOW,
  });
}

function refusal(
  plan: SavedPlan,
  view: { state?: TenantState; desired?: Desired; sha?: string; tenantId?: string },
) {
  const state = view.state ?? tenant();
  const d = view.desired ?? desired();
  try {
    changesToApply(plan, {
      path: '.tenant-scan/tenant.yml',
      fileSha256: view.sha ?? SHA,
      desired: d,
      state,
      identity: { ...IDENTITY, tenantId: view.tenantId ?? IDENTITY.tenantId },
      plan: planTenant(state, d, NOW),
    });
    return undefined;
  } catch (error) {
    assert.ok(error instanceof PlanRefused, String(error));
    return error.message;
  }
}

describe('saved plans', () => {
  it('a plan applied as it was made gives back its changes, the webhook address whole again', () => {
    const plan = saved();
    const state = tenant();
    const changes = changesToApply(plan, {
      path: 't.yml',
      fileSha256: SHA,
      desired: desired(),
      state,
      identity: IDENTITY,
      plan: planTenant(state, desired(), NOW),
    });
    assert.deepEqual(changes, planTenant(state, desired(), NOW).changes);
    assert.deepEqual(changes[0], {
      kind: 'notifications',
      patch: { emailOnFail: true, teamsWebhookUrl: HOOK },
    });
    assert.deepEqual(
      plan.changes.map((c) => c.kind),
      ['notifications', 'add-target', 'remove-target'],
    );
    assert.deepEqual(plan.changes[0], {
      kind: 'notifications',
      patch: { emailOnFail: true, teamsWebhookUrl: { env: 'HOOK' } },
    });
  });

  it('names a target that appeared since the plan, as the issue asks', () => {
    const later = tenant({
      targets: [
        { id: 't1', host: 'old.example.com', label: null },
        { id: 't9', host: 'added-after-review.example.com', label: null },
      ],
    });
    assert.equal(
      refusal(saved(), { state: later }),
      'targets: added-after-review.example.com appeared since the plan of 2026-05-01T10:00:00.000Z; plan again',
    );
    const more = tenant({
      notifications: { ...QUIET, emailOnFail: true },
      targets: [{ id: 't2', host: 'app.example.com', label: 'Edge' }],
    });
    assert.equal(
      refusal(saved(), { state: more }),
      'notifications: emailOnFail changed; targets: app.example.com appeared, old.example.com disappeared since the plan of 2026-05-01T10:00:00.000Z; plan again',
    );
  });

  it('another version of the file, another tenant, another webhook address: refused', () => {
    assert.match(
      refusal(saved(), { sha: 'b'.repeat(64) }) ?? '',
      /^the plan was made from another version of \.tenant-scan\/tenant\.yml \(SHA-256 aaaaaaaaaaaa… then, bbbbbbbbbbbb… now\): plan again/,
    );
    assert.match(
      refusal(saved(), { tenantId: 'tenant-2' }) ?? '',
      /^the plan is of tenant tenant-1, the key is of tenant tenant-2: apply it with that tenant's key/,
    );
    const line = refusal(saved(), { desired: desired(`${HOOK}OTHER`) }) ?? '';
    assert.match(
      line,
      /^HOOK holds another webhook address since the plan of 2026-05-01T10:00:00\.000Z; plan again$/,
    );
  });

  it('a plan whose changes were altered by hand is refused, digests or not', () => {
    const plan = saved();
    const altered: SavedPlan = {
      ...plan,
      changes: [...plan.changes, { kind: 'remove-target', id: 't7', host: 'other.example.com' }],
    };
    assert.match(
      refusal(altered, {}) ?? '',
      /^the plan's changes are not those \.tenant-scan\/tenant\.yml asks/,
    );
    const reordered: SavedPlan = { ...plan, changes: [...plan.changes].reverse() };
    assert.equal(refusal(reordered, {}), undefined, 'order is not a change');
  });

  it('a file that is not a plan is one line; its text round-trips', () => {
    const plan = saved();
    assert.deepEqual(parseSavedPlan(savedPlanText(plan), 'p.json'), plan);
    const cases: Array<[string, RegExp]> = [
      [
        'not json',
        /^p\.json is not a tenant-scan plan \(tenant plan --out writes one\): it is not JSON$/,
      ],
      [
        '{"kind":"tenant-plan","version":1}',
        /^p\.json is not a tenant-scan plan \(tenant plan --out writes one\)$/,
      ],
      [
        JSON.stringify({ ...plan, version: 2 }),
        /^p\.json is a plan of format version 2, newer than this tenant-scan reads \(1\)/,
      ],
      [
        JSON.stringify({ ...plan, salt: 'x' }),
        /^p\.json is not a whole tenant-scan plan \(\/salt is not as tenant plan --out writes it\): plan again$/,
      ],
      [
        JSON.stringify({ ...plan, changes: [{ kind: 'delete-key', id: 'k' }] }),
        /^p\.json is not a whole tenant-scan plan \(\/changes\/0 /,
      ],
      [
        JSON.stringify({ ...plan, createdAt: 'yesterday' }),
        /^p\.json is not a whole tenant-scan plan \(\/createdAt /,
      ],
    ];
    for (const [text, line] of cases) {
      assert.throws(
        () => parseSavedPlan(text, 'p.json'),
        (e: Error) => e instanceof PlanFileError && line.test(e.message),
      );
    }
  });

  it('the plan file holds no secret: not the webhook address, not a key the tenant shows (property)', () => {
    const secret = fc
      .stringMatching(/^[A-Za-z0-9]{24}$/)
      .chain((part) =>
        fc.constantFrom(`ak_live_${part}`, `https://hooks.slack.com/services/T0/B0/${part}`),
      );
    fc.assert(
      fc.property(secret, fc.boolean(), (value, asHook) => {
        const state = tenant({
          notifications: { ...QUIET, teamsWebhookUrl: value },
          targets: [
            { id: 't1', host: 'app.example.com', label: value },
            { id: 't2', host: 'old.example.com', label: value },
          ],
        });
        const text = savedPlanText(
          saved(state, desired(asHook && value.startsWith('https:') ? value : HOOK)),
        );
        const part = value.slice(-24);
        assert.ok(!text.includes(part), text);
        assert.ok(!text.includes('SECRETSIG'), text);
      }),
      propertyParameters(50),
    );
  });
});
