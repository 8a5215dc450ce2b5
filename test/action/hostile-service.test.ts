// dist/index.js run like the runner against a broken or hostile service: an answer that never ends
// or is huge, one that trickles forever, no answer at all, and text full of terminal escape
// sequences. The step ends within its deadlines with one line naming the route and the limit, its
// memory stays bounded (measured on the process), a scan it triggered is cancelled, and nothing the
// service sent reaches the log as a control character.
import assert from 'node:assert/strict';
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { HOSTILE_TEXT } from '../emulator/findings.js';
import { QUICK_SCAN, apiRequests, errorLines, useWorld, visibleLog } from './world.js';

const MEMORY_BOUND_BYTES = 300 * 1024 * 1024;
// eslint-disable-next-line no-control-regex
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069]/;

function assertMemoryBounded(peak: number | undefined): void {
  assert.ok(peak !== undefined, 'no /proc to measure memory on');
  assert.ok(peak < MEMORY_BOUND_BYTES, `peak RSS ${Math.round(peak / 2 ** 20)} MiB`);
}

describe('action: a broken or hostile service', () => {
  const world = useWorld();

  it('an answer that never ends: one line naming the route and the cap; memory bounded', async () => {
    world.emulator.addFault({
      route: 'GET /tenants/me',
      fault: { kind: 'endless-body' },
      times: Infinity,
    });
    const step = await world.main();
    assert.equal(step.exitCode, 1, visibleLog(step));
    assert.deepEqual(errorLines(step), [
      'Authentication failed: GET /tenants/me: the answer exceeded 64 MiB; stopped reading',
    ]);
    assert.equal(apiRequests(world.emulator, 'POST').length, 0, 'nothing triggered');
    assertMemoryBounded(step.peakRssBytes);
  });

  it('a huge results answer: the read cap stops it (before the answer cap); memory bounded', async () => {
    world.emulator.addFault({
      route: 'GET /scans/:id/results',
      fault: { kind: 'huge-body', bytes: 200 * 1024 * 1024 },
      times: Infinity,
    });
    const step = await world.main();
    assert.equal(step.exitCode, 1, visibleLog(step));
    assert.match(
      errorLines(step).at(-1) ?? '',
      /^Results failed: GET \/scans\/[\w-]+\/results: the pages' answers passed 32 MiB in all; stopped, the list was not read whole: raise results-max-mib to read it whole$/,
    );
    assertMemoryBounded(step.peakRssBytes);
  });

  it('results of 100 KB each over 5,000 answers under the answer cap: the read cap stops them, naming its setting; memory bounded', async () => {
    // Issue 46, row 6: every page fit the 64 MiB cap, nothing bounded their sum: 3.25 GB, then
    // "Wait failed: Invalid string length".
    world.emulator.setScanPlan({
      ...QUICK_SCAN,
      outcome: { kind: 'completed', total: 5_000, failed: 5_000 },
    });
    world.emulator.setVariant({ resultsPageSize: 10, findingTextBytes: { description: 100_000 } });
    const step = await world.main();
    assert.equal(step.exitCode, 1, visibleLog(step));
    assert.match(
      errorLines(step).at(-1) ?? '',
      /^Results failed: GET \/scans\/[\w-]+\/results: the pages' answers passed 32 MiB in all; stopped, the list was not read whole: raise results-max-mib to read it whole$/,
    );
    assert.equal(step.outputs.verdict ?? '', '', 'no verdict on a read that is not whole');
    const temp = await readdir(join(step.job.runnerTemp, 'tenant-scan'));
    assert.deepEqual(
      temp.filter((name) => name.includes('failed-results')),
      [],
      'neither a results file nor a part of one',
    );
    assertMemoryBounded(step.peakRssBytes);
  });

  it('a status that trickles forever: the wait ends at the request timeout and the scan is cancelled', async () => {
    world.emulator.setScanPlan({ ...QUICK_SCAN, durationMs: 600_000 });
    world.emulator.addFault({
      route: 'GET /scans/:id',
      fault: { kind: 'trickle', intervalMs: 100 },
      times: Infinity,
    });
    const step = await world.main({ 'request-timeout-seconds': '1' });
    assert.equal(step.exitCode, 1, visibleLog(step));
    const [line, ...rest] = errorLines(step);
    assert.deepEqual(rest, []);
    assert.match(
      line ?? '',
      /^Wait timed out: GET \/scans\/[\w-]+: no complete answer within 1 s \(the request timeout\), after 2 attempts; if the service needs longer, raise request-timeout-seconds; scan [\w-]+ was cancelled remotely$/,
    );
    const scan = world.emulator.scans().find((s) => s.id === step.outputs['scan-id']);
    assert.equal(scan?.status, 'cancelled');
    assert.ok(step.durationMs < 15_000, `took ${step.durationMs} ms`);
  });

  it('a report download that trickles: a warning at the request timeout, no partial file', async () => {
    world.emulator.addFault({
      route: 'GET /download/:token',
      fault: { kind: 'trickle', intervalMs: 50 },
      times: Infinity,
    });
    const step = await world.main({
      report: 'generate',
      'request-timeout-seconds': '1',
      'fail-on-findings': 'false',
    });
    assert.equal(step.exitCode, 0, visibleLog(step));
    assert.ok(
      step.annotations.some(
        (a) =>
          a.level === 'warning' &&
          /^Report timed out: Report download from http:\/\/127\.0\.0\.1:\d+\/download\/[^ ]+: no complete answer within 1 s \(the request timeout\); if the service needs longer, raise request-timeout-seconds$/.test(
            a.message,
          ),
      ),
      visibleLog(step),
    );
    assert.equal(step.outputs['report-path'], '');
    assert.deepEqual(await readdir(step.job.workspace), []);
  });

  it('no answer to the trigger: looked up, never sent twice, and the run goes on', async () => {
    world.emulator.addFault({ route: 'POST /tenants/me/scans', fault: { kind: 'no-answer' } });
    const step = await world.main({ 'request-timeout-seconds': '1' });
    assert.equal(apiRequests(world.emulator, 'POST', /^\/tenants\/me\/scans$/).length, 1);
    assert.match(visibleLog(step), /Found scan [\w-]+: the only compliance scan created since/);
    assert.equal(step.outputs.verdict, 'failed');
    assert.equal(step.outputs.failed, '5');
  });

  it('escape sequences from the service reach neither the log nor the summary; files keep the data', async () => {
    world.emulator.setVariant({ hostileText: true });
    const step = await world.main({ annotations: '5' });
    assert.equal(step.outputs.verdict, 'failed', visibleLog(step));
    assert.doesNotMatch(step.stdout + step.stderr, CONTROLS);
    assert.doesNotMatch(step.summary, CONTROLS);
    assert.match(step.summary, /Contoso Ltd/);
    for (const annotation of step.annotations) assert.doesNotMatch(annotation.message, CONTROLS);
    const results = JSON.parse(
      await readFile(step.outputs['results-file'] ?? '', 'utf8'),
    ) as Array<{
      title: string;
    }>;
    assert.ok(results.every((f) => f.title.startsWith(HOSTILE_TEXT.before)));
  });
});
