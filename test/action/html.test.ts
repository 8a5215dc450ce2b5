// The html-file input on dist/ run like the runner: the page is written in the workspace, named by
// the output, uploaded unzipped to the artifact backend as it is on disk, and linked from the job
// summary; a run that ends in an error writes the page that says there is no verdict and why;
// without wait, or outside the workspace, one line before any request.
import { existsSync } from 'node:fs';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { liveMarkup, renderedText } from '../helpers/gfm.js';
import { findSecretInTexts } from '../helpers/secret-scan.js';
import type { PageData } from '../../src/render/html/page-data.js';
import { createJobDirectory } from '../helpers/runner.js';
import { apiRequests, errorLines, useWorld, visibleLog } from './world.js';

async function until(ready: () => boolean): Promise<void> {
  for (let i = 0; i < 1_500 && !ready(); i++) await new Promise((r) => setTimeout(r, 20));
  assert.ok(ready(), 'the step got there within 30 s');
}

async function pageData(path: string): Promise<{ html: string; data: PageData }> {
  const html = await readFile(path, 'utf8');
  const block = /<script type="application\/json" id="report-data">([\s\S]*?)<\/script>/.exec(html);
  assert.ok(block?.[1], 'a data block');
  return { html, data: JSON.parse(block[1]) as PageData };
}

describe('action: html-file', () => {
  const world = useWorld();

  it('writes the page, uploads it as an artifact of its name and links it from the summary', async () => {
    world.emulator.setVariant({ echoKey: true });
    const step = await world.main({
      'html-file': 'reports/tenant-scan.html',
      'fail-on-findings': 'false',
    });
    assert.equal(step.exitCode, 0, visibleLog(step));
    const path = join(step.job.workspace, 'reports', 'tenant-scan.html');
    assert.equal(step.outputs['html-file'], path);
    const { html, data } = await pageData(path);
    assert.equal(data.tenants[0]?.findings.length, Number(step.outputs.failed));
    assert.deepEqual(
      findSecretInTexts(world.emulator.apiKey, { html }),
      [],
      'the key is not in the page',
    );
    const artifact = world.artifacts.finalized().find((a) => a.name === 'tenant-scan.html');
    assert.ok(artifact, JSON.stringify(world.artifacts.finalized().map((a) => a.name)));
    assert.equal(artifact.sha256, createHash('sha256').update(html).digest('hex'));
    const url = `https://github.com/octo-org/octo-repo/actions/runs/4242424242/artifacts/${artifact.id}`;
    const links = liveMarkup(step.summary).filter(
      (m) => m.kind === 'link' && !m.text.startsWith('https://docs.example.com/'),
    );
    assert.deepEqual(
      links.map((m) => m.text),
      [url],
      'the page is linked (besides the findings’ references)',
    );
    assert.match(renderedText(step.summary), /^Report page \(HTML\): tenant-scan\.html$/m);
  });

  it('a run that ends in an error: the page says there is no verdict and the log’s line, uploaded and linked; exit code as before', async () => {
    // A scan that runs for a while, and the service fails the third poll of it.
    world.emulator.setScanPlan({ durationMs: 2_000_000, queuedMs: 50 });
    world.emulator.addFault({
      route: 'GET /scans/:id',
      fault: { kind: 'status', status: 500 },
      after: 2,
      times: Infinity,
    });
    const step = await world.main({ 'html-file': 'reports/error.html', 'tenant-label': 'contoso' });
    assert.equal(step.exitCode, 1, visibleLog(step));
    const [line, ...others] = errorLines(step);
    assert.deepEqual(others, []);
    assert.match(line ?? '', /^Wait failed: GET \/scans\/[\w-]+ failed: HTTP 500 /);
    const path = join(step.job.workspace, 'reports', 'error.html');
    assert.equal(step.outputs['html-file'], path);
    assert.equal(step.outputs.verdict, '');
    const { html, data } = await pageData(path);
    const [tenant] = data.tenants;
    assert.equal(data.verdict, 'error');
    assert.equal(tenant?.headline, '⚠️ No verdict: the run ended in an error');
    assert.equal(tenant?.problem, line, 'the same words as the log');
    const facts = new Map(tenant?.facts);
    assert.equal(facts.get('Scan'), step.outputs['scan-id']);
    assert.ok(step.outputs['scan-id']);
    assert.equal(facts.get('Tenant'), 'Contoso Ltd');
    assert.equal(facts.get('Label'), 'contoso');
    assert.equal(facts.get('Status'), 'running', 'the scan as last polled');
    assert.match(facts.get('Progress') ?? '', /^\d+ %$/);
    assert.ok(facts.get('Run started') && facts.get('Run stopped') && facts.get('Ran for'));
    assert.deepEqual(tenant?.findings, []);
    const artifact = world.artifacts.finalized().find((a) => a.name === 'error.html');
    assert.equal(artifact?.sha256, createHash('sha256').update(html).digest('hex'));
    const summary = renderedText(step.summary);
    assert.match(summary, /^❌ Tenant scan error: Wait failed$/m);
    assert.match(summary, /^Report page \(HTML\): error\.html$/m);
  });

  it('a page that cannot be written after the scan: a warning in words, the verdict and its exit code stand, nothing uploaded', async () => {
    world.emulator.setScanPlan({
      durationMs: 2_000_000,
      queuedMs: 50,
      outcome: { kind: 'completed', total: 40, failed: 5 },
    });
    const job = await createJobDirectory();
    const folder = join(job.workspace, 'reports');
    await mkdir(folder);
    const uploadedBefore = world.artifacts.finalized().length; // the other tests' pages
    const running = world.main({ 'html-file': 'reports/page.html' }, { job });
    // Checked before the trigger (fine), then its folder turns into a file during the scan.
    await until(() => apiRequests(world.emulator, 'POST', /\/tenants\/me\/scans$/).length > 0);
    await rm(folder, { recursive: true });
    await writeFile(folder, 'a file now');
    world.emulator.advance(2_100_000);
    const step = await running;
    assert.equal(step.exitCode, 1, visibleLog(step));
    const warnings = step.annotations.filter((a) => a.level === 'warning').map((a) => a.message);
    assert.deepEqual(
      warnings.filter((w) => /report page/i.test(w)),
      [
        'The report page reports/page.html could not be written: a part of its path is a file, not a folder (EEXIST)',
      ],
    );
    const errors = errorLines(step); // the findings' annotations, then the failure line
    assert.match(errors.at(-1) ?? '', /^Verdict failed: \d+ failed findings$/);
    assert.ok(!errors.some((e) => /report page/i.test(e)), errors.join('\n'));
    assert.equal(step.outputs.verdict, 'failed');
    assert.equal(step.outputs['html-file'] ?? '', '');
    assert.equal(world.artifacts.finalized().length, uploadedBefore, 'nothing uploaded');
  });

  it('an error before the job (a waivers file that is not there): no page', async () => {
    const step = await world.main({
      'html-file': 'reports/none.html',
      'waivers-file': 'missing-waivers.yml',
    });
    assert.equal(step.exitCode, 1, visibleLog(step));
    assert.equal(step.outputs['html-file'] ?? '', '');
    assert.ok(!existsSync(join(step.job.workspace, 'reports', 'none.html')));
  });

  it('needs wait: true, and a place in the workspace: one line each, no request', async () => {
    const step = await world.main({ 'html-file': '../outside.html', wait: 'false' });
    assert.equal(step.exitCode, 1);
    const errors = step.annotations.filter((a) => a.level === 'error').map((a) => a.message);
    assert.ok(
      errors.some((line) => /input 'html-file' needs wait: true/.test(line)),
      errors.join('\n'),
    );
    assert.ok(
      errors.some((line) =>
        /input 'html-file' "\.\.\/outside\.html" is outside the workspace/.test(line),
      ),
      errors.join('\n'),
    );
    assert.equal(apiRequests(world.emulator, 'GET', /./).length, 0);
  });
});
