// The runner harness: runs the bundled action (`dist/index.js`, `dist/post/index.js`) as a child
// process the way the GitHub runner does — clean env, INPUT_* variables with action.yml defaults,
// file commands, event payload, STATE_* for the post step, and the runner's cancellation sequence —
// and reads back what the runner would: exit code, outputs, state, summary, annotations, masks.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, rmSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { evaluateDefault, readActionMetadata, type ActionMetadata } from './action-metadata.js';
import {
  parseFileCommands,
  parseWorkflowCommands,
  toAnnotations,
  type Annotation,
  type WorkflowCommand,
} from './workflow-commands.js';
import { watchPeakRss } from './peak-rss.js';

export type { Annotation, WorkflowCommand } from './workflow-commands.js';

export const PROJECT_ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** Node 24 from the `node` npm package: the runtime `runs.using: node24` gives the action. */
export const NODE_24 = join(PROJECT_ROOT, 'node_modules', '.bin', 'node');
export const ENTRY_SCRIPTS = {
  main: join(PROJECT_ROOT, 'dist', 'index.js'),
  post: join(PROJECT_ROOT, 'dist', 'post', 'index.js'),
  /** The rollup sub-action (rollup/action.yml). */
  rollup: join(PROJECT_ROOT, 'dist', 'rollup', 'index.js'),
  /** The rotate-key sub-action (rotate-key/action.yml). */
  'rotate-key': join(PROJECT_ROOT, 'dist', 'rotate-key', 'index.js'),
  /** The settings sub-action (settings/action.yml). */
  settings: join(PROJECT_ROOT, 'dist', 'settings', 'index.js'),
  /** The tenants sub-action (tenants/action.yml): a chunk of tenants through the bundled CLI. */
  tenants: join(PROJECT_ROOT, 'dist', 'tenants', 'index.js'),
  /** Its post step: cancels the scans a killed chunk step left running. */
  'tenants-post': join(PROJECT_ROOT, 'dist', 'tenants-post', 'index.js'),
} as const;

/** The action.yml of each entry: its inputs' defaults apply. */
const ENTRY_METADATA = {
  main: join(PROJECT_ROOT, 'action.yml'),
  post: join(PROJECT_ROOT, 'action.yml'),
  rollup: join(PROJECT_ROOT, 'rollup', 'action.yml'),
  'rotate-key': join(PROJECT_ROOT, 'rotate-key', 'action.yml'),
  settings: join(PROJECT_ROOT, 'settings', 'action.yml'),
  tenants: join(PROJECT_ROOT, 'tenants', 'action.yml'),
  'tenants-post': join(PROJECT_ROOT, 'tenants', 'action.yml'),
} as const;

/** The runner's cancellation timings: SIGINT, SIGTERM 7.5 s later, tree kill 2.5 s after that. */
export const RUNNER_SIGTERM_DELAY_MS = 7500;
export const RUNNER_KILL_DELAY_MS = 2500;
/** The runner drops (does not truncate) a step summary over 1 MiB. */
export const STEP_SUMMARY_LIMIT_BYTES = 1024 * 1024;

export interface ActionEvent {
  /** `GITHUB_EVENT_NAME`, e.g. `push`, `pull_request`, `schedule`, `workflow_dispatch`. */
  name: string;
  /** Written as JSON to the file at `GITHUB_EVENT_PATH`. */
  payload: Record<string, unknown>;
}

/**
 * How to cancel the step. `runner` reproduces a cancelled job: SIGINT to the node process, SIGTERM
 * `sigtermDelayMs` later if still running, then SIGKILL to the whole process tree `killDelayMs`
 * after that. `kill` is a step killed outright (runner lost, OOM): SIGKILL to the tree at once.
 * Tests may scale the delays down; the defaults are the runner's.
 */
export interface CancelPlan {
  /** When to start: ms after the process started, or when stdout/stderr first matches. */
  after: number | RegExp;
  mode?: 'runner' | 'kill';
  sigtermDelayMs?: number;
  killDelayMs?: number;
}

/** The scratch layout of one job, shared by its steps (main, then post). */
export interface JobDirectory {
  root: string;
  workspace: string;
  runnerTemp: string;
  eventPath: string;
  fileCommandsDir: string;
}

export interface StepOptions {
  entry: keyof typeof ENTRY_SCRIPTS;
  /** Step inputs (`with:`), by the name declared in action.yml. Set as `INPUT_<NAME>`. */
  inputs?: Record<string, string>;
  /** Extra env (`env:` of the step/job, runtime tokens, …); `undefined` removes a variable. */
  env?: Record<string, string | undefined>;
  /** Default `push` with a minimal payload. */
  event?: ActionEvent;
  /** Saved state from the main step, given as `STATE_<name>` (runJob does this for you). */
  state?: Record<string, string>;
  /** Use this job directory (runJob shares one between main and post); default a new one. */
  job?: JobDirectory;
  /** Run this script instead of the dist entry (self-tests, fixtures). */
  script?: string;
  /** action.yml whose input defaults are applied; default `<project>/action.yml` if present. */
  actionYml?: string | null;
  /** Value of `${{ github.token }}` in input defaults (default a fake `ghs_` token). */
  githubToken?: string;
  /** `GITHUB_API_URL` (point it at the REST stand-in); default https://api.github.com. */
  apiUrl?: string;
  /** `GITHUB_SERVER_URL`; default https://github.com (the artifact client refuses other hosts). */
  serverUrl?: string;
  repository?: string;
  sha?: string;
  runId?: string;
  /** `GITHUB_ACTION`, the step id; default `tenant-scan`. */
  actionId?: string;
  cancel?: CancelPlan;
  /** Hard limit: SIGKILL the tree and set `timedOut` (default 60 s). */
  timeoutMs?: number;
}

export interface SentSignal {
  signal: NodeJS.Signals;
  /** Ms since the process started. */
  atMs: number;
  /** Sent to the whole process group (tree) rather than the node process. */
  tree: boolean;
}

export interface StepResult {
  exitCode: number | null;
  /** The signal that ended the process, if one did. */
  signal: NodeJS.Signals | null;
  /** The runner's view: the step succeeded only if it exited 0. */
  succeeded: boolean;
  stdout: string;
  stderr: string;
  /** Parsed from the `GITHUB_OUTPUT` file. */
  outputs: Record<string, string>;
  /** Parsed from the `GITHUB_STATE` file. */
  state: Record<string, string>;
  /** Variables exported through `GITHUB_ENV` (they reach later steps, including post). */
  exportedEnv: Record<string, string>;
  /** Text of the `GITHUB_STEP_SUMMARY` file ('' when none was written). */
  summary: string;
  /** True when the summary is over 1 MiB: the runner drops it whole. */
  summaryDropped: boolean;
  /** `::error` / `::warning` / `::notice` commands from stdout and stderr, in order. */
  annotations: Annotation[];
  /** True when some level had more than 10 annotations (the rest stay in the log only). */
  annotationsCapped: boolean;
  /** Values registered with `::add-mask::`. */
  masks: string[];
  /** Every workflow command seen (debug, group, add-mask, annotations, …). */
  commands: WorkflowCommand[];
  /** Signals the harness sent (cancellation, timeout). */
  signals: SentSignal[];
  timedOut: boolean;
  /** Wall time from spawn to exit. */
  durationMs: number;
  /** Peak resident memory of the node process (VmHWM, sampled while it ran); undefined without /proc. */
  peakRssBytes?: number;
  /** The env the process was started with (assert on it; it holds the inputs). */
  env: Record<string, string>;
  job: JobDirectory;
}

const FAKE_GITHUB_TOKEN = 'ghs_harnessFakeWorkflowToken000000000000';
export const DEFAULT_REPOSITORY = 'octo-org/octo-repo';
export const DEFAULT_RUN_ID = '4242424242';
const DEFAULT_SHA = '0123456789abcdef0123456789abcdef01234567';
const DEFAULT_TIMEOUT_MS = 60_000;

/** `INPUT_<NAME>`: upper-cased, spaces to `_`, hyphens kept — as the runner names them. */
export function inputEnvName(name: string): string {
  return `INPUT_${name.replace(/ /g, '_').toUpperCase()}`;
}

/** Creates a job's scratch layout under the OS temp dir (removed by `removeJobDirectory`). */
export async function createJobDirectory(): Promise<JobDirectory> {
  const root = await mkdtemp(join(tmpdir(), 'tenant-scan-job-'));
  const job: JobDirectory = {
    root,
    workspace: join(root, 'work', 'repo'),
    runnerTemp: join(root, 'work', '_temp'),
    eventPath: join(root, 'work', '_temp', '_github_workflow', 'event.json'),
    fileCommandsDir: join(root, 'work', '_temp', '_runner_file_commands'),
  };
  await mkdir(job.workspace, { recursive: true });
  await mkdir(job.fileCommandsDir, { recursive: true });
  await mkdir(join(job.runnerTemp, '_github_workflow'), { recursive: true });
  return job;
}

export async function removeJobDirectory(job: JobDirectory): Promise<void> {
  await rm(job.root, { recursive: true, force: true });
}

function defaultEvent(repository: string, sha: string): ActionEvent {
  const [owner = '', name = ''] = repository.split('/');
  return {
    name: 'push',
    payload: {
      ref: 'refs/heads/main',
      after: sha,
      repository: { full_name: repository, name, owner: { login: owner } },
    },
  };
}

function refsFor(event: ActionEvent): Record<string, string> {
  const pull = event.payload.pull_request as
    { number?: number; head?: { ref?: string }; base?: { ref?: string } } | undefined;
  if (event.name.startsWith('pull_request') && pull?.number !== undefined) {
    return {
      GITHUB_REF: `refs/pull/${pull.number}/merge`,
      GITHUB_REF_NAME: `${pull.number}/merge`,
      GITHUB_REF_TYPE: 'branch',
      GITHUB_HEAD_REF: pull.head?.ref ?? '',
      GITHUB_BASE_REF: pull.base?.ref ?? '',
    };
  }
  const ref = typeof event.payload.ref === 'string' ? event.payload.ref : 'refs/heads/main';
  return {
    GITHUB_REF: ref,
    GITHUB_REF_NAME: ref.replace(/^refs\/(heads|tags)\//, ''),
    GITHUB_REF_TYPE: ref.startsWith('refs/tags/') ? 'tag' : 'branch',
    GITHUB_HEAD_REF: '',
    GITHUB_BASE_REF: '',
  };
}

function loadMetadata(
  actionYml: string | null | undefined,
  entry: StepOptions['entry'],
): ActionMetadata | undefined {
  const path = actionYml === undefined ? ENTRY_METADATA[entry] : actionYml;
  if (path === null || (actionYml === undefined && !existsSync(path))) return undefined;
  return readActionMetadata(path);
}

/** Inputs as the runner sets them: action.yml defaults for inputs not given, then the given ones. */
function inputEnv(options: StepOptions, metadata: ActionMetadata | undefined) {
  const env: Record<string, string> = {};
  const context = { 'github.token': options.githubToken ?? FAKE_GITHUB_TOKEN };
  for (const [name, input] of Object.entries(metadata?.inputs ?? {})) {
    if (input?.default !== undefined)
      env[inputEnvName(name)] = evaluateDefault(input.default, context);
  }
  for (const [name, value] of Object.entries(options.inputs ?? {})) env[inputEnvName(name)] = value;
  return env;
}

interface StepFiles {
  output: string;
  state: string;
  summary: string;
  env: string;
  path: string;
}

async function createStepFiles(job: JobDirectory): Promise<StepFiles> {
  const id = randomUUID();
  const file = (kind: string) => join(job.fileCommandsDir, `${kind}_${id}`);
  const files = {
    output: file('set_output'),
    state: file('save_state'),
    summary: file('step_summary'),
    env: file('set_env'),
    path: file('add_path'),
  };
  await Promise.all(Object.values(files).map((f) => writeFile(f, '')));
  return files;
}

function runnerEnv(
  options: StepOptions,
  job: JobDirectory,
  files: StepFiles,
  event: ActionEvent,
): Record<string, string> {
  const repository = options.repository ?? DEFAULT_REPOSITORY;
  const serverUrl = options.serverUrl ?? 'https://github.com';
  return {
    // A plain system PATH (not the project's node_modules/.bin: the action must not depend on it)
    // and HOME; the rest is what the runner sets.
    PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
    HOME: process.env.HOME ?? job.root,
    CI: 'true',
    GITHUB_ACTIONS: 'true',
    GITHUB_ACTION: options.actionId ?? 'tenant-scan',
    GITHUB_ACTOR: 'octocat',
    GITHUB_API_URL: options.apiUrl ?? 'https://api.github.com',
    GITHUB_GRAPHQL_URL: `${options.apiUrl ?? 'https://api.github.com'}/graphql`,
    GITHUB_SERVER_URL: serverUrl,
    GITHUB_REPOSITORY: repository,
    GITHUB_REPOSITORY_OWNER: repository.split('/')[0] ?? '',
    GITHUB_SHA: options.sha ?? DEFAULT_SHA,
    GITHUB_RUN_ID: options.runId ?? DEFAULT_RUN_ID,
    GITHUB_RUN_NUMBER: '7',
    GITHUB_RUN_ATTEMPT: '1',
    GITHUB_WORKFLOW: 'scan',
    GITHUB_JOB: 'scan',
    GITHUB_EVENT_NAME: event.name,
    GITHUB_EVENT_PATH: job.eventPath,
    GITHUB_WORKSPACE: job.workspace,
    GITHUB_OUTPUT: files.output,
    GITHUB_STATE: files.state,
    GITHUB_STEP_SUMMARY: files.summary,
    GITHUB_ENV: files.env,
    GITHUB_PATH: files.path,
    ...refsFor(event),
    RUNNER_OS: 'Linux',
    RUNNER_ARCH: 'X64',
    RUNNER_NAME: 'harness-runner',
    RUNNER_ENVIRONMENT: 'github-hosted',
    RUNNER_TEMP: job.runnerTemp,
    RUNNER_TOOL_CACHE: join(job.root, 'toolcache'),
  };
}

function buildEnv(base: Record<string, string>, extra: StepOptions['env']): Record<string, string> {
  const env = { ...base };
  for (const [name, value] of Object.entries(extra ?? {})) {
    if (value === undefined) delete env[name];
    else env[name] = value;
  }
  return env;
}

function signalTree(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    // The child leads its own process group (spawned detached), so -pid is the whole tree.
    process.kill(-(child.pid as number), signal);
  } catch {
    // already gone
  }
}

/** Drives SIGINT → SIGTERM → tree SIGKILL (or an outright kill) and the hard timeout. */
class StepSupervisor {
  readonly signals: SentSignal[] = [];
  timedOut = false;
  private readonly started = Date.now();
  private readonly timers: NodeJS.Timeout[] = [];
  private cancelStarted = false;
  private exited = false;

  constructor(
    private readonly child: ChildProcess,
    private readonly plan: CancelPlan | undefined,
    timeoutMs: number,
  ) {
    this.later(timeoutMs, () => {
      this.timedOut = true;
      this.send('SIGKILL', true);
    });
    if (typeof plan?.after === 'number') this.later(plan.after, () => this.startCancel());
  }

  /** Called with all output so far; starts cancellation when the plan's pattern first matches. */
  onOutput(text: string): void {
    if (this.plan?.after instanceof RegExp && text.search(this.plan.after) !== -1)
      this.startCancel();
  }

  markExited(): void {
    this.exited = true;
    for (const timer of this.timers) clearTimeout(timer);
  }

  private startCancel(): void {
    if (this.cancelStarted || this.exited || !this.plan) return;
    this.cancelStarted = true;
    if (this.plan.mode === 'kill') {
      this.send('SIGKILL', true);
      return;
    }
    this.send('SIGINT', false);
    const sigtermDelay = this.plan.sigtermDelayMs ?? RUNNER_SIGTERM_DELAY_MS;
    const killDelay = this.plan.killDelayMs ?? RUNNER_KILL_DELAY_MS;
    this.later(sigtermDelay, () => {
      this.send('SIGTERM', false);
      this.later(killDelay, () => this.send('SIGKILL', true));
    });
  }

  private later(ms: number, action: () => void): void {
    this.timers.push(setTimeout(() => !this.exited && action(), ms));
  }

  private send(signal: NodeJS.Signals, tree: boolean): void {
    this.signals.push({ signal, atMs: Date.now() - this.started, tree });
    if (tree) signalTree(this.child, signal);
    else this.child.kill(signal);
  }
}

const runningChildren = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of runningChildren) signalTree(child, 'SIGKILL');
});

interface ProcessOutcome {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  supervisor: StepSupervisor;
  durationMs: number;
  peakRssBytes?: number;
}

function runProcess(
  script: string,
  env: Record<string, string>,
  cwd: string,
  options: StepOptions,
): Promise<ProcessOutcome> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const child = spawn(NODE_24, [script], { env, cwd, detached: true, stdio: 'pipe' });
    const memory = watchPeakRss(child.pid);
    let durationMs = 0;
    let peakRssBytes: number | undefined;
    child.stdin.end();
    runningChildren.add(child);
    const supervisor = new StepSupervisor(
      child,
      options.cancel,
      options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    );
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      supervisor.onOutput(stdout + stderr);
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
      supervisor.onOutput(stdout + stderr);
    });
    child.on('error', reject);
    child.on('exit', () => {
      durationMs = Date.now() - started;
      peakRssBytes = memory.stop();
      supervisor.markExited();
      // Orphans are cleaned up at job end on the runner; do it per step so none outlive a test.
      signalTree(child, 'SIGKILL');
    });
    child.on('close', (exitCode, signal) => {
      runningChildren.delete(child);
      resolve({ exitCode, signal, stdout, stderr, supervisor, durationMs, peakRssBytes });
    });
  });
}

async function readStepFiles(files: StepFiles) {
  const [output, state, summary, env] = await Promise.all(
    [files.output, files.state, files.summary, files.env].map((f) => readFile(f, 'utf8')),
  );
  return {
    outputs: parseFileCommands(output ?? ''),
    state: parseFileCommands(state ?? ''),
    summary: summary ?? '',
    summaryBytes: (await stat(files.summary)).size,
    exportedEnv: parseFileCommands(env ?? ''),
  };
}

/** Runs one step (main or post) of the action like the runner, and reads back its effects. */
/** Job directories the harness made itself (no `job` given): removed when the process exits,
 *  so a test that never asks for them leaves nothing in the temp folder. */
const madeHere = new Set<string>();
process.once('exit', () => {
  for (const root of madeHere) rmSync(root, { recursive: true, force: true });
});

export async function runActionStep(options: StepOptions): Promise<StepResult> {
  const script = options.script ?? ENTRY_SCRIPTS[options.entry];
  if (!existsSync(script)) {
    throw new Error(`runner harness: ${script} does not exist (run \`npm run build\` first)`);
  }
  const job = options.job ?? (await createJobDirectory());
  if (!options.job) madeHere.add(job.root);
  const event =
    options.event ??
    defaultEvent(options.repository ?? DEFAULT_REPOSITORY, options.sha ?? DEFAULT_SHA);
  await writeFile(job.eventPath, JSON.stringify(event.payload));
  const files = await createStepFiles(job);
  const metadata = loadMetadata(options.actionYml, options.entry);
  const stateEnv = Object.fromEntries(
    Object.entries(options.state ?? {}).map(([name, value]) => [`STATE_${name}`, value]),
  );
  const env = buildEnv(
    { ...runnerEnv(options, job, files, event), ...inputEnv(options, metadata), ...stateEnv },
    options.env,
  );
  const outcome = await runProcess(script, env, job.workspace, options);
  const effects = await readStepFiles(files);
  const commands = [
    ...parseWorkflowCommands(outcome.stdout, 'stdout'),
    ...parseWorkflowCommands(outcome.stderr, 'stderr'),
  ];
  const annotations = toAnnotations(commands);
  return {
    exitCode: outcome.exitCode,
    signal: outcome.signal,
    succeeded: outcome.exitCode === 0,
    stdout: outcome.stdout,
    stderr: outcome.stderr,
    outputs: effects.outputs,
    state: effects.state,
    exportedEnv: effects.exportedEnv,
    summary: effects.summary,
    summaryDropped: effects.summaryBytes > STEP_SUMMARY_LIMIT_BYTES,
    annotations,
    annotationsCapped: annotations.some((a) => a.overStepCap),
    masks: commands.filter((c) => c.name === 'add-mask').map((c) => c.message),
    commands,
    signals: outcome.supervisor.signals,
    timedOut: outcome.supervisor.timedOut,
    durationMs: outcome.durationMs,
    peakRssBytes: outcome.peakRssBytes,
    env,
    job,
  };
}

export interface JobOptions extends Omit<StepOptions, 'entry' | 'state' | 'script'> {
  /** Scripts to run instead of dist/index.js and dist/post/index.js (self-tests). */
  scripts?: { main: string; post: string };
  /** Overrides for the post step only (e.g. a different env); cancel never applies to post. */
  post?: Pick<StepOptions, 'env' | 'timeoutMs'>;
}

export interface JobResult {
  main: StepResult;
  /** Undefined when the post step's condition (`post-if`, default `always()`) was false. */
  post: StepResult | undefined;
  /** True when the main step was cancelled or killed by the harness. */
  cancelled: boolean;
  job: JobDirectory;
}

function postShouldRun(
  condition: string | undefined,
  main: StepResult,
  cancelled: boolean,
): boolean {
  const normalized = (condition ?? 'always()').replace(/^\$\{\{\s*|\s*\}\}$/g, '').trim();
  switch (normalized) {
    case 'always()':
      return true;
    case 'success()':
      return !cancelled && main.succeeded;
    case 'failure()':
      return !cancelled && !main.succeeded;
    case 'cancelled()':
      return cancelled;
    default:
      throw new Error(`runner harness: cannot evaluate post-if '${condition}'`);
  }
}

/**
 * Runs main then post in one job directory, as the runner does at job end: post gets the same
 * inputs, the main step's saved state as `STATE_<name>`, and env exported through `GITHUB_ENV`.
 * With `cancel`, main is cancelled (or killed) per the plan and post still runs under `always()`.
 */
export async function runJob(options: JobOptions): Promise<JobResult> {
  const job = options.job ?? (await createJobDirectory());
  if (!options.job) madeHere.add(job.root);
  const { scripts, post: postOverrides, ...common } = options;
  const main = await runActionStep({ ...common, entry: 'main', job, script: scripts?.main });
  const cancelled = options.cancel !== undefined && main.signals.length > 0 && !main.timedOut;
  const metadata = loadMetadata(options.actionYml, 'main');
  let post: StepResult | undefined;
  if (postShouldRun(metadata?.runs['post-if'], main, cancelled)) {
    post = await runActionStep({
      ...common,
      cancel: undefined,
      entry: 'post',
      job,
      script: scripts?.post,
      state: main.state,
      env: { ...main.exportedEnv, ...common.env, ...postOverrides?.env },
      timeoutMs: postOverrides?.timeoutMs ?? common.timeoutMs,
    });
  }
  return { main, post, cancelled, job };
}
