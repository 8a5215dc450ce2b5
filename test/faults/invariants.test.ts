// The campaign's invariant checkers on synthetic observations: a clean run passes, and each way a
// run can break an invariant is caught (so a green campaign means something).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ScanTruth } from '../emulator/types.js';
import { checkInvariants, type Violation } from './invariants.js';
import type { Observation, StepView } from './observation.js';

const KEY = 'ak_live_syntheticCanaryKey0123456789';
const SCAN = '11111111-2222-4333-8444-555555555555';
const DIGEST = 'a'.repeat(64);

function scan(patch: Partial<ScanTruth> = {}): ScanTruth {
  return {
    id: SCAN,
    tenantId: 't1',
    scanType: 'compliance',
    status: 'completed',
    progress: 100,
    hidden: false,
    deleted: false,
    total: 40,
    failed: 0,
    createdAt: '2026-11-21T00:00:00.000Z',
    ...patch,
  };
}

function step(patch: Partial<StepView> = {}): StepView {
  return {
    exitCode: 0,
    signal: null,
    stdout: `::add-mask::${KEY}\nTenant: Contoso Ltd\nTriggered compliance scan ${SCAN}\nVerdict: passed\n`,
    stderr: '',
    outputs: {
      'scan-id': SCAN,
      status: 'completed',
      verdict: 'passed',
      total: '40',
      failed: '0',
      'report-path': '',
    },
    state: { 'triggered-scan-id': SCAN, 'settled-scan-id': SCAN },
    summary: '## ✅ Tenant scan passed: no failed findings',
    errors: [],
    signalsSent: [],
    timedOut: false,
    ...patch,
  };
}

function observation(patch: Partial<Observation> = {}): Observation {
  return {
    seed: 1,
    apiKey: KEY,
    inputs: { 'api-key': KEY, report: 'none' },
    cancelKind: 'none',
    main: step(),
    post: step({ stdout: '', outputs: {}, state: {}, summary: '' }),
    scansBefore: [],
    failedFindings: {},
    findingShape: 'default',
    waivedChecks: [],
    givenFiles: [],
    scansAfter: [scan()],
    creditsBefore: 0,
    creditsAfter: 0,
    reportDigests: { [SCAN]: DIGEST },
    files: [],
    workspacePrefix: 'work/repo/',
    reportFile: 'work/repo/tenant-scan-report.pdf',
    foreignRequests: [],
    apiRequests: [
      { method: 'GET', path: '/tenants/me', status: 200 },
      { method: 'POST', path: '/tenants/me/scans', status: 201 },
    ],
    uploadedReports: [],
    ...patch,
  };
}

function broken(o: Observation): Array<Violation['invariant']> {
  return [...new Set(checkInvariants(o).map((v) => v.invariant))];
}

const failingRun = (patch: Partial<StepView>) =>
  step({ exitCode: 1, outputs: { 'scan-id': SCAN, verdict: '' }, ...patch });

describe('fault campaign invariants', () => {
  it('a clean passing run keeps every invariant', () => {
    assert.deepEqual(checkInvariants(observation()), []);
  });

  it('1: two scans triggered, or a trigger despite scan-id', () => {
    const second = scan({ id: '99999999-2222-4333-8444-555555555555' });
    assert.deepEqual(broken(observation({ scansAfter: [scan(), second] })), [1]);
    const followed = scan({ id: 'followed' });
    const o = observation({
      inputs: { 'api-key': KEY, 'scan-id': 'followed' },
      scansBefore: [followed],
      scansAfter: [followed, scan()],
      main: step({ outputs: { ...step().outputs, 'scan-id': 'followed' } }),
      reportDigests: {},
    });
    assert.ok(broken(o).includes(1));
  });

  it('2: a verdict that contradicts the ground truth', () => {
    assert.deepEqual(broken(observation({ scansAfter: [scan({ failed: 3 })] })), [2]);
    const wrongCount = step({
      exitCode: 1,
      errors: ['Verdict failed: 2 failed findings'],
      outputs: { ...step().outputs, verdict: 'failed', failed: '2' },
    });
    assert.deepEqual(
      broken(observation({ main: wrongCount, scansAfter: [scan({ failed: 3 })] })),
      [2],
    );
    const passedStep = step({ outputs: { ...step().outputs, verdict: 'failed', failed: '3' } });
    assert.deepEqual(
      broken(observation({ main: passedStep, scansAfter: [scan({ failed: 3 })] })),
      [2],
    );
    const failedScanPasses = step({
      outputs: { ...step().outputs, verdict: 'failed', status: 'error' },
    });
    assert.deepEqual(
      broken(observation({ main: failedScanPasses, scansAfter: [scan({ status: 'failed' })] })),
      [2],
    );
  });

  it('2: fail-on overdue passing over clock skew (a previous scan dated after the run, 1970)', () => {
    const run = scan({ failed: 1, completedAt: '2026-11-21T00:01:00.000Z' });
    const findings = { [SCAN]: [{ checkId: 'CIS-1.1.1', severity: 'critical' }] };
    const inputs = { 'api-key': KEY, report: 'none', history: '3', 'fail-on': 'overdue' };
    const passed = step({ outputs: { ...step().outputs, verdict: 'passed', failed: '1' } });
    // The history's scans were there before the run.
    const of = (scansAfter: ScanTruth[], patch: Partial<Observation> = {}) =>
      observation({
        inputs,
        main: passed,
        failedFindings: findings,
        scansBefore: scansAfter.slice(1),
        scansAfter,
        ...patch,
      });
    // Failing for the first time, due in 7 days: a pass is right.
    assert.deepEqual(checkInvariants(of([run])), []);
    const ahead = scan({ id: 'ahead', createdAt: '2026-11-21T05:00:00.000Z' });
    assert.deepEqual(broken(of([run, ahead])), [2], 'a previous scan dated after the run');
    const ancient = scan({ id: 'old', createdAt: '1980-01-01T00:00:00.000Z' });
    assert.deepEqual(broken(of([run, ancient])), [2], 'a date that cannot be right');
    const epoch = scan({ failed: 1, createdAt: '1970-01-02T00:00:00.000Z' });
    assert.deepEqual(broken(of([epoch])), [2], 'the run scan dated 1970');
    // Following a scan by id, a later scan is just later.
    const followed = { ...inputs, 'scan-id': SCAN };
    assert.ok(!broken(of([run, ahead], { inputs: followed })).includes(2));
  });

  it("2: the roll-up judging the run's record otherwise, or passing it edited to say passed", () => {
    const judged = (record: Observation['record']) => broken(observation({ record }));
    assert.deepEqual(judged({ verdict: 'passed', problem: null }), []);
    assert.deepEqual(judged({ verdict: 'failed', problem: 'the record says passed, but …' }), [2]);
    assert.deepEqual(judged({ verdict: 'unreadable', problem: 'nested deeper …' }), [2]);
    const failedRun = step({
      exitCode: 1,
      errors: ['Verdict failed: 3 failed findings'],
      outputs: { ...step().outputs, verdict: 'failed', failed: '3' },
    });
    const failed = (record: Observation['record']) =>
      broken(observation({ main: failedRun, scansAfter: [scan({ failed: 3 })], record }));
    assert.deepEqual(failed({ verdict: 'failed', problem: null, editedToPass: 'failed' }), []);
    assert.deepEqual(failed({ verdict: 'failed', problem: null, editedToPass: 'passed' }), [2]);
  });

  it('2: a job cancelled after a passing verdict may fail the step with a cancel line', () => {
    const cancelledLate = step({
      exitCode: 1,
      errors: ['Publish failed: the job was cancelled after the scan ended (verdict: passed)'],
      signalsSent: ['SIGINT'],
    });
    assert.deepEqual(
      checkInvariants(observation({ cancelKind: 'sigint', main: cancelledLate })),
      [],
    );
    const notCancelled = step({ exitCode: 1, errors: ['Verdict failed: 0 failed findings'] });
    assert.deepEqual(broken(observation({ main: notCancelled })), [2]);
  });

  it('2: fail-on-findings false passes the step with a failed verdict', () => {
    const main = step({ outputs: { ...step().outputs, verdict: 'failed', failed: '3' } });
    const o = observation({
      main,
      inputs: { 'api-key': KEY, 'fail-on-findings': 'false' },
      scansAfter: [scan({ failed: 3 })],
    });
    assert.deepEqual(checkInvariants(o), []);
  });

  it('2: an unclassified, multi-line, stack-traced or "undefined" failure', () => {
    const cases: Array<Partial<StepView>> = [
      { errors: ['Unexpected error: boom'] },
      { errors: ['Trigger failed: line one\nline two'] },
      { errors: [] },
      { errors: ['Trigger failed: cannot read undefined'] },
      {
        errors: ['Wait failed: x'],
        stderr: 'TypeError: x is not a function\n    at run (/a/b.js:1:2)\n',
      },
    ];
    for (const patch of cases) {
      assert.deepEqual(
        broken(observation({ main: failingRun(patch) })),
        [2],
        JSON.stringify(patch),
      );
    }
    assert.deepEqual(
      checkInvariants(
        observation({
          main: failingRun({ errors: ['Trigger failed: the service said no (500)'] }),
        }),
      ),
      [],
    );
  });

  it('2: a hang, a failing post step, and SIGINT that needed the tree kill', () => {
    assert.deepEqual(
      broken(observation({ main: step({ timedOut: true, exitCode: null, signal: 'SIGKILL' }) })),
      [2],
    );
    assert.deepEqual(broken(observation({ post: step({ exitCode: 1 }) })), [2]);
    const escalated = step({
      exitCode: null,
      signal: 'SIGKILL',
      signalsSent: ['SIGINT', 'SIGTERM', 'SIGKILL'],
    });
    assert.deepEqual(broken(observation({ cancelKind: 'sigint', main: escalated })), [2]);
  });

  it('3: a partial report, a report-path output without a file, a temp file left behind', () => {
    const partial = {
      path: 'work/repo/tenant-scan-report.pdf',
      bytes: 10,
      sha256: 'b'.repeat(64),
      containsKey: false,
    };
    assert.deepEqual(broken(observation({ files: [partial] })), [3]);
    const complete = { ...partial, sha256: DIGEST };
    assert.deepEqual(checkInvariants(observation({ files: [complete] })), []);
    const temp = { ...partial, path: 'work/repo/.tenant-scan-report.pdf.1a2b.tmp' };
    assert.deepEqual(broken(observation({ files: [complete, temp] })), [3]);
    const claimed = step({
      outputs: { ...step().outputs, 'report-path': '/x/tenant-scan-report.pdf' },
    });
    assert.deepEqual(broken(observation({ main: claimed })), [3]);
    assert.deepEqual(broken(observation({ uploadedReports: ['c'.repeat(64)] })), [3]);
  });

  it('4: a triggered scan still running, a followed scan cancelled', () => {
    const running = scan({ status: 'running', progress: 40 });
    const main = failingRun({ errors: ['Wait failed: the job was cancelled'] });
    assert.deepEqual(broken(observation({ main, scansAfter: [running] })), [4]);
    const notWaiting = step({ outputs: { 'scan-id': SCAN, status: 'running', verdict: '' } });
    const o = observation({
      main: notWaiting,
      inputs: { 'api-key': KEY, wait: 'false' },
      scansAfter: [running],
    });
    assert.deepEqual(checkInvariants(o), [], 'wait: false leaves the scan running on purpose');
    const followed = scan({ status: 'running' });
    assert.ok(
      broken(
        observation({
          main,
          inputs: { 'api-key': KEY, 'scan-id': SCAN },
          scansBefore: [followed],
          scansAfter: [scan({ status: 'cancelled' })],
        }),
      ).includes(4),
    );
  });

  it("4 and 2: another job's scan cancelled by the run, or taken for the run's own", () => {
    const other = scan({ id: 'other-job', status: 'running', progress: 30 });
    const main = failingRun({ errors: ['Wait failed: the job was cancelled'] });
    assert.deepEqual(
      broken(
        observation({
          main,
          scansBefore: [other],
          scansAfter: [{ ...other, status: 'cancelled' }, scan({ status: 'cancelled' })],
        }),
      ),
      [4],
    );
    const adopted = step({ outputs: { ...step().outputs, 'scan-id': 'other-job', failed: '0' } });
    const done = { ...other, status: 'completed' as const, progress: 100, failed: 0 };
    assert.deepEqual(
      broken(observation({ main: adopted, scansBefore: [other], scansAfter: [done] })),
      [2],
    );
  });

  it("1, 2 and 4: a scan another key started during the run is not the run's", () => {
    const ours = scan({ keyId: 'run-key' });
    const theirs = scan({ id: 'their-scan', keyId: 'other-key', status: 'running', progress: 5 });
    const base = { runKeyId: 'run-key', scansAfter: [ours, theirs] };
    assert.deepEqual(checkInvariants(observation(base)), [], 'not a second trigger');
    const adopted = step({ outputs: { ...step().outputs, 'scan-id': 'their-scan' } });
    const theirsDone = { ...theirs, status: 'completed' as const, progress: 100 };
    assert.deepEqual(
      broken(observation({ runKeyId: 'run-key', main: adopted, scansAfter: [theirsDone] })),
      [2],
    );
    const theirsCancelled = { ...theirs, status: 'cancelled' as const };
    assert.deepEqual(broken(observation({ ...base, scansAfter: [ours, theirsCancelled] })), [4]);
  });

  describe('4: the known gap of a lost trigger answer, read from the saved state', () => {
    const ours = scan({ keyId: 'run-key', status: 'running', progress: 10 });
    const theirs = scan({ id: 'their-scan', keyId: 'other-key', status: 'running', progress: 5 });
    const refusal =
      'Trigger failed: the connection dropped after the request was sent; a scan may have been started — check `scan list` / the dashboard (2 compliance scans were created since the trigger was sent, by this job or others)';
    const refused = (state: Record<string, string>, post: Record<string, string> = {}) =>
      observation({
        runKeyId: 'run-key',
        main: failingRun({ errors: [refusal], outputs: { 'scan-id': '' }, state }),
        post: step({ stdout: '', outputs: {}, state: post, summary: '' }),
        scansAfter: [ours, theirs],
      });

    it('a refusal with two candidates (lost-trigger=several) is the gap, not a break', () => {
      assert.deepEqual(checkInvariants(refused({ 'lost-trigger': 'several' })), []);
    });

    it('so is a refusal by the post step, after main could not read the list', () => {
      const o = refused({ 'lost-trigger': 'unreadable' }, { 'lost-trigger': 'several' });
      assert.deepEqual(checkInvariants(o), []);
    });

    it("the refusal's wording alone excuses nothing", () => {
      assert.deepEqual(broken(refused({})), [4]);
    });

    it('any other outcome that leaves the scan running is a break', () => {
      for (const outcome of ['found', 'none', 'unreadable']) {
        assert.deepEqual(broken(refused({ 'lost-trigger': outcome })), [4], outcome);
      }
      // The post step looked again and found nothing: its word is the last.
      const o = refused({ 'lost-trigger': 'several' }, { 'lost-trigger': 'none' });
      assert.deepEqual(broken(o), [4]);
    });

    it("a trigger that never arrived, and the one candidate was another job's scan (found): the gap", () => {
      const theirsDone = { ...theirs, status: 'completed' as const, failed: 0 };
      const followedTheirs = observation({
        runKeyId: 'run-key',
        main: step({
          outputs: { ...step().outputs, 'scan-id': 'their-scan' },
          state: { 'lost-trigger': 'found' },
        }),
        scansAfter: [theirsDone],
      });
      assert.deepEqual(checkInvariants(followedTheirs), []);
      // Without the saved outcome, reporting another job's scan is a break.
      const unexplained = observation({
        ...followedTheirs,
        main: step({ outputs: { ...step().outputs, 'scan-id': 'their-scan' } }),
      });
      assert.deepEqual(broken(unexplained), [2]);
    });

    it("another job's scan cancelled is a break even with the gap", () => {
      const o = refused({ 'lost-trigger': 'several' });
      o.scansAfter = [ours, { ...theirs, status: 'cancelled' }];
      o.scansBefore = [theirs];
      assert.deepEqual(broken(o), [4]);
    });
  });

  it('5: the key in a log line, an output, the summary, a file, or a request to another origin', () => {
    const encoded = encodeURIComponent(KEY);
    const base64 = Buffer.from(KEY).toString('base64').replace(/=+$/, '');
    assert.deepEqual(broken(observation({ main: step({ stdout: `key is ${KEY}` }) })), [5]);
    assert.deepEqual(broken(observation({ main: step({ summary: `x ${base64} y` }) })), [5]);
    const withEncodedKey = { ...step().outputs, 'results-file': `/tmp/${encoded}.json` };
    assert.deepEqual(broken(observation({ main: step({ outputs: withEncodedKey }) })), [5]);
    const file = { path: 'work/_temp/x.json', bytes: 1, sha256: 'd', containsKey: true };
    assert.deepEqual(broken(observation({ files: [file] })), [5]);
    const request = {
      origin: 'download',
      method: 'GET',
      path: '/download/x',
      keyFoundIn: ['header authorization'],
    };
    assert.deepEqual(broken(observation({ foreignRequests: [request] })), [5]);
    assert.deepEqual(
      checkInvariants(observation({ foreignRequests: [{ ...request, keyFoundIn: [] }] })),
      [],
    );
  });

  it('5: the secret part alone, or the key escaped, encoded, case-folded or split, anywhere', () => {
    const part = KEY.slice('ak_live_'.length);
    const split = `${part.slice(0, 9)}\u200b${part.slice(9)}`;
    const encoded = [...KEY].map((c) => `%${c.charCodeAt(0).toString(16)}`).join('');
    for (const [where, text] of [
      ['log', `echoed ${part} here`],
      ['log', `echoed ${KEY.toUpperCase()}`],
      ['summary', `ak\\_live\\_${part.toLowerCase()}`],
      ['summary', split],
      ['log', encoded],
    ] as const) {
      const main = where === 'log' ? step({ stdout: text }) : step({ summary: text });
      // (A zero-width space in the summary also breaks 8.)
      assert.ok(broken(observation({ main })).includes(5), `${where}: ${text}`);
    }
    const body = { githubMarkdown: [`| ${part.toUpperCase()} |`] };
    assert.deepEqual(broken(observation(body)), [5]);
    assert.deepEqual(broken(observation({ main: step({ summary: part.slice(0, 20) }) })), []);
  });

  it('5: the key not masked, or masked only after another line', () => {
    assert.deepEqual(broken(observation({ main: step({ stdout: 'Tenant: Contoso Ltd\n' }) })), [5]);
    const late = step({ stdout: `Tenant: Contoso Ltd\n::add-mask::${KEY}\nVerdict: passed\n` });
    assert.deepEqual(broken(observation({ main: late })), [5]);
  });

  it('6: a credit spent or generation requested without report: generate', () => {
    assert.deepEqual(broken(observation({ creditsAfter: 1 })), [6]);
    const asked = [
      ...observation().apiRequests,
      { method: 'POST', path: `/scans/${SCAN}/report/generate`, status: 202 },
    ];
    assert.deepEqual(
      broken(observation({ inputs: { 'api-key': KEY, report: 'if-ready' }, apiRequests: asked })),
      [6],
    );
    assert.deepEqual(
      checkInvariants(
        observation({
          inputs: { 'api-key': KEY, report: 'generate' },
          apiRequests: asked,
          creditsAfter: 1,
        }),
      ),
      [],
    );
    assert.deepEqual(
      broken(observation({ inputs: { 'api-key': KEY, report: 'generate' }, creditsAfter: 2 })),
      [6],
    );
  });

  it('7: memory over the bound, an exchange past its deadline, a bound hit without its route', () => {
    assert.deepEqual(broken(observation({ main: step({ peakRssBytes: 400 * 2 ** 20 }) })), [7]);
    assert.deepEqual(
      checkInvariants(observation({ main: step({ peakRssBytes: 120 * 2 ** 20 }) })),
      [],
    );
    const trickled = (durationMs: number) => [
      ...observation().apiRequests,
      { method: 'GET', path: `/scans/${SCAN}`, status: 200, fault: 'trickle' as const, durationMs },
    ];
    const inputs = { 'api-key': KEY, report: 'none', 'request-timeout-seconds': '2' };
    assert.deepEqual(broken(observation({ inputs, apiRequests: trickled(9_000) })), [7]);
    assert.deepEqual(checkInvariants(observation({ inputs, apiRequests: trickled(2_900) })), []);
    const slowDownload = [{ status: 200, fault: 'no-answer' as const, durationMs: 200_000 }];
    assert.deepEqual(broken(observation({ downloads: slowDownload })), [7]);
    const unnamed = step({
      stdout: `${step().stdout}::warning::Report failed: no complete answer within 2 s (the request timeout)\n`,
    });
    assert.deepEqual(broken(observation({ main: unnamed })), [7]);
    const named = step({
      stdout: `${step().stdout}::warning::Report failed: Report download from http://127.0.0.1:1/download/x: no complete answer within 2 s (the request timeout)\n`,
    });
    assert.deepEqual(checkInvariants(observation({ main: named })), []);
  });

  it('8: a control character from the service in a log, a summary or an error line', () => {
    const escaped = step({ stdout: `${step().stdout}Tenant: \u001b]0;owned\u0007Contoso\n` });
    assert.deepEqual(broken(observation({ main: escaped })), [8]);
    assert.deepEqual(broken(observation({ main: step({ summary: '## ✅ passed \u202e' }) })), [8]);
    assert.deepEqual(
      broken(
        observation({
          post: step({ stdout: 'Scan x: \u009b31mrunning\n', outputs: {}, state: {}, summary: '' }),
        }),
      ),
      [8],
    );
  });

  it('8: live markup from the service in the summary or a body sent to GitHub', () => {
    const mention = step({ summary: '## ✅ passed\n\n| a |\n|---|\n| Admins @acme/secops |' });
    assert.deepEqual(broken(observation({ main: mention })), [8]);
    const image = ['<!-- tenant-scan:scan/x -->\n![x](https://evil.example/p.png)'];
    assert.deepEqual(broken(observation({ githubMarkdown: image })), [8]);
    const ours = [
      '<!-- tenant-scan:scan/x -->\n`@octocat` [reference](https://docs.example.com/compliance/checks/cis-1)',
    ];
    assert.deepEqual(broken(observation({ githubMarkdown: ours })), []);
    const foreign = ['[docs](https://evil.example/phish) see #12'];
    assert.deepEqual(broken(observation({ githubMarkdown: foreign })), [8]);
    // The PR comment links the run's own page; another run's page is not ours.
    const run = (id: string) => [
      `[the run](https://github.com/octo-org/octo-repo/actions/runs/${id})`,
    ];
    assert.deepEqual(broken(observation({ githubMarkdown: run('4242424242') })), []);
    assert.deepEqual(broken(observation({ githubMarkdown: run('4242424243') })), [8]);
  });

  it('5: the key in a Markdown-escaped form, in the summary or a body sent to GitHub', () => {
    const escaped = KEY.replace(/_/g, '\\_');
    assert.deepEqual(broken(observation({ main: step({ summary: `## ✅ ${escaped}` }) })), [5]);
    assert.deepEqual(broken(observation({ githubMarkdown: [`title ${escaped}`] })), [5]);
  });

  it('10: two open tracking issues for one thing, writes without a verdict, a linking title', () => {
    const marker = '<!-- tenant-scan-tracking:one:abc -->';
    const issue = (number: number, state = 'open') => ({ number, state, markers: [marker] });
    const tracked = (patch: Partial<Observation>) =>
      observation({ inputs: { 'api-key': KEY, 'tracking-issue': 'per-finding' }, ...patch });
    assert.deepEqual(broken(tracked({ trackingIssues: [issue(1), issue(2, 'closed')] })), []);
    assert.deepEqual(broken(tracked({ trackingIssues: [issue(1), issue(2)] })), [10]);
    const noVerdict = step({ exitCode: 1, outputs: { verdict: '' } });
    assert.deepEqual(
      broken(tracked({ main: noVerdict, trackingIssues: [], trackingWrites: 1 })).filter(
        (n) => n === 10,
      ),
      [10],
    );
    assert.deepEqual(
      broken(observation({ githubTitles: ['Tenant scan: ping @acme/secops'] })),
      [10],
    );
    const foreign = (changed: boolean, writes: number) =>
      observation({ foreignItems: [{ kind: 'issue', id: 1001, changed, writes }] });
    assert.deepEqual(broken(foreign(false, 0)), []);
    assert.deepEqual(broken(foreign(true, 0)), [10], "an outsider's issue changed");
    assert.deepEqual(broken(foreign(false, 1)), [10], "a write aimed at an outsider's issue");
    assert.deepEqual(
      broken(observation({ githubTitles: ['Tenant scan: ping ＠acme/secops'] })),
      [],
    );
  });

  it('10: tracking one, undisturbed: the issue is open exactly when the verdict is failed', () => {
    const one = (verdict: string, open: number) =>
      observation({
        inputs: { 'api-key': KEY, 'tracking-issue': 'one' },
        main: step({ outputs: { verdict } }),
        trackingIssues: Array.from({ length: open }, (_, i) => ({
          number: i + 1,
          state: 'open',
          markers: [`<!-- tenant-scan-tracking:one:${i} -->`],
        })),
      });
    assert.ok(!broken(one('passed', 0)).includes(10));
    assert.ok(broken(one('passed', 1)).includes(10));
    assert.ok(broken(one('failed', 0)).includes(10));
  });

  it('9: a verdict on results that were not read whole', () => {
    const results = `/scans/${SCAN}/results`;
    const page = (fault?: string, query = 'result=Failed') => ({
      method: 'GET',
      path: results,
      status: 200,
      query,
      ...(fault ? { fault: fault as 'data' } : {}),
    });
    const withReads = (reads: Observation['apiRequests'], failed = 0) =>
      observation({ apiRequests: reads, scansAfter: [scan({ failed })] });
    assert.deepEqual(broken(withReads([page('data')])), [9]);
    assert.deepEqual(
      broken(withReads([page(), page('endless-cursor', 'result=Failed&cursor=1')])),
      [9],
    );
    // Every read short of the counts, yet a verdict: broken (2 as well, the truth has findings).
    const failedVerdict = step({
      exitCode: 1,
      outputs: { ...step().outputs, verdict: 'failed', failed: '3' },
      errors: ['Verdict failed: 3 failed findings'],
    });
    const shortReads = observation({
      main: failedVerdict,
      apiRequests: [page('drop-failed'), page('drop-failed')],
      scansAfter: [scan({ failed: 3 })],
    });
    assert.ok(broken(shortReads).includes(9));
    // The second read was whole: the verdict stands.
    const recovered = observation({
      main: failedVerdict,
      apiRequests: [page('drop-failed'), page()],
      scansAfter: [scan({ failed: 3 })],
    });
    assert.deepEqual(broken(recovered), []);
    // Without counts a short read cannot be told from a whole one: not this invariant's to judge.
    assert.ok(!broken({ ...shortReads, countsShown: false }).includes(9));
  });

  it('14: a coverage drop beyond max-coverage-drop passed, or not named; a drop within called one', () => {
    const BASE = '00000000-2222-4333-8444-555555555555';
    const checks = Array.from({ length: 10 }, (_, i) => `CIS-${i}`);
    const withCoverage = (now: string[], main: StepView, inputs: Record<string, string> = {}) =>
      observation({
        inputs: { 'api-key': KEY, report: 'none', baseline: 'previous', ...inputs },
        main: { ...main, stdout: `${main.stdout}Baseline: scan ${BASE} of 2026-11-20 (0 new)\n` },
        scansBefore: [scan({ id: BASE, createdAt: '2026-11-20T00:00:00.000Z' })],
        scansAfter: [scan({ id: BASE, createdAt: '2026-11-20T00:00:00.000Z' }), scan()],
        evaluatedChecks: { [BASE]: checks, [SCAN]: now },
      });
    // 2 of 10 not evaluated now (20 %): more than the default 10 %, yet passed.
    const passed = withCoverage(checks.slice(2), step());
    assert.deepEqual(broken(passed), [2, 14]);
    const failed = step({
      exitCode: 1,
      stdout: `${step().stdout}Coverage dropped: 2 of 10 checks evaluated in scan ${BASE} of 2026-11-20 were not evaluated now (CIS-0, CIS-1)\n`,
      errors: ['Verdict failed: Coverage dropped: 2 of 10 checks …'],
      outputs: { ...step().outputs, verdict: 'failed' },
    });
    assert.deepEqual(broken(withCoverage(checks.slice(2), failed)), []);
    // Within a max-coverage-drop of 25: passes, and may not say it dropped.
    assert.deepEqual(
      broken(withCoverage(checks.slice(2), step(), { 'max-coverage-drop': '25' })),
      [],
    );
    assert.deepEqual(
      broken(withCoverage(checks.slice(2), failed, { 'max-coverage-drop': '25' })),
      [2, 14],
    );
    // Failed, but without the line that names the checks.
    const silent = step({ ...failed, stdout: step().stdout });
    assert.deepEqual(broken(withCoverage(checks.slice(2), silent)), [14]);
  });

  it('14: a scan whose progress stopped for good passed, a stalled line without stall-minutes or at the wrong progress', () => {
    const stuck = scan({ status: 'cancelled', progress: 45 });
    const line = (at: number) =>
      `Wait failed: the scan stalled: no progress for 1 second (at ${at} %; stall-minutes); scan ${SCAN} was cancelled remotely`;
    const stopped = (
      main: StepView,
      inputs: Record<string, string> = { 'stall-minutes': '0.02' },
    ) =>
      observation({
        inputs: { 'api-key': KEY, report: 'none', ...inputs },
        main,
        scansAfter: [stuck],
        stalledForGood: true,
      });
    assert.deepEqual(broken(stopped(failingRun({ errors: [line(45)] }))), []);
    assert.deepEqual(broken(stopped(failingRun({ errors: [line(44)] }))), [14]);
    assert.deepEqual(broken(stopped(failingRun({ errors: [line(45)] }), {})), [14]);
    // A pass over a scan that stopped for good: this invariant, and 2 (the scan did not complete).
    const passed = step({ outputs: { ...step().outputs, status: 'cancelled' } });
    assert.deepEqual(broken(stopped(passed)), [2, 14]);
  });
});
