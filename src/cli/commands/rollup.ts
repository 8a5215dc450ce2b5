// rollup <records…> [--expect a,b] [--markdown FILE] [--fail-on-findings] [--max-failed-tenants N]
// Many tenants' run records (scan run --record, the Action's record-file) → one table, one JSON
// document, optionally Markdown, and one verdict. Reads local files only: nothing is sent to the
// service; with TENANT_SCAN_NOTIFY_WEBHOOK set, one chat message for the fleet (--notify-on).

import { PLAN_FAIL_ON, parsePlanFailOn } from '../../pipeline/tenant-settings/document.js';
import { renderNotification } from '../../render/notify.js';
import { coverageCell, rollupMarkdown } from '../../render/rollup-markdown.js';
import {
  SettingsProblems,
  parseInteger,
  rollUpWithExports,
  parseList,
  readSettings,
  ROLLUP_SETTINGS,
  notifyRollup,
  redactingLog,
  writeFileAtomic,
  type NotifySettings,
  type CodeRow,
  type PlanRollup,
  type PlanRow,
  type Rollup,
  type TenantRow,
} from '../../pipeline/index.js';
import {
  stringOption,
  type CommandContext,
  type CommandOutput,
  type CommandSpec,
  type ParsedInput,
} from '../command.js';
import { EXIT_FINDINGS, EXIT_OK, findingsGateLine, listWords } from '../errors.js';
import type { OptionName } from '../options.js';
import { notifySettingsOf } from '../notify.js';
import { flagSource } from '../flag-table.js';
import { gateIsOn } from '../gate-options.js';
import { lineLog } from '../line-log.js';
import { fleetOutputFiles } from '../output-files.js';
import { record, table } from '../render.js';
import { noteExports } from '../result-files.js';

/** Flags that turn the roll-up's gate on (exit 2 when it fails) as --fail-on-findings does: each
 *  sets a bound the user expects to be held. The help text is written from this list. */
export const ROLLUP_GATE_ON_OPTIONS: OptionName[] = ['max-failed-tenants', 'max-age', 'fail-on'];

const gateOnFlags = (conjunction: 'and' | 'or') =>
  listWords(
    ROLLUP_GATE_ON_OPTIONS.map((name) => `--${name}`),
    conjunction,
  );

async function runRollup(ctx: CommandContext, input: ParsedInput): Promise<CommandOutput> {
  const problems = new SettingsProblems();
  const maxFailedTenants = problems.check(
    () =>
      parseInteger('--max-failed-tenants', stringOption(input, 'max-failed-tenants'), 0, {
        min: 0,
        max: 100_000,
      }),
    0,
  );
  const { maxAgeMs } = readSettings(ROLLUP_SETTINGS, flagSource(input, problems), problems);
  problems.throwIfAny();
  const htmlFile = stringOption(input, 'html');
  const expect = stringOption(input, 'expect');
  const { markdownFile, exportPaths } = await fleetOutputFiles(input, htmlFile);
  const planFailOn = problems.check(
    () => parsePlanFailOn('--fail-on', stringOption(input, 'fail-on'), 'any'),
    'any',
  );
  const notify = notifySettingsOf(ctx, input, problems);
  problems.throwIfAny();
  const html = htmlFile === undefined ? undefined : await import('../../render/html/write.js');
  const findings = html ? new html.FleetFindings() : undefined;
  const settings = {
    expect: expect === undefined ? undefined : parseList(expect),
    maxFailedTenants,
    planFailOn,
    maxAgeMs,
  };
  const { rollup, written } = await rollUpWithExports(
    input.rest,
    process.cwd(),
    settings,
    exportPaths,
    findings?.observe,
  );
  noteExports(ctx, written);
  if (markdownFile !== undefined) {
    const path = await writeFileAtomic(markdownFile, rollupMarkdown(rollup));
    ctx.note(`Markdown written to ${path}`);
  }
  if (html && findings && htmlFile !== undefined) {
    const path = await html.writeFleetPage(htmlFile, rollup, findings);
    ctx.note(`HTML report written to ${path}`);
  }
  if (notify) await notifyFleet(ctx, notify, rollup);
  const gated = gateIsOn(input, ROLLUP_GATE_ON_OPTIONS);
  const failed = rollup.verdict === 'failed';
  if (failed && gated) ctx.note(findingsGateLine(rollup.reason));
  if (failed && !gated) {
    ctx.note(
      `note: the roll-up failed: ${rollup.reason}; the gate is off, so the exit code is 0: add --fail-on-findings to exit 2 when it fails`,
    );
  }
  const exitCode = failed && gated ? EXIT_FINDINGS : EXIT_OK;
  return { json: { version: 1, ...rollup, exitCode }, text: () => rollupText(rollup), exitCode };
}

/** One message for the fleet when tenants changed (--notify-on): one stderr line whatever happens. */
async function notifyFleet(ctx: CommandContext, notify: NotifySettings, rollup: Rollup) {
  await notifyRollup(notify, rollup, {
    links: {},
    render: renderNotification,
    log: redactingLog(
      lineLog((line) => ctx.note(line)),
      [notify.webhook],
    ),
    delivery: { env: ctx.io.env, signal: ctx.signal },
  });
}

export function rollupText(rollup: Rollup): string {
  const head = record([
    ['verdict', `${rollup.verdict}: ${rollup.reason}`],
    ['tenants', rollup.totalTenants],
  ]);
  const tenants = table<TenantRow>(rollup.tenants, [
    { header: 'tenant', value: (row) => row.tenant, max: 40 },
    { header: 'verdict', value: (row) => row.verdict },
    { header: 'gating', value: (row) => row.gating },
    { header: 'failed', value: (row) => row.failed },
    { header: 'new', value: (row) => row.new },
    { header: 'overdue', value: (row) => row.overdue },
    { header: 'not evaluated', value: (row) => row.notEvaluated },
    { header: 'coverage', value: (row) => (row.coverage ? coverageCell(row) : undefined) },
    { header: 'worst', value: (row) => row.worst },
    { header: 'note', value: (row) => row.problem, max: 80 },
  ]);
  const checks = table(
    rollup.checks,
    [
      { header: 'check', value: (row) => row.check, max: 24 },
      { header: 'fails in', value: (row) => `${row.failingTenants} of ${rollup.judgedTenants}` },
      { header: 'severity', value: (row) => row.severity },
      { header: 'title', value: (row) => row.title, max: 70 },
    ],
    '(no check fails in any tenant)',
  );
  return `${head}\n${tenants}\n${checks}${rollup.plans ? `\n${plansText(rollup.plans)}` : ''}`;
}

function plansText(plans: PlanRollup): string {
  const tenants = table<PlanRow>(plans.tenants, [
    { header: 'tenant', value: (row) => row.tenant, max: 40 },
    { header: 'plan', value: (row) => row.verdict },
    { header: 'drift', value: (row) => row.drift },
    { header: 'problems', value: (row) => row.problems },
    { header: 'codes', value: (row) => row.codes.join(', '), max: 60 },
    { header: 'checked', value: (row) => row.checkedAt },
    { header: 'note', value: (row) => row.problem, max: 80 },
  ]);
  const codes = table<CodeRow>(
    plans.codes,
    [
      { header: 'code', value: (row) => row.code, max: 24 },
      { header: 'tenants', value: (row) => row.tenants.length },
      { header: 'which', value: (row) => row.tenants.join(', '), max: 100 },
    ],
    '(no drift and no hygiene problem in any plan)',
  );
  return `${tenants}\n${codes}`;
}

export const ROLLUP: CommandSpec = {
  path: ['rollup'],
  summary: "Roll up many tenants' run records into one table and one verdict",
  rest: 'record or plan files or globs',
  offline: true,
  options: [
    'expect',
    'markdown',
    'html',
    'csv',
    'ocsf',
    'fail-on-findings',
    'max-failed-tenants',
    'max-age',
    'fail-on',
    'notify-format',
    'notify-on',
  ],
  optionValue: { 'fail-on': `<${PLAN_FAIL_ON.join('|')}>` },
  optionHelp: {
    'fail-on-findings': `Exit with code 2 when the roll-up fails (${gateOnFlags('and')} turn it on too)`,
    'fail-on':
      "What fails a tenant's plan: drift, problems, any (default) or none; turns the gate on",
    'notify-on':
      'When to post to TENANT_SCAN_NOTIFY_WEBHOOK: change (default: a tenant with new or fixed failing findings), new, failure or always',
  },
  details: [
    'Reads run records (scan run --record FILE, the Action\'s record-file), e.g. "records/*.json"',
    '(quoted globs are expanded by tenant-scan). A tenant whose record is missing, unreadable or',
    'without a verdict is listed with why and counts as failed; with --max-age 36h (7d, 90m), so is',
    'one whose record or plan is older (stale: a scheduled job that stopped writing new ones).',
    'Nothing is sent to the service: no API key needed. With TENANT_SCAN_NOTIFY_WEBHOOK set, one',
    'chat message for the fleet when a tenant changed (--notify-on; the tenant runs need a baseline',
    'to count new and fixed findings).',
    "Tenant plans (tenant plan --record FILE, the settings sub-action's plan-file) are read beside",
    'them: a table of plans and one of the tenants per code (drift, key-unused, scan-stale…); a',
    'tenant whose plan has drift or a problem (--fail-on drift|problems|any|none, default any), or',
    'whose apply left a change unfinished, fails; with --expect, one without a plan is missing.',
    'Exit codes: 0 done; 1 an error; 2 the roll-up failed (more tenants failed than',
    '--max-failed-tenants, default 0) and the gate is on: --fail-on-findings or any of',
    `${gateOnFlags('or')}. With the gate off, a failed roll-up`,
    'exits 0 and a note says so.',
    '',
    'A roll-up after a matrix of tenants (--html: one page of every tenant and its findings):',
    '  tenant-scan rollup "records/*.json" --expect contoso,fabrikam --fail-on-findings \\',
    '    --markdown rollup.md --html rollup.html',
    'The nightly plans of a fleet:',
    '  tenant-scan rollup "plans/*.json" --expect contoso,fabrikam --fail-on-findings --max-age 36h',
  ].join('\n'),
  run: runRollup,
};
