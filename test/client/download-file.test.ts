// The report download into a file (download.ts over undici): every framing is read, a cut-short,
// quiet or garbled answer is an error that leaves no file, an existing file is never overwritten;
// through the whole client the file stays intact when the origin's writes arrive in odd sizes or
// the body is large enough for many pauses, and a long error body is not read to its end and
// leaves no file.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server, type ServerResponse } from 'node:http';
import {
  createServer as createNetServer,
  type AddressInfo,
  type Server as NetServer,
  type Socket,
} from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { Agent } from 'undici';
import { DownloadError, createClient, type TenantClient } from '../../src/client/index.js';
import { getIntoFile } from '../../src/client/download.js';
import { AnswerTooLarge, RequestDeadline, RequestTimeout } from '../../src/client/transport.js';

describe('a GET into a file, against raw origins', { timeout: 30_000 }, () => {
  const servers: NetServer[] = [];
  const agent = new Agent();
  after(async () => {
    for (const s of servers) s.close();
    await agent.close();
  });

  /** A raw TCP origin: `answer` gets the socket once the request head has arrived. */
  async function origin(answer: (socket: Socket, request: string) => void): Promise<URL> {
    const server = createNetServer((socket) => {
      let request = '';
      socket.on('data', (data) => {
        request += data.toString('latin1');
        if (request.includes('\r\n\r\n')) answer(socket, request);
      });
      socket.on('error', () => undefined);
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/obj?sig=s`);
  }

  async function get(url: URL, timeoutMs = 5_000, existing?: string, bounds = BOUNDS) {
    const dir = await mkdtemp(join(tmpdir(), 'client-direct-'));
    const temp = join(dir, 'part');
    if (existing !== undefined) await writeFile(temp, existing);
    try {
      const reply = await getIntoFile(
        agent,
        { url, headers: { 'user-agent': 'test', accept: '*/*' }, timeoutMs, ...bounds },
        temp,
      ).catch((error: unknown) => error);
      const file = await readFile(temp).catch(() => undefined);
      return { reply, file, entries: await readdir(dir) };
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  const BOUNDS = { deadlineMs: 10_000, maxBytes: 10_000_000 };
  const body = Buffer.alloc(700_000);
  for (let i = 0; i < body.length; i++) body[i] = (i * 13) & 0xff;

  it('sends one plain GET without credentials and reads a chunked body in odd pieces', async () => {
    let seen = '';
    const url = await origin((socket, request) => {
      seen = request;
      socket.write('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n');
      for (let at = 0; at < body.length; at += 99_991) {
        const piece = body.subarray(at, at + 99_991);
        socket.write(`${piece.length.toString(16)}\r\n`);
        socket.write(piece);
        socket.write('\r\n');
      }
      socket.end('0\r\n\r\n');
    });
    const { reply, file } = await get(url);
    assert.equal(seen.split('\r\n')[0], 'GET /obj?sig=s HTTP/1.1');
    assert.doesNotMatch(seen, /authorization/i);
    assert.ok(file?.equals(body));
    assert.equal(
      (reply as { written: { sha256: string } }).written.sha256,
      createHash('sha256').update(body).digest('hex'),
    );
  });

  it('a body without length ends with the connection', async () => {
    const url = await origin((socket) => {
      socket.end(Buffer.concat([Buffer.from('HTTP/1.0 200 OK\r\n\r\n'), body]));
    });
    const { file } = await get(url);
    assert.ok(file?.equals(body));
  });

  it('a connection closed mid-body is an error (the caller then removes the file)', async () => {
    const url = await origin((socket) => {
      socket.end(
        Buffer.concat([
          Buffer.from(`HTTP/1.1 200 OK\r\nContent-Length: ${body.length}\r\n\r\n`),
          body.subarray(0, 1000),
        ]),
      );
    });
    const { reply } = await get(url);
    assert.ok(reply instanceof Error, String(reply));
  });

  it('an origin that goes quiet after the head times out', async () => {
    const url = await origin((socket) => {
      socket.write(`HTTP/1.1 200 OK\r\nContent-Length: ${body.length}\r\n\r\nabc`);
    });
    const { reply } = await get(url, 200);
    assert.ok(reply instanceof RequestTimeout, String(reply));
  });

  it('a garbage answer is an error and writes no file', async () => {
    const url = await origin((socket) => socket.end('SSH-2.0-OpenSSH_9\r\n\r\n'));
    const { reply, entries } = await get(url);
    assert.ok(reply instanceof Error, String(reply));
    assert.deepEqual(entries, []);
  });

  it('refuses a Content-Length over the cap before reading the body, writing no file', async () => {
    const url = await origin((socket) => {
      socket.write(`HTTP/1.1 200 OK\r\nContent-Length: ${body.length}\r\n\r\n`);
      socket.write(body.subarray(0, 1000));
    });
    const { reply, entries } = await get(url, 5_000, undefined, { ...BOUNDS, maxBytes: 1000 });
    assert.ok(reply instanceof AnswerTooLarge, String(reply));
    assert.deepEqual(entries, []);
  });

  it('stops a body without a length once it passes the cap', async () => {
    const url = await origin((socket) => {
      socket.end(Buffer.concat([Buffer.from('HTTP/1.0 200 OK\r\n\r\n'), body]));
    });
    const { reply } = await get(url, 5_000, undefined, { ...BOUNDS, maxBytes: 100_000 });
    assert.ok(reply instanceof AnswerTooLarge, String(reply));
  });

  it('a body that trickles past the deadline ends with RequestDeadline, however steady', async () => {
    const url = await origin((socket) => {
      socket.write(`HTTP/1.1 200 OK\r\nContent-Length: ${body.length}\r\n\r\n`);
      const timer = setInterval(
        () => (socket.destroyed ? clearInterval(timer) : socket.write('x')),
        40,
      );
    });
    const { reply } = await get(url, 5_000, undefined, { ...BOUNDS, deadlineMs: 400 });
    assert.ok(reply instanceof RequestDeadline, String(reply));
  });

  it('never overwrites a file that exists at the temp path', async () => {
    const url = await origin((socket) => {
      socket.end(`HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nabc`);
    });
    const { reply, file } = await get(url, 5_000, 'someone else');
    assert.equal((reply as { code?: string }).code, 'EEXIST');
    assert.equal(file?.toString(), 'someone else');
  });
});

describe('download into the file', () => {
  const servers: Server[] = [];
  after(async () => {
    for (const s of servers) {
      s.closeAllConnections();
      await new Promise((resolve) => s.close(resolve));
    }
  });

  async function serve(handler: Parameters<typeof createServer>[1]): Promise<string> {
    const server = createServer(handler);
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  async function clientFor(presigned: string) {
    const api = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          success: true,
          data: { status: 'ready', downloadUrl: `${presigned}/obj?sig=abc` },
        }),
      );
    });
    return createClient({
      apiKey: 'ak_live_downloadfiletest00000000000',
      baseUrl: `${api}/v1`,
      env: {},
    });
  }

  /** Writes the pieces `next` gives until it gives none, waiting for 'drain' when told to. */
  function writeAll(res: ServerResponse, next: () => Buffer | undefined): void {
    const more = (): void => {
      for (let piece = next(); piece; piece = next()) {
        if (!res.write(piece)) return void res.once('drain', more);
      }
      res.end();
    };
    more();
  }

  /** A client of `presigned` and an empty directory, both gone once `use` settles. */
  async function withDownload(
    presigned: string,
    use: (client: TenantClient, dir: string) => Promise<void>,
  ): Promise<void> {
    const client = await clientFor(presigned);
    const dir = await mkdtemp(join(tmpdir(), 'client-dl-file-'));
    try {
      await use(client, dir);
    } finally {
      await client.close();
      await rm(dir, { recursive: true, force: true });
    }
  }

  it('writes every byte intact when the origin sends odd-sized pieces', async () => {
    // 3 MiB + 7 of varying bytes (a release of a still-queued view would show as a wrong hash).
    const body = Buffer.alloc(3 * 1024 * 1024 + 7);
    for (let i = 0; i < body.length; i++) body[i] = (i * 31 + (i >> 11)) & 0xff;
    const sizes = [1, 13, 4096, 65_537, 200_000, 7, 131_072];
    const presigned = await serve((_req, res) => {
      res.writeHead(200, { 'content-length': body.length, 'content-type': 'application/pdf' });
      let offset = 0;
      let turn = 0;
      writeAll(res, () => {
        if (offset >= body.length) return undefined;
        const piece = body.subarray(offset, offset + sizes[turn++ % sizes.length]!);
        offset += piece.length;
        return piece;
      });
    });
    await withDownload(presigned, async (client, dir) => {
      const result = await client.reports.download('s1', join(dir, 'r.pdf'));
      const expected = createHash('sha256').update(body).digest('hex');
      assert.equal(result.sha256, expected);
      assert.equal(result.bytes, body.length);
      assert.ok((await readFile(join(dir, 'r.pdf'))).equals(body));
      assert.deepEqual(await readdir(dir), ['r.pdf']);
    });
  });

  it('survives many backpressure pauses on a large body', async () => {
    const piece = Buffer.alloc(256 * 1024);
    for (let i = 0; i < piece.length; i++) piece[i] = (i * 7) & 0xff;
    const pieces = 160; // 40 MiB: enough 1 MiB batch writes to pause the socket many times
    const presigned = await serve((_req, res) => {
      res.writeHead(200, { 'content-length': piece.length * pieces });
      let sent = 0;
      writeAll(res, () => (sent++ < pieces ? piece : undefined));
    });
    await withDownload(presigned, async (client, dir) => {
      const hash = createHash('sha256');
      for (let i = 0; i < pieces; i++) hash.update(piece);
      const result = await client.reports.download('s1', join(dir, 'big.pdf'));
      assert.equal(result.sha256, hash.digest('hex'));
      assert.equal(result.bytes, piece.length * pieces);
    });
  });

  it('a 500 with a long body is a DownloadError with its status; no file is written', async () => {
    let sent = 0;
    const presigned = await serve((_req, res) => {
      res.writeHead(500, { 'content-type': 'application/xml' });
      const piece = Buffer.alloc(64 * 1024, 60);
      writeAll(res, () => {
        if (sent >= 64 * 1024 * 1024 || res.destroyed) return undefined;
        sent += piece.length;
        return piece;
      });
    });
    await withDownload(presigned, async (client, dir) => {
      const error = await client.reports
        .download('s1', join(dir, 'r.pdf'))
        .catch((e: unknown) => e);
      assert.ok(error instanceof DownloadError, String(error));
      assert.equal(error.status, 500);
      assert.equal(error.code, 'DOWNLOAD_FAILED');
      assert.ok(sent < 64 * 1024 * 1024, `the whole error body was sent (${sent} bytes)`);
      assert.deepEqual(await readdir(dir), []);
    });
  });
});
