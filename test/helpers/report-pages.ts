// Report pages' inputs made the way the pipeline makes them: failed findings drawn from the
// emulator's catalogue (its checks, titles and remediations), judged by the real gate (a baseline,
// a waiver, a history of earlier scans for ages and the trend), and records written by the real
// record writer for a fleet. Shared by the unit and browser tests, the bench and the screenshots.

import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FindingView, Scan } from '../../src/client/index.js';
import { countResults } from '../../src/pipeline/common/result-kinds.js';
import { judgeCoverage } from '../../src/pipeline/gate/coverage.js';
import {
  agesOf,
  DEFAULT_SLA_DAYS,
  evaluatedTrend,
  failedTrend,
} from '../../src/pipeline/gate/deadlines.js';
import type { Disposition } from '../../src/pipeline/gate/dispositions.js';
import type { HistoryRead } from '../../src/pipeline/gate/history.js';
import { judgeFindings, type GateSettings, type Waiver } from '../../src/pipeline/gate/judge.js';
import { decideVerdict } from '../../src/pipeline/job/verdict.js';
import type { JobResult } from '../../src/pipeline/job/types.js';
import { runRecord } from '../../src/pipeline/output/record.js';
import { runInputOf, type RunPageInput } from '../../src/render/html/run-data.js';
import { checkAt, checkIdAt } from '../emulator/findings.js';
import { REFERENCE_BASE } from '../emulator/findings-catalog.js';

const DAY_MS = 86_400_000;
/** The scans' clock: fixed, so pages and screenshots do not change from run to run. */
export const SAMPLE_NOW = Date.parse('2026-11-26T06:00:00Z');

/** What a hostile service writes into a finding's text. */
export const HOSTILE = {
  markup: '<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>',
  close: '</script><script>window.__pwned=3</script><!--',
  link: 'javascript:window.__pwned=4',
  rtl: '\u202eDESSAP\u202c \u2066isolated\u2069 \u200bzero-width',
  control: '\u001b]0;owned\u0007\u001b[2J',
} as const;

export interface SampleOptions {
  /** Put the hostile text into titles, categories, remediations and references. */
  hostile?: boolean;
  /** Earlier scans in the history (0: none read). */
  history?: number;
  /** A tenant's own seed: which findings fail, and its name. */
  seed?: number;
  tenantName?: string;
  /** Checks the baseline evaluated that are not evaluated now (default 2 of the baseline's
   *  `count` + 38: within max-coverage-drop 10 %). */
  dropped?: number;
  /** The waiver's disposition (default: none named, an accepted risk). */
  disposition?: Disposition;
}

/** The checks of a scan besides its failed ones: passed, then not evaluated of each kind. */
const PASSED = 36;
const NOT_EVALUATED = ['Skipped', 'Skipped', 'N/A', 'Deferred'];

/** The failed finding at a result index, as the emulator would send it. */
export function sampleFinding(index: number, hostile = false): FindingView {
  const check = checkAt(index);
  const instance = Math.floor(index / 56);
  const title = instance === 0 ? check.title : `${check.title} (resource ${instance + 1})`;
  const identity = checkIdAt(index);
  const finding: FindingView = {
    id: `finding-${index}`,
    identity,
    title,
    severity: check.severity,
    category: check.category,
    description: `The tenant does not meet this control: ${check.title.toLowerCase()}.`,
    remediation: check.remediation,
    reference: `${REFERENCE_BASE}${check.checkId.toLowerCase()}`,
    result: 'Failed',
  };
  if (!hostile) return finding;
  return {
    ...finding,
    title: `${HOSTILE.control}${title} ${HOSTILE.markup} ${HOSTILE.close} ${HOSTILE.rtl}`,
    category: `${check.category} ${HOSTILE.markup}`,
    remediation: `${check.remediation}\n${HOSTILE.close}\n${HOSTILE.markup}`,
    reference: HOSTILE.link,
  };
}

function scanAt(id: string, ms: number, total: number, failed: number): Scan {
  const at = new Date(ms).toISOString();
  return {
    id,
    status: 'completed',
    phase: 'succeeded',
    knownStatus: true,
    terminal: true,
    scanType: 'compliance',
    createdAt: new Date(ms - 600_000).toISOString(),
    completedAt: at,
    summary: { total, passed: PASSED, failed, skipped: 2 },
    raw: {},
  };
}

/** Which results of `count` failed in the earlier scan `back` scans ago (older: fewer). */
function failedBefore(indexes: number[], back: number): Set<string> {
  return new Set(
    indexes.filter((index) => (index * 7 + back) % (back + 2) !== 0).map((i) => checkIdAt(i)),
  );
}

/** The checks evaluated now (failed and passed) and in the baseline (those and `dropped` more),
 *  by identity: the sets the gate compares for coverage. */
function evaluatedSets(seed: number, count: number, dropped: number, hostile = false) {
  const now = Array.from({ length: count + PASSED }, (_, i) => checkIdAt(seed + i));
  const lost = Array.from(
    { length: dropped },
    (_, i) => `MT.${1201 + i}${hostile ? HOSTILE.markup : ''}`,
  );
  return { now, baseline: [...now, ...lost] };
}

/** A judged run of `count` failed findings, with a baseline, a waiver and a history, its checks
 *  counted by result and its coverage compared with the baseline. */
export function sampleResult(count: number, options: SampleOptions = {}): JobResult {
  const seed = options.seed ?? 0;
  const indexes = Array.from({ length: count }, (_, i) => i + seed);
  const failed = indexes.map((index) => sampleFinding(index, options.hostile));
  const history = options.history ?? 4;
  const evaluated = evaluatedSets(seed, count, options.dropped ?? 2, options.hostile);
  const scans = Array.from({ length: history }, (_, back) => {
    const ids = failedBefore(indexes, back + 1);
    return {
      id: `scan-${seed}-${back + 1}`,
      at: new Date(SAMPLE_NOW - (back + 1) * 9 * DAY_MS).toISOString(),
      failed: ids,
      failedCount: ids.size,
      // One older scan's counts do not say how many it evaluated.
      evaluated: back === 2 ? null : evaluated.baseline.length + back,
    };
  });
  const read: HistoryRead =
    history === 0 ? { kind: 'none' } : { kind: 'read', scans, complete: true, later: 0 };
  const scan = scanAt(`scan-${seed}-0`, SAMPLE_NOW, count + 40, count);
  const settings: GateSettings = {
    threshold: 'medium',
    failOn: 'new',
    baseline: { kind: 'previous' },
    history,
    waiversFile: '.tenant-scan/waivers.yml',
  };
  const waivers: Waiver[] = [
    {
      check: checkIdAt(seed + 2),
      reason: options.hostile
        ? `Accepted ${HOSTILE.markup}`
        : 'Four global admins until break-glass',
      expires: '2026-12-20',
      owner: 'secops@contoso.example',
      ...(options.disposition ? { disposition: options.disposition } : {}),
      line: 2,
    },
  ];
  const baselineSource = `scan ${scans[0]?.id ?? 'none'}`;
  const baselineFailed = [...(scans[0]?.failed ?? [])].map((identity) => ({
    ...sampleFinding(0),
    identity,
  }));
  const gate = judgeFindings(
    failed,
    settings,
    {
      baseline: { kind: 'found', source: baselineSource, failed: baselineFailed },
      waivers,
      history: read,
      ages: history === 0 ? undefined : agesOf(failed, scan.completedAt, read, DEFAULT_SLA_DAYS),
      trend: failedTrend(read, count),
      evaluatedTrend: evaluatedTrend(read, { evaluated: evaluated.now }),
      evaluatedNow: new Set(evaluated.now),
      coverage: judgeCoverage(evaluated.baseline, evaluated.now, 10, baselineSource),
    },
    SAMPLE_NOW,
  );
  const verdict = decideVerdict({ waited: true, scan, gate, failOnFindings: true });
  return {
    scanId: scan.id,
    status: scan.status,
    scan,
    tenantName: options.tenantName ?? 'Contoso Ltd',
    verdict: verdict.verdict,
    total: count + 40,
    failed: gate.findings.length,
    findings: gate.findings,
    gate,
    results: countResults([
      ...failed.map((finding) => finding.result),
      ...Array.from({ length: PASSED }, () => 'Passed'),
      ...NOT_EVALUATED,
    ]),
    fixed: gate.fixed,
    report: { policy: 'none' },
    failureReason: verdict.verdict === 'failed' ? verdict.verdictReason : undefined,
    verdictReason: verdict.verdictReason,
    failStep: verdict.failStep,
    triggered: true,
  };
}

/** The page input of a sample run. */
export function sampleRunInput(count: number, options: SampleOptions = {}): RunPageInput {
  return runInputOf(sampleResult(count, options));
}

/** Writes `tenants` records into `folder` (tenant-NNNN.json), as a many-tenants run leaves them:
 *  each tenant its own findings (`perTenant`, some passing with none), one with an error. */
export async function writeSampleRecords(
  folder: string,
  tenants: number,
  perTenant: number,
  options: Pick<SampleOptions, 'hostile'> = {},
): Promise<string[]> {
  await mkdir(folder, { recursive: true });
  const names: string[] = [];
  for (let index = 0; index < tenants; index++) {
    const name = `tenant-${String(index + 1).padStart(4, '0')}`;
    const count = index % 5 === 4 ? 0 : perTenant - (index % 7);
    const result = sampleResult(Math.max(0, count), {
      seed: (index * 13) % 56,
      hostile: options.hostile,
      // One tenant's checks dropped beyond max-coverage-drop, the others' 0 to 2 (within it); one
      // tenant's waiver a false positive.
      dropped: index === 1 ? 30 : index % 3,
      disposition: index === 2 ? 'false-positive' : undefined,
      tenantName: options.hostile ? `${name} ${HOSTILE.markup}` : `${name} Ltd`,
    });
    const record = runRecord(result, { waited: true, label: name });
    await writeFile(join(folder, `${name}.json`), `${JSON.stringify(record)}\n`);
    names.push(name);
  }
  return names;
}
