// runScanJob in-process against the emulator: verdicts, timeouts and cancellation, scan-id,
// report policies, user errors, and the emulator's variants of what the seed leaves unknown.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, before, beforeEach, describe, it } from 'node:test';
import {
  JobCancelledError,
  JobError,
  JobTimeoutError,
  JobUserError,
  SettingsError,
} from '../../src/pipeline/index.js';
import { createClient } from '../../src/client/index.js';
import { ACTION_JOB_WORDING } from '../../src/github/inputs.js';
import { startEmulator } from '../emulator/emulator.js';
import type { Emulator } from '../emulator/types.js';
import {
  FAST,
  RecordingReporter,
  apiRequests,
  resetEmulator,
  settingsFor,
  tempDir,
  runJob,
} from './helpers.js';

const QUICK_SCAN = { durationMs: 2_000, queuedMs: 200 } as const;

describe('runScanJob', () => {
  let emulator: Emulator;
  let dir: { path: string; remove(): Promise<void> };

  before(async () => {
    emulator = await startEmulator({ clockSpeed: 20, seed: 7, reportRenderMs: 1_000 });
    dir = await tempDir();
  });
  after(async () => {
    await emulator.close();
    await dir.remove();
  });
  beforeEach(() =>
    resetEmulator(emulator, {
      ...QUICK_SCAN,
      outcome: { kind: 'completed', total: 40, failed: 5 },
    }),
  );

  it('passes a clean scan and writes an empty results file', async () => {
    emulator.setScanPlan({ ...QUICK_SCAN, outcome: { kind: 'completed', total: 30, failed: 0 } });
    const reporter = new RecordingReporter();
    const settings = settingsFor(emulator, dir.path, { resultsPath: `${dir.path}/clean.json` });
    const result = await runJob(settings, reporter, FAST);
    assert.equal(result.verdict, 'passed');
    assert.equal(result.failStep, false);
    assert.equal(result.failed, 0);
    assert.equal(result.total, 30);
    assert.equal(result.triggered, true);
    assert.equal(result.tenantName, 'Contoso Ltd');
    assert.deepEqual(JSON.parse(await readFile(settings.resultsPath ?? '', 'utf8')), []);
    assert.deepEqual(reporter.triggered, [result.scanId]);
    assert.deepEqual(reporter.settled, [result.scanId]);
    assert.equal(emulator.scans().length, 1);
    assert.ok(reporter.lines.some((line) => line.startsWith('Tenant: Contoso Ltd')));
  });

  it('fails on findings, worst first, with the failed results in the results file', async () => {
    const reporter = new RecordingReporter();
    const settings = settingsFor(emulator, dir.path, { resultsPath: `${dir.path}/findings.json` });
    const result = await runJob(settings, reporter, FAST);
    assert.equal(result.verdict, 'failed');
    assert.equal(result.failStep, true);
    assert.equal(result.failed, 5);
    assert.equal(result.failureReason, '5 failed findings');
    const ranks = ['critical', 'high', 'medium', 'low', 'info', 'unknown'];
    const order = result.findings.map((f) => ranks.indexOf(f.severity));
    assert.deepEqual(
      order,
      [...order].sort((a, b) => a - b),
    );
    const written = JSON.parse(await readFile(settings.resultsPath ?? '', 'utf8')) as Array<{
      result: string;
    }>;
    assert.equal(written.length, 5);
    assert.ok(written.every((f) => f.result === 'Failed'));
    // Progress is reported on change only, never more often than polls.
    const polls = apiRequests(emulator, 'GET', /^\/scans\/[^/]+$/).length;
    assert.ok(reporter.snapshots.length <= polls + 1);
  });

  it('writes no results file when no results path is given', async () => {
    const settings = { ...settingsFor(emulator, dir.path), resultsPath: undefined };
    const reporter = new RecordingReporter();
    const result = await runJob(settings, reporter, FAST);
    assert.equal(result.failed, 5);
    assert.equal(result.resultsPath, undefined);
    assert.ok(reporter.lines.includes('5 failed findings'), reporter.lines.join('\n'));
  });

  it('starts from the trigger answer and reads soon after it: a half-second scan costs two reads', async () => {
    // The scan ends 500 ms (wall) after its creation; polls are 1.5 s apart once the first read,
    // ~0.3 s after the trigger's answer, has shown it running.
    emulator.setScanPlan({
      durationMs: 10_000,
      queuedMs: 100,
      outcome: { kind: 'completed', total: 40, failed: 5 },
    });
    const result = await runJob(settingsFor(emulator, dir.path), new RecordingReporter(), {
      ...FAST,
      pollIntervalMs: { min: 1_500, max: 1_500 },
    });
    assert.equal(result.failed, 5);
    const trigger = apiRequests(emulator, 'POST', /^\/tenants\/me\/scans$/)[0]!;
    const reads = apiRequests(emulator, 'GET', /^\/scans\/[^/]+$/);
    assert.equal(reads.length, 2);
    assert.ok(
      reads[0]!.at - trigger.at < 1_000,
      `first read ${reads[0]!.at - trigger.at} ms after`,
    );
    assert.deepEqual(
      apiRequests(emulator).map((r) => `${r.method} ${r.path.replace(result.scanId, ':id')}`),
      [
        'GET /tenants/me',
        'GET /tenants/me/scans', // the scans that exist before the trigger (lost-trigger.ts)
        'POST /tenants/me/scans',
        'GET /scans/:id',
        'GET /scans/:id',
        'GET /scans/:id/results',
      ],
    );
  });

  it('keeps the verdict but not the failure with failOnFindings false', async () => {
    const settings = settingsFor(emulator, dir.path, { failOnFindings: false });
    const result = await runJob(settings, new RecordingReporter(), FAST);
    assert.equal(result.verdict, 'failed');
    assert.equal(result.failStep, false);
    assert.equal(result.failed, 5);
  });

  it('fails when the scan failed remotely, without asking for results', async () => {
    emulator.setScanPlan({ ...QUICK_SCAN, outcome: { kind: 'failed', message: 'connector lost' } });
    const result = await runJob(settingsFor(emulator, dir.path), new RecordingReporter(), FAST);
    assert.equal(result.verdict, 'failed');
    assert.equal(result.failStep, true);
    assert.equal(result.status, 'failed');
    assert.match(result.failureReason ?? '', /ended with status "failed"/);
    assert.equal(apiRequests(emulator, 'GET', /\/results$/).length, 0);
  });

  it('cancels the scan it triggered when the scan timeout expires', async () => {
    emulator.setScanPlan({ ...QUICK_SCAN, outcome: { kind: 'stuck', atProgress: 40 } });
    const reporter = new RecordingReporter();
    const settings = settingsFor(emulator, dir.path, { scanTimeoutMs: 600 });
    const error = await runJob(settings, reporter, FAST).then(
      () => assert.fail('expected a timeout'),
      (e: unknown) => e,
    );
    assert.ok(error instanceof JobTimeoutError, String(error));
    assert.match(
      error.message,
      /^Wait failed: the scan did not finish within 0\.01 minutes \(the scan timeout\); progress stuck at \d+ % since \d\d:\d\d UTC, (under a second|\d+ seconds?); scan \S+ was cancelled remotely$/,
    );
    const scan = emulator.scans().find((s) => s.id === error.scanId);
    assert.equal(scan?.status, 'cancelled');
    assert.deepEqual(reporter.settled, [scan?.id]);
  });

  it('cancels the scan it triggered when aborted, then throws a cancelled error', async () => {
    emulator.setScanPlan({ ...QUICK_SCAN, outcome: { kind: 'stuck' } });
    const reporter = new RecordingReporter();
    const controller = new AbortController();
    void reporter.when(/^progress /).then(() => controller.abort());
    const error = await runJob(settingsFor(emulator, dir.path), reporter, {
      ...FAST,
      signal: controller.signal,
    }).then(
      () => assert.fail('expected a cancel'),
      (e: unknown) => e,
    );
    assert.ok(error instanceof JobCancelledError, String(error));
    assert.match(error.message, /cancelled remotely/);
    assert.equal(emulator.scans().find((s) => s.id === error.scanId)?.status, 'cancelled');
    assert.equal(apiRequests(emulator, 'POST', /\/cancel$/).length, 1);
  });

  it('follows a scan given by id: never triggers, never cancels it', async () => {
    emulator.setScanPlan({ ...QUICK_SCAN, outcome: { kind: 'stuck' } });
    const first = await runJob(
      settingsFor(emulator, dir.path, { wait: false }),
      new RecordingReporter(),
      FAST,
    );
    emulator.clearRequests();
    const reporter = new RecordingReporter();
    const controller = new AbortController();
    void reporter.when(/^progress /).then(() => controller.abort());
    const error = await runJob(
      settingsFor(emulator, dir.path, { scanId: first.scanId }),
      reporter,
      {
        ...FAST,
        signal: controller.signal,
      },
    ).then(
      () => assert.fail('expected a cancel'),
      (e: unknown) => e,
    );
    assert.ok(error instanceof JobCancelledError);
    assert.match(error.message, /left running \(it was not started by this job\)/);
    assert.equal(apiRequests(emulator, 'POST').length, 0);
    assert.match(
      emulator.scans().find((s) => s.id === first.scanId)?.status ?? '',
      /^(queued|running)$/,
    );
    assert.deepEqual(reporter.triggered, []);
  });

  it('judges a finished scan given by id', async () => {
    const first = await runJob(settingsFor(emulator, dir.path), new RecordingReporter(), FAST);
    emulator.clearRequests();
    const result = await runJob(
      settingsFor(emulator, dir.path, { scanId: first.scanId }),
      new RecordingReporter(),
      FAST,
    );
    assert.equal(result.triggered, false);
    assert.equal(result.failed, 5);
    assert.equal(apiRequests(emulator, 'POST').length, 0);
  });

  it('does not wait (and leaves nothing to clean up) with wait false', async () => {
    const reporter = new RecordingReporter();
    const result = await runJob(settingsFor(emulator, dir.path, { wait: false }), reporter, FAST);
    assert.equal(result.verdict, undefined);
    assert.equal(result.failStep, false);
    assert.deepEqual(reporter.triggered, []);
    assert.equal(apiRequests(emulator, 'GET', /\/results$/).length, 0);
  });

  describe('report', () => {
    it('if-ready leaves a locked report alone and says how to get it', async () => {
      const reporter = new RecordingReporter();
      const result = await runJob(
        settingsFor(emulator, dir.path, { report: 'if-ready' }),
        reporter,
        FAST,
      );
      assert.equal(result.report.state, 'locked');
      assert.equal(result.report.download, undefined);
      assert.match(result.report.note ?? '', /ask for it with the generate report policy/);
      assert.equal(apiRequests(emulator, 'POST', /\/report\/generate$/).length, 0);
      assert.equal(emulator.creditsSpent(), 0);
      assert.equal(result.failStep, true, 'the verdict is unchanged by the report');
    });

    it("names the face's settings in its messages when given labels", async () => {
      const labels = { reportGenerate: '--report generate', noWait: 'no --watch' };
      const locked = await runJob(
        settingsFor(emulator, dir.path, { report: 'if-ready' }),
        new RecordingReporter(),
        { ...FAST, wording: labels },
      );
      assert.match(locked.report.note ?? '', /ask for it with --report generate \(/);
      const reporter = new RecordingReporter();
      await runJob(settingsFor(emulator, dir.path, { wait: false }), reporter, {
        ...FAST,
        wording: labels,
      });
      assert.ok(
        reporter.lines.some((line) => /^Not waiting for scan \S+ \(no --watch\)/.test(line)),
      );
      const unlabelled = new RecordingReporter();
      await runJob(settingsFor(emulator, dir.path, { wait: false }), unlabelled, FAST);
      assert.doesNotMatch(unlabelled.lines.join('\n'), /wait is false|--watch/);
    });

    it('generate generates, waits for rendering and downloads a complete report', async () => {
      const before = emulator.creditsSpent();
      const settings = settingsFor(emulator, dir.path, {
        report: 'generate',
        reportPath: `${dir.path}/nested/dir/report.pdf`,
      });
      const result = await runJob(settings, new RecordingReporter(), FAST);
      const download = result.report.download;
      assert.ok(download, result.report.note);
      assert.deepEqual(
        { sha256: download.sha256, bytes: download.bytes },
        emulator.reportDigest(result.scanId),
      );
      assert.equal(emulator.creditsSpent(), before + 1);
      assert.equal((await readFile(settings.reportPath)).length, download.bytes);
    });

    it('if-ready downloads a report that is already generated, spending nothing', async () => {
      const first = await runJob(
        settingsFor(emulator, dir.path, { report: 'generate', reportPath: `${dir.path}/a.pdf` }),
        new RecordingReporter(),
        FAST,
      );
      const spent = emulator.creditsSpent();
      const result = await runJob(
        settingsFor(emulator, dir.path, {
          scanId: first.scanId,
          report: 'if-ready',
          reportPath: `${dir.path}/b.pdf`,
        }),
        new RecordingReporter(),
        FAST,
      );
      assert.ok(result.report.download);
      assert.equal(emulator.creditsSpent(), spent);
    });

    it('if-ready waits for a report that is rendering, and generates nothing itself', async (t) => {
      // Its own emulator, whose reports render for a second of real time: the shared one's 50 ms
      // could end before the job's first look on a busy machine.
      const emulator = await startEmulator({ clockSpeed: 20, seed: 7, reportRenderMs: 20_000 });
      t.after(() => emulator.close());
      const first = await runJob(settingsFor(emulator, dir.path), new RecordingReporter(), FAST);
      const client = createClient({ apiKey: emulator.apiKey, baseUrl: emulator.url });
      try {
        await client.reports.generate(first.scanId);
      } finally {
        await client.close();
      }
      const spent = emulator.creditsSpent();
      emulator.clearRequests();
      const reporter = new RecordingReporter();
      const result = await runJob(
        settingsFor(emulator, dir.path, {
          scanId: first.scanId,
          report: 'if-ready',
          reportPath: `${dir.path}/rendered.pdf`,
        }),
        reporter,
        FAST,
      );
      assert.ok(reporter.lines.includes('Report status: rendering'), reporter.lines.join('\n'));
      assert.ok(result.report.download, result.report.note);
      assert.equal(emulator.creditsSpent(), spent);
      assert.equal(apiRequests(emulator, 'POST').length, 0);
    });

    it('orgNameRequired: no generate call, a note that says to set the name', async () => {
      const tenant = emulator.addTenant({ name: null, scanPlan: QUICK_SCAN });
      const settings = {
        ...settingsFor(emulator, dir.path, { report: 'generate' }),
        apiKey: tenant.apiKey,
      };
      const reporter = new RecordingReporter();
      const result = await runJob(settings, reporter, FAST);
      assert.equal(result.report.state, 'orgNameRequired');
      assert.match(result.report.note ?? '', /organisation name/);
      assert.equal(emulator.creditsSpent(tenant.tenantId), 0);
      assert.ok(reporter.warnings.some((w) => /organisation name/.test(w)));
    });
  });

  describe('user errors say what to fix, prefixed by the phase', () => {
    it('401: a key the service does not know', async () => {
      const settings = { ...settingsFor(emulator, dir.path), apiKey: 'ak_live_0000000000unknown' };
      const error = await runJob(settings, new RecordingReporter(), FAST).catch((e: unknown) => e);
      assert.ok(error instanceof JobUserError, String(error));
      assert.match(error.message, /^Authentication failed: the API key was refused/);
      assert.doesNotMatch(error.message, /ak_live_0000000000unknown/);
    });

    it('403: a plan without API access', async () => {
      const tenant = emulator.addTenant({ plan: { apiAccess: false } });
      const settings = { ...settingsFor(emulator, dir.path), apiKey: tenant.apiKey };
      const error = await runJob(settings, new RecordingReporter(), FAST).catch((e: unknown) => e);
      assert.ok(error instanceof JobUserError, String(error));
      assert.match(error.message, /^Authentication failed: .*plan/);
    });

    it('quota: SCAN_PLAN_LIMIT_REACHED is not retried and names the quota', async () => {
      const tenant = emulator.addTenant({ plan: { scanQuota: 0 } });
      const settings = { ...settingsFor(emulator, dir.path), apiKey: tenant.apiKey };
      emulator.clearRequests();
      const error = await runJob(settings, new RecordingReporter(), FAST).catch((e: unknown) => e);
      assert.ok(error instanceof JobUserError, String(error));
      assert.match(error.message, /^Trigger failed: the plan's scan quota is used up/);
      assert.equal(apiRequests(emulator, 'POST', /\/tenants\/me\/scans$/).length, 1);
    });

    it('a scan id that does not exist: the wait failed, nothing was triggered', async () => {
      const settings = settingsFor(emulator, dir.path, { scanId: 'no-such-scan' });
      emulator.clearRequests();
      const error = await runJob(settings, new RecordingReporter(), {
        ...FAST,
        wording: ACTION_JOB_WORDING,
      }).catch((e: unknown) => e);
      assert.ok(error instanceof JobUserError, String(error));
      assert.equal(
        error.message,
        "Wait failed: scan no-such-scan was not found (404): check scan-id and that the key belongs to the scan's tenant",
      );
      assert.equal(apiRequests(emulator, 'POST').length, 0);
    });

    it('bad settings: every problem on its own line, and no request at all', async () => {
      const settings = {
        ...settingsFor(emulator, dir.path, { scanId: '../../etc', scanTimeoutMs: 0 }),
        apiKey: 'sk_wrong',
        apiUrl: 'http://example.com/api',
      };
      const error = await runJob(settings, new RecordingReporter(), FAST).catch((e: unknown) => e);
      assert.ok(error instanceof SettingsError, String(error));
      assert.equal(error.problems.length, 4);
      for (const line of error.lines()) assert.match(line, /^Sanity checks failed: \S/);
      assert.equal(emulator.requests().length, 0);
    });

    it('a results path inside a file is refused before any request', async () => {
      const settings = settingsFor(emulator, dir.path, {
        resultsPath: `${import.meta.filename}/x.json`,
      });
      const error = await runJob(settings, new RecordingReporter(), FAST).catch((e: unknown) => e);
      assert.ok(error instanceof SettingsError);
      assert.match(error.message, /inside a file/);
      assert.equal(emulator.requests().length, 0);
    });
  });

  describe('the emulator variants of what the seed leaves unknown', () => {
    const variants = [
      { statusVocabulary: 'upper' as const },
      { statusVocabulary: 'alt' as const, findingShape: 'alt' as const },
      { findingShape: 'sparse' as const, resultsPageSize: 2, ignoreResultFilter: true },
    ];
    for (const variant of variants) {
      it(`judges correctly with ${JSON.stringify(variant)}`, async () => {
        emulator.setVariant(variant);
        const result = await runJob(settingsFor(emulator, dir.path), new RecordingReporter(), FAST);
        assert.equal(result.verdict, 'failed');
        assert.equal(result.failed, 5);
        assert.equal(result.scan.phase, 'succeeded');
        for (const finding of result.findings) {
          assert.ok(finding.title !== '' && finding.title !== 'undefined');
        }
      });
    }
  });

  it('rides out a 503 warm-up and a 429 storm', async () => {
    emulator.addFault({
      route: 'GET /scans/:id',
      fault: { kind: 'status', status: 429, code: 'RATE_LIMITED' },
      times: 3,
    });
    emulator.addFault({
      route: 'GET /tenants/me',
      fault: { kind: 'status', status: 503, code: 'SERVICE_STARTING' },
      times: 2,
    });
    const reporter = new RecordingReporter();
    const scansBefore = emulator.scans().length;
    const result = await runJob(settingsFor(emulator, dir.path), reporter, FAST);
    assert.equal(result.failed, 5);
    assert.ok(reporter.retries.length >= 5, JSON.stringify(reporter.retries));
    assert.equal(emulator.scans().length, scansBefore + 1);
  });

  it('rides out more 429s than the attempt cap: rate limiting is bounded by the scan timeout', async () => {
    emulator.addFault({
      route: 'POST /tenants/me/scans',
      fault: { kind: 'status', status: 429, code: 'RATE_LIMITED', retryAfter: 0.02 },
      times: 6,
    });
    const reporter = new RecordingReporter();
    const scansBefore = emulator.scans().length;
    const result = await runJob(settingsFor(emulator, dir.path), reporter, FAST);
    assert.equal(result.failed, 5);
    assert.equal(reporter.retries.length, 6);
    assert.equal(emulator.scans().length, scansBefore + 1);
  });

  it('stops retrying a rate limit at the scan timeout', async () => {
    emulator.addFault({
      route: 'GET /tenants/me',
      fault: { kind: 'status', status: 429, code: 'RATE_LIMITED', retryAfter: 2 },
      times: 1,
    });
    const reporter = new RecordingReporter();
    const settings = settingsFor(emulator, dir.path, { scanTimeoutMs: 1_000 });
    await assert.rejects(runJob(settings, reporter, FAST), /rate limited/i);
    assert.equal(reporter.retries.length, 0);
    emulator.clearFaults();
  });

  it('writes JUnit (all results) and SARIF (failed ones) when asked', async () => {
    const settings = settingsFor(emulator, dir.path, {
      junitPath: `${dir.path}/out/junit.xml`,
      sarifPath: `${dir.path}/out/results.sarif`,
    });
    const result = await runJob(settings, new RecordingReporter(), FAST);
    assert.equal(result.junitPath, settings.junitPath);
    const junit = await readFile(settings.junitPath ?? '', 'utf8');
    assert.equal((junit.match(/<testcase /g) ?? []).length, 40);
    assert.equal((junit.match(/<failure /g) ?? []).length, 5);
    const sarif = JSON.parse(await readFile(settings.sarifPath ?? '', 'utf8')) as {
      runs: Array<{ results: unknown[] }>;
    };
    assert.equal(sarif.runs[0]?.results.length, 5);
    assert.equal(apiRequests(emulator, 'GET', /\/results$/).length, 1, 'all results fetched once');
  });

  it('every error is a one-line JobError', async () => {
    emulator.addFault({
      route: 'GET /scans/:id/results',
      fault: { kind: 'status', status: 500 },
      times: Infinity,
    });
    const error = await runJob(settingsFor(emulator, dir.path), new RecordingReporter(), {
      ...FAST,
    }).catch((e: unknown) => e);
    assert.ok(error instanceof JobError, String(error));
    assert.match(error.message, /^Results failed: /);
    assert.doesNotMatch(error.message, /\n|undefined/);
  });
});
