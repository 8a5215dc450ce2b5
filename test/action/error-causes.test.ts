// Errors that name their cause, end to end: the bundled Action and CLI against nothing listening,
// a website's HTML 404 (an address without the API's base path), TLS spoken to a plain-HTTP port,
// and a wrong key. Each its own heading and remedy; connection failures give up in seconds.
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { startRecordingServer, type RunningServer } from '../helpers/http-server.js';
import { assertBundleBuilt, cliEnv, runCli } from '../cli/helpers.js';
import { renderedText } from '../helpers/gfm.js';
import { errorLines, useWorld, visibleLog } from './world.js';

/** A loopback port nothing listens on: taken, then given back. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('errors name their cause (bundled Action and CLI)', () => {
  const world = useWorld();
  let website: RunningServer;
  let nothing: string;

  before(async () => {
    assertBundleBuilt();
    website = await startRecordingServer([], () => ({
      status: 404,
      headers: { 'content-type': 'text/html; charset=utf-8' },
      body: '<!doctype html><html><body><h1>Not Found</h1></body></html>',
    }));
    nothing = `http://127.0.0.1:${await closedPort()}`;
  });
  after(() => website.close());

  const causes = () => [
    {
      name: 'nothing listening',
      url: `${nothing}/v1`,
      line: new RegExp(
        `^Connection failed: nothing answers at ${nothing} \\(connection refused\\): check (the api-url input|SERVICE_API_URL)`,
      ),
    },
    {
      name: 'a website, not the API',
      url: website.url,
      line: new RegExp(
        `^Address failed: ${website.url}/tenants/me is not the Tenant API \\(HTTP 404, an HTML page\\): is its base path \\(for example …/v1\\) missing\\? Check (the api-url input|SERVICE_API_URL)`,
      ),
    },
    {
      name: 'TLS to a plain-HTTP port',
      url: `${world.emulator.url.replace(/^http:/, 'https:')}`,
      line: /^TLS failed: the TLS handshake with https:\/\/127\.0\.0\.1:\d+ failed \([A-Z_]+\): the far end does not speak TLS/,
    },
  ];

  it('the Action: one line each, exit 1, in seconds', async () => {
    for (const cause of causes()) {
      const started = Date.now();
      const step = await world.main({ 'api-url': cause.url });
      assert.equal(step.exitCode, 1, cause.name);
      const errors = errorLines(step);
      assert.equal(errors.length, 1, `${cause.name}: ${visibleLog(step)}`);
      assert.match(errors[0] ?? '', cause.line, cause.name);
      assert.doesNotMatch(errors[0] ?? '', /Authentication failed/);
      const heading = /^(\w+ failed)/.exec(errors[0] ?? '')?.[1] ?? '?';
      const summary = renderedText(step.summary).split('\n');
      assert.equal(summary[0], `❌ Tenant scan error: ${heading}`, cause.name);
      assert.match(summary[2] ?? '', /^This needs a change on your side/, cause.name);
      assert.ok(Date.now() - started < 15_000, `${cause.name} took ${Date.now() - started} ms`);
    }
  });

  it('the Action: a wrong key is the key, not the address', async () => {
    const step = await world.main({ 'api-key': 'ak_live_revokedOrUnknown0000000000' });
    assert.match(
      errorLines(step)[0] ?? '',
      /^Authentication failed: the API key was refused: check the api-key secret/,
    );
  });

  it('the CLI: the same causes, on stderr, exit 1', async () => {
    for (const cause of causes()) {
      for (const args of [
        ['tenant', 'me'],
        ['scan', 'run', '--type', 'quick'],
      ]) {
        const result = await runCli(args, cliEnv(world.emulator, { SERVICE_API_URL: cause.url }));
        assert.equal(result.code, 1, `${cause.name}: ${args.join(' ')}: ${result.stderr}`);
        const line = result.stderr.split('\n').find((l) => l.startsWith('tenant-scan: error: '));
        assert.match(line?.replace('tenant-scan: error: ', '') ?? '', cause.line, cause.name);
      }
    }
    const wrongKey = await runCli(
      ['tenant', 'me'],
      cliEnv(world.emulator, { SERVICE_API_KEY: 'ak_live_revokedOrUnknown0000000000' }),
    );
    assert.match(
      wrongKey.stderr,
      /^tenant-scan: error: Authentication failed: the API key was refused: check SERVICE_API_KEY/m,
    );
  });
});
