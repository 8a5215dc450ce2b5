// Runs one scenario end to end: its own emulator (seeded by the run, so a seed reproduces the run),
// the shared stand-ins of GitHub's artifact and REST backends, the bundled action's main and post
// steps through the runner harness — and collects an Observation right after the post step.
import { createHash, randomUUID } from 'node:crypto';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { startEmulator } from '../emulator/emulator.js';
import type { Emulator, LoggedRequest, ScanPlan } from '../emulator/types.js';
import { startArtifactStandin, type ArtifactStandin } from '../helpers/artifact-standin.js';
import {
  ACTIONS_BOT,
  startGitHubApiStandin,
  type GitHubApiStandin,
  type GitHubRequest,
} from '../helpers/github-api-standin.js';
import { foreignView, plantForeign } from './foreign.js';
import type { RecordedRequest } from '../helpers/http-server.js';
import {
  createJobDirectory,
  removeJobDirectory,
  runJob,
  type JobDirectory,
  type ActionEvent,
  type CancelPlan,
  type JobResult,
  type StepResult,
} from '../helpers/runner.js';
import { containsSecret, findSecretInRequests } from '../helpers/secret-scan.js';
import { RollupBuilder } from '../../src/pipeline/rollup/rollup.js';
import { summarize } from '../../src/pipeline/rollup/records.js';
import type { FileView, ForeignRequest, Observation, StepView } from './observation.js';
import { DOWNLOAD_ROUTE, type Scenario } from './scenario.js';

const DEFAULT_REPORT_PATH = 'tenant-scan-report.pdf';
const PULL_NUMBER = 7;
const HEAD_SHA = 'feedfacefeedfacefeedfacefeedfacefeedface';
/** Safety net: a main step running longer than this is a hang (the harness kills it). It must
 *  exceed the longest legitimate retry schedule: a storm of 12 429s without Retry-After is
 *  retried with full-jitter backoff capped at 30 s (about 90 s), since busy answers are retried
 *  until the job's deadline. */
export const MAIN_STEP_TIMEOUT_MS = 240_000;
const POST_STEP_TIMEOUT_MS = 40_000;

/** The GitHub backends, shared by every run (each run's artifacts get their own backend ids). */
export interface SharedBackends {
  artifacts: ArtifactStandin;
  github: GitHubApiStandin;
  close(): Promise<void>;
}

export async function startSharedBackends(): Promise<SharedBackends> {
  const artifacts = await startArtifactStandin();
  const github = await startGitHubApiStandin({
    pullRequests: [
      { number: PULL_NUMBER, head: { sha: HEAD_SHA, ref: 'feature' }, base: { ref: 'main' } },
    ],
  });
  return {
    artifacts,
    github,
    close: async () => {
      await Promise.all([artifacts.close(), github.close()]);
    },
  };
}

export interface RunRecord {
  observation: Observation;
  job: JobResult;
  wallMs: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A call to the emulator's API as the tenant (setup only): waits out the warm-up. */
async function apiCall(emu: Emulator, key: string, method: string, path: string, body?: unknown) {
  for (let attempt = 0; ; attempt++) {
    const response = await fetch(`${emu.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (response.status !== 503 || attempt > 50) return { status: response.status, text };
    await sleep(100);
  }
}

/** Creates the scan to follow (scan-id) before the run; optionally finished and with a report. */
async function createExistingScan(emu: Emulator, scenario: Scenario): Promise<string | undefined> {
  const existing = scenario.existingScan;
  if (!existing) return undefined;
  emu.setScanPlan(existing.plan);
  const created = await apiCall(emu, emu.apiKey, 'POST', '/tenants/me/scans', {
    scanType: 'compliance',
  });
  emu.setScanPlan(scenario.tenant.scanPlan ?? {});
  const id = (JSON.parse(created.text) as { data?: { id?: string } }).data?.id;
  if (!id)
    throw new Error(`campaign setup: could not create the scan to follow (${created.status})`);
  if (existing.reportReady) {
    emu.advance((existing.plan.durationMs ?? 10_000) + (existing.plan.queuedMs ?? 0) + 1_000);
    await apiCall(emu, emu.apiKey, 'POST', `/scans/${id}/report/generate`);
    emu.advance((scenario.emulator.reportRenderMs ?? 3_000) + 1_000);
  }
  return id;
}

/** Starts a scan as another job would: another key of the same tenant. */
export async function startOtherJobScan(
  emu: Emulator,
  plan: ScanPlan,
  runPlan: ScanPlan,
): Promise<void> {
  const otherKey = emu.addKey(emu.tenantId, 'Another pipeline');
  emu.setScanPlan(plan);
  const created = await apiCall(emu, otherKey, 'POST', '/tenants/me/scans', {
    scanType: 'compliance',
  });
  emu.setScanPlan(runPlan);
  if (created.status !== 201) {
    throw new Error(`campaign setup: another job's scan was not created (${created.status})`);
  }
}

function waiversPath(scenario: Scenario): string {
  return scenario.inputs['waivers-file'] || '.tenant-scan/waivers.yml';
}

/** The waivers of the scenario as a YAML file in a new job's workspace, dated from today. */
async function jobWithWaivers(scenario: Scenario): Promise<JobDirectory> {
  const job = await createJobDirectory();
  if (!scenario.waivers) return job;
  const day = (offset: number) =>
    new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
  const entries = scenario.waivers.map(
    (w) =>
      `  - check: ${w.check}\n    reason: campaign waiver\n    expires: ${day(w.expiresInDays)}\n`,
  );
  const file = join(job.workspace, waiversPath(scenario));
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, `waivers:\n${entries.join('')}`);
  return job;
}

/** A scan of the run's type by the run's key that is complete at once: the run's baseline. */
async function createEarlierScan(
  emu: Emulator,
  plan: ScanPlan,
  runPlan: ScanPlan,
  scanType: string,
): Promise<void> {
  emu.setScanPlan(plan);
  const created = await apiCall(emu, emu.apiKey, 'POST', '/tenants/me/scans', { scanType });
  emu.setScanPlan(runPlan);
  if (created.status !== 201) {
    throw new Error(`campaign setup: the earlier scan was not created (${created.status})`);
  }
}

/** Whether a scan of this plan stops moving for good: stuck, or a stall that never ends. */
function stallsForGood(plan: ScanPlan | undefined): boolean {
  return plan?.outcome?.kind === 'stuck' || plan?.stall?.forMs === Infinity;
}

function cancelPlan(scenario: Scenario): CancelPlan | undefined {
  const { kind, after } = scenario.cancel;
  if (kind === 'none') return undefined;
  return {
    after:
      after === 'triggered'
        ? /Triggered \S+ scan|Following scan/
        : after === 'report'
          ? /Report status|Generating the report/
          : after,
    mode: kind === 'kill' ? 'kill' : 'runner',
  };
}

function event(scenario: Scenario): ActionEvent | undefined {
  if (!scenario.pullRequest) return undefined;
  return {
    name: 'pull_request',
    payload: {
      action: 'synchronize',
      number: PULL_NUMBER,
      pull_request: {
        number: PULL_NUMBER,
        head: { sha: HEAD_SHA, ref: 'feature' },
        base: { ref: 'main' },
      },
      repository: {
        full_name: 'octo-org/octo-repo',
        name: 'octo-repo',
        owner: { login: 'octo-org' },
      },
    },
  };
}

function stepView(step: StepResult): StepView {
  return {
    exitCode: step.exitCode,
    signal: step.signal,
    stdout: step.stdout,
    stderr: step.stderr,
    outputs: step.outputs,
    state: step.state,
    summary: step.summary,
    errors: step.annotations.filter((a) => a.level === 'error').map((a) => a.message),
    signalsSent: step.signals.map((s) => s.signal),
    timedOut: step.timedOut,
    durationMs: step.durationMs,
    peakRssBytes: step.peakRssBytes,
  };
}

async function filesUnder(root: string, key: string): Promise<FileView[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  const files: FileView[] = [];
  for (const entry of entries.filter((e) => e.isFile())) {
    const path = join(entry.parentPath, entry.name);
    const bytes = await readFile(path);
    const text = bytes.toString('latin1');
    files.push({
      path: relative(root, path),
      bytes: bytes.length,
      sha256: createHash('sha256').update(bytes).digest('hex'),
      containsKey: containsSecret(text, key),
    });
  }
  return files;
}

/** How a roll-up judges one record: its row's verdict and why. */
function judgedRecord(document: unknown): { verdict: string; problem: string | null } {
  const builder = new RollupBuilder();
  try {
    builder.add({ kind: 'read', source: 'record', record: summarize(document) });
  } catch (error) {
    return {
      verdict: 'unreadable',
      problem: error instanceof Error ? error.message : 'unreadable',
    };
  }
  const row = builder.finish().tenants[0];
  return { verdict: row?.verdict ?? 'missing', problem: row?.problem ?? null };
}

/** The run's record (record-file) as a roll-up judges it, and, for a failed run, the same record
 *  edited to say `passed`. */
async function recordView(path: string | undefined): Promise<Observation['record']> {
  if (!path) return undefined;
  const document = (await readFile(path, 'utf8')
    .then((text) => JSON.parse(text) as unknown)
    .catch(() => undefined)) as Record<string, unknown> | undefined;
  if (document === undefined) return { verdict: 'unreadable', problem: 'not JSON' };
  const edited =
    document.verdict === 'failed' ? judgedRecord({ ...document, verdict: 'passed' }) : undefined;
  return { ...judgedRecord(document), ...(edited ? { editedToPass: edited.verdict } : {}) };
}

function emulatorForeignRequests(log: LoggedRequest[], key: string): ForeignRequest[] {
  return log
    .filter((r) => r.origin !== 'api')
    .map((r) => {
      const found: string[] = [];
      if (containsSecret(`${r.path}?${r.query}`, key)) found.push('url');
      for (const [name, value] of Object.entries(r.headers)) {
        if (containsSecret(String(value), key)) found.push(`header ${name}`);
      }
      return { origin: r.origin, method: r.method, path: r.path, keyFoundIn: found };
    });
}

interface GitHubWrite {
  body?: unknown;
  title?: unknown;
  output?: { summary?: unknown; title?: unknown };
}

/** What a run wrote to GitHub (POST and PATCH bodies), picked by `fields`: the Markdown (comment
 *  and issue bodies, check run summaries) or the titles (issues, check runs). */
function githubWrites(
  requests: RecordedRequest[],
  fields: (write: GitHubWrite) => unknown[],
): string[] {
  return requests.flatMap((r) => {
    if (r.method !== 'POST' && r.method !== 'PATCH') return [];
    try {
      const write = JSON.parse(r.body.toString('utf8')) as GitHubWrite;
      return fields(write).filter((t): t is string => typeof t === 'string');
    } catch {
      return [];
    }
  });
}

/** The issues under the run's own tracking label, and how many issue writes the run made. */
function trackingView(
  github: GitHubApiStandin,
  inputs: Record<string, string>,
  requests: GitHubRequest[],
): Pick<Observation, 'trackingIssues' | 'trackingWrites'> {
  const label = inputs['tracking-labels'];
  if (!inputs['tracking-issue'] || !label) return {};
  return {
    // The run's own issues: an outsider's that carry our markers (foreign.ts) are not.
    trackingIssues: [...github.issues.values()]
      .filter((issue) => issue.labels.includes(label) && issue.user.login === ACTIONS_BOT.login)
      .map((issue) => ({
        number: issue.number,
        state: issue.state,
        markers: issue.body.match(/<!-- tenant-scan-tracking:[^>]* -->/g) ?? [],
      })),
    trackingWrites: requests.filter(
      (r) => r.operationId === 'issues/create' || r.operationId === 'issues/update',
    ).length,
  };
}

function standinForeignRequests(
  requests: RecordedRequest[],
  origin: string,
  key: string,
): ForeignRequest[] {
  return requests.map((r) => ({
    origin,
    method: r.method,
    path: r.path,
    keyFoundIn: findSecretInRequests(key, [r], origin).map((place) =>
      place.split(' ').slice(3).join(' '),
    ),
  }));
}

/** Another job starts a scan (another key, same tenant and type) right after the run's first
 *  answered request, i.e. just before the run triggers. Best effort: a refusal (quota) is fine. */
async function otherJobStartsBeforeTrigger(
  emu: Emulator,
  runKey: string,
  scanType: string,
  runEnded: () => boolean,
): Promise<void> {
  const answered = () =>
    emu
      .requests()
      .some(
        (r) =>
          r.origin === 'api' && r.status === 200 && r.headers.authorization === `Bearer ${runKey}`,
      );
  while (!answered()) {
    if (runEnded()) return;
    await sleep(10);
  }
  const otherKey = emu.addKey(emu.tenantId, 'Another pipeline (matrix)');
  await apiCall(emu, otherKey, 'POST', '/tenants/me/scans', { scanType }).catch(() => undefined);
}

/** dist/ vanished mid-run (`npm run build` elsewhere): a harness problem, not the action's. */
function assertBundlePresent(job: JobResult): void {
  for (const step of [job.main, job.post]) {
    if (step && /Cannot find module '[^']*\/dist\//.test(step.stderr)) {
      throw new Error('dist/ was missing while the run ran (rebuilt meanwhile?); run it again');
    }
  }
}

export interface ExecuteOptions {
  backends: SharedBackends;
  /** Runs alongside the job (regression tests: act on the emulator at a precise moment). */
  duringRun?: (emu: Emulator) => Promise<void>;
  /** Keep the job directory (for debugging a failing seed). */
  keepJob?: boolean;
}

export async function executeScenario(
  scenario: Scenario,
  options: ExecuteOptions,
): Promise<RunRecord> {
  const started = Date.now();
  const emu = await startEmulator({
    seed: scenario.seed,
    // Each scan draws its own failed checks: a baseline then has new and fixed findings to judge.
    results: 'every-scan',
    ...scenario.emulator,
    rateLimit: scenario.rateLimit,
    tenant: scenario.tenant,
  });
  let job: JobResult | undefined;
  let runEnded = false;
  const { artifacts, github } = options.backends;
  try {
    const followed = await createExistingScan(emu, scenario);
    if (scenario.bystander) {
      await startOtherJobScan(emu, scenario.bystander, scenario.tenant.scanPlan ?? {});
    }
    const scanTypeOfRun = scenario.inputs['scan-type'] || 'compliance';
    if (scenario.earlierScan) {
      await createEarlierScan(
        emu,
        scenario.earlierScan,
        scenario.tenant.scanPlan ?? {},
        scanTypeOfRun,
      );
    }
    if (scenario.history) {
      emu.seedHistory(
        scenario.history.map((h) => ({
          ageMs: h.ageDays * 86_400_000,
          failedChecks: h.failedChecks,
          scanType: scanTypeOfRun,
          ...(h.skewHours ? { clockSkewMs: h.skewHours * 3_600_000 } : {}),
        })),
      );
    }
    const apiKey = scenario.badKey ? `ak_live_campaignUnknownKey${scenario.seed}` : emu.apiKey;
    emu.setVariant(scenario.variant);
    // API faults hit this run's requests only (its key), not another job's the scenario starts
    // meanwhile: the campaign judges the action, and reading another job's endless answer would
    // only exhaust the campaign itself. Downloads present no key: their faults stay as drawn.
    for (const rule of scenario.faults) {
      emu.addFault(rule.route === DOWNLOAD_ROUTE ? rule : { ...rule, key: apiKey });
    }
    emu.clearRequests();
    const scansBefore = emu.scans(emu.tenantId);
    const creditsBefore = emu.creditsSpent(emu.tenantId);
    const artifactStart = artifacts.requests.length;
    const githubStart = github.requests.length;
    const useEnvUrl = scenario.seed % 3 === 0;
    // Runs share the GitHub stand-in: each presents its own token, so its requests can be told.
    const githubToken = `ghs_campaign_run_${scenario.seed}`;
    const inputs: Record<string, string> = {
      'github-token': githubToken,
      'api-key': apiKey,
      ...(useEnvUrl ? {} : { 'api-url': emu.url }),
      ...scenario.inputs,
      ...(followed ? { 'scan-id': followed } : {}),
    };
    const runBackendId = randomUUID();

    const planted = scenario.foreignMarkers
      ? plantForeign(github, {
          inputs,
          apiOrigin: new URL(emu.url).origin,
          tenantName: scenario.tenant.name ?? 'Contoso Ltd',
          pullNumber: scenario.pullRequest ? PULL_NUMBER : undefined,
        })
      : [];
    const scanType = inputs['scan-type'] || 'compliance';
    const alongside = Promise.all([
      options.duringRun?.(emu),
      scenario.otherJobDuringRun
        ? otherJobStartsBeforeTrigger(emu, apiKey, scanType, () => runEnded)
        : undefined,
    ]);
    job = await runJob({
      job: await jobWithWaivers(scenario),
      inputs,
      env: {
        ...(useEnvUrl ? { SERVICE_API_URL: emu.url } : {}),
        ...(scenario.artifacts ? artifacts.runtimeEnv({ workflowRunBackendId: runBackendId }) : {}),
      },
      apiUrl: github.url,
      event: event(scenario),
      cancel: cancelPlan(scenario),
      timeoutMs: MAIN_STEP_TIMEOUT_MS,
      post: { timeoutMs: POST_STEP_TIMEOUT_MS },
    });
    runEnded = true;
    // Ground truth at the moment the post step ended: a scan still running now was left running.
    const scansAfter = emu.scans(emu.tenantId);
    await alongside;
    assertBundlePresent(job);
    const creditsAfter = emu.creditsSpent(emu.tenantId);
    const log = emu.requests();

    const root = job.job.root;
    const reportPath = resolve(job.job.workspace, inputs['report-path'] || DEFAULT_REPORT_PATH);
    const uploaded = artifacts.finalized().filter((a) => a.workflowRunBackendId === runBackendId);
    const runKeyId = log.find(
      (r) => r.origin === 'api' && r.keyId && r.headers.authorization === `Bearer ${apiKey}`,
    )?.keyId;
    const ownGitHubRequests = github.requests
      .slice(githubStart)
      .filter((r) => String(r.headers.authorization).endsWith(githubToken));
    const observation: Observation = {
      seed: scenario.seed,
      apiKey,
      runKeyId,
      inputs,
      cancelKind: scenario.cancel.kind,
      main: stepView(job.main),
      post: job.post && stepView(job.post),
      scansBefore,
      scansAfter,
      failedFindings: Object.fromEntries(scansAfter.map((s) => [s.id, emu.failedFindings(s.id)])),
      evaluatedChecks: Object.fromEntries(
        scansAfter.map((s) => [
          s.id,
          (emu.results?.(s.id) ?? []).filter((r) => r.evaluated).map((r) => r.checkId),
        ]),
      ),
      stalledForGood: stallsForGood(scenario.existingScan?.plan ?? scenario.tenant.scanPlan),
      findingShape: scenario.variant.findingShape ?? 'default',
      waivedChecks: (scenario.waivers ?? [])
        .filter((w) => w.expiresInDays >= 0)
        .map((w) => w.check),
      givenFiles: scenario.waivers ? [waiversPath(scenario)] : [],
      creditsBefore,
      creditsAfter,
      reportDigests: Object.fromEntries(
        scansAfter.map((s) => [s.id, emu.reportDigest(s.id).sha256]),
      ),
      files: await filesUnder(root, apiKey),
      workspacePrefix: `${relative(root, job.job.workspace)}/`,
      reportFile: relative(root, reportPath),
      foreignRequests: [
        ...emulatorForeignRequests(log, apiKey),
        ...standinForeignRequests(artifacts.requests.slice(artifactStart), 'artifact', apiKey),
        ...standinForeignRequests(github.requests.slice(githubStart), 'github', apiKey),
      ],
      apiRequests: log
        .filter((r) => r.origin === 'api')
        .map((r) => ({
          method: r.method,
          path: r.path,
          status: r.status,
          fault: r.fault,
          durationMs: r.durationMs,
          query: r.query,
        })),
      countsShown: (scenario.variant.countsShape ?? 'default') !== 'none',
      githubMarkdown: githubWrites(ownGitHubRequests, (w) => [w.body, w.output?.summary]),
      githubTitles: githubWrites(ownGitHubRequests, (w) => [w.title, w.output?.title]),
      ...trackingView(github, inputs, ownGitHubRequests),
      ...(planted.length > 0
        ? { foreignItems: foreignView(github, planted, ownGitHubRequests) }
        : {}),
      downloads: log
        .filter((r) => r.origin === 'download')
        .map((r) => ({ status: r.status, fault: r.fault, durationMs: r.durationMs })),
      uploadedReports: uploaded.map((a) => a.sha256),
      record: await recordView(job.main.outputs['record-file']),
    };
    return { observation, job, wallMs: Date.now() - started };
  } finally {
    runEnded = true;
    if (job && !options.keepJob) await removeJobDirectory(job.job);
    await emu.close();
  }
}
