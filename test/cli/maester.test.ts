// A service shaped like Maester (`testId, name, result, severity, helpUrl, block`, no `id` or
// `checkId`) on the bundled CLI: every output names each check by its testId — SARIF (one rule per
// failed check, distinct fingerprints, through the multitool), JUnit, `--output json` and the
// record — the category and help link are read, and the roll-up finds a check by its id across
// tenants.
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startEmulator } from '../emulator/emulator.js';
import { checkAt, checkIdAt } from '../emulator/findings.js';
import { REFERENCE_BASE } from '../emulator/findings-catalog.js';
import type { Emulator } from '../emulator/types.js';
import { multitoolProblems, sarifMultitool, sarifSchemaProblems } from '../formats/validators.js';
import { assertBundleBuilt, cliEnv, runCli } from './helpers.js';

const CHECKS = Array.from({ length: 17 }, (_, i) => checkIdAt(i));

interface SarifRun {
  tool: { driver: { rules: Array<{ id: string; helpUri?: string }> } };
  results: Array<{ ruleId: string; partialFingerprints: Record<string, string> }>;
}

interface RecordJson {
  findings: Array<{ id: string; checkId: string; category: string | null; reference: string }>;
}

let emu: Emulator;
let work: string;

/** `scan run` of a tenant whose failed checks are these, writing every file; its JSON. */
async function scanRun(label: string, failedChecks: string[]): Promise<RecordJson> {
  const { apiKey } = emu.addTenant({
    scanPlan: {
      durationMs: 500,
      queuedMs: 50,
      outcome: { kind: 'completed', total: 40, failed: 0, failedChecks },
    },
  });
  const out = (name: string) => join(work, label, name);
  const run = await runCli(
    [
      'scan',
      'run',
      '--type',
      'compliance',
      '--watch',
      '--output',
      'json',
      '--tenant-label',
      label,
      '--record',
      out('record.json'),
      '--sarif',
      out('results.sarif'),
      '--junit',
      out('junit.xml'),
    ],
    cliEnv(emu, { SERVICE_API_KEY: apiKey }),
  );
  assert.equal(run.code, 0, run.stderr);
  return JSON.parse(run.stdout) as RecordJson;
}

before(async () => {
  assertBundleBuilt();
  emu = await startEmulator({ seed: 31, clockSpeed: 100, variant: { findingShape: 'maester' } });
  work = await mkdtemp(join(tmpdir(), 'tenant-scan-maester-'));
});
after(async () => {
  await emu.close();
  await rm(work, { recursive: true, force: true });
});

describe('cli: Maester-shaped findings', () => {
  it('SARIF, JUnit, JSON and the record name each check by its testId', async () => {
    const json = await scanRun('contoso', CHECKS);
    assert.deepEqual(json.findings.map((f) => f.checkId).sort(), [...CHECKS].sort());
    assert.ok(
      json.findings.every((f) => f.id === f.checkId),
      'no finding id: the testId',
    );
    const first = json.findings.find((f) => f.checkId === CHECKS[0]);
    assert.equal(first?.category, checkAt(0).category, 'block is the category');
    assert.equal(first?.reference, `${REFERENCE_BASE}${checkAt(0).checkId.toLowerCase()}`);
    const record = JSON.parse(
      await readFile(join(work, 'contoso', 'record.json'), 'utf8'),
    ) as RecordJson;
    assert.deepEqual(record.findings.map((f) => f.checkId).sort(), [...CHECKS].sort());

    const sarifFile = join(work, 'contoso', 'results.sarif');
    const sarif = JSON.parse(await readFile(sarifFile, 'utf8')) as { runs: SarifRun[] };
    const run = sarif.runs[0];
    assert.ok(run);
    assert.deepEqual(run.tool.driver.rules.map((r) => r.id).sort(), [...CHECKS].sort());
    assert.ok(run.tool.driver.rules.every((r) => r.helpUri?.startsWith(REFERENCE_BASE)));
    assert.deepEqual(run.results.map((r) => r.ruleId).sort(), [...CHECKS].sort());
    const fingerprints = run.results.map((r) => JSON.stringify(r.partialFingerprints));
    assert.equal(new Set(fingerprints).size, CHECKS.length, 'one alert per check, not one in all');
    assert.deepEqual(sarifSchemaProblems(sarif), []);
    const tool = sarifMultitool();
    if (tool) assert.deepEqual((await multitoolProblems(tool, [sarifFile])).get(sarifFile), []);

    const junit = await readFile(join(work, 'contoso', 'junit.xml'), 'utf8');
    const names = [...junit.matchAll(/<testcase name="([^"]*)"/g)].map((m) => m[1] ?? '');
    assert.equal(names.length, 40);
    assert.ok(
      names.every((name) => /^CIS-[\d.#]+: \S/.test(name)),
      names.join('\n'),
    );
    for (const check of CHECKS) assert.ok(names.some((name) => name.startsWith(`${check}: `)));
  });

  it('the roll-up finds a check by its testId across tenants', async () => {
    const [a, b, c] = CHECKS;
    await scanRun('fabrikam', [a!, b!]);
    await scanRun('northwind', [a!, c!]);
    const result = await runCli(
      ['rollup', 'fabrikam/record.json', 'northwind/record.json', '--json'],
      cliEnv(undefined),
      { cwd: work },
    );
    assert.equal(result.code, 0, result.stderr);
    const rollup = JSON.parse(result.stdout) as {
      checks: Array<{ check: string; failingTenants: number; tenants: string[] }>;
    };
    const shared = rollup.checks.find((row) => row.check === a);
    assert.deepEqual(shared?.tenants, ['fabrikam', 'northwind']);
    assert.deepEqual(rollup.checks.map((row) => row.check).sort(), [a, b, c].sort());
  });
});
