// The scan's results as read (src/pipeline/common/results.ts), against a real HTTP server shaped
// unlike the emulator: the results file holds exactly the failed results the verdict counts, once
// each, whatever the service does to a page; the failed results do not depend on whether every
// result is read. Found by a review of the merge that made the read stream (issue 46).
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createClient, type Scan } from '../../src/client/index.js';
import { readScanResults } from '../../src/pipeline/common/results.js';
import { isFailedResult } from '../../src/pipeline/common/result-kinds.js';

const KEY = `ak_live_${'x'.repeat(32)}`;
const result = (checkId: string, word: string) => ({
  checkId,
  title: `Check ${checkId}`,
  severity: 'high',
  result: word,
});

/** What the server answers to the n-th request (from 1). */
type Answer = (n: number, res: import('node:http').ServerResponse) => void;

describe('reading the results: the file and the verdict agree', () => {
  let server: Server;
  let answer: Answer = () => undefined;
  let requests = 0;
  let url = '';
  let dir = '';

  before(async () => {
    server = createServer((_req, res) => answer(++requests, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as { port: number }).port}/api/v1`;
    dir = await mkdtemp(join(tmpdir(), 'tenant-scan-results-read-'));
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await rm(dir, { recursive: true, force: true });
  });

  async function read(summary: object, all: boolean, resultsFile?: string) {
    requests = 0;
    const client = createClient({ apiKey: KEY, baseUrl: url });
    const scan = { id: 's1', status: 'completed', summary } as unknown as Scan;
    try {
      return await readScanResults(client, scan, {
        all,
        signal: new AbortController().signal,
        resultsFile,
        note: () => undefined,
      });
    } finally {
      await client.close();
    }
  }

  it('a page retried after its answer was cut puts each failed result in the file once', async () => {
    const items = ['A', 'B', 'C', 'D', 'E', 'F'].map((id, i) =>
      result(id, i < 3 ? 'Failed' : 'Passed'),
    );
    const body = JSON.stringify({ success: true, data: items });
    answer = (n, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      if (n > 1) return void res.end(body);
      // Three failed results stream in, then the connection drops: the read tries the page again.
      res.write(body.slice(0, body.indexOf('"E"')));
      setTimeout(() => res.socket?.destroy(), 50);
    };
    const file = join(dir, 'retried.json');
    const read1 = await read({ total: 6, failed: 3 }, true, file);
    assert.equal(requests, 2, 'the page was read twice');
    const written = JSON.parse(await readFile(file, 'utf8')) as Array<{ checkId: string }>;
    assert.deepEqual(
      written.map((w) => w.checkId),
      ['A', 'B', 'C'],
    );
    assert.equal(read1.findings.filter((f) => isFailedResult(f.result)).length, 3);
    assert.deepEqual(
      (await readdir(dir)).filter((f) => f.startsWith('.')),
      [],
      'no spool file left',
    );
  });

  it('a service that ignores the filter: every word that says failed counts, read all or not', async () => {
    const words = ['Failed', 'Noncompliant', 'FAIL', 'Passed'];
    const body = JSON.stringify({
      success: true,
      data: words.map((word, i) => result(`W${i}`, word)),
    });
    answer = (_n, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(body);
    };
    for (const summary of [{ total: 4 }, { total: 4, failed: 3 }]) {
      for (const all of [true, false]) {
        const { findings } = await read(summary, all);
        assert.deepEqual(
          findings.filter((f) => isFailedResult(f.result)).map((f) => f.identity),
          ['W0', 'W1', 'W2'],
          `${JSON.stringify(summary)}, all: ${all}`,
        );
      }
    }
  });

  it('an answer with results in two lists is refused, and leaves no file', async () => {
    const body = JSON.stringify({
      success: true,
      data: {
        items: [result('A1', 'Failed'), result('A2', 'Passed')],
        results: [result('B1', 'Failed'), result('B2', 'Failed')],
      },
    });
    answer = (_n, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(body);
    };
    const file = join(dir, 'two-lists.json');
    await assert.rejects(read({ total: 2, failed: 1 }, true, file), /in more than one list/);
    assert.deepEqual(
      (await readdir(dir)).filter((f) => f.includes('two-lists')),
      [],
    );
  });
});
