// The saved plan's digest of the tenant (pipeline/tenant-settings/basis.ts, plan-check.ts), over
// generated files and tenants: a plan saved from one tenant state and applied at another is
// refused exactly when a part its changes depend on changed — a managed flag, the managed webhook,
// a listed target's presence, id, label (when the file sets it) or state (when it asks to verify),
// a target prune would remove — naming what changed; a change anywhere else (keys, scans, a flag or
// a target the file does not manage) is no reason to refuse. And whenever it is applied, its
// changes are exactly those a fresh plan of the new state computes: a stale plan never writes.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { NotificationSettings } from '../../../src/client/types.js';
import { NOTIFICATION_FLAGS, type TenantFile } from '../../../src/pipeline/tenant-settings/file.js';
import { changesToApply, PlanRefused } from '../../../src/pipeline/tenant-settings/plan-check.js';
import {
  planTenant,
  type CurrentTarget,
  type Desired,
  type TenantState,
} from '../../../src/pipeline/tenant-settings/plan.js';
import { makeSavedPlan, toSaved } from '../../../src/pipeline/tenant-settings/saved-plan.js';
import { propertyParameters } from '../../helpers/property.js';

const NOW = Date.parse('2026-05-01T10:00:00Z');
const HOSTS = ['a.example.com', 'b.example.com', 'c.example.com', 'd.example.com'];
const IDS = ['t1', 't2', 't3', 't4', 't5'];
const LABELS = ['Production', 'Edge', null];
const HOOKS = [
  'https://prod-1.westeurope.logic.azure.com/wf?sig=ONE',
  'https://hooks.slack.com/services/T0/B0/TWO',
  null,
];
const IDENTITY = { tenant: 'Contoso', tenantId: 'tenant-1' };

const verified = fc.constantFrom<boolean | undefined>(true, false, undefined);
const target: fc.Arbitrary<CurrentTarget> = fc
  .record({
    id: fc.constantFrom(...IDS),
    host: fc.constantFrom(...HOSTS),
    label: fc.constantFrom(...LABELS),
    verified,
  })
  .map(({ verified: v, ...t }) => (v === undefined ? t : { ...t, verified: v }));

const notifications: fc.Arbitrary<NotificationSettings> = fc.record({
  emailOnComplete: fc.boolean(),
  emailOnFail: fc.boolean(),
  teamsOnComplete: fc.boolean(),
  teamsOnFail: fc.boolean(),
  teamsWebhookUrl: fc.constantFrom(...HOOKS),
});

const state: fc.Arbitrary<TenantState> = fc.record({
  notifications,
  keys: fc.constant([]),
  targets: fc.array(target, { maxLength: 5 }),
  scans: fc.constant([]),
});

const desired: fc.Arbitrary<Desired> = fc
  .record({
    flags: fc.dictionary(fc.constantFrom(...NOTIFICATION_FLAGS), fc.boolean()),
    webhook: fc.constantFrom<TenantFile['webhook'] | 'none'>('none', null, { env: 'HOOK' }),
    hook: fc.constantFrom(...HOOKS.slice(0, 2)),
    targets: fc.option(
      fc.record({
        prune: fc.boolean(),
        list: fc.uniqueArray(
          fc.record({
            host: fc.constantFrom(...HOSTS),
            label: fc.option(fc.constantFrom('Production', 'Edge'), { nil: undefined }),
            verify: fc.boolean(),
          }),
          { selector: (t) => t.host, maxLength: 3 },
        ),
      }),
      { nil: undefined },
    ),
  })
  .map(({ flags, webhook, hook, targets }) => {
    const list = (targets?.list ?? []).map(({ label, ...t }) =>
      label === undefined ? t : { ...t, label },
    );
    const file: TenantFile = {
      flags,
      hygiene: {},
      ...(webhook !== 'none' ? { webhook } : {}),
      ...(targets ? { targets: { prune: targets.prune, list } } : {}),
    };
    return { file, ...(webhook === 'none' ? {} : { webhook: webhook === null ? null : hook }) };
  });

type Mutation = (s: TenantState, d: Desired, pick: number) => TenantState | undefined;

const lastOf = (s: TenantState, host: string) => s.targets.findLastIndex((t) => t.host === host);
const listed = (d: Desired) => d.file.targets?.list ?? [];
const other = <T>(values: readonly T[], now: T, pick: number) =>
  values.filter((v) => v !== now)[pick % (values.length - 1)] as T;
const withTarget = (s: TenantState, index: number, patch: Partial<CurrentTarget>) => ({
  ...s,
  targets: s.targets.map((t, i) => (i === index ? { ...t, ...patch } : t)),
});
const flip = (s: TenantState, flag: (typeof NOTIFICATION_FLAGS)[number]) => ({
  ...s,
  notifications: { ...s.notifications, [flag]: !s.notifications[flag] },
});

/** Changes to what the changes depend on: each must make the plan stale. */
const DEPENDED: Record<string, Mutation> = {
  'a managed flag': (s, d, pick) => {
    const managed = NOTIFICATION_FLAGS.filter((f) => d.file.flags[f] !== undefined);
    return managed.length ? flip(s, managed[pick % managed.length] ?? 'emailOnFail') : undefined;
  },
  'the managed webhook': (s, d, pick) =>
    d.file.webhook === undefined
      ? undefined
      : {
          ...s,
          notifications: {
            ...s.notifications,
            teamsWebhookUrl: other(HOOKS, s.notifications.teamsWebhookUrl, pick),
          },
        },
  "a listed target's presence": (s, d, pick) => {
    const want = listed(d)[pick % Math.max(1, listed(d).length)];
    if (!want) return undefined;
    const present = s.targets.some((t) => t.host === want.host);
    return {
      ...s,
      targets: present
        ? s.targets.filter((t) => t.host !== want.host)
        : [...s.targets, { id: 'new', host: want.host, label: null }],
    };
  },
  "a listed target's managed label, state or id": (s, d, pick) => {
    const want = listed(d).filter((t) => t.label !== undefined || t.verify)[pick % 3];
    const index = want ? lastOf(s, want.host) : -1;
    const have = s.targets[index];
    if (!want || !have) return undefined;
    if (pick % 2 === 0) return withTarget(s, index, { id: `${have.id}-again` });
    if (want.label !== undefined)
      return withTarget(s, index, { label: other(LABELS, have.label, pick) });
    const next = other([true, false, undefined], have.verified, pick);
    const { verified: _v, ...rest } = have;
    return {
      ...s,
      targets: s.targets.map((t, i) =>
        i === index ? { ...rest, ...(next === undefined ? {} : { verified: next }) } : t,
      ),
    };
  },
  'a target prune would remove': (s, d, pick) => {
    if (!d.file.targets?.prune) return undefined;
    const names = new Set(listed(d).map((t) => t.host));
    const unlisted = s.targets.findIndex((t) => !names.has(t.host));
    if (pick % 2 === 0 || unlisted < 0) {
      return {
        ...s,
        targets: [
          ...s.targets,
          { id: 'late', host: 'added-after-review.example.com', label: null },
        ],
      };
    }
    return { ...s, targets: s.targets.filter((_, i) => i !== unlisted) };
  },
};

/** Changes to what the changes do not depend on: none may make the plan stale. */
const FREE: Record<string, Mutation> = {
  'an unmanaged flag': (s, d, pick) => {
    const free = NOTIFICATION_FLAGS.filter((f) => d.file.flags[f] === undefined);
    return free.length ? flip(s, free[pick % free.length] ?? 'emailOnFail') : undefined;
  },
  'the unmanaged webhook': (s, d, pick) =>
    d.file.webhook !== undefined
      ? undefined
      : {
          ...s,
          notifications: {
            ...s.notifications,
            teamsWebhookUrl: other(HOOKS, s.notifications.teamsWebhookUrl, pick),
          },
        },
  'keys and scans': (s) => ({
    ...s,
    keys: [
      {
        id: 'k',
        name: 'k',
        keyPrefix: 'ak_live_ab...yz',
        msTenantId: null,
        createdAt: '2026-01-01T00:00:00Z',
        lastUsedAt: null,
        raw: {},
      },
    ],
  }),
  'an unmanaged label or state of a listed target': (s, d, pick) => {
    const want = listed(d)[pick % Math.max(1, listed(d).length)];
    const index = want ? lastOf(s, want.host) : -1;
    const have = s.targets[index];
    if (!want || !have) return undefined;
    if (want.label === undefined && pick % 2 === 0)
      return withTarget(s, index, { label: other(LABELS, have.label, pick) });
    if (!want.verify) return withTarget(s, index, { verified: !(have.verified ?? false) });
    return undefined;
  },
  'a target the file does not manage': (s, d, pick) => {
    const names = new Set(listed(d).map((t) => t.host));
    const unlisted = s.targets.findIndex((t) => !names.has(t.host));
    if (d.file.targets?.prune) {
      // prune removes it by id, whatever its label
      return unlisted < 0
        ? undefined
        : withTarget(s, unlisted, {
            label: other(LABELS, s.targets[unlisted]?.label ?? null, pick),
          });
    }
    return {
      ...s,
      targets: [...s.targets, { id: 'late', host: 'added-after-review.example.com', label: null }],
    };
  },
};

function attempt(saved: ReturnType<typeof makeSavedPlan>, at: TenantState, d: Desired) {
  const plan = planTenant(at, d, NOW);
  const view = {
    path: 'tenant.yml',
    fileSha256: 'f'.repeat(64),
    desired: d,
    state: at,
    identity: IDENTITY,
    plan,
  };
  try {
    return { applied: changesToApply(saved, view), fresh: plan.changes };
  } catch (error) {
    if (error instanceof PlanRefused) return { refused: error.message };
    throw error;
  }
}

function save(s: TenantState, d: Desired) {
  const plan = planTenant(s, d, NOW);
  return makeSavedPlan({
    plan,
    state: s,
    desired: d,
    fileSha256: 'f'.repeat(64),
    identity: IDENTITY,
    nowMs: NOW,
  });
}

const sorted = (changes: unknown[]) => changes.map((c) => JSON.stringify(c)).sort();

describe('the saved plan against the tenant as it is now (property)', () => {
  it('a change to a part the changes depend on refuses the plan, naming it', () => {
    const mutation = fc.constantFrom(...Object.entries(DEPENDED));
    fc.assert(
      fc.property(state, desired, mutation, fc.nat(11), (s, d, [name, mutate], pick) => {
        const later = mutate(s, d, pick);
        fc.pre(later !== undefined);
        const outcome = attempt(save(s, d), later as TenantState, d);
        assert.ok('refused' in outcome, `${name}: applied`);
        assert.match(
          outcome.refused ?? '',
          /^(notifications|targets): .+ since the plan of 2026-05-01T10:00:00\.000Z; plan again$/,
        );
      }),
      propertyParameters(300),
    );
  });

  it('a change to a part they do not depend on is no reason to refuse it', () => {
    const mutation = fc.constantFrom(...Object.entries(FREE));
    fc.assert(
      fc.property(state, desired, mutation, fc.nat(11), (s, d, [name, mutate], pick) => {
        const later = mutate(s, d, pick);
        fc.pre(later !== undefined);
        const outcome = attempt(save(s, d), later as TenantState, d);
        assert.ok(
          !('refused' in outcome),
          `${name}: ${'refused' in outcome ? outcome.refused : ''}`,
        );
      }),
      propertyParameters(300),
    );
  });

  it("whenever a plan is applied, its changes are exactly a fresh plan's", () => {
    fc.assert(
      fc.property(state, state, desired, (then, now, d) => {
        const saved = save(then, d);
        const outcome = attempt(saved, now, d);
        if ('refused' in outcome) return;
        assert.deepEqual(
          sorted(outcome.applied.map((c) => toSaved(c, d.file))),
          sorted(outcome.fresh.map((c) => toSaved(c, d.file))),
        );
        assert.deepEqual(sorted(outcome.applied), sorted(outcome.fresh));
        // and they are the saved ones, whole again
        assert.deepEqual(
          sorted(saved.changes),
          sorted(outcome.fresh.map((c) => toSaved(c, d.file))),
        );
      }),
      propertyParameters(500),
    );
  });
});
