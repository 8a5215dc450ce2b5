// The npm package: `npm pack` of this checkout, installed from the tarball into an empty directory
// (no registry needed: the CLI is one bundled file, the package has no dependencies), then
// `npx tenant-scan --help` and one command against the emulator, as a Node user would run it.
import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { copyFile, mkdir, mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startEmulator } from '../emulator/emulator.js';
import type { Emulator } from '../emulator/types.js';
import { assertBundleBuilt, ROOT } from './helpers.js';

interface Packed {
  filename: string;
  size: number;
  files: Array<{ path: string }>;
}

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  version: string;
  engines: { node: string };
  dependencies?: Record<string, string>;
};

function npm(args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env) {
  const result = spawnSync('npm', args, { cwd, env, encoding: 'utf8', timeout: 120_000 });
  assert.equal(result.status, 0, `npm ${args.join(' ')}:\n${result.stderr}`);
  return result.stdout;
}

let emu: Emulator;
let work: string;
let packed: Packed;
let app: string;

before(async () => {
  assertBundleBuilt();
  emu = await startEmulator({ seed: 41 });
  work = await mkdtemp(join(tmpdir(), 'tenant-scan-pack-'));
  const out = npm(['pack', '--json', '--pack-destination', work], ROOT);
  packed = (JSON.parse(out) as Packed[])[0]!;
  app = join(work, 'app');
  await mkdir(app);
  npm(['init', '--yes'], app);
  npm(['install', '--no-audit', '--no-fund', join(work, packed.filename)], app);
});
after(async () => {
  await emu.close();
  await rm(work, { recursive: true, force: true });
});

/** npx in the app directory; asynchronous, so the emulator in this process can answer. */
function npx(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      'npx',
      ['--no-install', 'tenant-scan', ...args],
      {
        cwd: app,
        env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
        timeout: 60_000,
      },
      (error, stdout, stderr) => {
        const status = error ? (typeof error.code === 'number' ? error.code : null) : 0;
        resolve({ status, stdout, stderr });
      },
    );
  });
}

describe('the npm package', () => {
  it('is small, has no dependencies, and holds only the bundled CLI', () => {
    assert.ok(packed.size < 3 * 1024 * 1024, `${packed.size} bytes packed`);
    assert.deepEqual(pkg.dependencies ?? {}, {}, 'the bundle holds its dependencies');
    const paths = packed.files.map((f) => f.path).sort();
    assert.ok(paths.includes('dist/cli/index.js'));
    assert.ok(paths.includes('dist/cli/package.json'), 'marks the bundle as ESM');
    for (const path of paths) {
      assert.match(path, /^(dist\/cli\/|package\.json$|README\.md$|LICENSE)/, path);
    }
  });

  it('installs from the tarball into an empty directory; npx tenant-scan --help works', async () => {
    assert.ok(existsSync(join(app, 'node_modules', '.bin', 'tenant-scan')));
    const help = await npx(['--help']);
    assert.equal(help.status, 0, help.stderr);
    assert.match(help.stdout, new RegExp(`^tenant-scan ${pkg.version.replace(/\./g, '\\.')}:`));
    assert.match(help.stdout, /scan run/);
  });

  it('runs a command against the emulator', async () => {
    const me = await npx(['tenant', 'me', '--output', 'json'], {
      SERVICE_API_KEY: emu.apiKey,
      SERVICE_API_URL: emu.url,
    });
    assert.equal(me.status, 0, me.stderr);
    assert.equal((JSON.parse(me.stdout) as { name: string }).name, 'Contoso Ltd');
  });

  it('on a Node older than engines allows, one clear line instead of a crash', (t) => {
    const minimum = /^>=(\d+)\.(\d+)$/.exec(pkg.engines.node);
    assert.ok(minimum, `engines.node is ${pkg.engines.node}`);
    const older = spawnSync('/usr/bin/node', ['--version'], { encoding: 'utf8' });
    const [major = 0, minor = 0] = (older.stdout ?? '').replace(/^v/, '').split('.').map(Number);
    const isOlder =
      major < Number(minimum[1]) || (major === Number(minimum[1]) && minor < Number(minimum[2]));
    if (older.status !== 0 || !isOlder) {
      t.skip('no Node older than engines.node at /usr/bin/node on this machine');
      return;
    }
    const cli = join(app, 'node_modules', 'tenant-scan', 'dist', 'cli', 'index.js');
    const result = spawnSync('/usr/bin/node', [cli, '--help'], { encoding: 'utf8', cwd: app });
    assert.equal(result.status, 1);
    assert.equal(
      result.stderr,
      `tenant-scan: error: Node ${minimum[1]}.${minimum[2]} or newer is needed; this is Node ${older.stdout.trim().replace(/^v/, '')}: use a node:24 image, or run it with npx --yes -p node@24 node node_modules/tenant-scan/dist/cli/index.js …, or on GitHub the tenant-scan Action (it brings Node 24)\n`,
    );
  });
});

describe('the CLI file', () => {
  it('is one self-contained file: copied alone into an empty directory, it runs --help and a scan', async () => {
    emu.setScanPlan({ durationMs: 500, queuedMs: 50 });
    const alone = await mkdtemp(join(tmpdir(), 'tenant-scan-alone-'));
    try {
      const file = join(alone, 'tenant-scan.mjs');
      await copyFile(join(ROOT, 'dist', 'cli', 'index.js'), file);
      const help = spawnSync(process.execPath, [file, '--help'], { cwd: alone, encoding: 'utf8' });
      assert.equal(help.status, 0, help.stderr);
      assert.match(help.stdout, /^tenant-scan \d+\.\d+\.\d+/);
      const scan = await new Promise<{ code: number | null; stderr: string }>((resolve) =>
        execFile(
          process.execPath,
          [file, 'scan', 'run', '--type', 'compliance', '--watch', '--fail-on-findings'],
          {
            cwd: alone,
            env: { PATH: process.env.PATH, SERVICE_API_KEY: emu.apiKey, SERVICE_API_URL: emu.url },
          },
          (error, _stdout, stderr) => resolve({ code: error ? (error.code as number) : 0, stderr }),
        ),
      );
      assert.equal(scan.code, 2, scan.stderr);
      assert.deepEqual(await readdir(alone), ['tenant-scan.mjs']);
    } finally {
      await rm(alone, { recursive: true, force: true });
    }
  });

  it('has its sha256 written beside it by the build', async () => {
    const digest = createHash('sha256')
      .update(await readFile(join(ROOT, 'dist', 'cli', 'index.js')))
      .digest('hex');
    assert.equal(
      await readFile(join(ROOT, 'dist', 'cli', 'index.js.sha256'), 'utf8'),
      `${digest}  index.js\n`,
    );
    const files = (await readdir(join(ROOT, 'dist', 'cli'))).filter((f) => f.endsWith('.js'));
    assert.deepEqual(files, ['index.js'], 'no chunk beside it');
  });
});
