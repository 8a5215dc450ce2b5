// rollup <records…> [--expect a,b] [--markdown FILE] [--fail-on-findings] [--max-failed-tenants N]
// Many tenants' run records (scan run --record, the Action's record-file) → one table, one JSON
// document, optionally Markdown, and one verdict. Reads local files only: nothing is sent.

import { rollupMarkdown } from '../../render/rollup-markdown.js';
import {
  SettingsProblems,
  parseInteger,
  rollUpFiles,
  parseList,
  writeFileAtomic,
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
import { EXIT_FINDINGS, EXIT_OK, findingsGateLine } from '../errors.js';
import { checkOutputFiles } from '../output-files.js';
import { record, table } from '../render.js';

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
  problems.throwIfAny();
  const markdownFile = stringOption(input, 'markdown');
  const expect = stringOption(input, 'expect');
  await checkOutputFiles([['--markdown', markdownFile]]);
  const rollup = await rollUpFiles(input.rest, process.cwd(), {
    expect: expect === undefined ? undefined : parseList(expect),
    maxFailedTenants,
  });
  if (markdownFile !== undefined) {
    const path = await writeFileAtomic(markdownFile, rollupMarkdown(rollup));
    ctx.note(`Markdown written to ${path}`);
  }
  const gated =
    input.values['fail-on-findings'] === true || input.values['max-failed-tenants'] !== undefined;
  const failed = rollup.verdict === 'failed';
  if (failed && gated) ctx.note(findingsGateLine(rollup.reason));
  if (failed && !gated) {
    ctx.note(
      `note: the roll-up failed: ${rollup.reason}; the gate is off, so the exit code is 0: add --fail-on-findings to exit 2 when it fails`,
    );
  }
  const exitCode = failed && gated ? EXIT_FINDINGS : EXIT_OK;
  return { json: { version: 1, ...rollup, exitCode }, text: rollupText(rollup), exitCode };
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
  return `${head}\n${tenants}\n${checks}`;
}

export const ROLLUP: CommandSpec = {
  path: ['rollup'],
  summary: "Roll up many tenants' run records into one table and one verdict",
  rest: 'record files or globs',
  offline: true,
  options: ['expect', 'markdown', 'fail-on-findings', 'max-failed-tenants'],
  optionHelp: {
    'fail-on-findings':
      'Exit with code 2 when the roll-up fails (--max-failed-tenants turns it on too)',
  },
  details: [
    'Reads run records (scan run --record FILE, the Action\'s record-file), e.g. "records/*.json"',
    '(quoted globs are expanded by tenant-scan). A tenant whose record is missing, unreadable or',
    'without a verdict is listed with why and counts as failed. Nothing is sent: no API key needed.',
    'Exit codes: 0 done; 1 an error; 2 the roll-up failed (more tenants failed than',
    '--max-failed-tenants, default 0) and the gate is on (--fail-on-findings or --max-failed-tenants);',
    'a failed roll-up with the gate off exits 0 and says so in a note.',
    '',
    'A roll-up after a matrix of tenants:',
    '  tenant-scan rollup "records/*.json" --expect contoso,fabrikam --fail-on-findings \\',
    '    --markdown rollup.md',
  ].join('\n'),
  run: runRollup,
};
