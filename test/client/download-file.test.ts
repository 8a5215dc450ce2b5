// download.ts: the file sink pushes back while it writes and never overwrites; the file stays intact
// when the origin's writes arrive in odd sizes or the body is large enough for many pauses; a long
// error body is not read to its end and leaves no file.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { finished } from 'node:stream/promises';
import { after, describe, it } from 'node:test';
import { DownloadError, createClient } from '../../src/client/index.js';
import { FileSink } from '../../src/client/download.js';

describe('FileSink', () => {
  it('pushes back while it writes, and the file and hash hold every byte', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'client-dl-sink-'));
    try {
      const sink = new FileSink(join(dir, 'part'));
      let refused = 0;
      for (let i = 0; i < 48; i++) if (!sink.write(Buffer.alloc(64 * 1024, i))) refused++;
      assert.ok(refused > 0, 'the sink never pushed back (undici would never pause the socket)');
      sink.end();
      await finished(sink);
      const expected = createHash('sha256');
      for (let i = 0; i < 48; i++) expected.update(Buffer.alloc(64 * 1024, i));
      assert.deepEqual(sink.result(), { bytes: 48 * 64 * 1024, sha256: expected.digest('hex') });
      assert.equal((await readFile(join(dir, 'part'))).length, 48 * 64 * 1024);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('refuses to overwrite an existing file', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'client-dl-sink-'));
    try {
      const { writeFile } = await import('node:fs/promises');
      await writeFile(join(dir, 'part'), 'someone else');
      const sink = new FileSink(join(dir, 'part'));
      sink.end(Buffer.from('x'));
      await assert.rejects(finished(sink), { code: 'EEXIST' });
      assert.equal(await readFile(join(dir, 'part'), 'utf8'), 'someone else');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
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

  it('writes every byte intact when the origin sends odd-sized pieces', async () => {
    // 3 MiB + 7 of varying bytes (a release of a still-queued view would show as a wrong hash).
    const body = Buffer.alloc(3 * 1024 * 1024 + 7);
    for (let i = 0; i < body.length; i++) body[i] = (i * 31 + (i >> 11)) & 0xff;
    const sizes = [1, 13, 4096, 65_537, 200_000, 7, 131_072];
    const presigned = await serve((_req, res) => {
      res.writeHead(200, { 'content-length': body.length, 'content-type': 'application/pdf' });
      let offset = 0;
      let turn = 0;
      const next = (): void => {
        while (offset < body.length) {
          const size = sizes[turn++ % sizes.length]!;
          const piece = body.subarray(offset, offset + size);
          offset += piece.length;
          if (!res.write(piece)) return void res.once('drain', next);
        }
        res.end();
      };
      next();
    });
    const client = await clientFor(presigned);
    const dir = await mkdtemp(join(tmpdir(), 'client-dl-file-'));
    try {
      const result = await client.reports.download('s1', join(dir, 'r.pdf'));
      const expected = createHash('sha256').update(body).digest('hex');
      assert.equal(result.sha256, expected);
      assert.equal(result.bytes, body.length);
      assert.ok((await readFile(join(dir, 'r.pdf'))).equals(body));
      assert.deepEqual(await readdir(dir), ['r.pdf']);
    } finally {
      await client.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('survives many backpressure pauses on a large body', async () => {
    const piece = Buffer.alloc(256 * 1024);
    for (let i = 0; i < piece.length; i++) piece[i] = (i * 7) & 0xff;
    const pieces = 160; // 40 MiB: enough 1 MiB batch writes for undici to pause many times
    const presigned = await serve((_req, res) => {
      res.writeHead(200, { 'content-length': piece.length * pieces });
      let sent = 0;
      const next = (): void => {
        while (sent < pieces) {
          sent++;
          if (!res.write(piece)) return void res.once('drain', next);
        }
        res.end();
      };
      next();
    });
    const client = await clientFor(presigned);
    const dir = await mkdtemp(join(tmpdir(), 'client-dl-file-'));
    try {
      const hash = createHash('sha256');
      for (let i = 0; i < pieces; i++) hash.update(piece);
      const result = await client.reports.download('s1', join(dir, 'big.pdf'));
      assert.equal(result.sha256, hash.digest('hex'));
      assert.equal(result.bytes, piece.length * pieces);
    } finally {
      await client.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('a 500 with a long body is a DownloadError with its status; no file is written', async () => {
    let sent = 0;
    const presigned = await serve((_req, res) => {
      res.writeHead(500, { 'content-type': 'application/xml' });
      const piece = Buffer.alloc(64 * 1024, 60);
      const next = (): void => {
        while (sent < 64 * 1024 * 1024 && !res.destroyed) {
          sent += piece.length;
          if (!res.write(piece)) return void res.once('drain', next);
        }
        res.end();
      };
      next();
    });
    const client = await clientFor(presigned);
    const dir = await mkdtemp(join(tmpdir(), 'client-dl-500-'));
    try {
      const error = await client.reports
        .download('s1', join(dir, 'r.pdf'))
        .catch((e: unknown) => e);
      assert.ok(error instanceof DownloadError, String(error));
      assert.equal(error.status, 500);
      assert.equal(error.code, 'DOWNLOAD_FAILED');
      assert.ok(sent < 64 * 1024 * 1024, `the whole error body was sent (${sent} bytes)`);
      assert.deepEqual(await readdir(dir), []);
    } finally {
      await client.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
