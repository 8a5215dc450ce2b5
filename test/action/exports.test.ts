// csv-file and ocsf-file on the bundled Action as the runner runs it: both written, named by the
// outputs, uploaded each as an artifact of its own name (the bytes the artifact backend stored are
// the file's) and linked from the summary; a path outside the workspace, or without wait, is one
// line before any request. The sub-actions write the fleet's: the roll-up every tenant's rows,
// the tenants chunk its tenants'.
import assert from 'node:assert/strict';
import { copyFile, mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parse } from 'csv-parse/sync';
import { checkIdAt } from '../emulator/findings.js';
import { ocsfEvents } from '../formats/ocsf-validator.js';
import { renderedText } from '../helpers/gfm.js';
import {
  createJobDirectory,
  removeJobDirectory,
  runActionStep,
  type StepResult,
} from '../helpers/runner.js';
import { QUICK_SCAN, apiRequests, errorLines, useWorld, visibleLog } from './world.js';

const [A, B, C] = [checkIdAt(0), checkIdAt(1), checkIdAt(2)];

function csvChecks(text: string): string[][] {
  const [, ...rows] = parse(text, { bom: true }) as string[][];
  return rows.map((cells) => [cells[0] ?? '', cells[2] ?? '']);
}

describe('action: csv-file and ocsf-file', () => {
  const world = useWorld();

  it('writes both, names them in the outputs, uploads each as an artifact and links it', async () => {
    const step = await world.main({
      'csv-file': 'out/findings.csv',
      'ocsf-file': 'out/findings.ocsf.jsonl',
      'tenant-label': 'contoso',
    });
    assert.equal(step.exitCode, 1, 'the default plan has findings');
    const csv = join(step.job.workspace, 'out', 'findings.csv');
    const ocsf = join(step.job.workspace, 'out', 'findings.ocsf.jsonl');
    assert.equal(step.outputs['csv-file'], csv, visibleLog(step));
    assert.equal(step.outputs['ocsf-file'], ocsf);
    const record = JSON.parse(await readFile(step.outputs['record-file'] ?? '', 'utf8')) as {
      findings: Array<{ checkId: string }>;
    };
    const csvText = await readFile(csv, 'utf8');
    assert.deepEqual(
      csvChecks(csvText),
      record.findings.map((f) => ['contoso', f.checkId]),
    );
    const events = ocsfEvents(await readFile(ocsf, 'utf8'));
    assert.equal(events.length, 5);

    const stored = world.artifacts.finalized();
    for (const [name, path] of [
      ['findings.csv', csv],
      ['findings.ocsf.jsonl', ocsf],
    ] as const) {
      const artifact = stored.find((a) => a.name === name);
      assert.ok(artifact, `${name} uploaded: ${stored.map((a) => a.name).join(', ')}`);
      assert.deepEqual(artifact.content, await readFile(path));
      assert.match(step.summary, new RegExp(`\\[findings\\\\?\\.(csv|ocsf)`));
    }
    assert.match(
      renderedText(step.summary),
      /^Files: findings\.csv \(CSV\) · findings\.ocsf\.jsonl \(OCSF\)$/m,
    );
  });

  it('outside the workspace, or without wait: one line each, before any request', async () => {
    const step = await world.main({
      'csv-file': '../outside.csv',
      'ocsf-file': 'x.jsonl',
      wait: 'false',
    });
    assert.equal(step.exitCode, 1);
    assert.deepEqual(
      errorLines(step).sort(),
      [
        'Sanity checks failed: input \'csv-file\' "../outside.csv" is outside the workspace (GITHUB_WORKSPACE) or RUNNER_TEMP: give a path inside it (a relative path is relative to the workspace)',
        "Sanity checks failed: input 'csv-file' needs wait: true (results exist only once the scan has finished)",
        "Sanity checks failed: input 'ocsf-file' needs wait: true (results exist only once the scan has finished)",
      ].sort(),
    );
    assert.equal(apiRequests(world.emulator).length, 0);
  });

  it('the roll-up sub-action writes every tenant’s rows', async () => {
    const job = await createJobDirectory();
    try {
      const tenants: Array<[string, string[]]> = [
        ['contoso', [A, B]],
        ['fabrikam', []],
        ['northwind', [C]],
      ];
      for (const [label, failedChecks] of tenants) {
        const { apiKey } = world.emulator.addTenant({
          name: `${label} Ltd`,
          scanPlan: {
            ...QUICK_SCAN,
            outcome: { kind: 'completed', total: 40, failed: 0, failedChecks },
          },
        });
        const step: StepResult = await world.main({ 'api-key': apiKey, 'tenant-label': label });
        const dir = join(job.workspace, 'tenant-scan-records', label);
        await mkdir(dir, { recursive: true });
        await copyFile(step.outputs['record-file'] ?? '', join(dir, 'record.json'));
      }
      const inputs = { 'csv-file': 'fleet/findings.csv', 'ocsf-file': 'fleet/findings.jsonl' };
      const step = await runActionStep({ entry: 'rollup', job, inputs, timeoutMs: 30_000 });
      assert.equal(step.exitCode, 1, visibleLog(step));
      const csv = join(job.workspace, 'fleet', 'findings.csv');
      assert.equal(step.outputs['csv-file'], csv);
      assert.deepEqual(csvChecks(await readFile(csv, 'utf8')), [
        ['contoso', A],
        ['contoso', B],
        ['northwind', C],
      ]);
      const events = ocsfEvents(await readFile(step.outputs['ocsf-file'] ?? '', 'utf8'));
      assert.equal(events.length, 3);
      const outside = await runActionStep({
        entry: 'rollup',
        job,
        inputs: { 'csv-file': '/etc/findings.csv' },
        timeoutMs: 30_000,
      });
      assert.equal(outside.exitCode, 1);
      assert.match(
        errorLines(outside)[0] ?? '',
        /input 'csv-file' "\/etc\/findings\.csv" is outside/,
      );
    } finally {
      await removeJobDirectory(job);
    }
  });

  it('the tenants sub-action writes its chunk’s rows', async () => {
    const keys: Record<string, string> = {};
    const list = ['east', 'west'].map((name, index) => {
      const { apiKey } = world.emulator.addTenant({
        name,
        scanPlan: {
          ...QUICK_SCAN,
          outcome: { kind: 'completed', total: 40, failed: 0, failedChecks: index ? [A, B] : [A] },
        },
      });
      keys[`${name.toUpperCase()}_KEY`] = apiKey;
      return { name, 'api-url': world.emulator.url, secret: `${name.toUpperCase()}_KEY` };
    });
    const step = await runActionStep({
      entry: 'tenants',
      inputs: { tenants: JSON.stringify(list), 'csv-file': 'chunk.csv' },
      env: { ...keys, TENANT_SCAN_TEST_PACING_MS: '100' },
      timeoutMs: 30_000,
    });
    assert.equal(step.exitCode, 2, visibleLog(step));
    const csv = await readFile(join(step.job.workspace, 'chunk.csv'), 'utf8');
    assert.deepEqual(csvChecks(csv), [
      ['east', A],
      ['west', A],
      ['west', B],
    ]);
    await removeJobDirectory(step.job);
  });
});
