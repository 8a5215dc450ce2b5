// `npm run demo`: the Action end to end on this machine, nothing to configure. Starts the Tenant API
// emulator and stand-ins of GitHub's artifact backend and REST API, runs dist/index.js exactly as
// the runner does (test/helpers/runner.ts) on a pull request, then shows the log, the outputs, the
// job summary, where the report went, and the PR status. Exits 0 when the demo behaved as expected.
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startEmulator } from '../test/emulator/emulator.js';
import { startArtifactStandin } from '../test/helpers/artifact-standin.js';
import { startGitHubApiStandin } from '../test/helpers/github-api-standin.js';
import { finishedScan } from '../test/emulator/test-http.js';
import type { Emulator } from '../test/emulator/types.js';
import { ENTRY_SCRIPTS, createJobDirectory, runJob } from '../test/helpers/runner.js';

const PULL_REQUEST = 7;
const HEAD_SHA = '5ca1ab1e5ca1ab1e5ca1ab1e5ca1ab1e5ca1ab1e';

function heading(title: string): void {
  console.log(`\n\x1b[1m── ${title} ${'─'.repeat(Math.max(0, 70 - title.length))}\x1b[0m`);
}

function userVisible(log: string): string {
  return log
    .split('\n')
    .filter((line) => !line.startsWith('::add-mask::') && !line.startsWith('::debug::'))
    .join('\n')
    .trim();
}

function day(offsetDays: number): string {
  return new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);
}

/** Scans of 40 checks from now on, these of them failed. */
function scansFailing(emulator: Emulator, failedChecks: string[]): void {
  emulator.setScanPlan({
    durationMs: 8_000,
    queuedMs: 1_000,
    outcome: { kind: 'completed', total: 40, failed: 0, failedChecks },
  });
}

/** Last night's scan of the tenant: the baseline the pull request's run is compared with. */
async function lastNightsScan(emulator: Emulator): Promise<void> {
  scansFailing(emulator, ['CIS-1.1.1', 'CIS-1.1.2', 'CIS-1.1.3', 'CIS-1.3.1', 'CIS-2.1.1']);
  await finishedScan(emulator);
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

async function main(): Promise<number> {
  if (!existsSync(ENTRY_SCRIPTS.main)) {
    console.error('dist/index.js is missing: run `npm run build` first.');
    return 1;
  }
  const emulator = await startEmulator({ clockSpeed: 10, reportRenderMs: 2_000 });
  await lastNightsScan(emulator);
  // Tonight: CIS-2.1.1 is fixed, CIS-2.4.4 (critical) and CIS-1.3.4 (low) are new.
  scansFailing(emulator, [
    'CIS-1.1.1',
    'CIS-1.1.2',
    'CIS-1.1.3',
    'CIS-1.3.1',
    'CIS-2.4.4',
    'CIS-1.3.4',
  ]);
  const artifacts = await startArtifactStandin();
  const github = await startGitHubApiStandin({
    pullRequests: [
      { number: PULL_REQUEST, head: { sha: HEAD_SHA, ref: 'demo' }, base: { ref: 'main' } },
    ],
  });
  try {
    const inputs = {
      'api-key': emulator.apiKey,
      'api-url': emulator.url,
      report: 'generate',
      'artifact-name': 'tenant-scan-report.pdf',
      'check-run': 'true',
      'pr-comment': 'true',
      annotations: '5',
      'fail-on-severity': 'medium',
      baseline: 'previous',
      'fail-on': 'new',
    };
    const job = await createJobDirectory();
    await mkdir(join(job.workspace, '.tenant-scan'), { recursive: true });
    await writeFile(join(job.workspace, '.tenant-scan', 'waivers.yml'), WAIVERS);
    heading('Running dist/index.js as the runner does');
    console.log(`Tenant API emulator: ${emulator.url}`);
    console.log(`Inputs: ${JSON.stringify({ ...inputs, 'api-key': '***' })}`);
    console.log(`Waivers (.tenant-scan/waivers.yml):\n${WAIVERS}`);
    const result = await runJob({
      job,
      inputs,
      env: artifacts.runtimeEnv(),
      apiUrl: github.url,
      event: {
        name: 'pull_request',
        payload: {
          pull_request: {
            number: PULL_REQUEST,
            head: { sha: HEAD_SHA, ref: 'demo' },
            base: { ref: 'main' },
          },
        },
      },
    });
    const step = result.main;

    heading('Log (main step)');
    console.log(userVisible(`${step.stdout}\n${step.stderr}`));
    heading('Log (post step)');
    console.log(userVisible(result.post?.stdout ?? '') || '(nothing left to clean up)');
    heading(`Exit code ${step.exitCode} — outputs`);
    for (const [name, value] of Object.entries(step.outputs))
      console.log(`${name.padEnd(14)} ${value}`);
    heading('Job summary (GITHUB_STEP_SUMMARY, Markdown)');
    console.log(step.summary.trim());
    heading('Where the report went');
    const [artifact] = artifacts.finalized();
    console.log(`On disk: ${step.outputs['report-path'] || '(none)'}`);
    console.log(
      artifact
        ? `Artifact: ${artifact.name} (${artifact.content.length} bytes, ${artifact.mimeType ?? 'unknown type'}, id ${artifact.id}) — ${step.outputs['artifact-url']}`
        : 'Artifact: none uploaded',
    );
    heading('Pull request status');
    const run = github.checkRuns.at(-1);
    console.log(
      run
        ? `Check run "${run.name}": ${run.conclusion}, ${run.annotations.length} annotations; title: ${run.output.title}`
        : 'No check run',
    );
    const comments = github.comments.get(PULL_REQUEST) ?? [];
    const commentHeadline = (comments[0]?.body ?? '')
      .split('\n')
      .find((line) => line.startsWith('## '));
    console.log(
      `PR #${PULL_REQUEST}: ${comments.length} comment(s) by the action, starting ${commentHeadline ?? '(none)'}`,
    );

    const expected =
      step.exitCode === 1 &&
      step.outputs.verdict === 'failed' &&
      step.outputs.failed === '6' &&
      step.outputs.new === '2' &&
      step.outputs.fixed === '1' &&
      step.outputs.waived === '1' &&
      run?.output.title === '❌ Tenant scan failed: 1 new critical finding' &&
      /^## ❌ Tenant scan failed\\: 1 new critical finding$/.test(
        step.summary.split('\n')[0] ?? '',
      ) &&
      /Expired waivers/.test(step.summary) &&
      artifact !== undefined &&
      run !== undefined &&
      comments.length === 1;
    heading(expected ? 'Demo OK' : 'Demo did NOT behave as expected');
    console.log(
      expected
        ? 'The step failed on purpose: a critical finding is new since last night. The new low one is\nbelow the threshold, three are unchanged, one is waived, one waiver has expired.'
        : 'See the log above.',
    );
    console.log(`The job's files (workspace, RUNNER_TEMP) are kept in ${result.job.root}`);
    return expected ? 0 : 1;
  } finally {
    await Promise.all([emulator.close(), artifacts.close(), github.close()]);
  }
}

process.exitCode = await main();
