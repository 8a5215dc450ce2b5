// One run of the campaign, drawn from a seed: the emulator's faults and variants, the tenant and its
// scan plan, the action's inputs and how (if at all) the job is cancelled. Plain data, printable.
import type {
  EmulatorOptions,
  Fault,
  FaultRule,
  RateLimitModel,
  ScanPlan,
  TenantSeed,
  UnknownsVariant,
} from '../emulator/types.js';
import { DOWNLOAD_ADDRESS_FORMS, FINDING_SHAPES } from '../emulator/types.js';
import { checkIdAt } from '../emulator/findings.js';
import { Prng } from './prng.js';

export type CancelKind = 'none' | 'sigint' | 'kill';

export interface CancelChoice {
  kind: CancelKind;
  /** Wall ms after the main step started; 'triggered' (the moment the log says it triggered or
   *  follows the scan); 'report' (when the report step starts, so a download may be under way); or
   *  the first log line that matches (regression tests). */
  after: number | 'triggered' | 'report' | RegExp;
  /** Aimed at the report download (see aimAtDownload): `after` is a number of ms that falls
   *  inside a slowed download of an already-ready report. */
  duringDownload?: true;
}

/** A scan that exists before the run, for `scan-id` (follow, never trigger, never cancel). */
export interface ExistingScan {
  plan: ScanPlan;
  /** Generate its report before the run (so `if-ready` finds it ready) once it completed. */
  reportReady: boolean;
}

export interface Scenario {
  seed: number;
  emulator: Pick<
    EmulatorOptions,
    'clockSpeed' | 'epochMs' | 'warmupMs' | 'downloadTtlMs' | 'reportRenderMs' | 'reportSizeBytes'
  >;
  rateLimit: RateLimitModel;
  variant: UnknownsVariant;
  faults: FaultRule[];
  tenant: TenantSeed;
  /** The key is unknown to the emulator (401 path). */
  badKey: boolean;
  existingScan?: ExistingScan;
  /** Another job's scan of the same tenant, running before the run starts (another key): the run
   *  must neither cancel it nor take it for its own. */
  bystander?: ScanPlan;
  /** Another job of the same tenant starts a scan of the same type while the run is about to
   *  trigger (a matrix build): the run must not take it for its own. */
  otherJobDuringRun: boolean;
  /** A completed scan of the run's type, by the run's key, before the run: `baseline: previous`
   *  then has something to compare with. */
  earlierScan?: ScanPlan;
  /** Completed scans of the run's type in the past (issue 25's history): age in days and the
   *  checks that failed in each; `skewHours`: its dates stamped by a clock that many hours off
   *  (issue 31's clock skew). */
  history?: Array<{ ageDays: number; failedChecks: string[]; skewHours?: number }>;
  /** A waivers file in the workspace: checks and days from today to their expiry (negative:
   *  expired). At the default path unless `waivers-file` names another. */
  waivers?: Array<{ check: string; expiresInDays: number }>;
  inputs: Record<string, string>;
  /** The artifact backend's runtime env is given to the step (else: warning, file stays on disk). */
  artifacts: boolean;
  /** A pull_request event with check-run / pr-comment on. */
  pullRequest: boolean;
  /** Issues and a PR comment by someone else that carry our hidden markers and forged state lines
   *  (issue 31): with tracking issues or a PR comment, they must stay as they are. */
  foreignMarkers?: boolean;
  cancel: CancelChoice;
}

/** Every API route the action may call, as fault routes. */
export const API_ROUTES = [
  'GET /tenants/me',
  'POST /tenants/me/scans',
  'GET /tenants/me/scans',
  'GET /scans/:id',
  'GET /scans/:id/results',
  'POST /scans/:id/cancel',
  'GET /scans/:id/report',
  'POST /scans/:id/report/generate',
] as const;
export const DOWNLOAD_ROUTE = 'GET /download/:token';

function scanPlan(rng: Prng): ScanPlan {
  const outcome = rng.weighted({ completed: 70, failed: 12, stuck: 18 });
  return {
    // At a clock of 20–40 emulator ms per wall ms: from ~0.05 s to a few wall seconds. Long scans
    // make a scan left running visible (it is still running when the post step ends).
    durationMs: rng.chance(0.5) ? rng.int(1_000, 20_000) : rng.int(20_000, 120_000),
    queuedMs: rng.int(0, 3_000),
    progressCurve: rng.pick(['linear', 'front-loaded', 'back-loaded', 'stall-then-jump'] as const),
    outcome:
      outcome === 'completed'
        ? { kind: 'completed', total: rng.int(1, 60), failed: rng.chance(0.3) ? 0 : rng.int(1, 12) }
        : outcome === 'failed'
          ? { kind: 'failed', message: 'The directory connection was lost' }
          : { kind: 'stuck', atProgress: rng.int(0, 99) },
  };
}

function variant(rng: Prng): UnknownsVariant {
  const chosen: UnknownsVariant = {};
  if (rng.chance(0.5)) chosen.statusVocabulary = rng.pick(['default', 'upper', 'alt'] as const);
  if (rng.chance(0.5)) chosen.findingShape = rng.pick(FINDING_SHAPES);
  if (rng.chance(0.5)) {
    chosen.errorShape = rng.pick(['envelope', 'flat', 'string', 'empty', 'html', 'text'] as const);
  }
  if (rng.chance(0.5)) {
    chosen.downloadAddress = rng.pick(DOWNLOAD_ADDRESS_FORMS);
  }
  if (rng.chance(0.35)) chosen.resultsPageSize = rng.int(1, 7);
  if (rng.chance(0.2)) chosen.ignoreResultFilter = true;
  if (rng.chance(0.3)) chosen.planLimitStatus = rng.pick([429, 402, 403] as const);
  return chosen;
}

function retryAfter(rng: Prng): Extract<Fault, { kind: 'status' }>['retryAfter'] {
  const form = rng.weighted({ none: 45, seconds: 35, httpDate: 20 });
  if (form === 'seconds') return rng.int(0, 1);
  if (form === 'httpDate') return { httpDateSeconds: rng.int(0, 2) };
  return undefined;
}

/** API bodies are small (results of at most 60 findings are ~30 KB): at no less than 20 bytes per
 *  ms, a slowed body takes at most ~1.5 s. */
function slowApiBody(rng: Prng): Extract<Fault, { kind: 'slow-body' }> {
  const intervalMs = rng.int(5, 25);
  return { kind: 'slow-body', bytesPerChunk: rng.int(intervalMs * 20, 4_096), intervalMs };
}

/** The report (up to 20 MB) in 4–40 pieces, 10–60 ms apart: at most ~2.4 s, whatever its size. */
function slowDownload(rng: Prng, reportBytes: number): Extract<Fault, { kind: 'slow-body' }> {
  const pieces = rng.int(4, 40);
  return {
    kind: 'slow-body',
    bytesPerChunk: Math.max(1, Math.ceil(reportBytes / pieces)),
    intervalMs: rng.int(10, 60),
  };
}

/** Mostly a stall the client waits out; now and then one that outlasts its per-request timeout
 *  (30 s in the action: costly, so rare), which a GET and the download retry, and a POST may not. */
function stall(rng: Prng, route: string, reportBytes: number): Extract<Fault, { kind: 'stall' }> {
  const afterBytes =
    route === DOWNLOAD_ROUTE
      ? Math.floor(rng.unit() * reportBytes)
      : rng.pick([0, rng.int(1, 40), rng.int(40, 2_000)]);
  const ms = rng.chance(0.06) ? Infinity : rng.int(50, 1_500);
  return { kind: 'stall', afterBytes, ms };
}

export type HostileKind = 'endless-body' | 'huge-body' | 'trickle' | 'no-answer';
const HOSTILE_KINDS: readonly string[] = ['endless-body', 'huge-body', 'trickle', 'no-answer'];

export function isHostile(rule: FaultRule): boolean {
  return HOSTILE_KINDS.includes(rule.fault.kind);
}

/** A broken gateway or a compromised endpoint. On the API: an answer that never ends, a huge one
 *  (under or over the 64 MiB cap, with or without its length), one that trickles, or none. On the
 *  download: a trickle, no answer, or a declared length over the 2 GiB cap (an endless report
 *  would write up to 2 GiB to disk before its cap: the client tests cover it). */
function hostile(rng: Prng, route: string): Fault {
  const onDownload = route === DOWNLOAD_ROUTE;
  const kind = rng.weighted<HostileKind>(
    onDownload
      ? { 'endless-body': 0, 'huge-body': 1, trickle: 2, 'no-answer': 1 }
      : { 'endless-body': 2, 'huge-body': 2, trickle: 2, 'no-answer': 1 },
  );
  if (kind === 'huge-body') {
    return onDownload
      ? { kind, bytes: 3 * 1024 ** 3, declared: true }
      : {
          kind,
          bytes: rng.pick([2_000_000, 70 * 2 ** 20, 150 * 2 ** 20]),
          declared: rng.chance(0.5),
        };
  }
  if (kind === 'trickle') return { kind, intervalMs: rng.int(20, 400) };
  return { kind };
}

/** One fault of a random kind for a route (API or download). */
function fault(rng: Prng, route: string, reportBytes: number): FaultRule {
  const isPost = route.startsWith('POST');
  const kind = rng.weighted({
    hostile: 20,
    storm429: 24,
    starting503: 12,
    resetBefore: 12,
    resetMid: isPost || route === DOWNLOAD_ROUTE ? 14 : 8,
    delay: 10,
    truncate: 10,
    gateway: 12,
    plainStatus: 6,
    slowBody: route === DOWNLOAD_ROUTE ? 14 : 9,
    stall: 8,
  });
  const after = rng.chance(0.4) ? rng.int(1, 4) : 0;
  switch (kind) {
    case 'storm429':
      return {
        route,
        after,
        times: rng.int(1, rng.chance(0.15) ? 12 : 4),
        fault: { kind: 'status', status: 429, code: 'RATE_LIMITED', retryAfter: retryAfter(rng) },
      };
    case 'starting503':
      return {
        route,
        after,
        times: rng.int(1, 4),
        fault: { kind: 'status', status: 503, code: 'SERVICE_STARTING', retryAfter: rng.int(0, 1) },
      };
    case 'resetBefore':
      return { route, after, times: rng.int(1, 2), fault: { kind: 'reset', when: 'before' } };
    case 'resetMid':
      return { route, after, times: 1, fault: { kind: 'reset', when: 'mid-response' } };
    case 'delay':
      return {
        route,
        after,
        times: rng.int(1, 3),
        fault: { kind: 'delay', ms: rng.int(50, 1_500) },
      };
    case 'truncate':
      return { route, after, times: rng.int(1, 2), fault: { kind: 'truncate' } };
    case 'gateway':
      return {
        route,
        after,
        times: rng.int(1, 3),
        fault: { kind: 'status', status: rng.pick([502, 504]), html: true },
      };
    case 'plainStatus':
      return {
        route,
        after,
        times: 1,
        fault: { kind: 'status', status: rng.pick([500, 502, 503]) },
      };
    case 'slowBody':
      return {
        route,
        after,
        times: rng.int(1, 3),
        fault: route === DOWNLOAD_ROUTE ? slowDownload(rng, reportBytes) : slowApiBody(rng),
      };
    case 'stall':
      return { route, after, times: rng.int(1, 2), fault: stall(rng, route, reportBytes) };
    case 'hostile':
      return { route, after, times: rng.int(1, 3), fault: hostile(rng, route) };
  }
}

function faults(rng: Prng, reportBytes: number): FaultRule[] {
  const count = rng.weighted({ zero: 10, one: 30, two: 30, three: 20, many: 10 });
  const n = { zero: 0, one: 1, two: 2, three: 3, many: rng.int(4, 7) }[count];
  // The trigger is where a fault costs most (a second scan, or one nobody cancels): weighted up.
  const routes = [...API_ROUTES, 'POST /tenants/me/scans', DOWNLOAD_ROUTE, '* /scans/*'];
  return Array.from({ length: n }, () => fault(rng, rng.pick(routes), reportBytes));
}

function tenant(rng: Prng): TenantSeed {
  return {
    name: rng.chance(0.1) ? null : 'Fabrikam Campaign Ltd',
    plan: {
      apiAccess: !rng.chance(0.03),
      scanQuota: rng.chance(0.05) ? 0 : Infinity,
      reportAllowance: rng.chance(0.3) ? 1 : 0,
      reportCredits: rng.pick([0, 1, 10, 10]),
    },
    scanPlan: scanPlan(rng),
  };
}

function timeoutMinutes(rng: Prng, plan: ScanPlan | undefined): string {
  const stuck = plan?.outcome?.kind === 'stuck';
  if (stuck || rng.chance(0.1)) return rng.pick(['0.01', '0.02', '0.03', '0.05']);
  return rng.pick(['', '1', '5']);
}

function inputs(rng: Prng, t: TenantSeed, existing: ExistingScan | undefined) {
  const chosen: Record<string, string> = {};
  chosen.report = rng.pick(['none', 'none', 'if-ready', 'generate', 'generate', 'generate']);
  if (rng.chance(0.5)) chosen['fail-on-findings'] = rng.pick(['true', 'false']);
  if (!existing && rng.chance(0.08)) {
    chosen.wait = 'false';
    chosen.report = 'none';
  }
  chosen['scan-timeout-minutes'] = timeoutMinutes(rng, existing?.plan ?? t.scanPlan);
  if (rng.chance(0.3)) chosen['report-path'] = rng.pick(['out/report.pdf', 'a b/r é.pdf']);
  if (rng.chance(0.3)) chosen.annotations = String(rng.int(0, 15));
  if (rng.chance(0.2)) chosen['job-summary'] = 'false';
  if (rng.chance(0.2)) chosen['scan-type'] = rng.pick(['compliance', 'security', 'full']);
  return chosen;
}

function cancel(rng: Prng): CancelChoice {
  const kind = rng.weighted<CancelKind>({ none: 65, sigint: 21, kill: 14 });
  if (kind === 'none') return { kind, after: 0 };
  const moment = rng.weighted({ triggered: 30, report: 15, random: 55, download: 15 });
  if (moment === 'download') return { kind, after: rng.int(1_200, 2_800), duringDownload: true };
  return { kind, after: moment === 'random' ? rng.int(100, 4_000) : moment };
}

/** A finished scan with its report ready: the run follows it and goes to the download at once. */
function readyReport(): ExistingScan {
  return {
    plan: { durationMs: 1_000, queuedMs: 0, outcome: { kind: 'completed', total: 12, failed: 2 } },
    reportReady: true,
  };
}

/**
 * Makes a cancel aimed at the download land in it. A cancel at the "Downloading the report" line
 * would come before the temporary file exists, so the moment is a time: the run follows a
 * finished scan whose report is ready and nothing slows it on the way (no warm-up, rate limit,
 * pagination or API fault but on the cancel), so it reaches the download within about a second
 * even on a loaded machine; the download is slowed to last 4–6 s, so a cancel 1.2–2.8 s after
 * the start falls inside it. Whatever else the seed drew that would keep the run from
 * downloading (no report wanted, a short address lifetime, a bad key, no credit) is undone.
 */
function aimAtDownload(rng: Prng, s: Scenario): void {
  const bytes = Math.max(s.emulator.reportSizeBytes ?? 0, 300_000);
  const plan = s.tenant.plan ?? {};
  s.existingScan = readyReport();
  s.badKey = false;
  s.rateLimit = { kind: 'none' };
  s.tenant.plan = {
    ...plan,
    apiAccess: true,
    scanQuota: Infinity,
    reportCredits: Math.max(1, plan.reportCredits ?? 0),
  };
  if (s.tenant.name === null) s.tenant.name = 'Fabrikam Campaign Ltd';
  s.emulator = { ...s.emulator, warmupMs: 0, downloadTtlMs: 60_000, reportSizeBytes: bytes };
  delete s.variant.resultsPageSize;
  delete s.inputs.wait;
  delete s.inputs['request-timeout-seconds'];
  s.inputs.report = rng.pick(['if-ready', 'generate']);
  s.inputs['scan-timeout-minutes'] = '5';
  const pieces = rng.int(40, 60);
  s.faults = [
    {
      route: DOWNLOAD_ROUTE,
      times: Infinity,
      fault: { kind: 'slow-body', bytesPerChunk: Math.ceil(bytes / pieces), intervalMs: 100 },
    },
    // The download is slowed past a short request timeout: hostile answers (which need one) go.
    ...s.faults.filter((f) => f.route === 'POST /scans/:id/cancel' && !isHostile(f)),
  ];
}

export function generateScenario(seed: number): Scenario {
  const rng = new Prng(seed);
  const t = tenant(rng);
  const existing: ExistingScan | undefined = rng.chance(0.15)
    ? { plan: scanPlan(rng), reportReady: rng.chance(0.5) }
    : undefined;
  const bystander: ScanPlan | undefined = rng.chance(0.2)
    ? {
        durationMs: rng.int(30_000, 600_000),
        queuedMs: 0,
        outcome: { kind: 'completed', total: 10, failed: 1 },
      }
    : undefined;
  // Scans made before the run need API access; a used-up quota then counts them.
  const scansBeforeRun = (existing ? 1 : 0) + (bystander ? 1 : 0);
  if (scansBeforeRun > 0) {
    const quota = t.plan?.scanQuota === 0 ? scansBeforeRun : Infinity;
    t.plan = { ...t.plan, apiAccess: true, scanQuota: quota };
  }
  const pickedInputs = inputs(rng, t, existing);
  const pullRequest = rng.chance(0.2);
  if (pullRequest) {
    pickedInputs['check-run'] = 'true';
    pickedInputs['pr-comment'] = rng.pick(['true', 'false']);
  }
  const wantsReport = pickedInputs.report !== 'none';
  const reportSizeBytes = rng.pick([0, 1, 1_000, 70_000, 300_000, 300_000, 20_000_000]);
  const chosenFaults = faults(rng, reportSizeBytes);
  // Downloads happen in few runs: when one may happen, aim faults at it more often.
  if (wantsReport && rng.chance(0.5)) {
    chosenFaults.push(fault(rng, DOWNLOAD_ROUTE, reportSizeBytes));
  }
  // Likewise the remote cancel: it matters when the job is cancelled or a scan never ends.
  const cancelChoice = cancel(rng);
  const mayCancel = cancelChoice.kind !== 'none' || t.scanPlan?.outcome?.kind === 'stuck';
  if (mayCancel && rng.chance(0.4)) {
    chosenFaults.push(fault(rng, 'POST /scans/:id/cancel', reportSizeBytes));
  }
  const scenario: Scenario = {
    seed,
    emulator: {
      clockSpeed: rng.int(20, 40),
      warmupMs: rng.chance(0.1) ? rng.int(200, 1_500) : 0,
      downloadTtlMs: rng.chance(wantsReport ? 0.3 : 0.1) ? rng.int(1, 300) : 60_000,
      reportRenderMs: rng.int(0, 6_000),
      reportSizeBytes,
    },
    rateLimit: rng.chance(0.1)
      ? rng.pick<RateLimitModel>([
          { kind: 'account', ratePerSecond: 5, burst: 5 },
          { kind: 'per-key', perMinute: 20 },
        ])
      : { kind: 'none' },
    variant: variant(rng),
    faults: chosenFaults,
    tenant: t,
    badKey: rng.chance(0.03),
    existingScan: existing,
    bystander,
    inputs: pickedInputs,
    artifacts: rng.chance(0.7),
    pullRequest,
    cancel: cancelChoice,
    // Drawn last, so the rest of a seed's scenario is as it was before this dimension existed.
    otherJobDuringRun: rng.chance(0.15),
  };
  // A hostile answer costs the request timeout (twice for a read): keep such runs to seconds.
  if (scenario.faults.some(isHostile) || rng.chance(0.1)) {
    pickedInputs['request-timeout-seconds'] = rng.pick(['1', '2', '3']);
  }
  if (rng.chance(0.1)) scenario.variant.hostileText = true;
  if (cancelChoice.duringDownload) aimAtDownload(rng, scenario);
  drawGate(rng, scenario);
  drawTrust(rng, scenario);
  drawHistory(rng, scenario);
  drawTracking(rng, scenario);
  drawClockSkew(rng, scenario);
  drawCoverage(rng, scenario);
  drawStall(rng, scenario);
  return scenario;
}

/** Result words the campaign's scans may answer with, each meaning for the emulator what it means
 *  for the action: only Passed and Failed (any case) are evaluated. Every kind, spelled as
 *  services spell them, a word nobody knows, and case changed. */
export const CAMPAIGN_RESULT_WORDS = [
  'Skipped',
  'SKIPPED',
  'NotApplicable',
  'not_applicable',
  'N/A',
  'NotLicensed',
  'not-licensed',
  'Error',
  'error',
  'NotRun',
  'Deferred',
  'InProgress',
  'passed',
  'FAILED',
];

/** Issue 47's coverage, drawn last: the run's scan answers some checks with words of every kind
 *  (so it evaluates fewer), its earlier scan of the type evaluates more checks than it, and a
 *  max-coverage-drop of its own. */
function drawCoverage(rng: Prng, scenario: Scenario): void {
  const plan = scenario.existingScan?.plan ?? scenario.tenant.scanPlan;
  const outcome = plan?.outcome;
  if (plan && outcome?.kind === 'completed' && rng.chance(0.35)) {
    const words: Record<string, string> = {};
    for (let n = rng.int(1, 6); n > 0; n--)
      words[checkIdAt(rng.int(0, 11))] = rng.pick(CAMPAIGN_RESULT_WORDS);
    plan.outcome = { ...outcome, resultWords: words };
  }
  const earlier = scenario.earlierScan?.outcome;
  if (earlier?.kind === 'completed' && outcome?.kind === 'completed' && rng.chance(0.4)) {
    earlier.total = Math.min(60, Math.max(earlier.total, outcome.total + rng.int(1, 12)));
  }
  if (scenario.inputs.baseline === 'previous' && rng.chance(0.35))
    scenario.inputs['max-coverage-drop'] = rng.pick(['0', '10', '25', '100']);
}

/** Issue 47's stalls, drawn last: a scan whose progress stops for a while or for good, with a
 *  stall-minutes of about a second; now and then stall-minutes on a scan that moves. */
function drawStall(rng: Prng, scenario: Scenario): void {
  const plan = scenario.tenant.scanPlan;
  const triggers = !scenario.existingScan && scenario.inputs.wait !== 'false';
  if (plan && triggers && !scenario.cancel.duringDownload && rng.chance(0.15)) {
    plan.stall = {
      afterMs: rng.int(0, 3_000),
      forMs: rng.chance(0.5) ? Infinity : rng.int(200, 40_000),
    };
    scenario.inputs['stall-minutes'] = rng.pick(['0.01', '0.02', '0.04']);
    if (plan.stall.forMs === Infinity && !scenario.inputs['scan-timeout-minutes'])
      scenario.inputs['scan-timeout-minutes'] = '1';
  } else if (triggers && rng.chance(0.08)) {
    scenario.inputs['stall-minutes'] = rng.pick(['0.02', '0.05']);
  }
}

/** Issue 26's tracking issues, drawn last: a label of the run's own, so the issues the shared
 *  GitHub stand-in holds under it are this run's alone. `per-finding` is rarer: its writes are a
 *  second apart (an issue opened, three), up to 20 of them. Half the runs that publish to GitHub
 *  meet issues and a comment by someone else carrying our markers (issue 31). */
function drawTracking(rng: Prng, scenario: Scenario): void {
  if (rng.chance(0.12)) {
    scenario.inputs['tracking-issue'] = rng.weighted({ one: 3, 'per-finding': 1 });
    scenario.inputs['tracking-labels'] = trackingLabel(scenario.seed);
  }
  const publishes = scenario.inputs['tracking-issue'] || scenario.inputs['pr-comment'] === 'true';
  if (publishes && rng.chance(0.5)) scenario.foreignMarkers = true;
}

export function trackingLabel(seed: number): string {
  return `campaign-${seed}`;
}

/** Issue 25's history, drawn last: past completed scans of the run's type days apart, each with
 *  some of the first checks failing, `history` to read them, often `fail-on: overdue` with
 *  deadlines. Other jobs' scans would complete during the run and blur which scans the run could
 *  read, so a run with a history has none. */
function drawHistory(rng: Prng, scenario: Scenario): void {
  const inputs = scenario.inputs;
  if (inputs.wait === 'false' || scenario.cancel.duringDownload || !rng.chance(0.25)) return;
  let age = 0;
  scenario.history = Array.from({ length: rng.int(1, 5) }, () => {
    age += rng.pick([0.5, 1, 1, 2, 7, 20]);
    const checks = new Set(Array.from({ length: rng.int(0, 4) }, () => checkIdAt(rng.int(0, 11))));
    return { ageDays: age, failedChecks: [...checks] };
  });
  inputs.history = String(rng.int(1, 6));
  if (rng.chance(0.5)) inputs['fail-on'] = 'overdue';
  if (rng.chance(0.5))
    inputs['sla-days'] = rng.pick(['critical=1,high=3', 'critical=7', 'low=2,info=2']);
  delete scenario.bystander;
  scenario.otherJobDuringRun = false;
}

/** Issue 31's clock skew, drawn last, in runs with a history that trigger their own scan (every
 *  scan they list before the trigger is earlier, so one dated at or after it is skew): a past scan
 *  stamped by a clock hours ahead (dated after the run's scan), or decades behind (before 2000),
 *  or the service's whole clock at 1970 (the run's own scan cannot be right). Ages are then
 *  unknown: `fail-on: overdue` must fail on every failed finding. */
function drawClockSkew(rng: Prng, scenario: Scenario): void {
  const history = scenario.history;
  if (!history || scenario.existingScan || !rng.chance(0.3)) return;
  const kind = rng.weighted({ ahead: 3, ancient: 1, epoch: 1 });
  if (kind === 'epoch') {
    scenario.emulator.epochMs = rng.int(0, 5) * 86_400_000;
    return;
  }
  const entry = rng.pick(history);
  entry.skewHours =
    kind === 'ahead' ? entry.ageDays * 24 + rng.int(3, 48) : -rng.int(30, 50) * 365 * 24;
}

/** What the trust issue added, drawn after everything else (a seed's other draws stay as they
 *  were): results that are not whole (not a list, pages that never end, a read short of the
 *  counts), service text with markup or the echoed key, scan ids that are not plain, and where the
 *  scan's counts are. */
function drawTrust(rng: Prng, scenario: Scenario): void {
  // Progress that predicts nothing (issue 24): stalled, or no progress field at all.
  const plan = scenario.tenant.scanPlan;
  if (plan && rng.chance(0.2)) plan.progressCurve = rng.pick(['stalled', 'none'] as const);
  if (rng.chance(0.3))
    scenario.variant.countsShape = rng.pick(['default', 'renamed', 'none'] as const);
  if (rng.chance(0.12)) scenario.variant.hostileMarkdown = true;
  if (rng.chance(0.1)) scenario.variant.echoKey = true;
  if (rng.chance(0.04)) scenario.variant.hostileScanIds = true;
  if (!rng.chance(0.15)) return;
  const countsShown = (scenario.variant.countsShape ?? 'default') !== 'none';
  const kind = rng.weighted({ data: 35, endless: 10, dropFailed: countsShown ? 55 : 0 });
  const fault: Fault =
    kind === 'data'
      ? { kind: 'data', data: rng.pick(['ok', null, { count: 3 }, [1, 2], { items: 'x' }]) }
      : kind === 'endless'
        ? { kind: 'endless-cursor' }
        : { kind: 'drop-failed' };
  // A cancel aimed at the download needs nothing to stop the run before it.
  if (scenario.cancel.duringDownload) return;
  scenario.faults.push({
    route: 'GET /scans/:id/results',
    fault,
    // A short read the job reads again may be whole the second time (times 1).
    times: kind === 'dropFailed' && rng.chance(0.4) ? 1 : Infinity,
  });
}

/** The gate's inputs, drawn after everything else (a seed's other draws stay as they were): a
 *  severity threshold (synonyms too), and a baseline of the previous scan, often with an earlier
 *  completed scan of the type on the tenant whose failed checks differ from the run's. */
function drawGate(rng: Prng, scenario: Scenario): void {
  const inputs = scenario.inputs;
  if (rng.chance(0.3)) {
    // Checks of the first results (every scan of the campaign has at least one), some expired.
    const checks = new Set(Array.from({ length: rng.int(1, 4) }, () => checkIdAt(rng.int(0, 11))));
    scenario.waivers = [...checks].map((check) => ({
      check,
      expiresInDays: rng.pick([-30, -2, 3, 60]),
    }));
    if (rng.chance(0.3)) inputs['waivers-file'] = 'config/waivers.yml';
  }
  if (rng.chance(0.3)) {
    inputs['fail-on-severity'] = rng.pick([
      'info',
      'low',
      'medium',
      'high',
      'critical',
      'moderate',
      'severe',
    ]);
  }
  if (inputs.wait === 'false' || !rng.chance(0.3)) return;
  inputs.baseline = 'previous';
  if (rng.chance(0.6)) inputs['fail-on'] = 'new';
  const plan = scenario.tenant.plan;
  // Scans made before the run need API access and quota left.
  if (plan?.apiAccess === false || plan?.scanQuota === 0) return;
  if (scenario.existingScan || !rng.chance(0.7)) return;
  scenario.earlierScan = {
    durationMs: 0,
    queuedMs: 0,
    outcome: { kind: 'completed', total: rng.int(1, 60), failed: rng.int(0, 12) },
  };
  const quota = scenario.tenant.plan?.scanQuota;
  if (quota !== undefined && Number.isFinite(quota) && quota > 0) {
    scenario.tenant.plan = { ...scenario.tenant.plan, scanQuota: quota + 1 };
  }
}

function describeFault(fault: Fault): string {
  if (fault.kind === 'status') return `status${fault.status}`;
  if (fault.kind === 'slow-body') return `slow-body(${fault.bytesPerChunk}B/${fault.intervalMs}ms)`;
  if (fault.kind === 'stall') return `stall(${fault.afterBytes}B,${fault.ms}ms)`;
  if (fault.kind === 'huge-body')
    return `huge-body(${fault.bytes}B${fault.declared ? ',declared' : ''})`;
  if (fault.kind === 'trickle') return `trickle(${fault.intervalMs ?? 1_000}ms)`;
  if (fault.kind === 'data') return `data(${JSON.stringify(fault.data)})`;
  return fault.kind;
}

/** A one-line description of a scenario, for the log of a failed run. */
export function describeScenario(s: Scenario): string {
  const parts = [
    `plan=${s.existingScan ? `follow(${s.existingScan.plan.outcome?.kind})` : s.tenant.scanPlan?.outcome?.kind}`,
    `inputs=${JSON.stringify(s.inputs)}`,
    `faults=${s.faults.map((f) => `${f.route}:${describeFault(f.fault)}x${f.times ?? 1}`).join(',') || 'none'}`,
    `variant=${JSON.stringify(s.variant)}`,
    `cancel=${s.cancel.kind}${s.cancel.kind === 'none' ? '' : `@${s.cancel.after}${s.cancel.duringDownload ? '(download)' : ''}`}`,
  ];
  if (s.badKey) parts.push('badKey');
  if (s.bystander) parts.push('bystander');
  if (s.earlierScan) parts.push('earlier-scan');
  if (s.waivers)
    parts.push(`waivers=${s.waivers.map((w) => `${w.check}@${w.expiresInDays}d`).join(',')}`);
  if (s.otherJobDuringRun) parts.push('other-job-during-run');
  if (s.foreignMarkers) parts.push('foreign-markers');
  if (s.history)
    parts.push(
      `history=${s.history.map((h) => `${h.ageDays}d:${h.failedChecks.length}${h.skewHours ? `~${h.skewHours}h` : ''}`).join(',')}`,
    );
  if (s.emulator.epochMs !== undefined) parts.push(`epoch=${s.emulator.epochMs}`);
  const stall = s.tenant.scanPlan?.stall;
  if (stall) parts.push(`stall=${stall.afterMs}ms+${stall.forMs}ms`);
  const outcome = (s.existingScan?.plan ?? s.tenant.scanPlan)?.outcome;
  if (outcome?.kind === 'completed' && outcome.resultWords)
    parts.push(`words=${JSON.stringify(outcome.resultWords)}`);
  if (s.emulator.warmupMs) parts.push(`warmup=${s.emulator.warmupMs}`);
  if (s.emulator.downloadTtlMs !== 60_000) parts.push(`downloadTtl=${s.emulator.downloadTtlMs}`);
  if (s.rateLimit.kind !== 'none') parts.push(`rateLimit=${s.rateLimit.kind}`);
  return parts.join(' ');
}
