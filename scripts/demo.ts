// `npm run demo`: the Action end to end on this machine, nothing to configure. Starts the Tenant API
// emulator and stand-ins of GitHub's artifact backend and REST API, runs dist/index.js exactly as
// the runner does (test/helpers/runner.ts) on a pull request, then shows the log, the outputs, the
// job summary, where the report went, and the PR status. Exits 0 when the demo behaved as expected.
import { existsSync } from 'node:fs';
import { startEmulator } from '../test/emulator/emulator.js';
import { startArtifactStandin } from '../test/helpers/artifact-standin.js';
import { startGitHubApiStandin } from '../test/helpers/github-api-standin.js';
import { ENTRY_SCRIPTS, runJob } from '../test/helpers/runner.js';

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

async function main(): Promise<number> {
  if (!existsSync(ENTRY_SCRIPTS.main)) {
    console.error('dist/index.js is missing: run `npm run build` first.');
    return 1;
  }
  const emulator = await startEmulator({ clockSpeed: 10, reportRenderMs: 2_000 });
  emulator.setScanPlan({
    durationMs: 8_000,
    queuedMs: 1_000,
    outcome: { kind: 'completed', total: 40, failed: 5 },
  });
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
    };
    heading('Running dist/index.js as the runner does');
    console.log(`Tenant API emulator: ${emulator.url}`);
    console.log(`Inputs: ${JSON.stringify({ ...inputs, 'api-key': '***' })}`);
    const result = await runJob({
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
        ? `Check run "${run.name}": ${run.conclusion}, ${run.annotations.length} annotations`
        : 'No check run',
    );
    const comments = github.comments.get(PULL_REQUEST) ?? [];
    console.log(`PR #${PULL_REQUEST}: ${comments.length} comment(s) by the action`);

    const expected =
      step.exitCode === 1 &&
      step.outputs.verdict === 'failed' &&
      step.outputs.failed === '5' &&
      artifact !== undefined &&
      run !== undefined &&
      comments.length === 1;
    heading(expected ? 'Demo OK' : 'Demo did NOT behave as expected');
    console.log(
      expected
        ? 'The step failed on purpose: the scan has 5 failed findings and fail-on-findings is true.'
        : 'See the log above.',
    );
    console.log(`The job's files (workspace, RUNNER_TEMP) are kept in ${result.job.root}`);
    return expected ? 0 : 1;
  } finally {
    await Promise.all([emulator.close(), artifacts.close(), github.close()]);
  }
}

process.exitCode = await main();
