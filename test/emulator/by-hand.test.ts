// `npm run emulator` for a person at a terminal: `--port N` fixes the addresses, the output has
// the two `export` lines to paste and a CLI command to try; pasted into a shell, they drive the
// bundled CLI. Results stay the same from scan to scan, so `--baseline previous` shows no churn
// (as on a real tenant) until the tenant is changed (`POST /drift` on the control origin).
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { assertBundleBuilt, cliEnv, runCli } from '../cli/helpers.js';

const MAIN = fileURLToPath(new URL('./main.ts', import.meta.url));

/** Three free consecutive ports (API, download, control), as `--port N` takes them. */
async function freePorts(): Promise<number> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const first = 20_000 + Math.floor(Math.random() * 40_000);
    const servers = [0, 1, 2].map(() => createServer());
    const bound = await Promise.all(
      servers.map(
        (server, i) =>
          new Promise<boolean>((resolve) => {
            server.once('error', () => resolve(false));
            server.listen(first + i, '127.0.0.1', () => resolve(true));
          }),
      ),
    );
    await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
    if (bound.every(Boolean)) return first;
  }
  throw new Error('no three free consecutive ports');
}

/** Starts main.ts and reads what it prints up to "Press Ctrl-C". */
async function startMain(args: string[]): Promise<{ child: ChildProcess; text: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN, ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let text = '';
  child.stdout!.setEncoding('utf8');
  for await (const chunk of child.stdout! as AsyncIterable<string>) {
    text += chunk;
    if (text.includes('Press Ctrl-C to stop.')) break;
  }
  return { child, text };
}

/** The variables of the `export NAME=value` lines, as a shell would set them. */
function exported(text: string): Record<string, string> {
  return Object.fromEntries(
    [...text.matchAll(/^ *export (SERVICE_API_(?:URL|KEY))=(\S+)$/gm)].map((m) => [m[1], m[2]]),
  );
}

describe('emulator: npm run emulator, by hand', () => {
  let child: ChildProcess;
  let text: string;
  let port: number;
  before(async () => {
    assertBundleBuilt();
    port = await freePorts();
    ({ child, text } = await startMain(['--port', String(port), '--clock-speed', '200']));
  });
  after(async () => {
    if (child.exitCode === null) {
      child.kill('SIGINT');
      await once(child, 'exit');
    }
  });

  it('--port fixes all three addresses; two export lines to paste and a CLI command', () => {
    const vars = exported(text);
    assert.deepEqual(Object.keys(vars).sort(), ['SERVICE_API_KEY', 'SERVICE_API_URL'], text);
    assert.equal(vars.SERVICE_API_URL, `http://127.0.0.1:${port}/api/v1`);
    assert.match(vars.SERVICE_API_KEY ?? '', /^ak_live_\w+$/);
    assert.ok(text.includes(`http://127.0.0.1:${port + 1}`), 'the download origin');
    assert.ok(text.includes(`curl -s -X POST http://127.0.0.1:${port + 2}/drift`), text);
    assert.match(text, /^ {2}npx node dist\/cli\/index\.js scan run --type compliance --watch/m);
  });

  it('pasted, the lines drive the CLI; a baseline shows no churn until the tenant drifts', async () => {
    const env = cliEnv(undefined, exported(text));
    const scan = (extra: string[] = []) =>
      runCli(['scan', 'run', '--type', 'compliance', '--watch', '--json', ...extra], env);
    const first = await scan();
    assert.equal(first.code, 0, first.stderr);
    const compared = await scan(['--baseline', 'previous']);
    assert.equal(compared.code, 0, compared.stderr);
    const same = JSON.parse(compared.stdout) as { failed: number; new: number; fixed: number };
    assert.ok(same.failed > 0, 'the default tenant has failed findings');
    assert.deepEqual([same.new, same.fixed], [0, 0], 'the same checks fail scan after scan');

    const controlOrigin = `http://127.0.0.1:${port + 2}`;
    const drift = await fetch(`${controlOrigin}/drift`, { method: 'POST' });
    assert.equal(drift.status, 200);
    const changed = JSON.parse((await scan(['--baseline', 'previous'])).stdout) as typeof same;
    assert.ok(changed.new > 0 && changed.fixed > 0, JSON.stringify(changed));
    const settled = JSON.parse((await scan(['--baseline', 'previous'])).stdout) as typeof same;
    assert.deepEqual([settled.new, settled.fixed], [0, 0], 'stable again after the change');
  });
});
