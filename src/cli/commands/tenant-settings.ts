// tenant plan | tenant apply: the tenant's settings as code (.tenant-scan/tenant.yml), docs/tenant-settings.md.

import { writeFileAtomic } from '../../pipeline/common/files.js';
import { SettingProblem, SettingsError } from '../../pipeline/common/settings-problems.js';
import {
  PLAN_FAIL_ON,
  parsePlanFailOn,
  planFails,
  unfinished,
  type PlanFailOn,
} from '../../pipeline/tenant-settings/document.js';
import { DEFAULT_TENANT_FILE } from '../../pipeline/tenant-settings/file.js';
import { applyBroken, prepareSettings, runSettings } from '../../pipeline/tenant-settings/run.js';
import { readSavedPlan, savedPlanText } from '../../pipeline/tenant-settings/saved-plan.js';
import { planText } from '../../render/tenant-plan.js';
import {
  stringOption,
  type CommandContext,
  type CommandOutput,
  type CommandSpec,
  type ParsedInput,
} from '../command.js';
import { EXIT_ERROR, EXIT_FINDINGS, EXIT_OK } from '../errors.js';
import { checkOutputFiles } from '../output-files.js';

function failOnOf(input: ParsedInput, fallback: PlanFailOn): PlanFailOn {
  try {
    return parsePlanFailOn('--fail-on', stringOption(input, 'fail-on'), fallback);
  } catch (error) {
    if (error instanceof SettingProblem)
      throw new SettingsError([`${error.message} for tenant plan and apply`]);
    throw error;
  }
}

async function settingsCommand(
  ctx: CommandContext,
  input: ParsedInput,
  apply: boolean,
): Promise<CommandOutput> {
  const failOn = failOnOf(input, apply ? 'drift' : 'any');
  const prepared = await prepareSettings(
    stringOption(input, 'file') ?? DEFAULT_TENANT_FILE,
    ctx.io.env,
    [ctx.settings.apiKey],
    '--file <path>',
  );
  const tenantLabel = stringOption(input, 'tenant-label');
  const recordFile = stringOption(input, 'record');
  const planFile = stringOption(input, 'plan');
  const outFile = stringOption(input, 'out');
  // Read before any request: a plan that is not one is one line and nothing sent.
  const saved = planFile !== undefined ? await readSavedPlan(planFile) : undefined;
  await checkOutputFiles([
    ['--record', recordFile],
    ['--out', outFile],
  ]);
  const { doc, saved: made } = await runSettings({
    client: ctx.client(),
    prepared,
    apply,
    signal: ctx.signal,
    ...(saved ? { saved } : {}),
    ...(tenantLabel !== undefined ? { tenantLabel } : {}),
  });
  if (recordFile !== undefined) {
    await writeFileAtomic(recordFile, `${JSON.stringify(doc, null, 2)}\n`);
  }
  if (outFile !== undefined) await writeFileAtomic(outFile, savedPlanText(made));
  for (const a of unfinished(doc.applied ?? [])) {
    ctx.note(`tenant apply: ${a.outcome}: ${a.change}: ${a.detail ?? ''}`);
  }
  const exitCode = applyBroken(doc) ? EXIT_ERROR : planFails(doc, failOn) ? EXIT_FINDINGS : EXIT_OK;
  return { json: doc, text: planText(doc), exitCode };
}

/** What --fail-on and --record mean for a plan (scan run's texts are about findings and records). */
function planOptionHelp(
  failOnDefault: PlanFailOn,
): Pick<CommandSpec, 'optionHelp' | 'optionValue'> {
  const words = PLAN_FAIL_ON.map((w) => (w === failOnDefault ? `${w} (default)` : w));
  return {
    optionValue: { 'fail-on': `<${PLAN_FAIL_ON.join('|')}>` },
    optionHelp: {
      'fail-on': `What exits 2: ${words.slice(0, -1).join(', ')} or ${words.at(-1)}`,
      record:
        'Also write the plan (what --output json prints) to this file: tenant-scan rollup reads it beside the run records',
      out: 'Save the plan to this file: tenant apply --plan FILE applies exactly its changes, or nothing',
    },
  };
}

const plan: CommandSpec = {
  path: ['tenant', 'plan'],
  summary: 'Compare the tenant with .tenant-scan/tenant.yml: drift and hygiene problems',
  options: ['file', 'fail-on', 'tenant-label', 'record', 'out'],
  ...planOptionHelp('any'),
  details: [
    'Reads notifications, API keys, attack-surface targets and scans; changes nothing.',
    '--out FILE saves the plan: tenant apply --plan FILE applies exactly its changes, or nothing',
    'when the tenant changed since in what they depend on (the line says what), or the file did.',
    'Problem codes: key-unused, key-old, keys-near-cap, failures-notify-nobody, webhook-missing,',
    'webhook-retired, webhook-unknown-host, scan-stale, target-unverified. A webhook address is shown',
    'by its host only; one that is not https, or names this machine, a cloud metadata service or an',
    'internal network, is refused before any request.',
    'Exit codes: 0 nothing to report, 2 drift or a hygiene problem (as --fail-on says, default any), 1 an error.',
    '--record FILE also writes the plan (what --output json prints): `tenant-scan rollup` reads',
    'the plans of many tenants beside their scan records (which drift, which have stale keys or scans).',
  ].join('\n'),
  run: (ctx, input) => settingsCommand(ctx, input, false),
};

const apply: CommandSpec = {
  path: ['tenant', 'apply'],
  summary: 'Make the tenant match .tenant-scan/tenant.yml, then plan again',
  options: ['file', 'fail-on', 'tenant-label', 'record', 'plan'],
  ...planOptionHelp('drift'),
  details: [
    '--plan FILE (tenant plan --out): exactly the changes reviewed, if the tenant and the file are',
    'as they were then; else nothing is sent and one line says what changed since. Without it: plan',
    'and apply at once.',
    'One PATCH of only the notification fields that differ; targets added, relabelled, verified',
    'when asked, removed only with prune. Never creates or deletes API keys.',
    'Exit codes: 1 when a write failed, may or may not have happened, or was not attempted;',
    'else 2 when the plan after it fails --fail-on (default drift), else 0.',
  ].join('\n'),
  run: (ctx, input) => settingsCommand(ctx, input, true),
};

export const TENANT_SETTINGS_COMMANDS: CommandSpec[] = [plan, apply];
