// The CI snippets of docs/ci/ (GitLab CI, Azure Pipelines, Jenkins): each parses, downloads the
// bundle this repository builds, refuses it unless its sha256 is the one pinned in
// TENANT_SCAN_SHA256 (the check line is run with sh), and its tenant-scan command line really
// works: it is run as written with the bundled CLI against the emulator, and its result files
// validate.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import yaml from 'js-yaml';
import { startEmulator } from '../emulator/emulator.js';
import type { Emulator } from '../emulator/types.js';
import { junitProblems, sarifSchemaProblems } from '../formats/validators.js';
import { assertBundleBuilt, CLI, cliEnv, ROOT, runCli } from './helpers.js';

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

let emu: Emulator;
let work: string;

before(async () => {
  assertBundleBuilt();
  emu = await startEmulator({ seed: 21, clockSpeed: 20 });
  work = await mkdtemp(join(tmpdir(), 'tenant-scan-snippets-'));
});
after(async () => {
  await emu.close();
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
    it(`${name}: downloads the bundled CLI and its command line works as written`, async () => {
      const text = await snippet(name);
      const bundle = BUNDLE_URL.exec(text)?.[1];
      assert.equal(bundle, 'dist/cli/index.js', 'downloads the committed bundle');
      assert.match(text, /SERVICE_API_KEY/);
      const commands = [...text.matchAll(COMMAND)].map((m) => (m[1] ?? '').trim());
      assert.equal(commands.length, 1, `one tenant-scan command in ${name}`);
      const cwd = join(work, name.replace(/\W/g, '_'));
      await mkdir(cwd, { recursive: true });
      const result = await runCli((commands[0] ?? '').split(/\s+/), cliEnv(emu), { cwd });
      assert.equal(
        result.code,
        2,
        `the default emulator scan has failed findings:\n${result.stderr}`,
      );
      assert.deepEqual(await junitProblems(join(cwd, 'results.xml')), []);
      const sarif = JSON.parse(await readFile(join(cwd, 'results.sarif'), 'utf8')) as unknown;
      assert.deepEqual(sarifSchemaProblems(sarif), []);
      assert.ok(!existsSync(join(cwd, 'report.pdf')), 'if-ready never generates a report');
    });

    it(`${name}: sets the API address, and offers npx with this package's exact version`, async () => {
      const text = await snippet(name);
      assert.match(
        text,
        /SERVICE_API_URL *[:=] *'?https:\/\/\S+'? *(#|\/\/) REPLACE with your Tenant API address/,
      );
      const npx = [...text.matchAll(NPX)];
      assert.equal(npx.length, 1, `one npx alternative in ${name}`);
      const version = (
        JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as { version: string }
      ).version;
      assert.equal(npx[0]?.[1], version, 'in lockstep with package.json');
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
