// Proxies and extra CAs: a real proxy process on loopback (HTTP_PROXY / HTTPS_PROXY / NO_PROXY) and
// an HTTPS server whose certificate only NODE_EXTRA_CA_CERTS makes trusted.
import assert from 'node:assert/strict';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import {
  DownloadError,
  NetworkError,
  createClient,
  type ClientOptions,
  type TenantClient,
} from '../../src/client/index.js';
import { startEmulator } from '../emulator/emulator.js';
import type { Emulator } from '../emulator/types.js';

interface ProxyLine {
  kind?: 'connect' | 'forward';
  target?: string;
  port?: number;
  auth?: boolean;
}

async function startProxyProcess(): Promise<{
  url: string;
  lines: ProxyLine[];
  child: ChildProcess;
}> {
  const script = fileURLToPath(new URL('./http-proxy.ts', import.meta.url));
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines: ProxyLine[] = [];
  const port = await new Promise<number>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`proxy exited with ${code}`)));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const entry = JSON.parse(line) as ProxyLine;
      if (entry.port) resolve(entry.port);
      else lines.push(entry);
    });
  });
  return { url: `http://127.0.0.1:${port}`, lines, child };
}

const clients: TenantClient[] = [];
function client(options: ClientOptions): TenantClient {
  const c = createClient({ retry: { baseDelayMs: 5, maxAttempts: 2 }, ...options });
  clients.push(c);
  return c;
}

let emu: Emulator;
let proxy: Awaited<ReturnType<typeof startProxyProcess>>;

before(async () => {
  emu = await startEmulator({ clockSpeed: 50 });
  proxy = await startProxyProcess();
});
after(async () => {
  await Promise.all(clients.map((c) => c.close()));
  proxy.child.kill('SIGTERM');
  await emu.close();
});

describe('HTTP proxy (separate process)', () => {
  it('API calls and the report download go through HTTP_PROXY', async () => {
    const c = client({ apiKey: emu.apiKey, baseUrl: emu.url, env: { HTTP_PROXY: proxy.url } });
    const scan = await c.scans.create('compliance');
    for await (const _ of c.scans.wait(scan.id, { minIntervalMs: 20, maxIntervalMs: 100 })) void _;
    await c.reports.generate(scan.id);
    emu.advance(60_000);
    const dir = await mkdtemp(join(tmpdir(), 'client-proxy-'));
    try {
      const result = await c.reports.download(scan.id, join(dir, 'r.pdf'));
      assert.equal(result.sha256, emu.reportDigest(scan.id).sha256);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
    const apiHost = new URL(emu.url).host;
    const downloadHost = new URL(emu.downloadOrigin).host;
    const targets = proxy.lines.map((l) => l.target);
    assert.ok(targets.includes(apiHost), JSON.stringify(proxy.lines));
    assert.ok(targets.includes(downloadHost), JSON.stringify(proxy.lines));
    const forwardedDownloads = proxy.lines.filter(
      (l) => l.kind === 'forward' && l.target === downloadHost,
    );
    assert.ok(forwardedDownloads.every((l) => l.auth === false));
  });

  it('NO_PROXY bypasses it', async () => {
    const before = proxy.lines.length;
    const c = client({
      apiKey: emu.apiKey,
      baseUrl: emu.url,
      env: { HTTP_PROXY: proxy.url, NO_PROXY: '127.0.0.1' },
    });
    await c.tenants.me();
    assert.equal(proxy.lines.length, before);
  });

  it('a dead proxy is a NetworkError that never shows the key', async () => {
    const c = client({
      apiKey: emu.apiKey,
      baseUrl: emu.url,
      env: { HTTP_PROXY: 'http://127.0.0.1:1' },
    });
    const error = await c.tenants.me().catch((e: unknown) => e);
    assert.ok(error instanceof NetworkError);
    assert.ok(!JSON.stringify({ m: error.message, s: error.stack }).includes(emu.apiKey));
  });
});

function hasOpenssl(): boolean {
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

describe('NODE_EXTRA_CA_CERTS', { skip: hasOpenssl() ? false : 'openssl is not installed' }, () => {
  let dir = '';
  let server: Server;
  let baseUrl = '';

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'client-tls-'));
    const run = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'ignore' });
    const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
    run(
      'req',
      '-x509',
      ...ec,
      '-keyout',
      'ca.key',
      '-out',
      'ca.pem',
      '-days',
      '1',
      '-subj',
      '/CN=tenant-scan test CA',
      '-addext',
      'basicConstraints=critical,CA:TRUE',
      '-addext',
      'keyUsage=critical,keyCertSign',
    );
    run('req', ...ec, '-keyout', 'server.key', '-out', 'server.csr', '-subj', '/CN=localhost');
    await writeFile(
      join(dir, 'san.ext'),
      'subjectAltName=DNS:localhost,DNS:api.tenant.test,IP:127.0.0.1\n',
    );
    run(
      'x509',
      '-req',
      '-in',
      'server.csr',
      '-CA',
      'ca.pem',
      '-CAkey',
      'ca.key',
      '-CAcreateserial',
      '-out',
      'server.pem',
      '-days',
      '1',
      '-extfile',
      'san.ext',
    );
    server = createServer(
      {
        key: await readFile(join(dir, 'server.key')),
        cert: await readFile(join(dir, 'server.pem')),
      },
      (req, res) => {
        if (req.url?.startsWith('/obj')) {
          res.writeHead(200, { 'content-type': 'application/pdf' }); // chunked: no length
          return res.end(REPORT);
        }
        if (req.url?.startsWith('/hop')) {
          res.writeHead(302, { location: `https://127.0.0.1:${port()}/obj?sig=hop` });
          return res.end();
        }
        const data = req.url?.endsWith('/report')
          ? // Another host name than the API's (the certificate has both): its tunnel is the download's.
            { status: 'ready', downloadUrl: reportAddress() }
          : { name: 'TLS tenant' };
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ success: true, data }));
      },
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `https://localhost:${port()}/api/v1`;
  });
  const port = () => (server.address() as AddressInfo).port;
  let reportAddress = () => `https://127.0.0.1:${port()}/obj?sig=abc`;
  const REPORT = Buffer.alloc(3 << 20, 'tls report ');
  after(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await rm(dir, { recursive: true, force: true });
  });

  it('an unknown CA is refused without it', async () => {
    const error = await client({ apiKey: emu.apiKey, baseUrl, env: {} })
      .tenants.me()
      .catch((e: unknown) => e);
    assert.ok(error instanceof NetworkError, String(error));
    assert.match(error.code, /CERT|SELF_SIGNED|VERIFY|ISSUER/);
  });

  it('is trusted with it, directly and through an HTTPS_PROXY tunnel', async () => {
    const env = { NODE_EXTRA_CA_CERTS: join(dir, 'ca.pem') };
    assert.equal(
      (await client({ apiKey: emu.apiKey, baseUrl, env }).tenants.me()).name,
      'TLS tenant',
    );
    const proxied = client({
      apiKey: emu.apiKey,
      baseUrl,
      env: { ...env, HTTPS_PROXY: proxy.url },
    });
    assert.equal((await proxied.tenants.me()).name, 'TLS tenant');
    assert.ok(proxy.lines.some((l) => l.kind === 'connect' && l.target?.startsWith('localhost:')));
  });

  it('the report download is trusted with it, directly and through an HTTPS_PROXY tunnel', async () => {
    const env = { NODE_EXTRA_CA_CERTS: join(dir, 'ca.pem') };
    const expected = createHash('sha256').update(REPORT).digest('hex');
    const downloadTunnels = () =>
      proxy.lines.filter((l) => l.kind === 'connect' && l.target?.startsWith('127.0.0.1:')).length;
    const download = async (extraEnv: Record<string, string>) => {
      const c = client({ apiKey: emu.apiKey, baseUrl, env: { ...env, ...extraEnv } });
      const result = await c.reports.download('s1', join(dir, 'report.pdf'));
      assert.equal(result.sha256, expected);
      assert.equal((await readFile(join(dir, 'report.pdf'))).length, REPORT.length);
    };
    await download({});
    assert.equal(downloadTunnels(), 0, 'without a proxy the download goes straight to the origin');
    await download({ HTTPS_PROXY: proxy.url });
    // The proxy process logs each CONNECT on its stdout, which may lag the answer a little.
    for (let waited = 0; downloadTunnels() === 0 && waited < 2_000; waited += 20) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    assert.equal(downloadTunnels(), 1, 'with HTTPS_PROXY the download is tunnelled');
  });

  it("an API on the internet: a report address on the runner's own network is refused, also after a redirect", async () => {
    const env = { NODE_EXTRA_CA_CERTS: join(dir, 'ca.pem'), HTTPS_PROXY: proxy.url };
    const c = client({
      apiKey: emu.apiKey,
      baseUrl: `https://api.tenant.test:${port()}/api/v1`,
      env,
    });
    const fetched = () => proxy.lines.filter((l) => l.target?.startsWith('127.0.0.1:')).length;
    const before = fetched();
    for (const address of [
      () => `https://127.0.0.1:${port()}/obj?sig=direct`,
      () => `https://api.tenant.test:${port()}/hop?sig=x`,
    ]) {
      reportAddress = address;
      const error = await c.reports
        .download('s1', join(dir, 'refused.pdf'))
        .catch((e: unknown) => e);
      assert.ok(error instanceof DownloadError, String(error));
      assert.equal(error.code, 'LOCAL_DOWNLOAD_ADDRESS');
      assert.match(
        error.message,
        /^Refusing a report download address on a loopback, link-local or private network: https:\/\/127\.0\.0\.1:\d+\/obj; the API is not on one\.$/,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal(fetched(), before, 'nothing was fetched from the runner');
    await assert.rejects(readFile(join(dir, 'refused.pdf')));
  });
});
