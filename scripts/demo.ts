// `npm run demo`: what tenant-scan does for you, on this machine, nothing to configure. Against a
// local emulator of the Tenant API and stand-ins of GitHub's artifact and REST backends it shows
// what you add to a repository (a secret and a step), a pull request whose run fails on a new
// critical finding (the run page's annotations, the job summary as a reader sees it, the check run,
// the PR comment, the report artifact, the report page kept to open in a browser), the fix landing:
// the same job with the CLI as any CI runs it (JUnit and SARIF), and the Action green again. Then the next step. `--verbose` adds the logs.
// dist/ runs exactly as the runner runs it (test/helpers/runner.ts). Exit 0 when all went as shown.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parse } from 'yaml';
import { startEmulator } from '../test/emulator/emulator.js';
import type { Emulator } from '../test/emulator/types.js';
import { startArtifactStandin, type ArtifactStandin } from '../test/helpers/artifact-standin.js';
import {
  startGitHubApiStandin,
  type GitHubApiStandin,
} from '../test/helpers/github-api-standin.js';
import {
  ENTRY_SCRIPTS,
  PROJECT_ROOT,
  createJobDirectory,
  removeJobDirectory,
  runJob,
  type JobDirectory,
  type StepResult,
} from '../test/helpers/runner.js';
import { terminalMarkdown } from './terminal-markdown.js';

const VERBOSE = process.argv.includes('--verbose');
const CLI = join(PROJECT_ROOT, 'dist', 'cli', 'index.js');
const SECRET = 'TENANT_SCAN_API_KEY';
const PULL_REQUEST = 7;
const HEAD_SHA = '5ca1ab1e5ca1ab1e5ca1ab1e5ca1ab1e5ca1ab1e';
const LAST_NIGHT = ['CIS-1.1.1', 'CIS-1.1.2', 'CIS-1.1.3', 'CIS-1.3.1', 'CIS-2.1.1'];
// On the pull request CIS-2.1.1 is fixed; CIS-2.4.4 (critical) and CIS-1.3.4 (low) are new.
const ON_THE_PR = ['CIS-1.1.1', 'CIS-1.1.2', 'CIS-1.1.3', 'CIS-1.3.1', 'CIS-2.4.4', 'CIS-1.3.4'];
const AFTER_THE_FIX = ON_THE_PR.filter((check) => check !== 'CIS-2.4.4');

/** The step's inputs besides the key and the address: what the user writes under `with:`. */
const INPUTS = {
  'fail-on-severity': 'medium',
  baseline: 'previous',
  'fail-on': 'new',
  report: 'generate',
  'html-file': 'tenant-scan.html',
  'check-run': 'true',
  'pr-comment': 'true',
};
const COMMENTS: Record<string, string> = {
  'fail-on-severity': `below ${INPUTS['fail-on-severity']} is reported, not failed`,
  baseline: 'compare with the last completed scan',
  'fail-on': 'fail only on what got worse',
  report: 'the PDF report, as an artifact (may spend a report credit)',
  'html-file': 'the run as one page to open in a browser, as an artifact',
};

function heading(title: string): void {
  console.log(`\n\x1b[1m── ${title} ${'─'.repeat(Math.max(0, 76 - title.length))}\x1b[0m`);
}

function day(offsetDays: number): string {
  return new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);
}

/** The team's waivers: one in force (ending soon), one expired. */
const WAIVERS = `waivers:
  - check: CIS-1.1.3
    reason: Four global admins until the new break-glass accounts are live
    expires: ${day(5)}
    owner: secops@contoso.example
  - check: CIS-1.1.2
    reason: Emergency accounts were to be defined by the end of last month
    expires: ${day(-3)}
`;

/** The step as the user copies it, built from the inputs the demo runs with. */
function workflowStep(): string {
  const lines = [
    '      - uses: tenant-scan/tenant-scan@v1 # until the first release: @<commit SHA> (docs/github.md)',
    '        with:',
    `          api-key: \${{ secrets.${SECRET} }}`,
    '          api-url: https://api.example.com/v1 # REPLACE with your Tenant API address',
    ...Object.entries(INPUTS).map(([name, value]) => {
      const comment = COMMENTS[name] ? ` # ${COMMENTS[name]}` : '';
      return `          ${name}: ${value}${comment}`;
    }),
  ];
  return lines.join('\n');
}

/** Every input of the printed step is one action.yml declares (what is shown can be copied). */
async function unknownInputs(): Promise<string[]> {
  const action = parse(await readFile(join(PROJECT_ROOT, 'action.yml'), 'utf8')) as {
    inputs: Record<string, unknown>;
  };
  const step = (parse(workflowStep()) as Array<{ with: Record<string, unknown> }>)[0];
  return Object.keys(step?.with ?? {}).filter((name) => !(name in action.inputs));
}

/** The emulator keeps real time (the times shown are true): scans are short instead. */
function scansFailing(emulator: Emulator, failedChecks: string[]): void {
  emulator.setScanPlan({
    durationMs: 3_000,
    queuedMs: 500,
    outcome: { kind: 'completed', total: 40, failed: 0, failedChecks },
  });
}

interface World {
  emulator: Emulator;
  artifacts: ArtifactStandin;
  github: GitHubApiStandin;
  jobs: JobDirectory[];
  scratch: string;
}

/** A run of the Action on the pull request, main then post, as the runner runs it. */
/** Each push to the pull request starts a workflow run of its own (its id, its artifacts). */
const RUNS = [
  { runId: '4242424242', backend: 'c0ffee00-0000-4000-8000-000000000001' },
  { runId: '4242424243', backend: 'c0ffee00-0000-4000-8000-000000000003' },
] as const;

async function runAction(world: World, run: (typeof RUNS)[number]): Promise<StepResult> {
  const job = await createJobDirectory();
  world.jobs.push(job);
  await mkdir(join(job.workspace, '.tenant-scan'), { recursive: true });
  await writeFile(join(job.workspace, '.tenant-scan', 'waivers.yml'), WAIVERS);
  const pull_request = {
    number: PULL_REQUEST,
    head: { sha: HEAD_SHA, ref: 'demo' },
    base: { ref: 'main' },
  };
  const result = await runJob({
    job,
    inputs: { 'api-key': world.emulator.apiKey, 'api-url': world.emulator.url, ...INPUTS },
    env: world.artifacts.runtimeEnv({ workflowRunBackendId: run.backend }),
    apiUrl: world.github.url,
    runId: run.runId,
    event: { name: 'pull_request', payload: { pull_request } },
  });
  if (VERBOSE) {
    heading('The step’s log (main, then post)');
    const visible = (text: string) =>
      text
        .split('\n')
        .filter((l) => !l.startsWith('::add-mask::') && !l.startsWith('::debug::'))
        .join('\n')
        .trim();
    console.log(visible(`${result.main.stdout}\n${result.main.stderr}`));
    console.log(visible(result.post?.stdout ?? '') || '(post: nothing left to clean up)');
  }
  return result.main;
}

const ICONS = { error: '✖', warning: '▲', notice: 'ℹ' } as const;

function showRunPage(step: StepResult): void {
  console.log(
    `The step ${step.exitCode === 0 ? 'passed' : `failed (exit code ${step.exitCode})`}.`,
  );
  console.log('Annotations on the run page:');
  for (const a of step.annotations) {
    const text = `${a.title ? `${a.title}: ` : ''}${a.message}`.replace(/\s+/g, ' ');
    console.log(
      `  ${ICONS[a.level] ?? '·'} ${text.length > 110 ? `${text.slice(0, 109)}…` : text}`,
    );
  }
  const o = step.outputs;
  console.log(
    `Outputs: verdict=${o.verdict} failed=${o.failed} new=${o.new} fixed=${o.fixed} waived=${o.waived}`,
  );
}

function showPullRequest(world: World): void {
  const run = world.github.checkRuns.at(-1);
  const comments = world.github.comments.get(PULL_REQUEST) ?? [];
  console.log(
    run
      ? `Check run “${run.name}”: ${run.conclusion} — ${run.output.title} (${run.annotations.length} annotations)`
      : 'No check run',
  );
  console.log(
    `PR #${PULL_REQUEST}: ${comments.length} comment by the action, updated in place on every run`,
  );
}

/** The step's comments say what the summary then shows: the gate's severity, and what is below it. */
function commentsAgreeWith(summary: string): boolean {
  const severity = INPUTS['fail-on-severity'];
  return (
    summary.includes(`Fail the gate (new, at ${severity} or above)`) &&
    summary.includes(`New, below ${severity}`) &&
    COMMENTS['fail-on-severity'] === `below ${severity} is reported, not failed`
  );
}

/** The scan's times are the emulator's, on real time: none is ahead of this machine's clock (the
 *  facts table as the terminal shows it, aligned or one fact a line). */
function timesAreTrue(summary: string): boolean {
  const completed = /^Completed:?\s+(\S+)/m.exec(summary)?.[1];
  return completed !== undefined && Date.parse(completed) <= Date.now();
}

async function redPullRequest(world: World): Promise<boolean> {
  heading(`2. A pull request: a new critical finding fails the step`);
  const step = await runAction(world, RUNS[0]);
  showRunPage(step);
  heading('The job summary, as a reader sees it');
  const summary = terminalMarkdown(step.summary);
  console.log(summary);
  heading('The pull request and the report');
  showPullRequest(world);
  const artifact = world.artifacts.finalized().find((a) => a.name.endsWith('.pdf'));
  console.log(
    artifact
      ? `Report: artifact ${artifact.name}, ${artifact.content.length} bytes, opens in the browser (${step.outputs['artifact-url']})`
      : 'Report: no artifact was uploaded',
  );
  const page = await keepPage(world, step);
  const o = step.outputs;
  return (
    step.exitCode === 1 &&
    [o.verdict, o.failed, o.new, o.fixed, o.waived].join() === 'failed,6,2,1,1' &&
    summary.startsWith('❌ Tenant scan failed: 1 new critical finding\n') &&
    commentsAgreeWith(summary) &&
    timesAreTrue(summary) &&
    !/\\[-:.()\\]/.test(summary) && // rendered: no Markdown escape left
    world.github.checkRuns.at(-1)?.conclusion === 'failure' &&
    artifact !== undefined &&
    page
  );
}

/** Where the demo leaves the red run's report page: kept after the demo, to open. */
const PAGE_COPY = join(tmpdir(), 'tenant-scan-demo', 'tenant-scan.html');

/** The report page the step wrote and uploaded, copied where it stays; says where. */
async function keepPage(world: World, step: StepResult): Promise<boolean> {
  const uploaded = world.artifacts.finalized().find((a) => a.name === 'tenant-scan.html');
  const written = step.outputs['html-file'] ?? '';
  if (!uploaded || written === '') {
    console.log('Report page: none was written');
    return false;
  }
  await mkdir(dirname(PAGE_COPY), { recursive: true });
  await copyFile(written, PAGE_COPY);
  console.log(
    `Report page: artifact ${uploaded.name}, ${uploaded.content.length} bytes, linked from the summary — a copy to open in your browser: ${pathToFileURL(PAGE_COPY).href}`,
  );
  return true;
}

function runCli(args: string[], env: Record<string, string>, cwd: string) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      cwd,
      env: { PATH: process.env.PATH, ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** The same gate as the step's inputs, and the files other CIs read. */
const CLI_ARGS = [
  ...'scan run --type compliance --watch --fail-on-severity medium --baseline previous'.split(' '),
  ...'--fail-on new --junit results.xml --sarif results.sarif'.split(' '),
];

async function cliAfterTheFix(world: World): Promise<boolean> {
  heading('3. The fix lands; the same job from any CI: the tenant-scan CLI');
  console.log(`$ export SERVICE_API_URL=… SERVICE_API_KEY=…   # the CLI's variables: a CI secret`);
  console.log(`$ tenant-scan ${CLI_ARGS.join(' ')}`);
  const env = { SERVICE_API_URL: world.emulator.url, SERVICE_API_KEY: world.emulator.apiKey };
  // The checkout's .tenant-scan/waivers.yml, read by default as the Action reads it.
  await mkdir(join(world.scratch, '.tenant-scan'), { recursive: true });
  await writeFile(join(world.scratch, '.tenant-scan', 'waivers.yml'), WAIVERS);
  const cli = await runCli(CLI_ARGS, env, world.scratch);
  console.log(`${cli.stderr}${cli.stdout}`.trimEnd().replace(/^/gm, '  '));
  const read = (name: string) => readFile(join(world.scratch, name), 'utf8').catch(() => '');
  const xml = await read('results.xml');
  const sarif = JSON.parse((await read('results.sarif')) || '{}') as {
    runs?: Array<{ results?: Array<{ locations?: unknown[] }> }>;
  };
  const results = sarif.runs?.[0]?.results ?? [];
  const tests = (xml.match(/<testcase /g) ?? []).length;
  const failures = (xml.match(/<failure /g) ?? []).length;
  console.log(`Exit code ${cli.code} (2 when the gate fails, 1 on an error).`);
  console.log(
    `results.xml: ${tests} checks as test cases, ${failures} failed (the waived one skipped): the test tab of GitLab, Azure Pipelines, Jenkins`,
  );
  console.log(
    `results.sarif: ${results.length} results (the fixed one as absent), each at a location: code scanning`,
  );
  const located = results.every((r) => (r.locations ?? []).length > 0);
  return cli.code === 0 && tests === 40 && failures === 4 && results.length === 6 && located;
}

async function greenPullRequest(world: World): Promise<boolean> {
  heading('4. The pull request runs again: the step passes');
  const step = await runAction(world, RUNS[1]);
  showRunPage(step);
  console.log(terminalMarkdown(step.summary).split('\n\n')[0]);
  showPullRequest(world);
  return (
    step.exitCode === 0 &&
    !step.annotations.some((a) => /Artifact upload/.test(a.message)) &&
    step.outputs.verdict === 'passed' &&
    world.github.checkRuns.at(-1)?.conclusion === 'success' &&
    (world.github.comments.get(PULL_REQUEST) ?? []).length === 1
  );
}

function whatToCopy(): void {
  heading('1. What you add to your repository');
  console.log(
    `A repository secret ${SECRET} holding your API key (Settings › Secrets and variables ›`,
  );
  console.log('Actions), and this step in a workflow that runs on pull requests (a whole one:');
  console.log(
    'docs/examples/pull-request.yml; it needs `checks: write` and `pull-requests: write`):\n',
  );
  console.log(workflowStep());
  console.log('\nKnown findings can be waived for a while in .tenant-scan/waivers.yml:\n');
  console.log(WAIVERS.trimEnd().replace(/^/gm, '  '));
}

async function main(): Promise<number> {
  if (!existsSync(ENTRY_SCRIPTS.main) || !existsSync(CLI)) {
    console.error('dist/ is missing: run `npm run build` first.');
    return 1;
  }
  const unknown = await unknownInputs();
  if (unknown.length > 0)
    throw new Error(`the printed step has inputs action.yml lacks: ${unknown}`);
  const emulator = await startEmulator({ reportRenderMs: 1_000 });
  // Last night's scan: the baseline of the pull request's run.
  emulator.seedHistory([{ ageMs: 10 * 3_600_000, failedChecks: LAST_NIGHT, total: 40 }]);
  scansFailing(emulator, ON_THE_PR);
  const artifacts = await startArtifactStandin();
  const github = await startGitHubApiStandin({
    pullRequests: [
      { number: PULL_REQUEST, head: { sha: HEAD_SHA, ref: 'demo' }, base: { ref: 'main' } },
    ],
  });
  const world: World = {
    emulator,
    artifacts,
    github,
    jobs: [],
    scratch: await mkdtemp(join(tmpdir(), 'tenant-scan-demo-')),
  };
  try {
    whatToCopy();
    const red = await redPullRequest(world);
    scansFailing(emulator, AFTER_THE_FIX);
    const cli = await cliAfterTheFix(world);
    const green = await greenPullRequest(world);
    const wrong = Object.entries({ '2': red, '3': cli, '4': green }).filter(([, ok]) => !ok);
    heading(
      wrong.length === 0
        ? 'Next step'
        : `The demo did NOT go as shown in part ${wrong.map(([part]) => part).join(', ')}`,
    );
    console.log(
      `Create the secret ${SECRET}, add the step above with your api-url, open a pull request.\nThe red run's report page: ${pathToFileURL(PAGE_COPY).href} (what it holds: docs/reports.md).\nOther CIs: docs/cli.md; the CLI by hand against the emulator: npm run emulator. Every input: docs/github.md. Run it again with the logs: npm run demo -- --verbose\n(The demo's other files, the CLI's results.xml and results.sarif among them, went with its scratch folder.)`,
    );
    return wrong.length === 0 ? 0 : 1;
  } finally {
    await Promise.all([emulator.close(), artifacts.close(), github.close()]);
    await Promise.all([
      ...world.jobs.map(removeJobDirectory),
      rm(world.scratch, { recursive: true, force: true }),
    ]);
  }
}

process.exitCode = await main();
