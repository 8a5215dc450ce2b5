// The multi-tenant reusable workflow (.github/workflows/tenant-scan-tenants.yml) run as the runner
// would run it, its expressions evaluated with GitHub's own evaluator (@actions/expressions): the
// plan job's script cuts the list into chunks (a 1,000-tenant list into at most 256 jobs), the
// matrix gives one job per chunk, each chunk's step receives only its own tenants' secrets (and no
// other expression of the job reads a secret), the bundled tenants sub-action scans its tenants and
// writes their records, the upload names the artifact after the chunk, the roll-up job gathers them
// as download-artifact does and the bundled rollup sub-action gives the one verdict.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import yaml from 'js-yaml';
import { checkIdAt } from '../emulator/findings.js';
import { renderedText } from '../helpers/gfm.js';
import {
  createJobDirectory,
  removeJobDirectory,
  runActionStep,
  type JobDirectory,
  type StepResult,
} from '../helpers/runner.js';
import {
  condition,
  expand,
  expandString,
  expressionsIn,
  type Contexts,
  type WorkflowStep,
} from '../helpers/workflow-expressions.js';
import { assertBundleBuilt, ROOT } from '../cli/helpers.js';
import { QUICK_SCAN, apiRequests, startWorld, visibleLog, type World } from './world.js';

type Step = WorkflowStep;
interface Job {
  strategy?: { matrix: { chunk: string }; 'max-parallel'?: string };
  'continue-on-error'?: boolean;
  steps: Step[];
  if?: string;
  outputs?: Record<string, string>;
}
interface Workflow {
  on: {
    workflow_call: {
      inputs: Record<string, { default?: unknown; required?: boolean }>;
      outputs: Record<string, { value: string }>;
    };
  };
  jobs: { plan: Job; scan: Job; rollup: Job };
}
interface Tenant {
  name: string;
  'api-url': string;
  secret: string;
}
interface Chunk {
  index: number;
  label: string;
  tenants: Tenant[];
  secrets: string[];
}

const WORKFLOW = join(ROOT, '.github', 'workflows', 'tenant-scan-tenants.yml');

let world: World;
let workflow: Workflow;
before(async () => {
  assertBundleBuilt();
  world = await startWorld();
  workflow = yaml.load(await readFile(WORKFLOW, 'utf8')) as Workflow;
});
after(() => world.close());

/** The workflow's inputs: the caller's, over the declared defaults. */
function inputsOf(given: Record<string, unknown>): Record<string, unknown> {
  const declared = workflow.on.workflow_call.inputs;
  return {
    ...Object.fromEntries(Object.entries(declared).map(([name, spec]) => [name, spec.default])),
    ...given,
  };
}

function stepUsing(job: Job, uses: RegExp): Step {
  const step = job.steps.find((s) => uses.test(s.uses ?? ''));
  assert.ok(step, `a step using ${uses}`);
  return step;
}

function expandAll(
  values: Record<string, unknown> | undefined,
  contexts: Contexts,
): Record<string, string> {
  return Object.fromEntries(
    Object.entries(values ?? {}).map(([name, value]) => [name, expandString(value, contexts)]),
  );
}

/** Runs one step of the workflow with the bundled entry its `uses` names, inputs and env expanded. */
function runStep(
  step: Step,
  contexts: Contexts,
  entry: 'tenants' | 'rollup',
  job?: JobDirectory,
  extra: Partial<Parameters<typeof runActionStep>[0]> = {},
) {
  const inputs = expandAll(step.with, contexts);
  const env: Record<string, string> = {
    ...expandAll(step.env, contexts),
    TENANT_SCAN_TEST_PACING_MS: '100',
  };
  return {
    inputs,
    env,
    run: () => runActionStep({ entry, inputs, env, job, timeoutMs: 30_000, ...extra }),
  };
}

/** The plan job's script run as the runner runs a `run:` step (bash, its env expanded): the
 *  chunks it outputs, or its exit code and log. */
async function planChunks(inputs: Record<string, unknown>) {
  const step = workflow.jobs.plan.steps[0] as Step;
  const dir = await mkdtemp(join(tmpdir(), 'tenant-scan-plan-'));
  try {
    const output = join(dir, 'output');
    const ran = spawnSync('bash', ['-e', '-c', step.run ?? ''], {
      env: { PATH: process.env.PATH, GITHUB_OUTPUT: output, ...expandAll(step.env, { inputs }) },
      encoding: 'utf8',
    });
    const text = ran.status === 0 ? await readFile(output, 'utf8') : '';
    const line = text.split('\n').find((l) => l.startsWith('chunks='));
    const chunks = line ? (JSON.parse(line.slice('chunks='.length)) as Chunk[]) : [];
    const outputs = { chunks: line?.slice('chunks='.length) ?? '' };
    // A failed plan job: the matrix job never starts.
    const matrix = line
      ? (expand(workflow.jobs.scan.strategy?.matrix.chunk, {
          inputs,
          needs: { plan: { outputs } },
        }) as Chunk[])
      : null;
    return { status: ran.status, log: `${ran.stdout}${ran.stderr}`, chunks, matrix };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

describe('the multi-tenant reusable workflow', () => {
  it("a 1,000-tenant list is at most 256 jobs, each given only its own chunk's secrets", async () => {
    const secrets: Record<string, string> = { DEPLOY_TOKEN: 'ghp_not_for_tenant_jobs' };
    const fleet: Tenant[] = Array.from({ length: 1000 }, (_, i) => {
      secrets[`T${i}_KEY`] = `ak_live_key_of_tenant_${i}`;
      return { name: `t${i}`, 'api-url': 'https://api.example.com/v1', secret: `T${i}_KEY` };
    });
    const scan = workflow.jobs.scan;
    const readingSecrets = new Set(expressionsIn(scan).filter((e) => /\bsecrets\b/.test(e)));
    assert.deepEqual(
      [...readingSecrets].filter((e) => !/^secrets\[matrix\.chunk\.secrets\[\d+\]\]$/.test(e)),
      [],
      'the only secrets read are those of the chunk',
    );
    const step = stepUsing(scan, /^tenant-scan\/tenant-scan\/tenants@/);
    for (const perJob of [undefined, 4]) {
      const inputs = inputsOf({
        tenants: JSON.stringify(fleet),
        ...(perJob ? { 'tenants-per-job': perJob } : {}),
      });
      const planned = await planChunks(inputs);
      assert.equal(planned.status, 0, planned.log);
      assert.deepEqual(planned.matrix, planned.chunks, 'the matrix is the plan');
      assert.ok(planned.chunks.length <= 256, `${planned.chunks.length} jobs`);
      assert.equal(planned.chunks.length, perJob ? 250 : 20);
      assert.deepEqual(
        planned.chunks.flatMap((chunk) => chunk.tenants.map((t) => t.name)),
        fleet.map((t) => t.name),
        'every tenant in exactly one chunk, in order',
      );
      // Each chunk's step with the caller's every secret in context (the default's 20 chunks; the
      // evaluator is slow enough that 250 chunks would take a minute).
      for (const chunk of perJob ? [] : planned.chunks) {
        const given = runStep(step, { inputs, secrets, matrix: { chunk } }, 'tenants');
        const keys = chunk.tenants.map(
          (_, i) => secrets[`T${(chunk.index - 1) * (perJob ?? 50) + i}_KEY`],
        );
        const seen = Object.values(given.env).filter((value) => value.startsWith('ak_live_'));
        assert.deepEqual(seen, keys, `chunk ${chunk.index} sees exactly its own keys`);
        const list = JSON.parse(given.inputs.tenants ?? '[]') as Tenant[];
        for (const [place, tenant] of list.entries()) {
          assert.equal(
            given.env[tenant.secret],
            keys[place],
            `${tenant.name}'s key under its variable`,
          );
        }
        assert.ok(
          Object.values(given.inputs).every((v) => !/ak_live_|ghp_/.test(v)),
          'no secret in an input',
        );
      }
    }
    const tooMany = await planChunks(
      inputsOf({ tenants: JSON.stringify(fleet), 'tenants-per-job': 3 }),
    );
    assert.equal(tooMany.status, 1);
    assert.match(
      tooMany.log,
      /1000 tenants at 3 per job make 334 jobs, more than a matrix's 256: raise tenants-per-job to 4 or more/,
    );
  });

  it('runs: each chunk scans its tenants and writes their records, then one roll-up with one verdict', async () => {
    const secrets: Record<string, string> = { DEPLOY_TOKEN: 'ghp_not_for_tenant_jobs' };
    const tenants: Tenant[] = [];
    const failing: Record<string, string[]> = {
      contoso: [],
      fabrikam: [checkIdAt(0), checkIdAt(1)],
      northwind: [checkIdAt(0)],
    };
    for (const [name, failedChecks] of Object.entries(failing)) {
      const { apiKey } = world.emulator.addTenant({
        name: `${name} Ltd`,
        scanPlan: {
          ...QUICK_SCAN,
          outcome: { kind: 'completed', total: 40, failed: 0, failedChecks },
        },
      });
      secrets[`${name.toUpperCase()}_API_KEY`] = apiKey;
      tenants.push({
        name,
        'api-url': world.emulator.url,
        secret: `${name.toUpperCase()}_API_KEY`,
      });
    }
    // A tenant whose secret the caller forgot: one failed row, its chunk's other tenant unaffected.
    tenants.push({ name: 'tailspin', 'api-url': world.emulator.url, secret: 'TAILSPIN_API_KEY' });
    const inputs = inputsOf({
      tenants: JSON.stringify(tenants),
      'tenants-per-job': 2,
      'csv-file': 'tenant-scan-fleet.csv',
      'ocsf-file': 'tenant-scan-fleet.ocsf.jsonl',
    });
    const { chunks } = await planChunks(inputs);
    assert.deepEqual(
      chunks.map((c) => c.label),
      ['contoso … fabrikam (2)', 'northwind … tailspin (2)'],
    );
    const scan = workflow.jobs.scan;
    assert.equal(scan['continue-on-error'], true, 'the roll-up gives the verdict');
    const scanStep = stepUsing(scan, /^tenant-scan\/tenant-scan\/tenants@/);
    const upload = stepUsing(scan, /^actions\/upload-artifact@/);
    const rollupJob: JobDirectory = await createJobDirectory();
    try {
      const steps: StepResult[] = [];
      for (const chunk of chunks) {
        const contexts = { inputs, secrets, matrix: { chunk } };
        const job = await createJobDirectory();
        try {
          const step = await runStep(scanStep, contexts, 'tenants', job).run();
          steps.push(step);
          assert.ok(condition(upload.if, contexts));
          // download-artifact with a pattern: each artifact in a directory of its name.
          const name = expandString(upload.with?.name, contexts);
          const path = expandString(upload.with?.path, contexts);
          const dir = join(rollupJob.workspace, 'tenant-scan-records', name);
          await mkdir(dir, { recursive: true });
          const from = join(job.workspace, path.replace(/\/\*\.json$/, ''));
          for (const file of await readdir(from)) await copyFile(join(from, file), join(dir, file));
        } finally {
          await removeJobDirectory(job);
        }
      }
      assert.equal(
        steps[0]?.exitCode,
        2,
        `fabrikam fails the chunk's gate: ${visibleLog(steps[0]!)}`,
      );
      assert.match(renderedText(steps[0]!.summary), /^fabrikam \(fabrikam Ltd\) \| ❌ failed/m);
      assert.match(renderedText(steps[1]!.summary), /^tailspin \| ⚠️ error|^tailspin \| .*error/m);
      assert.match(visibleLog(steps[1]!), /^northwind: failed \(1 failed finding\)/m);
      assert.match(
        visibleLog(steps[1]!),
        /^tailspin: error: Sanity checks failed: secret TAILSPIN_API_KEY \(given as TENANT_SCAN_KEY_2\) is required/m,
      );
      for (const name of ['contoso', 'fabrikam', 'northwind']) {
        const chunk = chunks.findIndex((c) => c.tenants.some((t) => t.name === name)) + 1;
        const record = JSON.parse(
          await readFile(
            join(
              rollupJob.workspace,
              'tenant-scan-records',
              `tenant-scan-records-${chunk}`,
              `${name}.json`,
            ),
            'utf8',
          ),
        ) as { label: string; tenant: string };
        assert.deepEqual([record.label, record.tenant], [name, `${name} Ltd`], 'its own tenant');
      }

      const rollupJobSpec = workflow.jobs.rollup;
      assert.ok(condition(rollupJobSpec.if, { inputs }));
      const download = stepUsing(rollupJobSpec, /^actions\/download-artifact@/);
      assert.equal(download.with?.pattern, 'tenant-scan-records-*');
      const rollupStep = stepUsing(rollupJobSpec, /^tenant-scan\/tenant-scan\/rollup@/);
      const rolled = await runStep(rollupStep, { inputs }, 'rollup', rollupJob).run();
      assert.equal(rolled.exitCode, 1, visibleLog(rolled));
      assert.equal(rolled.outputs.verdict, 'failed');
      assert.equal(rolled.outputs['failed-tenants'], '3');
      const text = renderedText(rolled.summary);
      assert.match(text, /^❌ Tenant roll-up failed: 3 of 4 tenants failed \(at most 0 may\)$/m);
      assert.match(text, /^contoso \(contoso Ltd\) \| ✅ passed/m);
      // The fleet's page, in the workspace where the job's upload step takes it from.
      const page = stepUsing(rollupJobSpec, /^actions\/upload-artifact@/);
      assert.ok(condition(page.if, { inputs }), 'uploaded also when the roll-up failed');
      assert.equal(page.with?.archive, false, 'unzipped: it opens in the browser');
      const html = join(rollupJob.workspace, String(page.with?.path));
      assert.equal(rolled.outputs['html-file'], html);
      const block = /<script type="application\/json" id="report-data">([\s\S]*?)<\/script>/.exec(
        await readFile(html, 'utf8'),
      );
      const fleet = JSON.parse(block?.[1] ?? '{}') as { tenants: Array<{ name: string }> };
      assert.deepEqual(fleet.tenants.map((tenant) => tenant.name).sort(), [
        'contoso',
        'fabrikam',
        'northwind',
        'tailspin',
      ]);

      // The fleet's findings files, asked for: written by the roll-up, each uploaded by its step.
      const rolledSteps = { rollup: { outputs: rolled.outputs } };
      for (const [output, header] of [
        ['csv-file', /^\uFEFF"Tenant","Scan","Check ID",/],
        ['ocsf-file', /^\{"activity_id":/],
      ] as const) {
        const file = rolled.outputs[output];
        assert.equal(file, join(rollupJob.workspace, String(inputs[output])));
        const text = await readFile(String(file), 'utf8');
        assert.match(text, header);
        assert.ok(text.includes(checkIdAt(1)), `${output}: fabrikam's findings`);
        const uploads = rollupJobSpec.steps.filter(
          (s) =>
            /^actions\/upload-artifact@/.test(s.uses ?? '') &&
            condition(s.if, { inputs, steps: rolledSteps }) &&
            expandString(s.with?.path, { inputs, steps: rolledSteps }) === file,
        );
        assert.equal(uploads.length, 1, `${output}: one upload step`);
        assert.equal(uploads[0]?.with?.archive, false, 'unzipped: an artifact of its name');
      }
      // Not asked for: the roll-up is given none, and no upload step runs for them.
      const plain = inputsOf({ tenants: JSON.stringify(tenants) });
      const given = expandAll(rollupStep.with, { inputs: plain });
      assert.deepEqual([given['csv-file'], given['ocsf-file']], ['', '']);
      const none = { rollup: { outputs: { ...rolled.outputs, 'csv-file': '', 'ocsf-file': '' } } };
      const running = rollupJobSpec.steps.filter(
        (s) =>
          /^actions\/upload-artifact@/.test(s.uses ?? '') &&
          condition(s.if, { inputs: plain, steps: none }),
      );
      assert.deepEqual(running, [page], 'only the page');

      const outputs = workflow.on.workflow_call.outputs;
      const jobs = {
        rollup: {
          outputs: Object.fromEntries(
            Object.entries(rollupJobSpec.outputs ?? {}).map(([name, value]) => [
              name,
              expandString(value, { steps: { rollup: { outputs: rolled.outputs } } }),
            ]),
          ),
        },
      };
      assert.equal(expandString(outputs.verdict?.value, { jobs }), 'failed');
    } finally {
      await removeJobDirectory(rollupJob);
    }
  });

  it('max-age reaches the roll-up step as given; by default it is empty (any age)', () => {
    const rollupStep = stepUsing(workflow.jobs.rollup, /^tenant-scan\/tenant-scan\/rollup@/);
    const tenants = JSON.stringify([{ name: 'a', 'api-url': 'https://x.example', secret: 'A' }]);
    const maxAge = (given: Record<string, unknown>) =>
      expandAll(rollupStep.with, { inputs: inputsOf({ tenants, ...given }) })['max-age'];
    assert.equal(maxAge({ 'max-age': '36h' }), '36h');
    assert.equal(maxAge({}), '');
  });

  it("the tenants sub-action on its own: the gate is on by default, as the Action's is", async () => {
    const { apiKey } = world.emulator.addTenant({
      name: 'solo Ltd',
      scanPlan: { ...QUICK_SCAN, outcome: { kind: 'completed', total: 40, failed: 2 } },
    });
    const tenants = JSON.stringify([
      { name: 'solo', 'api-url': world.emulator.url, secret: 'SOLO_KEY' },
    ]);
    const step = await runActionStep({
      entry: 'tenants',
      inputs: { tenants },
      env: { SOLO_KEY: apiKey, TENANT_SCAN_TEST_PACING_MS: '100' },
      timeoutMs: 30_000,
    });
    assert.equal(step.exitCode, 2, visibleLog(step));
    assert.match(visibleLog(step), /^solo: failed \(2 failed findings\) \[1\/1\]$/m);
    assert.match(renderedText(step.summary), /^solo \(solo Ltd\) \| ❌ failed/m);
    assert.ok(!visibleLog(step).includes(apiKey), 'the key is never logged');
  });

  it("a tenant's error line names what to change as the sub-action calls it, not the CLI's flags", async () => {
    const { apiKey } = world.emulator.addTenant({ name: 'quiet Ltd', scanPlan: QUICK_SCAN });
    world.emulator.addFault({
      route: 'GET /tenants/me',
      fault: { kind: 'no-answer' },
      times: Infinity,
      key: apiKey,
    });
    const tenants = JSON.stringify([
      { name: 'quiet', 'api-url': world.emulator.url, secret: 'QUIET_KEY' },
    ]);
    try {
      const step = await runActionStep({
        entry: 'tenants',
        // The input reaches the CLI run (1 s, not the 120 s of the default or the env's 600).
        inputs: { tenants, 'request-timeout-seconds': '1' },
        env: {
          QUIET_KEY: apiKey,
          SERVICE_REQUEST_TIMEOUT: '600',
          TENANT_SCAN_TEST_PACING_MS: '100',
        },
        timeoutMs: 30_000,
      });
      const log = visibleLog(step);
      assert.equal(step.exitCode, 1, log);
      assert.match(
        log,
        /Authentication timed out: .*no answer within 1 s .*; if the service needs longer, raise request-timeout-seconds \[1\/1\]$/m,
      );
      assert.doesNotMatch(log, /--request-timeout|--timeout|--stall-minutes/);
    } finally {
      world.emulator.clearFaults();
    }
  });

  it('a waiver too far ahead (the default waivers file) says no input of the sub-action moves the limit', async () => {
    const job = await createJobDirectory();
    try {
      await mkdir(join(job.workspace, '.tenant-scan'));
      await writeFile(
        join(job.workspace, '.tenant-scan', 'waivers.yml'),
        'waivers:\n  - check: CIS-1.1.1\n    reason: accepted\n    expires: 9999-12-31\n',
      );
      const tenants = JSON.stringify([
        { name: 'east', 'api-url': world.emulator.url, secret: 'EAST_KEY' },
      ]);
      world.emulator.clearRequests(); // the file's other tests share the emulator
      const step = await runActionStep({
        entry: 'tenants',
        job,
        inputs: { tenants },
        env: { EAST_KEY: world.emulator.apiKey, TENANT_SCAN_TEST_PACING_MS: '100' },
        timeoutMs: 30_000,
      });
      const log = visibleLog(step);
      assert.equal(step.exitCode, 1, log);
      assert.match(
        log,
        /waivers\.yml line 2: the waiver of check "CIS-1\.1\.1" expires 9999-12-31, more than 365 days ahead \(a limit the tenants sub-action has no input for\): set a date until/,
      );
      assert.doesNotMatch(log, /\(waivers-max-days\)|--waivers-max-days/);
      assert.equal(apiRequests(world.emulator, 'POST').length, 0, 'no scan triggered');
    } finally {
      await removeJobDirectory(job);
    }
  });

  it('bad input values: one line naming the inputs as set, not the options they became', async () => {
    world.emulator.clearRequests();
    const step = await runActionStep({
      entry: 'tenants',
      inputs: {
        tenants: JSON.stringify([{ name: 'a', 'api-url': world.emulator.url, secret: 'A_KEY' }]),
        'results-max-mib': '0',
        'fail-on-severity': 'worst',
      },
      env: { A_KEY: 'ak_live_never_sent' },
      timeoutMs: 30_000,
    });
    const log = visibleLog(step);
    assert.equal(step.exitCode, 1, log);
    assert.match(
      log,
      /input 'fail-on-severity' must be one of info, low, medium, high, critical, got "worst"/,
    );
    assert.match(log, /input 'results-max-mib' must be a whole number from 1 to 4096, got "0"/);
    assert.doesNotMatch(log, /--(results-max-mib|fail-on-severity)\b/);
    assert.deepEqual(world.emulator.requests(), [], 'nothing sent');
  });

  it("a line not about a setting is printed as it is, even when it holds an option's name", async () => {
    // The service's error code and a path the user chose both hold "--timeout": neither is the
    // sub-action's setting, so neither is named as input 'scan-timeout-minutes'.
    const { apiKey } = world.emulator.addTenant({ name: 'blunt Ltd', scanPlan: QUICK_SCAN });
    world.emulator.addFault({
      route: 'GET /tenants/me',
      fault: { kind: 'status', status: 403, code: 'RERUN_WITH--timeout' },
      times: Infinity,
      key: apiKey,
    });
    try {
      const step = await runActionStep({
        entry: 'tenants',
        inputs: {
          tenants: JSON.stringify([
            { name: 'blunt', 'api-url': world.emulator.url, secret: 'BLUNT_KEY' },
          ]),
          'csv-file': 'findings--timeout.csv',
        },
        env: { BLUNT_KEY: apiKey },
        timeoutMs: 30_000,
      });
      const log = visibleLog(step);
      assert.equal(step.exitCode, 1, log);
      assert.match(log, /^blunt: error: .*RERUN_WITH--timeout.* \[1\/1\]$/m);
      assert.match(log, /^CSV written to \S*\/findings--timeout\.csv$/m);
      assert.doesNotMatch(log, /input 'scan-timeout-minutes'/);
    } finally {
      world.emulator.clearFaults();
    }
  });

  it('the runner cancelling a chunk job cancels every scan the chunk triggered', async () => {
    const secrets: Record<string, string> = {};
    const tenants: Tenant[] = ['red', 'green', 'blue'].map((name) => {
      const { apiKey, tenantId } = world.emulator.addTenant({
        id: `stuck-${name}`,
        name: `${name} Ltd`,
        scanPlan: { outcome: { kind: 'stuck', atProgress: 30 } },
      });
      assert.equal(tenantId, `stuck-${name}`);
      secrets[`${name.toUpperCase()}_API_KEY`] = apiKey;
      return { name, 'api-url': world.emulator.url, secret: `${name.toUpperCase()}_API_KEY` };
    });
    const inputs = inputsOf({ tenants: JSON.stringify(tenants) });
    const [chunk] = (await planChunks(inputs)).chunks;
    const scanStep = stepUsing(workflow.jobs.scan, /^tenant-scan\/tenant-scan\/tenants@/);
    let running = 0;
    const step = await runStep(
      scanStep,
      { inputs, secrets, matrix: { chunk } },
      'tenants',
      undefined,
      {
        cancel: {
          // All output so far: the three tenants' scans running.
          after: /(?:: scan \S+ running\n[\s\S]*){3}/,
          mode: 'runner',
        },
      },
    ).run();
    for (const name of ['red', 'green', 'blue']) {
      const scans = world.emulator.scans(`stuck-${name}`);
      if (scans.length > 0) running++;
      assert.deepEqual(
        scans.map((s) => s.status),
        ['cancelled'],
        `${name}: ${visibleLog(step)}`,
      );
    }
    assert.equal(running, 3);
    assert.notEqual(step.exitCode, 0);
  });
});
