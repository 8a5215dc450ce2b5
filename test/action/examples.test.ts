// Every workflow users copy sets the API address: the seed gives it only as a placeholder, so an
// example without one fails when copied. The example files, and the YAML blocks of the README and
// docs/ that define jobs, are read: each step using the action sets api-url or SERVICE_API_URL,
// each job calling the reusable workflow sets api-url.
import assert from 'node:assert/strict';
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import yaml from 'js-yaml';
import { PROJECT_ROOT } from '../helpers/runner.js';

type Env = Record<string, unknown> | undefined;
interface Step {
  uses?: string;
  with?: Record<string, unknown>;
  env?: Env;
}
interface Job {
  uses?: string;
  with?: Record<string, unknown>;
  env?: Env;
  steps?: Step[];
}
interface Workflow {
  env?: Env;
  jobs?: Record<string, Job>;
}

const ACTION = /^tenant-scan\/tenant-scan@/;
const REUSABLE = /^tenant-scan\/tenant-scan\/\.github\/workflows\/tenant-scan\.yml@/;
const MANY_TENANTS = /^tenant-scan\/tenant-scan\/\.github\/workflows\/tenant-scan-tenants\.yml@/;

/** The tenants list of a call of the multi-tenant workflow: each entry must carry api-url. */
function tenantsWithoutAddress(value: unknown): boolean {
  try {
    const tenants = JSON.parse(String(value)) as Array<Record<string, unknown>>;
    return !Array.isArray(tenants) || tenants.some((tenant) => !given(tenant['api-url']));
  } catch {
    return true;
  }
}

const given = (value: unknown) => typeof value === 'string' && value.trim() !== '';

/** Where each use of the action or the reusable workflow misses the address (empty: none). */
function missingAddress(workflow: Workflow): string[] {
  const missing: string[] = [];
  for (const [name, job] of Object.entries(workflow.jobs ?? {})) {
    if (job.uses && REUSABLE.test(job.uses) && !given(job.with?.['api-url'])) {
      missing.push(`job ${name} calls the reusable workflow without api-url`);
    }
    if (job.uses && MANY_TENANTS.test(job.uses) && tenantsWithoutAddress(job.with?.tenants)) {
      missing.push(`job ${name} calls the multi-tenant workflow with a tenant without api-url`);
    }
    for (const step of job.steps ?? []) {
      if (!step.uses || !ACTION.test(step.uses)) continue;
      const envs = [step.env, job.env, workflow.env];
      if (!given(step.with?.['api-url']) && !envs.some((env) => given(env?.SERVICE_API_URL))) {
        missing.push(`job ${name} uses the action without api-url or SERVICE_API_URL`);
      }
    }
  }
  return missing;
}

/** Example workflow files, and the job-defining YAML blocks of the Markdown docs. */
async function workflows(): Promise<Array<[string, Workflow]>> {
  const found: Array<[string, Workflow]> = [];
  const examples = join(PROJECT_ROOT, 'docs', 'examples');
  for (const file of (await readdir(examples)).filter((f) => f.endsWith('.yml'))) {
    found.push([
      `docs/examples/${file}`,
      yaml.load(await readFile(join(examples, file), 'utf8')) as Workflow,
    ]);
  }
  for (const doc of ['README.md', 'docs/cli.md', 'docs/gate.md', 'docs/rollup.md']) {
    const text = await readFile(join(PROJECT_ROOT, doc), 'utf8').catch(() => '');
    const blocks = [...text.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1] ?? '');
    blocks.forEach((block, i) => {
      const parsed = yaml.load(block) as Workflow | null;
      if (parsed && typeof parsed === 'object' && 'jobs' in parsed) {
        found.push([`${doc} (yaml block ${i + 1})`, parsed]);
      }
    });
  }
  return found;
}

describe('examples set the API address', () => {
  it('every example workflow, and every workflow in the docs, sets api-url or SERVICE_API_URL', async () => {
    const all = await workflows();
    assert.ok(all.length >= 4, `found only ${all.length} workflows`);
    const uses = all.filter(([, w]) =>
      Object.values(w.jobs ?? {}).some(
        (job) =>
          (job.uses && REUSABLE.test(job.uses)) ||
          (job.steps ?? []).some((step) => step.uses && ACTION.test(step.uses)),
      ),
    );
    assert.ok(uses.length >= 4, 'the examples use the action or the reusable workflow');
    for (const [where, workflow] of all) assert.deepEqual(missingAddress(workflow), [], where);
  });

  it('the check catches a workflow without an address', () => {
    const bare: Workflow = {
      jobs: { scan: { steps: [{ uses: 'tenant-scan/tenant-scan@v1', with: { 'api-key': 'x' } }] } },
    };
    assert.equal(missingAddress(bare).length, 1);
    const reusable: Workflow = {
      jobs: { c: { uses: 'tenant-scan/tenant-scan/.github/workflows/tenant-scan.yml@v1' } },
    };
    assert.equal(missingAddress(reusable).length, 1);
    const many: Workflow = {
      jobs: {
        t: {
          uses: 'tenant-scan/tenant-scan/.github/workflows/tenant-scan-tenants.yml@v1',
          with: { tenants: '[{"name": "a", "secret": "A"}]' },
        },
      },
    };
    assert.equal(missingAddress(many).length, 1);
  });
});

const ROLLUP = /^tenant-scan\/tenant-scan\/rollup@/;

/** The max-age each roll-up of a scheduled example gives ('' when none), by file and job. */
function scheduledRollupAges(where: string, workflow: Workflow & { on?: unknown }): string[][] {
  const on = workflow.on;
  if (!on || typeof on !== 'object' || !('schedule' in on)) return [];
  const ages: string[][] = [];
  for (const [name, job] of Object.entries(workflow.jobs ?? {})) {
    const calls = [
      ...(job.uses && MANY_TENANTS.test(job.uses) ? [job.with] : []),
      ...(job.steps ?? []).filter((step) => ROLLUP.test(step.uses ?? '')).map((step) => step.with),
    ];
    for (const given of calls)
      ages.push([`${where} job ${name}`, String(given?.['max-age'] ?? '')]);
  }
  return ages;
}

describe('a scheduled roll-up gives max-age (docs/rollup.md, stale records)', () => {
  it('every scheduled example that rolls up gives the same max-age, and the GitLab fleet job too', async () => {
    const ages = (await workflows()).flatMap(([where, workflow]) =>
      scheduledRollupAges(where, workflow),
    );
    assert.ok(ages.length >= 2, `found only ${ages.length} scheduled roll-ups`);
    assert.deepEqual(
      ages.filter(([, age]) => age !== '36h'),
      [],
      'a nightly roll-up without max-age 36h',
    );
    const gitlab = await readFile(
      join(PROJECT_ROOT, 'docs', 'ci', 'gitlab-tenants.gitlab-ci.yml'),
      'utf8',
    );
    const rollupLines = gitlab.split('\n').filter((line) => /tenant-scan\.mjs rollup /.test(line));
    assert.equal(rollupLines.length, 1);
    assert.match(rollupLines[0] ?? '', / --max-age 36h /);
  });
});

describe('docs/github.md documents the action', () => {
  it('every input and output of action.yml, in its tables', async () => {
    const action = yaml.load(await readFile(join(PROJECT_ROOT, 'action.yml'), 'utf8')) as {
      inputs: Record<string, unknown>;
      outputs: Record<string, unknown>;
    };
    const readme = await readFile(join(PROJECT_ROOT, 'docs', 'github.md'), 'utf8');
    const section = (title: string) => {
      const at = readme.indexOf(`\n## ${title}\n`);
      assert.ok(at >= 0, `docs/github.md has no ## ${title}`);
      return readme.slice(at + 1).split('\n## ')[0] ?? '';
    };
    for (const name of Object.keys(action.inputs)) {
      assert.match(section('Inputs'), new RegExp(`^\\| \`${name}\` +\\|`, 'm'), `input ${name}`);
    }
    for (const name of Object.keys(action.outputs)) {
      assert.ok(section('Outputs').includes(`\`${name}\``), `output ${name}`);
    }
  });
});

describe('the reusable workflow', () => {
  it('takes and passes every gate input, and gives the outputs new, fixed and waived', async () => {
    const text = await readFile(join(PROJECT_ROOT, '.github/workflows/tenant-scan.yml'), 'utf8');
    const workflow = yaml.load(text) as {
      on: { workflow_call: { inputs: Record<string, unknown>; outputs: Record<string, unknown> } };
      jobs: { scan: { outputs: Record<string, string>; steps: Step[] } };
    };
    const call = workflow.on.workflow_call;
    const step = workflow.jobs.scan.steps.find((s) => ACTION.test(s.uses ?? ''));
    const passed = [
      'fail-on-severity',
      'baseline',
      'fail-on',
      'waivers-file',
      'request-timeout-seconds',
    ];
    for (const name of passed) {
      assert.ok(name in call.inputs, `input ${name}`);
      assert.equal(step?.with?.[name], `\${{ inputs.${name} }}`, `passes ${name}`);
    }
    for (const name of ['new', 'fixed', 'waived']) {
      assert.ok(name in call.outputs, `output ${name}`);
      assert.equal(workflow.jobs.scan.outputs[name], `\${{ steps.scan.outputs.${name} }}`);
    }
  });

  it('every call of a reusable workflow in the examples and docs gives inputs it declares, and the required ones', async () => {
    const declared = new Map<string, Record<string, { required?: boolean }>>();
    for (const name of ['tenant-scan.yml', 'tenant-scan-tenants.yml']) {
      const text = await readFile(join(PROJECT_ROOT, '.github/workflows', name), 'utf8');
      const workflow = yaml.load(text) as {
        on: { workflow_call: { inputs: Record<string, { required?: boolean }> } };
      };
      declared.set(name, workflow.on.workflow_call.inputs);
    }
    let calls = 0;
    for (const [where, workflow] of await workflows()) {
      for (const [job, { uses, with: given = {} }] of Object.entries(workflow.jobs ?? {})) {
        const called = /^tenant-scan\/tenant-scan\/\.github\/workflows\/([^@]+)@/.exec(uses ?? '');
        if (!called) continue;
        const inputs = declared.get(called[1] ?? '');
        assert.ok(inputs, `${where}: job ${job} calls ${called[1]}, which is not ours`);
        calls++;
        for (const name of Object.keys(given))
          assert.ok(name in inputs, `${where}: job ${job} gives ${name}, not an input`);
        for (const [name, input] of Object.entries(inputs))
          if (input.required) assert.ok(name in given, `${where}: job ${job} misses ${name}`);
      }
    }
    assert.ok(calls >= 2, `found only ${calls} calls`);
  });

  it('passes the files for people on: html-file, csv-file and ocsf-file, none by default', async () => {
    const text = await readFile(join(PROJECT_ROOT, '.github/workflows/tenant-scan.yml'), 'utf8');
    const workflow = yaml.load(text) as {
      on: { workflow_call: { inputs: Record<string, { default?: unknown }> } };
      jobs: { scan: { steps: Step[] } };
    };
    const step = workflow.jobs.scan.steps.find((s) => ACTION.test(s.uses ?? ''));
    for (const name of ['html-file', 'csv-file', 'ocsf-file']) {
      assert.equal(workflow.on.workflow_call.inputs[name]?.default, '', `input ${name}`);
      assert.equal(step?.with?.[name], `\${{ inputs.${name} }}`, `passes ${name}`);
    }
  });
});
