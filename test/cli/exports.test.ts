// --csv and --ocsf through the bundled CLI against the emulator: scan run and scan results write
// both (the CSV's rows are the record's findings, every OCSF event valid), the roll-up and a
// --tenants run write every tenant's rows, and a path that cannot be written is one line before any
// request. A fleet of 5,000 tenants is written record by record: its peak memory does not grow with
// the size of the files.

import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parse } from 'csv-parse/sync';
import { startEmulator } from '../emulator/emulator.js';
import type { Emulator } from '../emulator/types.js';
import { ocsfEvents } from '../formats/ocsf-validator.js';
import {
  apiRequests,
  assertBundleBuilt,
  cliEnv,
  recordedRun,
  runCli,
  spawnCli,
} from './helpers.js';

let emu: Emulator;
let work: string;

before(async () => {
  assertBundleBuilt();
  emu = await startEmulator({ seed: 48, clockSpeed: 20 });
  work = await mkdtemp(join(tmpdir(), 'tenant-scan-exports-'));
});
after(async () => {
  await emu.close();
  await rm(work, { recursive: true, force: true });
});

const RUN = ['scan', 'run', '--type', 'compliance', '--watch'];

interface RecordFinding {
  checkId: string;
  title: string;
  severity: string;
  baselineState?: string;
}
interface RunRecordJson {
  scan: { id: string };
  tenant: string | null;
  findings: RecordFinding[];
  fixedFindings: RecordFinding[];
  files: Record<string, string | null>;
}

/** The CSV's rows as objects keyed by the header. */
async function csvRows(path: string): Promise<Array<Record<string, string>>> {
  const [header = [], ...rows] = parse(await readFile(path, 'utf8'), { bom: true }) as string[][];
  return rows.map((cells) => Object.fromEntries(header.map((name, i) => [name, cells[i] ?? ''])));
}

function failing(checks: string[]) {
  return {
    durationMs: 500,
    queuedMs: 50,
    outcome: { kind: 'completed' as const, total: 40, failed: 0, failedChecks: checks },
  };
}

describe('CLI: the findings as CSV and OCSF', () => {
  let record: RunRecordJson;

  it('scan run writes both: the rows of its record, new, unchanged and fixed, every event valid', async () => {
    emu.setScanPlan(failing(['CIS-1.1.1', 'CIS-1.1.2']));
    const first = await runCli(RUN, cliEnv(emu));
    assert.equal(first.code, 0, first.stderr);
    emu.setScanPlan(failing(['CIS-1.1.2', 'CIS-1.1.3', 'CIS-1.2.1']));
    const csv = join(work, 'run', 'findings.csv');
    const ocsf = join(work, 'run', 'findings.ocsf.jsonl');
    const args = [
      ...RUN,
      '--baseline',
      'previous',
      '--csv',
      csv,
      '--ocsf',
      ocsf,
      '--output',
      'json',
    ];
    const result = await runCli(args, cliEnv(emu));
    assert.equal(result.code, 0, result.stderr);
    record = JSON.parse(result.stdout) as RunRecordJson;
    assert.equal(record.files.csv, csv);
    assert.equal(record.files.ocsf, ocsf);

    const rows = await csvRows(csv);
    const listed = [
      ...record.findings.map((f) => [f.checkId, f.title, f.severity, f.baselineState]),
      ...record.fixedFindings.map((f) => [f.checkId, f.title, f.severity, 'fixed']),
    ];
    assert.deepEqual(
      rows.map((r) => [r['Check ID'], r.Title, r.Severity, r.State]),
      listed,
    );
    assert.deepEqual(listed.map((l) => l[3]).sort(), ['fixed', 'new', 'new', 'unchanged']);
    assert.ok(rows.every((r) => r.Tenant === record.tenant && r.Scan === record.scan.id));

    const events = ocsfEvents(await readFile(ocsf, 'utf8'));
    assert.deepEqual(
      events.map((e) => [(e.finding_info as { uid: string }).uid, e.status]),
      listed.map(([check, , , state]) => [
        check,
        state === 'fixed' ? 'Resolved' : state === 'unchanged' ? 'In Progress' : 'New',
      ]),
    );
  });

  it('scan results writes both for a scan already done, named by the tenant', async () => {
    const csv = join(work, 'results', 'r.csv');
    const ocsf = join(work, 'results', 'r.jsonl');
    const args = ['scan', 'results', record.scan.id, '--csv', csv, '--ocsf', ocsf];
    const result = await runCli(args, cliEnv(emu));
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stderr, /CSV written to .*r\.csv/);
    const rows = await csvRows(csv);
    assert.deepEqual(
      rows.map((r) => r['Check ID']).sort(),
      record.findings.map((f) => f.checkId).sort(),
    );
    assert.ok(rows.every((r) => r.Tenant === record.tenant && r.State === ''));
    assert.equal(ocsfEvents(await readFile(ocsf, 'utf8')).length, record.findings.length);
  });

  it('a file that cannot be written: one line naming the flag, and no request', async () => {
    emu.clearRequests();
    const blocker = join(work, 'a-file');
    await writeFile(blocker, 'x');
    const result = await runCli([...RUN, '--ocsf', join(blocker, 'f.jsonl')], cliEnv(emu));
    assert.equal(result.code, 1);
    assert.match(result.stderr, /--ocsf ".*" is inside a file, not a directory/);
    const rollup = await runCli(['rollup', 'x.json', '--csv', work], cliEnv(undefined));
    assert.equal(rollup.code, 1);
    assert.match(rollup.stderr, /--csv ".*" is a directory; give a file path/);
    assert.equal(apiRequests(emu).length, 0);
  });
});

describe('CLI: the fleet as CSV and OCSF', () => {
  it("rollup writes every tenant's rows, each as the tenant's own record says", async () => {
    const dir = join(work, 'fleet');
    const tenants = [
      { label: 'contoso', name: 'Contoso Ltd', failedChecks: ['CIS-1.1.1', 'CIS-1.1.2'] },
      { label: 'fabrikam', name: 'Fabrikam Inc', failedChecks: ['CIS-1.1.2'] },
      { label: 'tailspin', name: 'Tailspin', failedChecks: [] },
    ];
    for (const tenant of tenants) {
      const run = await recordedRun(emu, tenant, join(dir, `${tenant.label}.json`));
      assert.ok(run.code === 0 || run.code === 2, run.stderr);
    }
    await writeFile(join(dir, 'broken.json'), '{"version": 1');
    const csv = join(work, 'fleet.csv');
    const ocsf = join(work, 'fleet.jsonl');
    const result = await runCli(
      ['rollup', `${dir}/*.json`, '--csv', csv, '--ocsf', ocsf],
      cliEnv(undefined),
    );
    assert.equal(result.code, 0, result.stderr);
    const rows = await csvRows(csv);
    assert.deepEqual(
      rows.map((r) => [r.Tenant, r['Check ID']]),
      [
        ['contoso', 'CIS-1.1.1'],
        ['contoso', 'CIS-1.1.2'],
        ['fabrikam', 'CIS-1.1.2'],
      ],
    );
    const events = ocsfEvents(await readFile(ocsf, 'utf8'));
    assert.deepEqual(
      events.map((e) => (e.cloud as { account: { uid: string } }).account.uid),
      ['contoso', 'contoso', 'fabrikam'],
    );
  });

  it("scan run --tenants writes the fleet's files after every tenant's job", async () => {
    const env: Record<string, string> = {};
    const list = ['north', 'south'].map((name, index) => {
      const tenant = emu.addTenant({
        name: `${name} Ltd`,
        scanPlan: failing(index === 0 ? ['CIS-1.2.1'] : ['CIS-1.2.1', 'CIS-1.2.2']),
      });
      env[`${name.toUpperCase()}_KEY`] = tenant.apiKey;
      return { name, 'api-url': emu.url, secret: `${name.toUpperCase()}_KEY` };
    });
    const file = join(work, 'tenants.json');
    await writeFile(file, JSON.stringify(list));
    const csv = join(work, 'tenants-fleet.csv');
    const args = ['scan', 'run', '--type', 'compliance', '--tenants', file];
    args.push('--records', join(work, 'tenant-records'), '--csv', csv);
    const result = await runCli(args, cliEnv(undefined, env));
    assert.equal(result.code, 0, result.stderr);
    const rows = await csvRows(csv);
    assert.deepEqual(
      rows.map((r) => [r.Tenant, r['Check ID']]),
      [
        ['north', 'CIS-1.2.1'],
        ['south', 'CIS-1.2.1'],
        ['south', 'CIS-1.2.2'],
      ],
    );
  });

  it('5,000 tenants: every row, written record by record (memory does not grow with the file)', async () => {
    const remediation = 'Turn it on. '.repeat(170); // ~2 KB a finding
    const writeFleet = async (dir: string, count: number) => {
      await mkdir(dir, { recursive: true });
      for (let i = 0; i < count; i++) {
        const findings = Array.from({ length: 5 }, (_, k) => ({
          checkId: `CHK-${k}`,
          title: `=cmd|' /C calc'!A${k}`,
          severity: 'high',
          category: 'Identity',
          result: 'Failed',
          remediation,
        }));
        const tenant = `tenant-${String(i).padStart(4, '0')}`;
        await writeFile(
          join(dir, `${tenant}.json`),
          JSON.stringify(syntheticRecord(tenant, findings)),
        );
      }
    };
    const dir = join(work, 'big-5000');
    await writeFleet(dir, 5000);
    const csv = join(work, 'big-5000.csv');
    // The CSV alone is ~46 MB: under a 40 MiB heap the roll-up succeeds only if it never holds the
    // rows (an RSS comparison between two runs was at the mercy of the collector's timing).
    const result = await spawnCli(
      ['rollup', `${dir}/*.json`, '--csv', csv],
      cliEnv(undefined, { NODE_OPTIONS: '--max-old-space-size=40' }),
    ).done;
    assert.equal(result.code, 0, result.stderr);
    assert.ok((await readFile(csv)).length > 40 * 2 ** 20, 'the file is bigger than the heap');
    const rows = await csvRows(csv);
    assert.equal(rows.length, 5000 * 5);
    assert.equal(new Set(rows.map((r) => r.Tenant)).size, 5000);
    assert.ok(
      rows.every((r) => (r.Title ?? '').startsWith("'=")),
      'every formula neutralised',
    );
  });
});

/** A version-1 run record of a completed scan that failed `findings`. */
function syntheticRecord(label: string, findings: object[]) {
  return {
    version: 1,
    writtenAt: '2026-11-20T10:00:00.000Z',
    label,
    scan: {
      id: `scan-${label}`,
      status: 'completed',
      phase: 'succeeded',
      terminal: true,
      progress: 100,
      scanType: 'compliance',
      createdAt: '2026-11-20T09:59:00.000Z',
      completedAt: '2026-11-20T10:00:00.000Z',
      summary: null,
    },
    tenant: label,
    triggered: true,
    lostTrigger: null,
    waited: true,
    verdict: 'failed',
    failureReason: `${findings.length} failed findings`,
    verdictReason: `${findings.length} failed findings`,
    error: null,
    total: 40,
    failed: findings.length,
    new: findings.length,
    fixed: 0,
    waived: 0,
    overdue: null,
    trend: [],
    gate: null,
    findings: findings.map((f) => ({
      id: 'x',
      description: null,
      reference: null,
      ...f,
      gating: true,
    })),
    fixedFindings: [],
    report: { policy: 'none', state: null, path: null, bytes: null, sha256: null, note: null },
    files: { results: null, junit: null, sarif: null, csv: null, ocsf: null },
    exitCode: 2,
  };
}
