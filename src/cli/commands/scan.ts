// scan list | get | results | cancel | hide | unhide | delete (scan run lives in scan-run.ts)

import { keptFinding, TextPool } from '../../client/index.js';
import type { FindingView, Scan, TenantClient } from '../../client/index.js';
import {
  applyGate,
  countResults,
  decideVerdict,
  describeDeadline,
  gateFails,
  headline,
  isEvaluatedResult,
  isFailedResult,
  type ExportPaths,
  type GateOutcome,
  gateReason,
  parseResultsMaxMib,
  type FindingAge,
  readGateFiles,
  readScanResults,
  toJobError,
  SettingsProblems,
  worstFirst,
  type ReadFinding,
} from '../../pipeline/index.js';
import { GATE_OPTIONS, gateIsOn, gateSettingsOf, noteGateOff } from '../gate-options.js';
import {
  stringOption,
  type CommandContext,
  type CommandOutput,
  type CommandSpec,
  type ParsedInput,
} from '../command.js';
import { lineLog } from '../line-log.js';
import { checkOutputFiles } from '../output-files.js';
import { EXIT_FINDINGS, EXIT_OK, findingsGateLine } from '../errors.js';
import { cell, record, table } from '../render.js';
import {
  checkSarifLocationUse,
  noteExports,
  sarifLocationOf,
  writeResultFiles,
} from '../result-files.js';
import { findingJson, scanJson } from '../../pipeline/index.js';
import { done, oneCall } from './one-call.js';

export function scansTable(scans: Scan[]): string {
  return table<Scan>(scans, [
    { header: 'id', value: (s) => s.id },
    { header: 'type', value: (s) => s.scanType },
    { header: 'status', value: (s) => s.status },
    { header: 'progress', value: (s) => (s.progress === undefined ? undefined : `${s.progress}%`) },
    { header: 'failed', value: (s) => s.summary?.failed },
    { header: 'total', value: (s) => s.summary?.total },
    { header: 'created', value: (s) => s.createdAt },
  ]);
}

export function scanRecord(scan: Scan): string {
  return record([
    ['id', scan.id],
    ['type', scan.scanType],
    ['status', scan.status],
    ['progress', scan.progress === undefined ? undefined : `${scan.progress}%`],
    ['created', scan.createdAt],
    ['completed', scan.completedAt],
    ['total', scan.summary?.total],
    ['passed', scan.summary?.passed],
    ['failed', scan.summary?.failed],
    ['skipped', scan.summary?.skipped],
  ]);
}

type MarkedView = FindingView & { baselineState?: string; waiver?: unknown; age?: FindingAge };

export function findingsTable(findings: MarkedView[]): string {
  const marked = findings.some((f) => f.baselineState !== undefined || f.waiver !== undefined);
  const aged = findings.some((f) => f.age !== undefined);
  return table<MarkedView>(findings, [
    ...(marked
      ? [{ header: 'gate', value: (f: MarkedView) => (f.waiver ? 'waived' : f.baselineState) }]
      : []),
    ...(aged
      ? [
          {
            header: 'deadline',
            value: (f: MarkedView) => (f.age ? describeDeadline(f.age) : undefined),
          },
        ]
      : []),
    { header: 'severity', value: (f) => f.severity },
    { header: 'result', value: (f) => f.result },
    { header: 'check', value: (f) => f.identity, max: 24 },
    { header: 'title', value: (f) => f.title, max: 70 },
    { header: 'category', value: (f) => f.category, max: 24 },
  ]);
}

/** The failed findings as the gate ordered them, then the others worst first. */
function failedFirst(judged: FindingView[], others: ReadFinding[]): FindingView[] {
  return judged.concat(worstFirst(others));
}

/** The results as read, each kept as its view (text cut, equal texts shared) as its page comes. */
function readAllResults(
  client: TenantClient,
  id: string,
  options: { signal: AbortSignal; result?: string; maxBytes?: number },
): Promise<ReadFinding[]> {
  const pool = new TextPool();
  return client.scans.results<ReadFinding>(id, {
    ...options,
    keep: (raw) => keptFinding(raw, pool),
  });
}

/** What `scan results` lists: with the gate on, a read that agrees with the scan's own counts
 *  (results.ts: the gate judges nothing less); else every page, as the filter asks. */
async function resultsOf(
  ctx: CommandContext,
  id: string,
  scan: () => Promise<Scan>,
  how: { gated: boolean; filter: string | undefined; maxBytes: number | undefined },
): Promise<ReadFinding[]> {
  const client = ctx.client();
  const { filter, maxBytes } = how;
  if (!how.gated)
    return readAllResults(client, id, { signal: ctx.signal, result: filter, maxBytes });
  const read = await readScanResults(client, await scan(), {
    all: filter === undefined,
    signal: ctx.signal,
    note: (m) => ctx.note(m),
    maxBytes,
  }).catch((error: unknown) => {
    throw toJobError('Results', error);
  });
  return read.findings;
}

/** --csv and --ocsf of `scan results`: the tenant named as the service names it. */
async function writeFindingsFiles(
  ctx: CommandContext,
  scan: Scan,
  gate: GateOutcome,
  exportPaths: ExportPaths,
): Promise<void> {
  const me = await ctx.client().tenants.me({ signal: ctx.signal });
  const tenant = typeof me.name === 'string' && me.name.trim() !== '' ? me.name.trim() : undefined;
  const { runSource, writeExports } = await import('../../pipeline/output/exports.js');
  const source = runSource({ tenant, scan, findings: gate.findings, fixed: gate.fixed });
  noteExports(ctx, await writeExports([source], exportPaths));
}

async function scanResults(ctx: CommandContext, input: ParsedInput): Promise<CommandOutput> {
  const id = input.args.id ?? '';
  const filter = typeof input.values.result === 'string' ? input.values.result : undefined;
  checkSarifLocationUse(input, 'scan results');
  const problems = new SettingsProblems();
  const gateSettings = await gateSettingsOf(input, problems);
  const sarifLocationUri = problems.check(() => sarifLocationOf(input, ctx.io.env), '');
  const maxBytes = problems.check(
    () => parseResultsMaxMib('--results-max-mib', stringOption(input, 'results-max-mib')),
    undefined,
  );
  problems.throwIfAny();
  const htmlFile = stringOption(input, 'html');
  const exportPaths = {
    csvPath: stringOption(input, 'csv'),
    ocsfPath: stringOption(input, 'ocsf'),
  };
  await checkOutputFiles([
    ['--junit', stringOption(input, 'junit')],
    ['--sarif', stringOption(input, 'sarif')],
    ['--csv', exportPaths.csvPath],
    ['--ocsf', exportPaths.ocsfPath],
    ['--html', htmlFile],
  ]);
  const files = await readGateFiles(gateSettings, '--waivers-max-days');
  noteGateOff(ctx, input);
  const client = ctx.client();
  // Read once, and only when needed: by the gate, the baseline `previous` or the result files.
  let scanRead: Promise<Scan> | undefined;
  const scan = () => (scanRead ??= client.scans.get(id, { signal: ctx.signal }));
  const gated = gateIsOn(input) && (!filter || isFailedResult(filter));
  const read = await resultsOf(ctx, id, scan, { gated, filter, maxBytes });
  const failed = worstFirst(read.filter((f) => isFailedResult(f.result)));
  // Every result was read when no filter narrowed it: coverage can be compared.
  const evaluated =
    gated && filter === undefined
      ? read.filter((f) => isEvaluatedResult(f.result)).map((f) => f.identity)
      : undefined;
  const gate = await applyGate(client, scan, { failed, evaluated }, gateSettings, files, {
    signal: ctx.signal,
    log: lineLog((line) => ctx.note(line)),
  });
  const findings = failedFirst(
    gate.findings,
    read.filter((f) => !isFailedResult(f.result)),
  );
  if (input.values.junit || input.values.sarif) {
    await writeResultFiles(
      ctx,
      {
        scan: await scan(),
        findings,
        fixed: gate.fixed,
        baselineFound: gate.baseline.kind === 'found',
        sarifLocationUri,
        coverage: gate.coverage,
        ...(filter === undefined ? { results: countResults(read.map((f) => f.result)) } : {}),
      },
      input,
    );
  }
  if (htmlFile !== undefined) await writePage(ctx, htmlFile, await scan(), gate, gateIsOn(input));
  if (exportPaths.csvPath || exportPaths.ocsfPath) {
    await writeFindingsFiles(ctx, await scan(), gate, exportPaths);
  }
  const fails = gateIsOn(input) && gateFails(gate);
  if (fails) ctx.note(findingsGateLine(gateReason(gate)));
  return {
    json: () => findings.map(findingJson),
    text: () => findingsTable(findings),
    exitCode: fails ? EXIT_FINDINGS : EXIT_OK,
  };
}

/** The scan's report page (--html): its failed findings as the gate judged them. */
async function writePage(
  ctx: CommandContext,
  path: string,
  scan: Scan,
  gate: GateOutcome,
  gated: boolean,
): Promise<void> {
  const { writeRunPage } = await import('../../render/html/write.js');
  const verdict = decideVerdict({ waited: true, scan, gate, failOnFindings: gated });
  const judged = { ...verdict, status: scan.status, scan, gate, findings: gate.findings };
  const written = await writeRunPage(
    path,
    {
      headline: headline(judged),
      verdict: verdict.verdict ?? 'pending',
      scan,
      gate,
      findings: gate.findings,
      total: scan.summary?.total,
    },
    { secrets: [ctx.settings.apiKey] },
  );
  ctx.note(`HTML report written to ${written}`);
}

const results: CommandSpec = {
  path: ['scan', 'results'],
  summary: 'List the results (findings) of a scan',
  args: ['id'],
  options: [
    'result',
    'fail-on-findings',
    ...GATE_OPTIONS,
    'junit',
    'sarif',
    'sarif-location',
    'html',
    'csv',
    'ocsf',
    'results-max-mib',
  ],
  details: [
    'Failed checks are listed first (new, then unchanged, then waived when a baseline or',
    'waivers apply), then the others; each group worst first. With the gate on (--fail-on-findings,',
    '--fail-on-severity or --fail-on) the exit code is 2 when failed findings fail it (--result',
    'Passed never trips it).',
  ].join('\n'),
  run: scanResults,
};

export const SCAN_COMMANDS: CommandSpec[] = [
  oneCall({
    path: ['scan', 'list'],
    summary: 'List the scans of the tenant',
    call: (client, o) => client.scans.list(o),
    show: (scans) => ({ json: scans.map(scanJson), text: scansTable(scans) }),
  }),
  oneCall({
    path: ['scan', 'get'],
    summary: 'Show one scan',
    arg: 'id',
    call: (client, o, id) => client.scans.get(id, o),
    show: (scan) => ({ json: scanJson(scan), text: scanRecord(scan) }),
  }),
  results,
  oneCall({
    path: ['scan', 'cancel'],
    summary: 'Cancel a queued or running scan',
    arg: 'id',
    call: (client, o, id) => client.scans.cancel(id, o),
    show: (scan, id) => ({
      json: { id, cancelled: true, scan: scan ? scanJson(scan) : null },
      text: `Scan ${id} cancelled${scan ? ` (status: ${cell(scan.status)})` : ''}\n`,
    }),
  }),
  oneCall({
    path: ['scan', 'hide'],
    summary: 'Hide a scan from the lists',
    arg: 'id',
    call: (client, o, id) => client.scans.hide(id, o),
    show: done('hidden', true, (id) => `Scan ${id} hidden`),
  }),
  oneCall({
    path: ['scan', 'unhide'],
    summary: 'Show a hidden scan again',
    arg: 'id',
    call: (client, o, id) => client.scans.unhide(id, o),
    show: done('hidden', false, (id) => `Scan ${id} shown again`),
  }),
  oneCall({
    path: ['scan', 'delete'],
    summary: 'Delete a scan',
    arg: 'id',
    call: (client, o, id) => client.scans.delete(id, o),
    show: done('deleted', true, (id) => `Scan ${id} deleted`),
  }),
];
