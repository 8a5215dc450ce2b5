// The multi-tenant reusable workflow (.github/workflows/tenant-scan-tenants.yml) run as the runner
// would run it, its expressions evaluated with GitHub's own evaluator (@actions/expressions): the
// matrix gives one job per tenant, each job's step receives only its own tenant's secret (and no
// other expression of the job reads a secret), each bundled action scans its own tenant and writes
// its record, the upload names the artifact after the tenant, the roll-up job gathers them as
// download-artifact does and the bundled rollup sub-action gives the one verdict.
import assert from 'node:assert/strict';
import { copyFile, mkdir, readFile } from 'node:fs/promises';
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
import { QUICK_SCAN, startWorld, visibleLog, type World } from './world.js';

type Step = WorkflowStep;
interface Job {
  strategy?: { matrix: { tenant: string }; 'max-parallel'?: string };
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
  jobs: { scan: Job; rollup: Job };
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

/** Runs one step of the workflow with the bundled entry its `uses` names, inputs expanded. */
function runStep(step: Step, contexts: Contexts, entry: 'main' | 'rollup', job?: JobDirectory) {
  const inputs = Object.fromEntries(
    Object.entries(step.with ?? {}).map(([name, value]) => [name, expandString(value, contexts)]),
  );
  return { inputs, run: () => runActionStep({ entry, inputs, job, timeoutMs: 30_000 }) };
}

describe('the multi-tenant reusable workflow', () => {
  const secrets: Record<string, string> = {};
  const tenants: Array<{ name: string; 'api-url': string; secret: string }> = [];
  const failing: Record<string, string[]> = {
    contoso: [],
    fabrikam: [checkIdAt(0), checkIdAt(1)],
    northwind: [checkIdAt(0)],
  };

  before(() => {
    for (const [name, failedChecks] of Object.entries(failing)) {
      const { apiKey } = world.emulator.addTenant({
        name: `${name} Ltd`,
        scanPlan: {
          ...QUICK_SCAN,
          outcome: { kind: 'completed', total: 40, failed: 0, failedChecks },
        },
      });
      const secret = `${name.toUpperCase()}_API_KEY`;
      secrets[secret] = apiKey;
      tenants.push({ name, 'api-url': world.emulator.url, secret });
    }
    // The caller's repository has other secrets too: no tenant job may read them.
    secrets.DEPLOY_TOKEN = 'ghp_not_for_tenant_jobs';
    // A tenant whose secret the caller forgot: its job gets no key and writes no record.
    tenants.push({ name: 'tailspin', 'api-url': world.emulator.url, secret: 'TAILSPIN_API_KEY' });
  });

  it('the matrix is one job per tenant, and each job reads only its own secret', () => {
    const inputs = inputsOf({ tenants: JSON.stringify(tenants) });
    const scan = workflow.jobs.scan;
    const entries = expand(scan.strategy?.matrix.tenant, { inputs }) as typeof tenants;
    assert.deepEqual(entries, tenants);
    assert.equal(expand(scan.strategy?.['max-parallel'], { inputs }), 10);
    const readingSecrets = expressionsIn(scan).filter((e) => /\bsecrets\b/.test(e));
    assert.deepEqual(readingSecrets, ['secrets[matrix.tenant.secret]'], 'the only secret read');
    const step = stepUsing(scan, /^tenant-scan\/tenant-scan@/);
    for (const tenant of entries) {
      const given = runStep(step, { inputs, secrets, matrix: { tenant } }, 'main').inputs;
      assert.equal(given['api-key'], secrets[tenant.secret] ?? '', tenant.name);
      for (const [name, value] of Object.entries(secrets)) {
        if (name === tenant.secret) continue;
        assert.ok(
          Object.values(given).every((input) => !input.includes(value)),
          `${tenant.name}'s job sees ${name}`,
        );
      }
      assert.equal(given['tenant-label'], tenant.name);
    }
  });

  it('runs: each tenant its own scan and record, then one roll-up with one verdict', async () => {
    const inputs = inputsOf({ tenants: JSON.stringify(tenants) });
    const scan = workflow.jobs.scan;
    assert.equal(scan['continue-on-error'], true, 'the roll-up gives the verdict');
    const scanStep = stepUsing(scan, /^tenant-scan\/tenant-scan@/);
    const upload = stepUsing(scan, /^actions\/upload-artifact@/);
    const rollupJob: JobDirectory = await createJobDirectory();
    try {
      const steps: Record<string, StepResult> = {};
      for (const tenant of expand(scan.strategy?.matrix.tenant, { inputs }) as typeof tenants) {
        const contexts = { inputs, secrets, matrix: { tenant } };
        const step = await runStep(scanStep, contexts, 'main').run();
        steps[tenant.name] = step;
        const after = { ...contexts, steps: { scan: { outputs: step.outputs } } };
        if (!condition(upload.if, after)) continue;
        // download-artifact with a pattern: each artifact in a directory of its name.
        const name = expandString(upload.with?.name, after);
        const path = expandString(upload.with?.path, after);
        const dir = join(rollupJob.workspace, 'tenant-scan-records', name);
        await mkdir(dir, { recursive: true });
        await copyFile(path, join(dir, 'record.json'));
      }
      assert.equal(steps.contoso?.exitCode, 0, visibleLog(steps.contoso!));
      assert.equal(steps.fabrikam?.outputs.verdict, 'failed');
      assert.equal(steps.tailspin?.exitCode, 1, 'no key: its job fails before any request');
      assert.equal(steps.tailspin?.outputs['record-file'] ?? '', '');
      for (const name of ['contoso', 'fabrikam', 'northwind']) {
        const record = JSON.parse(
          await readFile(
            join(
              rollupJob.workspace,
              'tenant-scan-records',
              `tenant-scan-record-${name}`,
              'record.json',
            ),
            'utf8',
          ),
        ) as { label: string; tenant: string };
        assert.deepEqual([record.label, record.tenant], [name, `${name} Ltd`], 'its own tenant');
      }

      const rollupJobSpec = workflow.jobs.rollup;
      assert.ok(condition(rollupJobSpec.if, { inputs }));
      const rollupStep = stepUsing(rollupJobSpec, /^tenant-scan\/tenant-scan\/rollup@/);
      const rolled = await runStep(rollupStep, { inputs }, 'rollup', rollupJob).run();
      assert.equal(rolled.exitCode, 1, visibleLog(rolled));
      assert.equal(rolled.outputs.verdict, 'failed');
      assert.equal(rolled.outputs['failed-tenants'], '3');
      const text = renderedText(rolled.summary);
      assert.match(text, /^❌ Tenant roll-up failed: 3 of 4 tenants failed \(at most 0 may\)$/m);
      assert.match(text, /^tailspin \| ❓ missing/m);
      assert.match(text, /^contoso \(contoso Ltd\) \| ✅ passed/m);

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

      const tolerant = inputsOf({ tenants: JSON.stringify(tenants), 'max-failed-tenants': 3 });
      const allowed = await runStep(rollupStep, { inputs: tolerant }, 'rollup', rollupJob).run();
      assert.equal(allowed.exitCode, 0, visibleLog(allowed));
    } finally {
      await removeJobDirectory(rollupJob);
    }
  });
});
