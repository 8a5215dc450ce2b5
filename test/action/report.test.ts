// The report modes (none, if-ready, generate; locked, orgNameRequired) and the report artifact:
// uploaded unzipped under the user's name, or a warning where artifacts are unavailable.
import assert from 'node:assert/strict';
import { liveMarkup, renderedText } from '../helpers/gfm.js';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { QUICK_SCAN, apiRequests, useWorld, visibleLog } from './world.js';

describe('action: report and artifact', () => {
  const world = useWorld({ ...QUICK_SCAN, outcome: { kind: 'completed', total: 12, failed: 0 } });

  it('none (the default): no report call at all', async () => {
    const step = await world.main();
    assert.equal(step.exitCode, 0);
    assert.equal(apiRequests(world.emulator, 'GET', /\/report$/).length, 0);
    assert.equal(step.outputs['report-status'], '');
    assert.equal(world.artifacts.finalized().length, 0);
  });

  it('if-ready with a locked report: a warning that says what to do, no credit spent', async () => {
    const spent = world.emulator.creditsSpent();
    const step = await world.main({ report: 'if-ready' });
    assert.equal(step.exitCode, 0, 'a missing report does not fail the job');
    assert.equal(step.outputs['report-status'], 'locked');
    assert.equal(step.outputs['report-path'], '');
    assert.ok(
      step.annotations.some((a) => a.level === 'warning' && /report: generate/.test(a.message)),
    );
    assert.equal(apiRequests(world.emulator, 'POST', /\/report\/generate$/).length, 0);
    assert.equal(world.emulator.creditsSpent(), spent);
  });

  it('generate: downloads, uploads unzipped under the chosen name, outputs and summary link', async () => {
    const step = await world.main({
      report: 'generate',
      'report-path': 'reports/scan.pdf',
      'artifact-name': 'tenant-report-linux.pdf',
      'retention-days': '5',
    });
    assert.equal(step.exitCode, 0, visibleLog(step));
    const scanId = step.outputs['scan-id'] ?? '';
    const digest = world.emulator.reportDigest(scanId);
    const path = step.outputs['report-path'] ?? '';
    assert.equal(path, join(step.job.workspace, 'reports', 'scan.pdf'));
    const bytes = await readFile(path);
    assert.equal(createHash('sha256').update(bytes).digest('hex'), digest.sha256);
    const artifact = world.artifacts.finalized().find((a) => a.name === 'tenant-report-linux.pdf');
    assert.ok(artifact, JSON.stringify(world.artifacts.finalized().map((a) => a.name)));
    assert.equal(artifact.sha256, digest.sha256);
    assert.ok(artifact.expiresAt, 'retention-days was passed on');
    assert.equal(step.outputs['artifact-id'], String(artifact.id));
    assert.equal(
      step.outputs['artifact-url'],
      `https://github.com/octo-org/octo-repo/actions/runs/4242424242/artifacts/${artifact.id}`,
    );
    assert.equal(step.outputs['report-status'], 'ready');
    const links = liveMarkup(step.summary).filter((m) => m.kind === 'link');
    assert.deepEqual(
      links.map((m) => m.text),
      [step.outputs['artifact-url']],
    );
    assert.match(renderedText(step.summary), /Report: tenant-report-linux\.pdf/);
  });

  it('generate on a tenant without an organisation name: a warning, no generate call', async () => {
    const tenant = world.emulator.addTenant({ name: null, scanPlan: QUICK_SCAN });
    const step = await world.main({ 'api-key': tenant.apiKey, report: 'generate' });
    assert.equal(step.exitCode, 1, 'the scan has findings (the default plan)');
    assert.equal(step.outputs['report-status'], 'orgNameRequired');
    assert.ok(
      step.annotations.some((a) => a.level === 'warning' && /organisation name/.test(a.message)),
    );
    assert.equal(world.emulator.creditsSpent(tenant.tenantId), 0);
    assert.match(step.summary, /\*\*Report:\*\* .*organisation name/);
  });

  it('a redirect to the presigned address: the key never reaches the download origin', async () => {
    world.emulator.setVariant({ downloadAddress: 'redirect302' });
    const step = await world.main({ report: 'generate', 'artifact-name': 'redirected.pdf' });
    assert.equal(step.exitCode, 0, visibleLog(step));
    assert.ok(step.outputs['report-path']);
    const downloads = world.emulator.requests().filter((r) => r.origin === 'download');
    assert.ok(downloads.length >= 1);
    assert.ok(downloads.every((r) => r.headers.authorization === undefined));
  });

  it('GHES: a warning, and the report stays on disk', async () => {
    const step = await world.main(
      { report: 'generate', 'artifact-name': 'ghes.pdf' },
      { serverUrl: 'https://ghes.example.com' },
    );
    assert.equal(step.exitCode, 0, visibleLog(step));
    const warning = step.annotations.find((a) => /Artifact upload skipped/.test(a.message));
    assert.match(warning?.message ?? '', /GitHub Enterprise Server.*the report stays at/);
    assert.ok(existsSync(step.outputs['report-path'] ?? ''));
    assert.equal(step.outputs['artifact-id'], '');
    assert.ok(!world.artifacts.finalized().some((a) => a.name === 'ghes.pdf'));
  });

  it('no runtime token (e.g. run outside Actions): a warning, the report stays on disk', async () => {
    const step = await world.main(
      { report: 'generate' },
      { env: { ACTIONS_RUNTIME_TOKEN: undefined, ACTIONS_RESULTS_URL: undefined } },
    );
    assert.equal(step.exitCode, 0);
    assert.ok(
      step.annotations.some((a) =>
        /Artifact upload skipped: artifacts are not available here/.test(a.message),
      ),
    );
    assert.ok(existsSync(step.outputs['report-path'] ?? ''));
  });

  it('a failing artifact backend: a warning, never a failed job', async () => {
    world.artifacts.failNext('CreateArtifact', { status: 403, msg: 'forbidden for test' });
    const step = await world.main({ report: 'generate', 'artifact-name': 'refused.pdf' });
    assert.equal(step.exitCode, 0, visibleLog(step));
    assert.ok(
      step.annotations.some((a) => /Artifact upload skipped: the upload failed/.test(a.message)),
    );
  });
});
