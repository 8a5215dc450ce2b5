// dist/index.js run like the runner: verdicts, outputs, summary, annotations, scan-id, wait: false,
// user errors, the service's bad days, and the emulator's variants of the unknowns.
import assert from 'node:assert/strict';
import { renderedText } from '../helpers/gfm.js';
import { readFile } from 'node:fs/promises';
import { describe, it } from 'node:test';
import { QUICK_SCAN, apiRequests, errorLines, useWorld, visibleLog } from './world.js';

describe('action: verdict', () => {
  const world = useWorld();

  it('passes a clean scan: exit 0, outputs, a summary that says passed', async () => {
    world.emulator.setScanPlan({
      ...QUICK_SCAN,
      outcome: { kind: 'completed', total: 25, failed: 0 },
    });
    const step = await world.main();
    assert.equal(step.exitCode, 0, visibleLog(step));
    assert.equal(step.outputs.verdict, 'passed');
    assert.equal(step.outputs.status, 'completed');
    assert.equal(step.outputs.total, '25');
    assert.equal(step.outputs.failed, '0');
    assert.equal(step.outputs['artifact-id'], '');
    assert.ok(step.outputs['scan-id']);
    assert.deepEqual(JSON.parse(await readFile(step.outputs['results-file'] ?? '', 'utf8')), []);
    assert.match(step.summary, /^## ✅ Tenant scan passed\\: no failed findings/);
    assert.deepEqual(
      step.annotations.filter((a) => a.level !== 'notice'),
      [],
    );
    assert.equal(step.state['triggered-scan-id'], step.outputs['scan-id']);
    assert.equal(step.state['settled-scan-id'], step.outputs['scan-id']);
    assert.deepEqual(step.masks.includes(world.emulator.apiKey), true);
  });

  it('fails on findings: summary, annotations by severity, outputs and results file', async () => {
    const step = await world.main({ annotations: '3' });
    assert.equal(step.exitCode, 1);
    assert.equal(step.outputs.verdict, 'failed');
    assert.equal(step.outputs.failed, '5');
    const errors = errorLines(step);
    assert.equal(errors.at(-1), 'Verdict failed: 5 failed findings');
    const findings = step.annotations.filter((a) => a.title?.startsWith('Tenant scan: '));
    assert.equal(findings.length, 3);
    for (const annotation of findings) {
      const severity = /Tenant scan: (\w+) finding/.exec(annotation.title ?? '')?.[1];
      const expected =
        severity === 'critical' || severity === 'high'
          ? 'error'
          : severity === 'medium'
            ? 'warning'
            : 'notice';
      assert.equal(annotation.level, expected);
    }
    const more = step.annotations.find((a) =>
      /and 2 more failed findings not annotated/.test(a.message),
    );
    assert.ok(more, 'one line says how many more');
    assert.match(renderedText(step.summary), /^❌ Tenant scan failed: 5 findings, the worst \w+/);
    assert.match(step.summary, /\| Tenant \| Contoso Ltd \|/);
    assert.match(step.summary, /### (Critical|High|Medium|Low|Info) \(\d+\)/);
    const results = JSON.parse(
      await readFile(step.outputs['results-file'] ?? '', 'utf8'),
    ) as unknown[];
    assert.equal(results.length, 5);
    assert.doesNotMatch(visibleLog(step), /undefined|\n\s+at /);
  });

  it('fail-on-findings: false keeps verdict failed and passes the step with a warning', async () => {
    const step = await world.main({ 'fail-on-findings': 'false' });
    assert.equal(step.exitCode, 0);
    assert.equal(step.outputs.verdict, 'failed');
    assert.ok(
      step.annotations.some(
        (a) => a.level === 'warning' && /fail-on-findings is false/.test(a.message),
      ),
    );
    assert.match(
      renderedText(step.summary),
      /^⚠️ Tenant scan failed, the step passes: 5 findings, the worst \w+/,
    );
  });

  it('fails when the scan failed remotely', async () => {
    world.emulator.setScanPlan({ ...QUICK_SCAN, outcome: { kind: 'failed' } });
    const step = await world.main({ 'fail-on-findings': 'false' });
    assert.equal(step.exitCode, 1);
    assert.equal(step.outputs.status, 'failed');
    assert.equal(step.outputs.verdict, 'failed');
    assert.equal(step.outputs.failed, '');
    assert.deepEqual(errorLines(step), ['Verdict failed: the scan ended with status "failed"']);
  });

  it('follows a scan given by scan-id without triggering one', async () => {
    const first = await world.main({ wait: 'false' });
    assert.equal(first.exitCode, 0);
    assert.equal(first.outputs.verdict, '');
    assert.equal(
      first.state['triggered-scan-id'],
      undefined,
      'wait: false leaves nothing to clean up',
    );
    world.emulator.clearRequests();
    const step = await world.main({ 'scan-id': first.outputs['scan-id'] ?? '' });
    assert.equal(step.outputs['scan-id'], first.outputs['scan-id']);
    assert.equal(step.outputs.failed, '5');
    assert.equal(apiRequests(world.emulator, 'POST').length, 0);
    assert.equal(step.state['triggered-scan-id'], undefined);
  });

  describe('user errors: one line that says what to fix, exit 1', () => {
    it('401', async () => {
      const step = await world.main({ 'api-key': 'ak_live_revokedOrUnknown0000000000' });
      assert.equal(step.exitCode, 1);
      assert.deepEqual(errorLines(step).length, 1);
      assert.match(
        errorLines(step)[0] ?? '',
        /^Authentication failed: the API key was refused: check the api-key secret/,
      );
    });

    it('403 (plan without API access)', async () => {
      const tenant = world.emulator.addTenant({ plan: { apiAccess: false } });
      const step = await world.main({ 'api-key': tenant.apiKey });
      assert.equal(step.exitCode, 1);
      assert.match(
        errorLines(step)[0] ?? '',
        /^Authentication failed: .*plan does not include API access/,
      );
    });

    it('quota', async () => {
      const tenant = world.emulator.addTenant({ plan: { scanQuota: 0 } });
      const step = await world.main({ 'api-key': tenant.apiKey });
      assert.equal(step.exitCode, 1);
      assert.match(errorLines(step)[0] ?? '', /^Trigger failed: the plan's scan quota is used up/);
      assert.equal(apiRequests(world.emulator, 'POST', /\/tenants\/me\/scans$/).length, 1);
      assert.match(step.summary, /^## ❌ Tenant scan error/);
    });
  });

  it('rides out a 429 storm and a 503 warm-up', async () => {
    // A scan of 300 ms real time: still running when the trigger answers, however busy the
    // machine, so the polls meet the 429s.
    world.emulator.setScanPlan({
      durationMs: 30_000,
      queuedMs: 50,
      outcome: { kind: 'completed', total: 40, failed: 5 },
    });
    world.emulator.addFault({
      route: '* *',
      fault: { kind: 'status', status: 503, code: 'SERVICE_STARTING' },
      times: 2,
    });
    world.emulator.addFault({
      route: 'GET /scans/:id',
      fault: { kind: 'status', status: 429, code: 'RATE_LIMITED', retryAfter: 1 },
      times: 3,
    });
    const step = await world.main();
    assert.equal(step.outputs.failed, '5', visibleLog(step));
    assert.match(step.stdout, /Service starting \(503\) on GET \/tenants\/me; retrying in/);
    assert.match(
      step.stdout,
      /Rate limited \(429\) on GET \/scans\/\S+; retrying in [\d.]+ s, as the server asked/,
    );
    assert.equal(world.emulator.scans().filter((s) => s.id === step.outputs['scan-id']).length, 1);
  });

  describe('variants of what the seed leaves unknown', () => {
    it('alt status words and finding fields', async () => {
      world.emulator.setVariant({ statusVocabulary: 'alt', findingShape: 'alt' });
      const step = await world.main();
      assert.equal(step.outputs.verdict, 'failed');
      assert.equal(step.outputs.failed, '5');
      assert.match(step.outputs.status ?? '', /^succeeded$/i);
      assert.doesNotMatch(step.summary, /undefined/);
    });

    it('sparse findings, paginated results, an ignored filter, upper-case statuses', async () => {
      world.emulator.setVariant({
        statusVocabulary: 'upper',
        findingShape: 'sparse',
        resultsPageSize: 3,
        ignoreResultFilter: true,
      });
      const step = await world.main();
      assert.equal(step.outputs.failed, '5');
      const results = JSON.parse(
        await readFile(step.outputs['results-file'] ?? '', 'utf8'),
      ) as Array<{ result: string }>;
      assert.equal(results.length, 5);
      assert.doesNotMatch(step.summary, /undefined/);
      assert.match(step.summary, /### Unknown severity \(5\)/);
    });

    it("Maester's shape: each check by its testId, its block as the category, its help linked", async () => {
      world.emulator.setVariant({ findingShape: 'maester' });
      const step = await world.main({ 'sarif-file': 'r.sarif', 'junit-file': 'j.xml' });
      assert.equal(step.outputs.failed, '5', visibleLog(step));
      const record = JSON.parse(await readFile(step.outputs['record-file'] ?? '', 'utf8')) as {
        findings: Array<{ checkId: string; category: string | null }>;
      };
      const checks = record.findings.map((f) => f.checkId);
      assert.ok(
        checks.every((id) => /^CIS-[\d.#]+$/.test(id)),
        checks.join(' '),
      );
      assert.equal(new Set(checks).size, 5);
      const sarif = JSON.parse(await readFile(`${step.job.workspace}/r.sarif`, 'utf8')) as {
        runs: Array<{ results: Array<{ ruleId: string; partialFingerprints: object }> }>;
      };
      const results = sarif.runs[0]?.results ?? [];
      assert.deepEqual(results.map((r) => r.ruleId).sort(), [...checks].sort());
      assert.equal(new Set(results.map((r) => JSON.stringify(r.partialFingerprints))).size, 5);
      const junit = await readFile(`${step.job.workspace}/j.xml`, 'utf8');
      for (const check of checks) assert.ok(junit.includes(`<testcase name="${check}: `), check);
      // Each row names its check and shows its block in the Category column.
      const lines = step.summary.split('\n');
      for (const { checkId, category } of record.findings) {
        assert.ok(category, `${checkId} has a category`);
        const row = lines.find((line) => line.startsWith('|') && line.includes(`\`${checkId}\``));
        assert.ok(row?.includes(`| ${category} |`), `${checkId}: ${row}`);
      }
      assert.match(
        step.summary,
        /\[reference\]\(https:\/\/docs\.example\.com\/compliance\/checks\//,
      );
    });

    it('counts under other names (strings) give total; with none, total comes from JUnit', async () => {
      world.emulator.setVariant({ countsShape: 'renamed' });
      const renamed = await world.main();
      assert.equal(renamed.outputs.total, '40');
      world.emulator.setVariant({ countsShape: 'none' });
      const none = await world.main();
      assert.equal(none.outputs.total, '', 'no counts and no unfiltered read: unknown');
      assert.equal(none.outputs.failed, '5');
      const withJunit = await world.main({ 'junit-file': 'checks.xml' });
      assert.equal(withJunit.outputs.total, '40', 'the unfiltered read of JUnit counted them');
    });

    it('an HTML error page from a gateway', async () => {
      world.emulator.setVariant({ errorShape: 'html' });
      const step = await world.main({ 'api-key': 'ak_live_notAKnownKey0000000000000000' });
      assert.equal(step.exitCode, 1);
      assert.match(errorLines(step)[0] ?? '', /^Authentication failed: /);
      assert.doesNotMatch(errorLines(step)[0] ?? '', /<html|undefined/i);
    });
  });
});
