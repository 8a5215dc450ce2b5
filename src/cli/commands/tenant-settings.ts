// tenant plan | tenant apply: the tenant's settings as code (.tenant-scan/tenant.yml), docs/tenant-settings.md.

import type { TenantClient } from '../../client/types.js';
import { SettingsError } from '../../pipeline/settings.js';
import { applyChanges, type Applied } from '../../pipeline/tenant-settings/apply.js';
import {
  PLAN_FAIL_ON,
  planDocument,
  planFails,
  unfinished,
  type PlanDocument,
  type PlanFailOn,
} from '../../pipeline/tenant-settings/document.js';
import {
  DEFAULT_TENANT_FILE,
  desiredWebhook,
  type TenantFile,
} from '../../pipeline/tenant-settings/file.js';
import { loadTenantFile } from '../../pipeline/tenant-settings/load.js';
import { planTenant, type Desired, type Plan } from '../../pipeline/tenant-settings/plan.js';
import { readTenant } from '../../pipeline/tenant-settings/read.js';
import { planText } from '../../formats/tenant-plan.js';
import {
  stringOption,
  type CommandContext,
  type CommandOutput,
  type CommandSpec,
  type ParsedInput,
} from '../command.js';
import { EXIT_ERROR, EXIT_FINDINGS, EXIT_OK } from '../errors.js';

const EXIT_CODES =
  'Exit codes: 0 nothing to report, 2 drift or a hygiene problem (as --fail-on says), 1 an error.';

function failOnOf(input: ParsedInput, fallback: PlanFailOn): PlanFailOn {
  const raw = stringOption(input, 'fail-on')?.trim().toLowerCase();
  if (raw === undefined) return fallback;
  if (!(PLAN_FAIL_ON as readonly string[]).includes(raw)) {
    throw new SettingsError([
      `--fail-on must be one of ${PLAN_FAIL_ON.join(', ')} for tenant plan and apply`,
    ]);
  }
  return raw as PlanFailOn;
}

interface Prepared {
  file: TenantFile;
  desired: Desired;
  failOn: PlanFailOn;
  secrets: string[];
}

/** Everything from the command line, the file and the environment, before any request. */
async function prepare(
  ctx: CommandContext,
  input: ParsedInput,
  fallback: PlanFailOn,
): Promise<Prepared> {
  const failOn = failOnOf(input, fallback);
  const file = await loadTenantFile(stringOption(input, 'file') ?? DEFAULT_TENANT_FILE);
  const webhook = desiredWebhook(file, ctx.io.env);
  return {
    file,
    failOn,
    desired: { file, ...(webhook !== undefined ? { webhook } : {}) },
    secrets: webhook ? [webhook] : [],
  };
}

async function planOnce(
  ctx: CommandContext,
  input: ParsedInput,
  desired: Desired,
): Promise<{ plan: Plan; tenant: string | null; now: number }> {
  const client: TenantClient = ctx.client();
  const o = { signal: ctx.signal };
  const label = stringOption(input, 'tenant-label');
  const [state, me] = await Promise.all([
    readTenant(client, ctx.signal),
    label === undefined ? client.tenants.me(o) : Promise.resolve({ name: label }),
  ]);
  const now = Date.now();
  const tenant = typeof me.name === 'string' ? me.name : null;
  return { plan: planTenant(state, desired, now), tenant, now };
}

function output(doc: PlanDocument, exitCode: number): CommandOutput {
  return { json: doc, text: planText(doc), exitCode };
}

const plan: CommandSpec = {
  path: ['tenant', 'plan'],
  summary: 'Compare the tenant with .tenant-scan/tenant.yml: drift and hygiene problems',
  options: ['file', 'fail-on', 'tenant-label'],
  details: [
    'Reads notifications, API keys, attack-surface targets and scans; changes nothing.',
    'Problem codes: key-unused, key-old, keys-near-cap, failures-notify-nobody, webhook-missing,',
    'webhook-retired, scan-stale, target-unverified. A webhook address is shown by its host only.',
    EXIT_CODES,
  ].join('\n'),
  async run(ctx, input) {
    const { desired, failOn } = await prepare(ctx, input, 'any');
    const { plan: result, tenant, now } = await planOnce(ctx, input, desired);
    const doc = planDocument(result, tenant, now);
    return output(doc, planFails(doc, failOn) ? EXIT_FINDINGS : EXIT_OK);
  },
};

const apply: CommandSpec = {
  path: ['tenant', 'apply'],
  summary: 'Make the tenant match .tenant-scan/tenant.yml, then plan again',
  options: ['file', 'fail-on', 'tenant-label'],
  details: [
    'One PATCH of only the notification fields that differ; targets added, relabelled, verified',
    'when asked, removed only with prune. Never creates or deletes API keys.',
    'Exit codes: 1 when a write failed, may or may not have happened, or was not attempted;',
    'else 2 when the plan after it fails --fail-on (default drift), else 0.',
  ].join('\n'),
  async run(ctx, input) {
    const prepared = await prepare(ctx, input, 'drift');
    const before = await planOnce(ctx, input, prepared.desired);
    const applied: Applied[] =
      before.plan.changes.length === 0
        ? []
        : await applyChanges(ctx.client(), before.plan.changes, {
            signal: ctx.signal,
            secrets: prepared.secrets,
          });
    for (const a of unfinished(applied))
      ctx.note(`tenant apply: ${a.outcome}: ${a.change}: ${a.detail ?? ''}`);
    const after = await planOnce(ctx, input, prepared.desired);
    const doc = planDocument(after.plan, after.tenant, after.now, applied);
    const broken = applied.some((a) => a.outcome !== 'done' && a.outcome !== 'refused');
    const code = broken ? EXIT_ERROR : planFails(doc, prepared.failOn) ? EXIT_FINDINGS : EXIT_OK;
    return output(doc, code);
  },
};

export const TENANT_SETTINGS_COMMANDS: CommandSpec[] = [plan, apply];
