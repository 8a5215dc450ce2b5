// A saved plan (`tenant plan --out`, the settings sub-action's artifact): the changes a plan
// computed, and what an apply needs to prove they are still the ones to make — the settings
// file's SHA-256, the digests of the tenant's parts they depend on (basis.ts), the webhook address
// by its variable's name and a digest. It holds no secret: digests are HMAC-SHA256 keyed with a
// random salt of the plan, so the same address looks different in every plan.

import { Ajv, type ValidateFunction } from 'ajv';
import { randomBytes } from 'node:crypto';
import { open } from 'node:fs/promises';
import type { NotificationSettings } from '../../client/index.js';
import type { TenantIdentity } from './document.js';
import { basisDigests, planBasis, valueDigest } from './basis.js';
import type { TenantFile } from './file.js';
import type { Change, Desired, Plan, TenantState } from './plan.js';
export const SAVED_PLAN_KIND = 'tenant-scan-plan';
export const SAVED_PLAN_VERSION = 1;
/** Far above a real plan (500 targets, thousands of unlisted ones): a bigger file is not one. */
export const MAX_SAVED_PLAN_BYTES = 8 * 1024 * 1024;

/** The notification patch as saved: the webhook address by its variable's name. */
export type SavedPatch = Omit<Partial<NotificationSettings>, 'teamsWebhookUrl'> & {
  teamsWebhookUrl?: { env: string } | null;
};

export type SavedChange =
  { kind: 'notifications'; patch: SavedPatch } | Exclude<Change, { kind: 'notifications' }>;

export interface SavedPlan {
  kind: typeof SAVED_PLAN_KIND;
  version: number;
  /** When the tenant was read. */
  createdAt: string;
  tenant: string | null;
  tenantId: string | null;
  /** The settings file's SHA-256, of its bytes. */
  file: { sha256: string };
  /** The key of every digest of this plan (16 random bytes, base64url). */
  salt: string;
  /** When the file names a variable for the webhook: its name and the digest of the address. */
  webhook?: { env: string; digest: string };
  /** The tenant's parts the changes depend on: each one's digest, and one of them all. */
  state: { digest: string; parts: Record<string, string> };
  changes: SavedChange[];
}

export interface SavedPlanInput {
  plan: Plan;
  state: TenantState;
  desired: Desired;
  fileSha256: string;
  identity: TenantIdentity;
  nowMs: number;
}

export function makeSavedPlan(input: SavedPlanInput): SavedPlan {
  const { desired, identity } = input;
  const salt = randomBytes(16).toString('base64url');
  const file = desired.file;
  const webhook =
    file.webhook && typeof desired.webhook === 'string'
      ? { env: file.webhook.env, digest: valueDigest(salt, desired.webhook) }
      : undefined;
  return {
    kind: SAVED_PLAN_KIND,
    version: SAVED_PLAN_VERSION,
    createdAt: new Date(input.nowMs).toISOString(),
    tenant: identity.tenant,
    tenantId: identity.tenantId,
    file: { sha256: input.fileSha256 },
    salt,
    ...(webhook ? { webhook } : {}),
    state: basisDigests(planBasis(input.state, file), salt),
    changes: input.plan.changes.map((change) => toSaved(change, file)),
  };
}

/** A change as saved: the webhook address replaced by its variable's name. */
export function toSaved(change: Change, file: TenantFile): SavedChange {
  if (change.kind !== 'notifications') return change;
  const { teamsWebhookUrl, ...flags } = change.patch;
  if (teamsWebhookUrl === undefined) return { kind: 'notifications', patch: flags };
  const env = file.webhook ? file.webhook.env : '';
  return {
    kind: 'notifications',
    patch: { ...flags, teamsWebhookUrl: teamsWebhookUrl === null ? null : { env } },
  };
}

/** A saved change made whole again, with the address its variable holds now (checked against the
 *  plan's digest before: plan-check.ts). */
export function fromSaved(change: SavedChange, webhook: string | null | undefined): Change {
  if (change.kind !== 'notifications') return change;
  const { teamsWebhookUrl, ...flags } = change.patch;
  if (teamsWebhookUrl === undefined) return { kind: 'notifications', patch: flags };
  return {
    kind: 'notifications',
    patch: { ...flags, teamsWebhookUrl: teamsWebhookUrl === null ? null : (webhook ?? null) },
  };
}

export function savedPlanText(plan: SavedPlan): string {
  return `${JSON.stringify(plan, null, 2)}\n`;
}

/** The saved plan in a file, read whole (bounded) and checked: one line when it is not one. */
export async function readSavedPlan(path: string): Promise<SavedPlan> {
  let text: string;
  try {
    const handle = await open(path, 'r');
    try {
      const buffer = Buffer.alloc(MAX_SAVED_PLAN_BYTES + 1);
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
      if (bytesRead > MAX_SAVED_PLAN_BYTES) {
        throw new PlanFileError(
          `${path} is larger than 8 MiB: it is not a tenant-scan plan (tenant plan --out writes one)`,
        );
      }
      text = buffer.subarray(0, bytesRead).toString('utf8');
    } finally {
      await handle.close();
    }
  } catch (error) {
    if (error instanceof PlanFileError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'a directory' : code;
    throw new PlanFileError(
      `cannot read the plan ${path} (${why ?? String(error)}): make it with tenant plan --out`,
    );
  }
  return parseSavedPlan(text, path);
}

/** A plan file that cannot be applied, as it is: one line (not ours, unreadable, too big). */
export class PlanFileError extends Error {
  override name = 'PlanFileError';
}

const SHA256_HEX = { type: 'string', pattern: '^[0-9a-f]{64}$' } as const;
const TEXT = { type: 'string', maxLength: 2000 } as const;
const TARGET_CHANGE = (kind: string, extra: Record<string, object> = {}) => ({
  type: 'object',
  additionalProperties: false,
  required: ['kind', 'id', 'host', ...Object.keys(extra)],
  properties: { kind: { const: kind }, id: TEXT, host: TEXT, ...extra },
});

const SAVED_PLAN_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: [
    'kind',
    'version',
    'createdAt',
    'tenant',
    'tenantId',
    'file',
    'salt',
    'state',
    'changes',
  ],
  properties: {
    kind: { const: SAVED_PLAN_KIND },
    version: { const: SAVED_PLAN_VERSION },
    createdAt: { type: 'string', maxLength: 40 },
    tenant: { type: ['string', 'null'], maxLength: 2000 },
    tenantId: { type: ['string', 'null'], maxLength: 2000 },
    file: {
      type: 'object',
      additionalProperties: false,
      required: ['sha256'],
      properties: { sha256: SHA256_HEX },
    },
    salt: { type: 'string', pattern: '^[A-Za-z0-9_-]{22}$' },
    webhook: {
      type: 'object',
      additionalProperties: false,
      required: ['env', 'digest'],
      properties: {
        env: { type: 'string', pattern: '^[A-Za-z_][A-Za-z0-9_]{0,199}$' },
        digest: SHA256_HEX,
      },
    },
    state: {
      type: 'object',
      additionalProperties: false,
      required: ['digest', 'parts'],
      properties: {
        digest: SHA256_HEX,
        parts: { type: 'object', additionalProperties: SHA256_HEX, propertyNames: TEXT },
      },
    },
    changes: {
      type: 'array',
      maxItems: 100_000,
      items: {
        oneOf: [
          {
            type: 'object',
            additionalProperties: false,
            required: ['kind', 'patch'],
            properties: {
              kind: { const: 'notifications' },
              patch: {
                type: 'object',
                additionalProperties: false,
                properties: {
                  emailOnComplete: { type: 'boolean' },
                  emailOnFail: { type: 'boolean' },
                  teamsOnComplete: { type: 'boolean' },
                  teamsOnFail: { type: 'boolean' },
                  teamsWebhookUrl: {
                    oneOf: [
                      { type: 'null' },
                      {
                        type: 'object',
                        additionalProperties: false,
                        required: ['env'],
                        properties: {
                          env: { type: 'string', pattern: '^[A-Za-z_][A-Za-z0-9_]*$' },
                        },
                      },
                    ],
                  },
                },
              },
            },
          },
          {
            type: 'object',
            additionalProperties: false,
            required: ['kind', 'target'],
            properties: {
              kind: { const: 'add-target' },
              target: {
                type: 'object',
                additionalProperties: false,
                required: ['host', 'verify'],
                properties: { host: TEXT, label: TEXT, verify: { type: 'boolean' } },
              },
            },
          },
          TARGET_CHANGE('relabel-target', { label: TEXT }),
          TARGET_CHANGE('verify-target'),
          TARGET_CHANGE('remove-target'),
        ],
      },
    },
  },
} as const;

let validator: ValidateFunction | undefined;

/** The saved plan a text holds; a PlanFileError naming `name` when it holds none. */
export function parseSavedPlan(text: string, name: string): SavedPlan {
  const notOurs = `${name} is not a tenant-scan plan (tenant plan --out writes one)`;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new PlanFileError(`${notOurs}: it is not JSON`);
  }
  const record =
    value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : {};
  if (record.kind !== SAVED_PLAN_KIND) throw new PlanFileError(notOurs);
  const version = record.version;
  if (typeof version === 'number' && version > SAVED_PLAN_VERSION) {
    throw new PlanFileError(
      `${name} is a plan of format version ${version}, newer than this tenant-scan reads (${SAVED_PLAN_VERSION}): apply it with the tenant-scan that made it, or plan again`,
    );
  }
  validator ??= new Ajv({ allErrors: false, strict: true }).compile(SAVED_PLAN_SCHEMA);
  if (!validator(value) || !Number.isFinite(Date.parse(String(record.createdAt)))) {
    const where = validator.errors?.[0]?.instancePath || '/createdAt';
    throw new PlanFileError(
      `${name} is not a whole tenant-scan plan (${where.slice(0, 80)} is not as tenant plan --out writes it): plan again`,
    );
  }
  return value as SavedPlan;
}
