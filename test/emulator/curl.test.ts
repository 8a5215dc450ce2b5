import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const MAIN = fileURLToPath(new URL('./main.ts', import.meta.url));

interface Printed {
  url: string;
  apiKey: string;
  downloadOrigin: string;
  controlOrigin: string;
}

/** Start `test/emulator/main.ts` (what `npm run emulator` runs) and read its first printed line. */
async function startMain(args: string[]): Promise<{ child: ChildProcess; info: Printed }> {
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN, '--json', ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout! });
  const [line] = (await once(lines, 'line')) as [string];
  lines.close();
  return { child, info: JSON.parse(line) as Printed };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

async function curl(args: string[]): Promise<{ status: number; body: Json }> {
  const { stdout } = await run('/usr/bin/curl', ['-sS', '-w', '\n%{http_code}', ...args]);
  const cut = stdout.lastIndexOf('\n');
  return { status: Number(stdout.slice(cut + 1)), body: JSON.parse(stdout.slice(0, cut)) };
}

// curl is an independent HTTP client; where the system has none the suite is skipped, saying why.
const CURL_SKIP = existsSync('/usr/bin/curl') ? false : 'no /usr/bin/curl on this system';

describe('emulator: npm run emulator + curl', { skip: CURL_SKIP }, () => {
  let child: ChildProcess;
  let info: Printed;
  before(async () => {
    ({ child, info } = await startMain(['--clock-speed', '5', '--seed', '42']));
  });
  after(async () => {
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
  });

  it('prints its API URL, download origin, control origin and a ready key', () => {
    assert.match(info.url, /^http:\/\/127\.0\.0\.1:\d+\/api\/v1$/);
    assert.match(info.downloadOrigin, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.match(info.controlOrigin, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.match(info.apiKey, /^ak_live_/);
  });

  it('curl with the printed key triggers a scan, polls it to its end and reads its failed results', async () => {
    const auth = ['-H', `Authorization: Bearer ${info.apiKey}`];
    const created = await curl([
      ...auth,
      '-H',
      'Content-Type: application/json',
      '-d',
      '{"scanType":"compliance"}',
      `${info.url}/tenants/me/scans`,
    ]);
    assert.equal(created.status, 201);
    const id = created.body.data.id as string;
    const seen = new Set<string>();
    let status = '';
    for (let polls = 0; polls < 100 && status !== 'completed'; polls++) {
      const scan = await curl([...auth, `${info.url}/scans/${id}`]);
      assert.equal(scan.status, 200);
      status = scan.body.data.status;
      seen.add(status);
      if (status !== 'completed') await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.equal(status, 'completed');
    assert.ok(seen.has('running') || seen.has('queued'), [...seen].join());
    const failed = await curl([...auth, `${info.url}/scans/${id}/results?result=Failed`]);
    assert.equal(failed.status, 200);
    assert.equal(failed.body.data.length, 5);
    for (const finding of failed.body.data) assert.equal(finding.result, 'Failed');
  });

  it('SIGTERM stops it cleanly', async () => {
    child.kill('SIGTERM');
    const [code] = await once(child, 'exit');
    assert.equal(code, 0);
  });
});
