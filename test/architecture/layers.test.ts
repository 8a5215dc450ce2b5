// The architecture check (dependency-cruiser with .dependency-cruiser.mjs) passes on src/, and
// fails on a small tree that breaks each kind of rule: so the check itself can fail.
import { strict as assert } from 'node:assert';
import { execFile } from 'node:child_process';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CONFIG = join(ROOT, '.dependency-cruiser.mjs');
const DEPCRUISE = join(ROOT, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruiser.mjs');

function cruise(cwd: string): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [DEPCRUISE, 'src', '--config', CONFIG, '--output-type', 'err'],
      { cwd, maxBuffer: 8 * 1024 * 1024 },
      (error, stdout, stderr) =>
        resolve({ code: error ? Number(error.code ?? 1) : 0, output: stdout + stderr }),
    );
  });
}

async function tree(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'tenant-scan-architecture-'));
  await writeFile(
    join(dir, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext' } }),
  );
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), text);
  }
  return dir;
}

describe('architecture: imports look down', () => {
  const dirs: string[] = [];
  after(() => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))));

  test('src/ keeps every rule', async () => {
    const { code, output } = await cruise(ROOT);
    assert.equal(code, 0, output);
    assert.match(output, /no dependency violations found/);
  });

  test('a circle, an upward import, a client that knows CI, faces that meet, a reach into the client and sub-actions that meet all fail', async () => {
    const dir = await tree({
      'src/pipeline/common/words.ts':
        "import { run } from '../job/run.js';\nexport const w = run;\n",
      'src/pipeline/job/run.ts':
        "import { w } from '../common/words.js';\nexport const run = () => w;\n",
      'src/client/api.ts':
        "import { run } from '../pipeline/job/run.js';\nexport const api = run;\n",
      'src/github/face.ts': "import { cli } from '../cli/face.js';\nexport const gh = cli;\n",
      'src/cli/face.ts': 'export const cli = 1;\n',
      'src/render/page.ts': "import { gh } from '../github/face.js';\nexport const page = gh;\n",
      'src/render/inside.ts':
        "import { api } from '../client/api.js';\nexport const inside = api;\n",
      'src/github/rollup/run.ts':
        "import { state } from '../tenants/state.js';\nexport const rollup = state;\n",
      'src/github/tenants/state.ts': 'export const state = 1;\n',
      'src/github/run.ts':
        "import { rollup } from './rollup/run.js';\nexport const main = rollup;\n",
    });
    dirs.push(dir);
    const { code, output } = await cruise(dir);
    assert.notEqual(code, 0, output);
    for (const rule of [
      'no-circular',
      'no-folder-circular',
      'pipeline-common-looks-down',
      'client-knows-nothing-of-ci',
      'faces-apart',
      'render-below-faces',
      'client-has-one-door',
      'github-rollup-apart',
      'github-main-step-below-sub-actions',
    ]) {
      assert.match(output, new RegExp(`error ${rule}:`), `${rule} did not fire:\n${output}`);
    }
  });
});
