// `tenant-scan rollup --max-age` on the bundled CLI: a real record of an emulated tenant's run
// (scan run --watch --record), copied with its scan's times moved back or ahead as a cache or an
// old artifact would leave it. An old record is stale and fails the roll-up (exit 2: --max-age
// turns the gate on), a fresh one passes, without --max-age the old one still passes as before, a
// time ahead of the clock is unreadable, and a bad --max-age is one line before anything is read.
// The record carries writtenAt, the writer's clock: a record of a run that ended in an error before
// any scan is aged by it.
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startEmulator } from '../emulator/emulator.js';
import { assertBundleBuilt, cliEnv, recordedRun, runCli } from './helpers.js';

interface RollupJson {
  verdict: string;
  failedTenants: number;
  tenants: Array<{ tenant: string; verdict: string; problem: string | null }>;
  plans?: { tenants: Array<{ tenant: string; verdict: string; problem: string | null }> };
  exitCode: number;
}

const HOUR = 3_600_000;
let work: string;
let recordText: string;
/** The wall clock before and after the run that wrote the record. */
let runSpan: [number, number];

before(async () => {
  assertBundleBuilt();
  const emu = await startEmulator({ seed: 62, clockSpeed: 100 });
  work = await mkdtemp(join(tmpdir(), 'tenant-scan-rollup-age-'));
  try {
    const path = join(work, 'contoso.json');
    const tenant = { label: 'contoso', name: 'Contoso Ltd', failedChecks: [] };
    const started = Date.now();
    const job = await recordedRun(emu, tenant, path);
    runSpan = [started, Date.now()];
    assert.equal(job.code, 0, job.stderr);
    recordText = await readFile(path, 'utf8');
  } finally {
    await emu.close();
  }
});
after(() => rm(work, { recursive: true, force: true }));

/** The real record, its scan created an hour before it completed `hoursAgo` hours ago, in a
 *  folder of its own. */
async function recordFrom(folder: string, hoursAgo: number): Promise<string> {
  const record = JSON.parse(recordText) as { scan: { createdAt: string; completedAt: string } };
  record.scan.completedAt = new Date(Date.now() - hoursAgo * HOUR).toISOString();
  record.scan.createdAt = new Date(Date.now() - (hoursAgo + 1) * HOUR).toISOString();
  await mkdir(join(work, folder), { recursive: true });
  await writeFile(join(work, folder, 'contoso.json'), JSON.stringify(record));
  return `${folder}/contoso.json`;
}

async function rollup(args: string[]) {
  const result = await runCli(['rollup', ...args, '--output', 'json'], cliEnv(undefined), {
    cwd: work,
  });
  return { ...result, json: result.stdout ? (JSON.parse(result.stdout) as RollupJson) : null };
}

describe('tenant-scan rollup --max-age', () => {
  it('a record older than --max-age is stale: the roll-up fails, exit 2, the note says how old', async () => {
    const old = await recordFrom('old', 72);
    const result = await rollup([old, '--max-age', '36h']);
    assert.equal(result.code, 2, result.stderr);
    assert.equal(result.json!.verdict, 'failed');
    assert.deepEqual(result.json!.tenants, [
      {
        ...result.json!.tenants[0]!,
        tenant: 'contoso',
        verdict: 'stale',
        problem: 'record is 3 days old (max-age 36h)',
      },
    ]);
    assert.match(result.stderr, /Findings gate: 1 of 1 tenant failed/);
    const table = await runCli(['rollup', old, '--max-age', '36h'], cliEnv(undefined), {
      cwd: work,
    });
    assert.match(table.stdout, /contoso +stale .*record is 3 days old \(max-age 36h\)/);
  });

  it('a fresh record passes; without --max-age the old one still passes, as before', async () => {
    const fresh = await rollup([await recordFrom('fresh', 2), '--max-age', '36h']);
    assert.deepEqual(
      [fresh.code, fresh.json!.verdict, fresh.json!.tenants[0]!.verdict],
      [0, 'passed', 'passed'],
    );
    const unchanged = await rollup([await recordFrom('old', 72)]);
    assert.deepEqual(
      [unchanged.code, unchanged.json!.verdict, unchanged.json!.tenants[0]!.verdict],
      [0, 'passed', 'passed'],
    );
  });

  it('a scan time ahead of the clock beyond the skew margin is unreadable', async () => {
    const ahead = await rollup([await recordFrom('ahead', -3.5), '--max-age', '7d']);
    assert.equal(ahead.code, 2);
    assert.equal(ahead.json!.tenants[0]!.verdict, 'unreadable');
    assert.match(
      ahead.json!.tenants[0]!.problem!,
      /^its scan time \(.*\) is 3 hours in the future: a clock is wrong$/,
    );
  });

  it('the record carries writtenAt; a record of an error before any scan is aged by it', async () => {
    const { writtenAt } = JSON.parse(recordText) as { writtenAt: unknown };
    assert.equal(typeof writtenAt, 'string');
    assert.match(writtenAt as string, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/, 'ISO 8601 UTC');
    const at = Date.parse(writtenAt as string);
    assert.ok(at >= runSpan[0] && at <= runSpan[1], `${String(writtenAt)} is during the run`);
    // The same record as a run that ended in an error before any scan leaves it, written then.
    const errorRecord = async (folder: string, hoursAgo: number) => {
      const record = JSON.parse(recordText) as Record<string, unknown>;
      Object.assign(record, {
        writtenAt: new Date(Date.now() - hoursAgo * HOUR).toISOString(),
        scan: null,
        verdict: null,
        error: 'Authentication failed: 401',
        failed: 0,
        gate: null,
        findings: [],
      });
      await mkdir(join(work, folder), { recursive: true });
      await writeFile(join(work, folder, 'contoso.json'), JSON.stringify(record));
      return `${folder}/contoso.json`;
    };
    const fresh = await rollup([await errorRecord('error-new', 1), '--max-age', '36h']);
    assert.deepEqual(
      [fresh.code, fresh.json!.tenants[0]!.verdict, fresh.json!.tenants[0]!.problem],
      [2, 'error', 'Authentication failed: 401'],
    );
    const old = await rollup([await errorRecord('error-old', 72), '--max-age', '36h']);
    assert.deepEqual(
      [old.code, old.json!.tenants[0]!.verdict, old.json!.tenants[0]!.problem],
      [
        2,
        'stale',
        'record is 3 days old (max-age 36h); its run ended in an error: Authentication failed: 401',
      ],
    );
  });

  it('a plan checked too long ago is stale; one checked lately passes', async () => {
    const plan = (tenant: string, hoursAgo: number) => ({
      kind: 'tenant-plan',
      version: 1,
      tenant,
      checkedAt: new Date(Date.now() - hoursAgo * HOUR).toISOString(),
      drift: [],
      problems: [],
    });
    await mkdir(join(work, 'plans'), { recursive: true });
    await writeFile(join(work, 'plans', 'a.json'), JSON.stringify(plan('a', 50)));
    await writeFile(join(work, 'plans', 'b.json'), JSON.stringify(plan('b', 1)));
    const result = await rollup(['plans/*.json', '--max-age', '2d']);
    assert.equal(result.code, 2);
    const verdicts = result.json!.plans!.tenants.map((row) => [
      row.tenant,
      row.verdict,
      row.problem,
    ]);
    assert.deepEqual(verdicts, [
      ['a', 'stale', 'plan is 50 hours old (max-age 2d)'],
      ['b', 'passed', null],
    ]);
  });

  it('a bad --max-age is one line and exit 1, before anything is read or written', async () => {
    for (const bad of ['36', '1.5d', '']) {
      const result = await runCli(
        ['rollup', 'missing/*.json', '--max-age', bad, '--markdown', 'out.md'],
        cliEnv(undefined),
        { cwd: work },
      );
      assert.equal(result.code, 1, bad);
      assert.equal(result.stdout, '');
      const line =
        bad === ''
          ? '--max-age is empty: give a value, or leave the flag out'
          : `--max-age must be a duration such as 90m, 36h or 7d (a whole number of minutes, hours or days, above 0 and at most 366d), got "${bad}"`;
      assert.equal(result.stderr, `tenant-scan: error: Sanity checks failed: ${line}\n`);
      await assert.rejects(readFile(join(work, 'out.md')), /ENOENT/);
    }
  });
});
