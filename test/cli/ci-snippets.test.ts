// The CI snippets of docs/ci/ (GitLab CI, Azure Pipelines, Jenkins) run as copied: their script
// lines, in an empty directory with Node 24, download this repository's CLI file from a loopback
// stand-in of raw.githubusercontent.com, check it against the digest the build wrote, and scan the
// emulator (exit 2 on findings, the JUnit and SARIF files valid). The digest check refuses another
// file or no digest at all.

import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, realpathSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import yaml from 'js-yaml';
import { startEmulator } from '../emulator/emulator.js';
import type { Emulator } from '../emulator/types.js';
import { junitProblems, sarifSchemaProblems } from '../formats/validators.js';
import { assertBundleBuilt, CLI, ROOT } from './helpers.js';
import { startRawHost, type RawHost } from './raw-host.js';

const SNIPPETS = ['.gitlab-ci.yml', 'azure-pipelines.yml', 'Jenkinsfile'];
const BUNDLE_URL =
  /https:\/\/raw\.githubusercontent\.com\/tenant-scan\/tenant-scan\/[^/]+\/(dist\/cli\/index\.js)/;
const COMMAND = /node tenant-scan\.mjs ((?:scan|tenant|report|keys) [^'"\n]+)/g;
/** The npm alternative: npx with the exact version of this package. */
const NPX = /npx --yes tenant-scan@(\S+) ((?:scan|tenant|report|keys) [^'"\n]+)/g;
/** The line that refuses a downloaded CLI whose sha256 is not the one the user pinned. */
const DIGEST_CHECK =
  /echo "\$\{TENANT_SCAN_SHA256:\?[^}]+\} {2}tenant-scan\.mjs" \| sha256sum -c -/g;

/** Runs `line` with sh in `cwd`: its exit code and stderr. */
function shell(line: string, cwd: string, env: Record<string, string>) {
  const result = spawnSync('sh', ['-c', line], {
    cwd,
    env: { PATH: process.env.PATH!, ...env },
    encoding: 'utf8',
  });
  return { code: result.status, stderr: result.stderr };
}

/** sh -c without blocking this process (the emulator answers from it). */
function shellAsync(
  line: string,
  cwd: string,
  env: Record<string, string>,
): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn('sh', ['-c', line], { cwd, env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

/** The tools a snippet's script uses besides node: without them it cannot run as copied. */
const SNIPPET_TOOLS_MISSING = ['curl', 'sha256sum', 'sh'].find(
  (tool) => spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0,
)
  ? 'curl, sha256sum or sh is not installed: the snippets call them'
  : false;

/** Node 24 (from npm) first, then the system's tools; no node_modules/.bin. */
const SNIPPET_PATH = [
  dirname(realpathSync(join(ROOT, 'node_modules', '.bin', 'node'))),
  '/usr/local/bin',
  '/usr/bin',
  '/bin',
].join(':');

/** The digest the build wrote beside the CLI file. */
async function builtDigest(): Promise<string> {
  return (await readFile(`${CLI}.sha256`, 'utf8')).split(/\s/)[0] ?? '';
}

interface SnippetJob {
  /** Script lines, in order, as the CI runs them (Azure's $(VAR) macros expanded). */
  lines: string[];
  /** The job's variables and environment. */
  env: Record<string, string>;
}

/** The script lines and environment of a snippet, with the given pipeline variables and secrets. */
function scriptOf(name: string, text: string, given: Record<string, string>): SnippetJob {
  if (name === '.gitlab-ci.yml') {
    const job = (
      yaml.load(text) as Record<string, { script: string[]; variables: Record<string, string> }>
    )['tenant-scan']!;
    return { lines: job.script, env: { ...job.variables, ...given } };
  }
  if (name === 'azure-pipelines.yml') {
    const doc = yaml.load(text) as {
      variables: Record<string, string>;
      steps: Array<{ script?: string; env?: Record<string, string> }>;
    };
    const variables = { ...doc.variables, ...given };
    // Azure expands $(NAME) macros before the script runs, and maps variables to env vars.
    const expand = (s: string) => s.replace(/\$\((\w+)\)/g, (m, n: string) => variables[n] ?? m);
    const steps = doc.steps.filter((step) => step.script !== undefined);
    const env: Record<string, string> = { ...variables };
    for (const step of steps)
      for (const [k, v] of Object.entries(step.env ?? {})) env[k] = expand(v);
    const lines = steps.flatMap((step) =>
      (step.script ?? '')
        .split('\n')
        .filter((l) => l.trim() !== '')
        .map(expand),
    );
    return { lines, env };
  }
  // Jenkinsfile: sh '…' steps and the script: '…' of sh(…), outside comments; environment {}.
  const code = text.split('\n').filter((line) => !line.trim().startsWith('//'));
  const lines = code.flatMap((line) => {
    const quoted = /^\s*(?:sh|script:) '(.*)'\s*$/.exec(line)?.[1];
    return quoted === undefined ? [] : [quoted];
  });
  const env: Record<string, string> = {};
  for (const line of code) {
    const entry = /^\s*([A-Z_]+) = '([^']*)'/.exec(line);
    if (entry) env[entry[1]!] = entry[2]!;
  }
  return { lines, env: { ...env, ...given } };
}

let emu: Emulator;
let work: string;
let rawHost: RawHost;

before(async () => {
  assertBundleBuilt();
  emu = await startEmulator({ seed: 21, clockSpeed: 20 });
  work = await mkdtemp(join(tmpdir(), 'tenant-scan-snippets-'));
  rawHost = await startRawHost(ROOT);
});
after(async () => {
  await emu.close();
  await rawHost.close();
  await rm(work, { recursive: true, force: true });
});

async function snippet(name: string): Promise<string> {
  return readFile(join(ROOT, 'docs', 'ci', name), 'utf8');
}

describe('CI snippets', () => {
  it('the YAML snippets parse', async () => {
    for (const name of ['.gitlab-ci.yml', 'azure-pipelines.yml']) {
      const doc = yaml.load(await snippet(name));
      assert.ok(doc !== null && typeof doc === 'object', name);
    }
    const gitlab = yaml.load(await snippet('.gitlab-ci.yml')) as Record<
      string,
      { artifacts?: unknown }
    >;
    assert.deepEqual(gitlab['tenant-scan']?.artifacts, {
      when: 'always',
      expire_in: '30 days',
      paths: ['report.pdf', 'results.sarif'],
      reports: { junit: 'results.xml' },
    });
  });

  for (const name of SNIPPETS) {
    it(
      `${name}: its script runs as copied, with only the downloaded file and Node 24`,
      { skip: SNIPPET_TOOLS_MISSING },
      async () => {
        const job = scriptOf(name, await snippet(name), {
          SERVICE_API_KEY: emu.apiKey,
          SERVICE_API_URL: emu.url,
          TENANT_SCAN_SHA256: await builtDigest(),
        });
        const cwd = await mkdtemp(join(work, 'run-'));
        const env = { PATH: SNIPPET_PATH, HOME: cwd, ...job.env, ...rawHost.env };
        const scan = job.lines.findIndex((line) => COMMAND.test(line));
        COMMAND.lastIndex = 0;
        assert.ok(scan > 0, `a download before the scan in ${name}`);
        for (const [index, line] of job.lines.entries()) {
          if (index === scan) {
            assert.deepEqual(await readdir(cwd), ['tenant-scan.mjs'], 'only the downloaded file');
          }
          const result = await shellAsync(line, cwd, env);
          const expected = index === scan ? 2 : 0;
          assert.equal(result.code, expected, `${name}: ${line}\n${result.stderr}`);
        }
        assert.ok(rawHost.requests.includes('/tenant-scan/tenant-scan/v1/dist/cli/index.js'));
        assert.deepEqual(await junitProblems(join(cwd, 'results.xml')), []);
        const sarif = JSON.parse(await readFile(join(cwd, 'results.sarif'), 'utf8')) as unknown;
        assert.deepEqual(sarifSchemaProblems(sarif), []);
        assert.ok(!existsSync(join(cwd, 'report.pdf')), 'if-ready never generates a report');
      },
    );

    it(`${name}: sets the API address, and offers npx with this package's exact version`, async () => {
      const text = await snippet(name);
      assert.match(
        text,
        /SERVICE_API_URL *[:=] *'?https:\/\/\S+'? *(#|\/\/) REPLACE with your Tenant API address/,
      );
      const npx = [...text.matchAll(NPX)];
      assert.equal(npx.length, 1, `one npx alternative in ${name}`);
      // Before the first release no version is on npm: a name with a version would run whoever
      // publishes it first, so the line holds a placeholder until then.
      const released = /^## \[?\d+\.\d+\.\d+/m.test(
        await readFile(join(ROOT, 'CHANGELOG.md'), 'utf8'),
      );
      const version = (
        JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as { version: string }
      ).version;
      assert.equal(npx[0]?.[1], released ? version : '<version>', 'in lockstep with the releases');
      const [command] = [...text.matchAll(COMMAND)].map((m) => (m[1] ?? '').trim());
      assert.equal(npx[0]?.[2]?.trim(), command, 'the same command line');
    });

    it(`${name}: runs the downloaded CLI only when its sha256 is the pinned one`, async () => {
      const text = await snippet(name);
      const checks = [...text.matchAll(DIGEST_CHECK)];
      assert.equal(checks.length, 1, `one digest check in ${name}`);
      const check = checks[0]!;
      const download = BUNDLE_URL.exec(text)!;
      const command = text.search(COMMAND);
      assert.ok(download.index < check.index && check.index < command, 'download, check, run');

      const cwd = join(work, `digest-${name.replace(/\W/g, '_')}`);
      await mkdir(cwd, { recursive: true });
      await copyFile(CLI, join(cwd, 'tenant-scan.mjs'));
      const digest = createHash('sha256')
        .update(await readFile(CLI))
        .digest('hex');
      const pinned = shell(check[0], cwd, { TENANT_SCAN_SHA256: digest });
      assert.equal(pinned.code, 0, pinned.stderr);

      const other = shell(check[0], cwd, { TENANT_SCAN_SHA256: 'ab'.repeat(32) });
      assert.notEqual(other.code, 0, 'another file is refused');
      const noDigest: Record<string, string>[] = [{}, { TENANT_SCAN_SHA256: '' }];
      for (const env of noDigest) {
        const unset = shell(check[0], cwd, env);
        assert.notEqual(unset.code, 0, 'no pinned digest: refused');
        assert.match(unset.stderr, /TENANT_SCAN_SHA256: set it to the sha256 of the CLI file/);
      }
    });
  }
});

describe('GitLab parallel:matrix over tenants, then the roll-up', () => {
  interface GitLabJob {
    stage: string;
    script: string[];
    parallel?: { matrix: Array<Record<string, string[]>> };
    allow_failure?: { exit_codes: number[] };
  }
  // The roll-up runs with --max-age: the records' scan times must be on the roll-up's clock, as a
  // real service's are within seconds, not on the fast clock of the file's emulator (ahead of it).
  let emu: Emulator;
  before(async () => {
    emu = await startEmulator({ seed: 22, clockSpeed: 1 });
  });
  after(() => emu.close());

  it(
    'each matrix job scans its tenant with its own key; the roll-up job gives one verdict',
    { skip: SNIPPET_TOOLS_MISSING },
    async () => {
      const doc = yaml.load(await snippet('gitlab-tenants.gitlab-ci.yml')) as Record<
        string,
        unknown
      > & { variables: Record<string, string> };
      const scan = doc['tenant-scan'] as GitLabJob;
      const rollup = doc['tenant-rollup'] as GitLabJob;
      const names = scan.parallel?.matrix[0]?.TENANT ?? [];
      assert.deepEqual(names, doc.variables.TENANTS?.split(','), 'TENANTS lists the matrix');
      const keys: Record<string, string> = {};
      for (const [i, name] of names.entries()) {
        const { apiKey } = emu.addTenant({
          name: `${name} Ltd`,
          scanPlan: {
            durationMs: 500,
            queuedMs: 50,
            outcome: { kind: 'completed', total: 40, failed: i, skipped: 0 },
          },
        });
        keys[`TENANT_SCAN_KEY_${name}`] = apiKey;
      }
      const common = {
        PATH: SNIPPET_PATH,
        ...doc.variables,
        SERVICE_API_URL: emu.url,
        TENANT_SCAN_SHA256: await builtDigest(),
        ...rawHost.env,
      };
      const rollupDir = await mkdtemp(join(work, 'gitlab-rollup-'));
      for (const [i, name] of names.entries()) {
        const cwd = await mkdtemp(join(work, `gitlab-${name}-`));
        // GitLab gives every job all the project's variables; the script picks its own key.
        const env = { ...common, ...keys, HOME: cwd, TENANT: name };
        for (const line of scan.script) {
          const result = await shellAsync(line, cwd, env);
          const expected = line.includes('scan run') ? (i === 0 ? 0 : 2) : 0;
          assert.equal(result.code, expected, `${name}: ${line}\n${result.stderr}`);
          if (line.includes('scan run'))
            assert.ok(scan.allow_failure?.exit_codes.includes(2), 'findings do not stop the stage');
        }
        const record = JSON.parse(await readFile(join(cwd, 'records', `${name}.json`), 'utf8')) as {
          label: string;
          tenant: string;
        };
        assert.deepEqual([record.label, record.tenant], [name, `${name} Ltd`], 'its own tenant');
        // Artifacts of the earlier stage are restored at their paths in the later job.
        await mkdir(join(rollupDir, 'records'), { recursive: true });
        await copyFile(
          join(cwd, 'records', `${name}.json`),
          join(rollupDir, 'records', `${name}.json`),
        );
      }
      const codes: Array<number | null> = [];
      for (const line of rollup.script) {
        const result = await shellAsync(line, rollupDir, { ...common, HOME: rollupDir });
        codes.push(result.code);
      }
      const lastFails = rollup.script.map((_line, i) => (i === rollup.script.length - 1 ? 2 : 0));
      assert.deepEqual(codes, lastFails, 'one tenant failed: the roll-up exits 2');
      const markdown = await readFile(join(rollupDir, 'rollup.md'), 'utf8');
      assert.match(markdown, /Tenant roll\\-up failed\\: 1 of 2 tenants failed/);
    },
  );
});
