// Guarantee 3, "No half-written report" (docs/guarantees.md): for any report size and any schedule
// of faults on the download — the body cut at any byte, a reset, a stall past the request timeout
// or a short one, a slow body, an answer refused, a presigned address that expires before it is
// used — and on the report's status route, the report file exists only if it is byte-identical to
// the report the emulator holds (its sha256), the job says it downloaded exactly when it did, and
// nothing else is left in the report's directory (no temporary file). In process, against the
// emulator; each run has a tenant and a directory of its own.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdir, readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { startEmulator } from '../emulator/emulator.js';
import type { Emulator, Fault } from '../emulator/types.js';
import { propertyParameters } from '../helpers/property.js';
import { RecordingReporter, jobOutcome, settingsFor, tempDir } from './helpers.js';

const DOWNLOAD = 'GET /download/:token';
const STATUS = 'GET /scans/:id/report';
const REQUEST_TIMEOUT_MS = 1_000;
/** Presigned addresses live this long (wall ms): a download held back longer finds it expired. */
const DOWNLOAD_TTL_MS = 1_500;

/** A fault of the download, placed in the body by a fraction of its length. */
type DownloadFault = (size: number) => Fault;
const at = (fraction: number, size: number) => Math.floor(fraction * size);

const downloadFault: fc.Arbitrary<{ name: string; fault: DownloadFault }> = fc.oneof(
  fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }).map((f) => ({
    name: `truncate at ${f.toFixed(3)}`,
    fault: (size: number): Fault => ({ kind: 'truncate', atByte: at(f, size) }),
  })),
  fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }).map((f) => ({
    name: `stall for good at ${f.toFixed(3)}`,
    fault: (size: number): Fault => ({ kind: 'stall', afterBytes: at(f, size), ms: Infinity }),
  })),
  fc.constantFrom<{ name: string; fault: DownloadFault }>(
    { name: 'reset mid-body', fault: () => ({ kind: 'reset', when: 'mid-response' }) },
    { name: 'reset before', fault: () => ({ kind: 'reset', when: 'before' }) },
    {
      name: 'a short stall',
      fault: (size) => ({ kind: 'stall', afterBytes: at(0.5, size), ms: 300 }),
    },
    {
      name: 'a slow body',
      fault: (size) => ({
        kind: 'slow-body',
        bytesPerChunk: Math.max(1, at(0.2, size)),
        intervalMs: 40,
      }),
    },
    { name: 'expired before use', fault: () => ({ kind: 'delay', ms: DOWNLOAD_TTL_MS + 200 }) },
    { name: '500', fault: () => ({ kind: 'status', status: 500 }) },
    { name: '503', fault: () => ({ kind: 'status', status: 503 }) },
    { name: '403', fault: () => ({ kind: 'status', status: 403, code: 'AccessDenied' }) },
  ),
);

const statusFault = fc.constantFrom<Fault | null>(
  null,
  null,
  null,
  { kind: 'status', status: 500 },
  { kind: 'status', status: 502 },
  { kind: 'reset', when: 'mid-response' },
  { kind: 'data', data: 'ok' },
);

const drawn = fc.record({
  size: fc.oneof(
    fc.constantFrom(1, 2, 1_000, 65_536, 65_537),
    fc.integer({ min: 1, max: 300_000 }),
  ),
  download: fc.array(downloadFault, { maxLength: 3 }),
  status: statusFault,
});
type Drawn = typeof drawn extends fc.Arbitrary<infer T> ? T : never;

describe('guarantee 3: no half-written report', () => {
  let emulator: Emulator;
  let dir: { path: string; remove(): Promise<void> };

  before(async () => {
    emulator = await startEmulator({
      clockSpeed: 10,
      seed: 29,
      reportRenderMs: 1_000,
      downloadTtlMs: DOWNLOAD_TTL_MS,
    });
    dir = await tempDir();
  });
  after(async () => {
    await emulator.close();
    await dir.remove();
  });

  async function runOnce(d: Drawn): Promise<void> {
    emulator.clearFaults();
    emulator.setReportSize?.(d.size);
    const { tenantId, apiKey } = emulator.addTenant({
      scanPlan: {
        durationMs: 500,
        queuedMs: 50,
        outcome: { kind: 'completed', total: 5, failed: 0 },
      },
    });
    // Download requests carry no key: the rules are cleared before the next run.
    d.download.forEach(({ fault }, after) =>
      emulator.addFault({ route: DOWNLOAD, fault: fault(d.size), after, times: 1 }),
    );
    if (d.status) emulator.addFault({ route: STATUS, fault: d.status, key: apiKey });
    const reportDir = join(dir.path, tenantId);
    await mkdir(reportDir);
    const reporter = new RecordingReporter();
    const settings = settingsFor(emulator, dir.path, {
      apiKey,
      report: 'generate',
      reportPath: join(reportDir, 'report.pdf'),
      resultsPath: undefined,
      requestTimeoutMs: REQUEST_TIMEOUT_MS,
    });
    const outcome = await jobOutcome(settings, reporter).finally(() => emulator.clearFaults());
    const shown = `${JSON.stringify({ ...d, download: d.download.map((f) => f.name) })}\n${reporter.lines.join('\n')}`;
    assert.ok('result' in outcome, `a report failure is a warning, never the verdict:\n${shown}`);

    const files = await readdir(reportDir);
    const downloaded = outcome.result.report.download;
    if (downloaded === undefined) {
      assert.deepEqual(files, [], `no report, and nothing else:\n${shown}`);
      return;
    }
    assert.deepEqual(files, ['report.pdf'], `the report and nothing else:\n${shown}`);
    const bytes = await readFile(join(reportDir, 'report.pdf'));
    const expected = emulator.reportDigest(outcome.result.scanId);
    assert.equal(bytes.length, expected.bytes, shown);
    assert.equal(createHash('sha256').update(bytes).digest('hex'), expected.sha256, shown);
    assert.equal(downloaded.sha256, expected.sha256, shown);
  }

  it('the report file exists only whole, byte-identical to the service’s, and no temporary file is left', async () => {
    await fc.assert(
      fc.asyncProperty(drawn, (d) => runOnce(d)),
      propertyParameters(20),
    );
  });
});
