// --html on the bundled CLI against the emulator: `scan run --watch` writes the run's page (and it
// opens in Chromium from disk with the bundle's inlined script and style allowed by their hashes,
// asking for nothing), or, when the run ends in an error, the page that says there is no verdict
// and why; `scan results` writes the judged scan's, `rollup` and `scan run --tenants` the fleet's.
// A path that cannot be written, or --html without --watch, is one line before any request.
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startEmulator } from '../emulator/emulator.js';
import type { Emulator } from '../emulator/types.js';
import { checkIdAt } from '../emulator/findings.js';
import { finishedScan } from '../emulator/test-http.js';
import { openFile, textsOf, useBrowser } from '../helpers/browser.js';
import type { PageData } from '../../src/render/html/page-data.js';
import { assertBundleBuilt, cliEnv, recordedRun, runCli, spawnCli } from './helpers.js';

let emu: Emulator;
let work: string;

before(async () => {
  assertBundleBuilt();
  emu = await startEmulator({ seed: 71, clockSpeed: 100 });
  emu.setScanPlan({
    durationMs: 500,
    queuedMs: 50,
    outcome: {
      kind: 'completed',
      total: 40,
      failed: 0,
      failedChecks: [checkIdAt(0), checkIdAt(3), checkIdAt(7)],
    },
  });
  work = await mkdtemp(join(tmpdir(), 'tenant-scan-cli-html-'));
});
after(async () => {
  await emu.close();
  await rm(work, { recursive: true, force: true });
});

async function pageData(path: string): Promise<PageData> {
  const html = await readFile(path, 'utf8');
  const block = /<script type="application\/json" id="report-data">([\s\S]*?)<\/script>/.exec(html);
  assert.ok(block?.[1], 'a data block');
  return JSON.parse(block[1]) as PageData;
}

function requestsSince(count: number): number {
  return emu.requests().length - count;
}

/** Every results read answers more than 1 MiB. */
function refuseResultsAsTooLarge(): void {
  emu.addFault({
    route: 'GET /scans/:id/results',
    fault: { kind: 'huge-body', bytes: 3 * 1024 * 1024 },
    times: Infinity,
  });
}

describe('cli: --html', () => {
  const chromium = useBrowser();

  it('scan run --watch --html: the run’s page, which opens from disk and shows every failed check', async () => {
    const path = join(work, 'out', 'run.html');
    const run = await runCli(
      ['scan', 'run', '--type', 'compliance', '--watch', '--html', path, '--output', 'json'],
      cliEnv(emu),
    );
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, new RegExp(`^HTML report written to ${path}$`, 'm'));
    const record = JSON.parse(run.stdout) as { findings: Array<{ title: string }> };
    const data = await pageData(path);
    assert.equal(data.kind, 'run');
    assert.equal(
      data.headline,
      '⚠️ Tenant scan failed, the step passes: 3 findings, the worst critical',
    );
    const opened = await openFile(chromium.browser, path);
    assert.deepEqual(opened.requests, [`file://${path}`]);
    assert.deepEqual([...opened.problems, ...opened.dialogs], []);
    const rows = await textsOf(opened.page, 'tbody tr.row');
    assert.equal(rows.length, 3);
    for (const { title } of record.findings)
      assert.ok(
        rows.some((row) => row.includes(title)),
        title,
      );
    await opened.page.close();
  });

  it('scan run --watch --html, the results read refused as too large: the page says there is no verdict and the error line’s words', async () => {
    refuseResultsAsTooLarge(); // over --results-max-mib 1: the run ends in an error
    const path = join(work, 'error.html');
    const run = await runCli(
      [
        ...['scan', 'run', '--type', 'compliance', '--watch', '--html', path],
        ...['--results-max-mib', '1', '--tenant-label', 'contoso'],
      ],
      cliEnv(emu),
    );
    emu.clearFaults();
    assert.equal(run.code, 1, run.stderr);
    const lines = run.stderr.trim().split('\n');
    const cause = /^tenant-scan: error: (Results failed: .*results-max-mib.*)$/.exec(
      lines.at(-1) ?? '',
    );
    assert.ok(cause?.[1], run.stderr);
    assert.ok(
      lines.includes(`HTML report written to ${path} (no verdict: the run ended in an error)`),
      run.stderr,
    );
    const data = await pageData(path);
    const [tenant] = data.tenants;
    assert.equal(data.verdict, 'error');
    assert.equal(tenant?.problem, cause[1], 'the same words as the error line');
    const scanId = /^\/scans\/([\w-]+)\/results$/.exec(
      emu
        .requests()
        .filter((r) => r.path.endsWith('/results'))
        .at(-1)?.path ?? '',
    )?.[1];
    assert.ok(scanId);
    const facts = new Map(tenant?.facts);
    assert.deepEqual(
      [facts.get('Tenant'), facts.get('Label'), facts.get('Scan')],
      ['Contoso Ltd', 'contoso', scanId],
    );
    assert.deepEqual(tenant?.findings, []);
    const opened = await openFile(chromium.browser, path);
    assert.deepEqual(opened.requests, [`file://${path}`]);
    assert.deepEqual([...opened.problems, ...opened.dialogs], []);
    assert.deepEqual(await textsOf(opened.page, '#problem'), [cause[1]]);
    assert.equal(await opened.page.$$eval('tbody tr.row', (rows) => rows.length), 0);
    assert.equal((await textsOf(opened.page, '#no-findings')).length, 1, 'no findings table');
    await opened.page.close();
  });

  it('a failed run whose page cannot be written: one warning in words, the error line and exit 1 stand', async () => {
    refuseResultsAsTooLarge(); // over --results-max-mib 1: the run ends in an error
    const folder = join(work, 'gone');
    await mkdir(folder);
    const cli = spawnCli(
      [
        ...['scan', 'run', '--type', 'compliance', '--watch', '--html', join(folder, 'e.html')],
        ...['--results-max-mib', '1'],
      ],
      cliEnv(emu),
    );
    await cli.waitForStderr('Triggered compliance scan');
    // Checked before the trigger (fine), then its folder turns into a file during the scan.
    await rm(folder, { recursive: true });
    await writeFile(folder, 'a file now');
    const run = await cli.done;
    emu.clearFaults();
    assert.equal(run.code, 1, run.stderr);
    const lines = run.stderr.trim().split('\n');
    assert.match(lines.at(-1) ?? '', /^tenant-scan: error: Results failed: .*results-max-mib/);
    assert.ok(
      lines.includes(
        `warning: The HTML report ${join(folder, 'e.html')} could not be written: a part of its path is a file, not a folder (EEXIST)`,
      ),
      run.stderr,
    );
    assert.doesNotMatch(run.stderr, /\.tmp|mkdir/);
  });

  it('scan results --html: the judged scan’s page, failed with the gate on', async () => {
    const scans = JSON.parse(
      (await runCli(['scan', 'list', '--output', 'json'], cliEnv(emu))).stdout,
    ) as Array<{ id: string; status: string }>;
    const done = scans.find((scan) => scan.status === 'completed');
    assert.ok(done);
    const path = join(work, 'results.html');
    const run = await runCli(
      ['scan', 'results', done.id, '--fail-on-findings', '--html', path],
      cliEnv(emu),
    );
    assert.equal(run.code, 2, run.stderr);
    const data = await pageData(path);
    assert.equal(data.verdict, 'failed');
    assert.match(data.headline, /^❌ Tenant scan failed: 3 findings/);
    assert.equal(data.tenants[0]?.findings.length, 3);
  });

  it('rollup --html and scan run --tenants --html: the fleet’s page', async () => {
    const records = join(work, 'records');
    for (const [label, failedChecks] of [
      ['contoso', []],
      ['fabrikam', [checkIdAt(1), checkIdAt(2)]],
    ] as const) {
      const job = await recordedRun(
        emu,
        { label, name: `${label} Ltd`, failedChecks: [...failedChecks] },
        join(records, `${label}.json`),
      );
      assert.ok(job.code === 0 || job.code === 2, job.stderr);
    }
    const path = join(work, 'fleet.html');
    const rolled = await runCli(
      ['rollup', join(records, '*.json'), '--expect', 'contoso,fabrikam,tailspin', '--html', path],
      cliEnv(undefined),
    );
    assert.equal(rolled.code, 0, rolled.stderr);
    const fleet = await pageData(path);
    assert.deepEqual(
      fleet.tenants.map((tenant) => [tenant.name, tenant.verdict, tenant.findings.length]),
      [
        ['tailspin', 'missing', 0],
        ['fabrikam', 'failed', 2],
        ['contoso', 'passed', 0],
      ],
    );

    const tenant = emu.addTenant({ name: 'northwind Ltd' });
    const list = join(work, 'tenants.json');
    await writeFile(
      list,
      JSON.stringify([{ name: 'northwind', 'api-url': emu.url, secret: 'NORTHWIND_KEY' }]),
    );
    const chunk = join(work, 'chunk.html');
    const scanned = await runCli(
      [
        'scan',
        'run',
        '--type',
        'compliance',
        '--tenants',
        list,
        '--records',
        join(work, 'chunk'),
        '--html',
        chunk,
      ],
      cliEnv(undefined, { NORTHWIND_KEY: tenant.apiKey }),
    );
    assert.ok(scanned.code === 0 || scanned.code === 2, scanned.stderr);
    assert.match(scanned.stderr, new RegExp(`^HTML report written to ${chunk}$`, 'm'));
    const chunkData = await pageData(chunk);
    assert.deepEqual(
      chunkData.tenants.map((t) => t.name),
      ['northwind'],
    );
    assert.ok(!(await readFile(chunk, 'utf8')).includes(tenant.apiKey), 'no key in the page');
  });

  it('a page that cannot be written, or --html without --watch: one line, nothing sent', async () => {
    const before = emu.requests().length;
    const unwritable = await runCli(
      ['scan', 'run', '--type', 'compliance', '--watch', '--html', work],
      cliEnv(emu),
    );
    assert.equal(unwritable.code, 1, unwritable.stderr);
    assert.match(
      unwritable.stderr,
      /Sanity checks failed: --html ".*" is a directory; give a file path/,
    );
    const unwatched = await runCli(
      ['scan', 'run', '--type', 'compliance', '--html', 'x.html'],
      cliEnv(emu),
    );
    assert.notEqual(unwatched.code, 0);
    assert.match(unwatched.stderr, /--html needs --watch/);
    assert.equal(requestsSince(before), 0);
  });

  it('scan run --watch --baseline --html: the page counts every kind and shows the coverage the gate compared', async () => {
    const plan = (outcome: object) => ({
      durationMs: 500,
      queuedMs: 50,
      outcome: { kind: 'completed' as const, total: 40, failed: 0, failedChecks: [], ...outcome },
    });
    emu.setScanPlan(plan({}));
    const baseline = await runCli(
      ['scan', 'results', await finishedScan(emu), '--json'],
      cliEnv(emu),
    );
    assert.equal(baseline.code, 0, baseline.stderr);
    const basePath = join(work, 'base.json');
    await writeFile(basePath, baseline.stdout);
    // Now 36 checks, two of them not evaluated: 6 of the baseline's 40 lost, 15 % > 10 %.
    const words = { [checkIdAt(2)]: 'Skipped', [checkIdAt(3)]: 'NotApplicable' };
    emu.setScanPlan(plan({ total: 36, resultWords: words, failedChecks: [checkIdAt(5)] }));
    const path = join(work, 'coverage.html');
    const run = await runCli(
      [
        ...['scan', 'run', '--type', 'compliance', '--watch', '--fail-on-findings'],
        ...['--baseline', basePath, '--html', path, '--json'],
      ],
      cliEnv(emu),
    );
    assert.equal(run.code, 2, run.stderr);
    const record = JSON.parse(run.stdout) as {
      results: {
        total: number;
        passed: number;
        failed: number;
        notEvaluated: number;
        kinds: Array<{ kind: string; count: number }>;
      };
      coverage: { dropped: string[]; baselineEvaluated: number; evaluatedNow: number };
    };
    const data = await pageData(path);
    const [tenant] = data.tenants;
    const { results, coverage } = record;
    assert.deepEqual(tenant?.kinds, [
      ['Passed', results.passed],
      ['Failed', results.failed],
      ...results.kinds.map(({ kind, count }) => [`Not evaluated: ${kind}`, count]),
      ['Not evaluated in all', results.notEvaluated],
      ['Checks in all', results.total],
    ]);
    assert.deepEqual(
      results.kinds.map(({ kind }) => kind),
      ['skipped', 'not applicable'],
    );
    assert.deepEqual(
      [tenant?.coverage?.evaluated, tenant?.coverage?.baseline, tenant?.coverage?.fails],
      [coverage.evaluatedNow, coverage.baselineEvaluated, true],
    );
    assert.deepEqual(
      tenant?.coverage?.checks.map((index) => data.strings[index]).sort(),
      [...coverage.dropped].sort(),
    );
    assert.equal(coverage.dropped.length, 6);
    const opened = await openFile(chromium.browser, path);
    assert.deepEqual([...opened.problems, ...opened.dialogs], []);
    const [line] = await textsOf(opened.page, '#coverage');
    assert.match(
      line ?? '',
      /^Coverage: 34 checks evaluated now, 40 in baseline file .*; 6 not evaluated now \(15 %, at most 10 %\) — fails the gate$/,
    );
    await opened.page.close();
  });
});
