// The roll-up on the bundled CLI: three emulated tenants (one clean, two failing) each run
// `scan run --watch --record` as a matrix job would, a fourth expected tenant has no record; then
// `rollup` gives the table, the JSON and the exit code, and Markdown with the service's text as
// plain text. Records that are not whole version-1 documents are listed, never read in part; a
// record whose own findings and gate contradict its verdict fails; nesting is bounded before
// parsing; links out of the records' folder are refused.
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startEmulator } from '../emulator/emulator.js';
import { checkIdAt } from '../emulator/findings.js';
import type { Emulator } from '../emulator/types.js';
import { isOurMarker, liveMarkup, renderedText } from '../helpers/gfm.js';
import { assertBundleBuilt, cliEnv, recordedRun, runCli, spawnCli } from './helpers.js';

interface RollupJson {
  version: number;
  verdict: string;
  tenants: Array<{
    tenant: string;
    name: string | null;
    verdict: string;
    failed: number | null;
    gating: number | null;
    problem: string | null;
  }>;
  totalTenants: number;
  failedTenants: number;
  checks: Array<{ check: string; failingTenants: number; tenants: string[] }>;
  exitCode: number;
}

const [A, B, C] = [checkIdAt(0), checkIdAt(1), checkIdAt(2)];

let emu: Emulator;
let work: string;

before(async () => {
  assertBundleBuilt();
  emu = await startEmulator({ seed: 61, clockSpeed: 100 });
  work = await mkdtemp(join(tmpdir(), 'tenant-scan-rollup-'));
  const tenants: Array<[string, string, string[]]> = [
    ['contoso', 'Contoso Ltd', []],
    ['fabrikam', 'Fabrikam Inc', [A, B]],
    ['northwind', 'Northwind Traders', [A, C]],
  ];
  // One job per tenant, as a matrix runs them: each with its own key and its own record.
  await Promise.all(
    tenants.map(async ([label, name, failedChecks]) => {
      const path = join(work, 'records', `${label}.json`);
      const job = await recordedRun(emu, { label, name, failedChecks }, path);
      assert.equal(job.code, failedChecks.length > 0 ? 2 : 0, job.stderr);
    }),
  );
});
after(async () => {
  await emu.close();
  await rm(work, { recursive: true, force: true });
});

/** The roll-up runs where the records were gathered, with no API key or address at all. */
function rollup(args: string[]) {
  return runCli(['rollup', ...args], cliEnv(undefined), { cwd: work });
}

describe('tenant-scan rollup', () => {
  const expect = ['--expect', 'contoso,fabrikam,northwind,tailspin'];

  it('three records and one missing: the JSON, worst first, the checks across tenants, exit 2', async () => {
    const result = await rollup(['records/*.json', ...expect, '--fail-on-findings', '--json']);
    assert.equal(result.code, 2, result.stderr);
    assert.match(result.stderr, /Findings gate: 3 of 4 tenants failed \(at most 0 may\)/);
    const json = JSON.parse(result.stdout) as RollupJson;
    assert.equal(json.version, 1);
    assert.equal(json.verdict, 'failed');
    assert.equal(json.totalTenants, 4);
    assert.equal(json.failedTenants, 3);
    assert.deepEqual(
      json.tenants.map((t) => [t.tenant, t.verdict, t.failed]),
      [
        ['tailspin', 'missing', null],
        ['fabrikam', 'failed', 2],
        ['northwind', 'failed', 2],
        ['contoso', 'passed', 0],
      ],
    );
    assert.equal(json.tenants[1]?.name, 'Fabrikam Inc');
    assert.match(json.tenants[0]?.problem ?? '', /no record of this tenant/);
    const [first, ...rest] = json.checks;
    assert.equal(first?.check, A);
    assert.equal(first?.failingTenants, 2);
    assert.deepEqual(first?.tenants, ['fabrikam', 'northwind']);
    assert.deepEqual(
      rest.map((c) => `${c.check}:${c.failingTenants}`).sort(),
      [`${B}:1`, `${C}:1`].sort(),
    );
  });

  it('the table says the verdict and lists every tenant; the gate off: exit 0 and a note says so', async () => {
    const result = await rollup(['records/*.json', ...expect]);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(
      result.stderr,
      'note: the roll-up failed: 3 of 4 tenants failed (at most 0 may); the gate is off, so the exit code is 0: add --fail-on-findings to exit 2 when it fails\n',
    );
    const lines = result.stdout.split('\n');
    assert.match(lines[0] ?? '', /^verdict +failed: 3 of 4 tenants failed \(at most 0 may\)$/);
    assert.match(result.stdout, /^TENANT +VERDICT +GATING +FAILED/m);
    assert.match(
      result.stdout,
      /^tailspin +missing +- +- +- +- +- +- +- +no record of this tenant/m,
    );
    assert.match(result.stdout, /^contoso +passed +0 +0 +0 /m);
    assert.match(result.stdout, new RegExp(`^${A.replace(/\./g, '\\.')} +2 of 3 +`, 'm'));
  });

  it('--max-failed-tenants: the roll-up passes while no more tenants fail than that', async () => {
    const three = await rollup([
      'records/*.json',
      ...expect,
      '--fail-on-findings',
      '--max-failed-tenants',
      '3',
    ]);
    assert.equal(three.code, 0, three.stderr);
    assert.equal(three.stderr, '', 'a roll-up that passes says nothing more');
    // --max-failed-tenants is a gate's threshold: it turns the gate on by itself.
    const two = await rollup(['records/*.json', ...expect, '--max-failed-tenants', '2']);
    assert.equal(two.code, 2, two.stderr);
    assert.match(
      two.stderr,
      /^Findings gate: 3 of 4 tenants failed \(at most 2 may\) \(exit code 2\)$/m,
    );
  });

  it('--markdown: one headline, every tenant, and nothing live', async () => {
    const result = await rollup(['records/*.json', ...expect, '--markdown', 'rollup.md']);
    assert.equal(result.code, 0, result.stderr);
    const markdown = await readFile(join(work, 'rollup.md'), 'utf8');
    const text = renderedText(markdown);
    assert.match(text, /^❌ Tenant roll-up failed: 3 of 4 tenants failed \(at most 0 may\)$/m);
    for (const name of ['tailspin', 'fabrikam', 'northwind', 'contoso'])
      assert.match(text, new RegExp(`^${name}`, 'm'));
    assert.deepEqual(liveMarkup(markdown), []);
  });

  it('records that are not whole version-1 documents are listed as unreadable, never read in part', async () => {
    const dir = await mkdtemp(join(work, 'bad-'));
    const fabrikam = JSON.parse(
      await readFile(join(work, 'records', 'fabrikam.json'), 'utf8'),
    ) as Record<string, unknown> & { findings: unknown[] };
    await writeFile(join(dir, 'newer.json'), JSON.stringify({ ...fabrikam, version: 2 }));
    await writeFile(
      join(dir, 'short.json'),
      JSON.stringify({ ...fabrikam, label: 'short', findings: fabrikam.findings.slice(1) }),
    );
    await writeFile(join(dir, 'cut.json'), JSON.stringify(fabrikam).slice(0, 200));
    const result = await rollup([`${dir}/*.json`, '--json']);
    const json = JSON.parse(result.stdout) as RollupJson;
    const problems = Object.fromEntries(json.tenants.map((t) => [t.tenant.split('/').at(-1), t]));
    assert.equal(problems['newer.json']?.verdict, 'unreadable');
    assert.match(problems['newer.json']?.problem ?? '', /record version 2 is newer/);
    assert.match(problems['short.json']?.problem ?? '', /says 2 failed but lists 1 findings/);
    assert.match(problems['cut.json']?.problem ?? '', /^not JSON$/);
    assert.deepEqual(json.checks, [], 'nothing of a record not read whole counts');
  });

  it('a record edited to say passed over its failing findings fails the roll-up, saying why', async () => {
    const dir = await mkdtemp(join(work, 'edited-'));
    const fabrikam = JSON.parse(
      await readFile(join(work, 'records', 'fabrikam.json'), 'utf8'),
    ) as Record<string, unknown> & { gate: object; findings: object[] };
    const edited = {
      ...fabrikam,
      verdict: 'passed',
      exitCode: 0,
      gate: { ...fabrikam.gate, failing: 0 },
      findings: fabrikam.findings.map((f) => ({ ...f, gating: false })),
    };
    await writeFile(join(dir, 'fabrikam.json'), JSON.stringify(edited));
    const result = await rollup([`${dir}/*.json`, '--json', '--fail-on-findings']);
    assert.equal(result.code, 2, result.stderr);
    const json = JSON.parse(result.stdout) as RollupJson;
    assert.deepEqual(
      json.tenants.map((t) => [t.tenant, t.verdict, t.gating]),
      [['fabrikam', 'failed', 2]],
    );
    assert.equal(
      json.tenants[0]?.problem,
      'the record says passed, but 2 of its failed findings fail its own gate',
    );
  });

  it('a record of 120 MB of nested [ is one line, in bounded memory and time', async () => {
    const dir = await mkdtemp(join(work, 'nested-'));
    await writeFile(join(dir, 'deep.json'), Buffer.alloc(120 * 1024 * 1024, '['));
    const spawned = spawnCli(['rollup', `${dir}/*.json`, '--json'], cliEnv(undefined), {
      cwd: work,
    });
    const result = await spawned.done;
    await rm(dir, { recursive: true, force: true });
    assert.equal(result.code, 0, result.stderr);
    const json = JSON.parse(result.stdout) as RollupJson;
    assert.deepEqual(
      json.tenants.map((t) => [t.verdict, t.problem]),
      [['unreadable', 'nested deeper than 32 levels: not a run record']],
    );
    // Unbounded, it took 50 s and 5.9 GB; bounded, about a second when the machine is not loaded.
    assert.ok((result.durationMs ?? 0) < 60_000, `took ${result.durationMs} ms`);
    if (result.peakRssBytes !== undefined)
      assert.ok(result.peakRssBytes < 512 * 2 ** 20, `${result.peakRssBytes >> 20} MiB`);
  });

  it("links out of the records' folder are refused; one inside it is read", async () => {
    const dir = await mkdtemp(join(work, 'linked-'));
    const outside = await mkdtemp(join(tmpdir(), 'tenant-scan-outside-'));
    const copy = (name: string, to: string) =>
      readFile(join(work, 'records', name)).then((bytes) => writeFile(to, bytes));
    try {
      await copy('fabrikam.json', join(outside, 'other.json'));
      await mkdir(join(dir, 'records', 'store'), { recursive: true });
      await copy('contoso.json', join(dir, 'records', 'store', 'contoso.data'));
      await symlink(join(outside, 'other.json'), join(dir, 'records', 'planted.json'));
      await symlink(join(dir, 'records', 'store', 'contoso.data'), join(dir, 'records', 'c.json'));
      await symlink(outside, join(dir, 'records', 'sub'));
      const roll = async (pattern: string) => {
        const result = await runCli(['rollup', pattern, '--json'], cliEnv(undefined), { cwd: dir });
        const json = JSON.parse(result.stdout) as RollupJson;
        return new Map(json.tenants.map((t) => [t.tenant, [t.verdict, t.problem]]));
      };
      const refused = ['unreadable', "a link out of the records' folder (records): refused"];
      const flat = await roll('records/*.json');
      assert.deepEqual(flat.get('records/planted.json'), refused);
      assert.deepEqual(flat.get('contoso'), ['passed', null], 'a link inside the folder is read');
      assert.equal(flat.size, 2);
      const deep = await roll('records/**/*.json');
      assert.deepEqual(deep.get('records/sub/other.json'), refused, 'through a linked folder');
    } finally {
      await rm(outside, { recursive: true, force: true });
    }
  });

  it('a second record of one tenant counts as failed; a pattern that matches nothing is listed', async () => {
    await writeFile(
      join(await mkdtemp(join(work, 'again-')), 'fabrikam.json'),
      await readFile(join(work, 'records', 'fabrikam.json')),
    );
    const result = await rollup(['records/*.json', 'again-*/*.json', 'copies/*.json', '--json']);
    const json = JSON.parse(result.stdout) as RollupJson;
    assert.equal(json.totalTenants, 5, result.stdout);
    const fabrikams = json.tenants.filter((t) => t.tenant === 'fabrikam');
    assert.deepEqual(fabrikams.map((t) => t.verdict).sort(), ['failed', 'unreadable']);
    assert.match(
      fabrikams.find((t) => t.verdict === 'unreadable')?.problem ?? '',
      /a second record of this tenant \(the first: records\/fabrikam\.json\)/,
    );
    assert.ok(json.tenants.some((t) => t.tenant === 'copies/*.json' && t.verdict === 'missing'));
  });

  it('hostile service text in a record reaches the Markdown as plain text', async () => {
    emu.setVariant({ hostileMarkdown: true });
    try {
      const { apiKey } = emu.addTenant({
        scanPlan: {
          durationMs: 500,
          queuedMs: 50,
          outcome: { kind: 'completed', total: 40, failed: 0, failedChecks: [A] },
        },
      });
      const path = join(work, 'hostile', 'record.json');
      await runCli(
        ['scan', 'run', '--type', 'compliance', '--watch', '--record', path],
        cliEnv(emu, { SERVICE_API_KEY: apiKey }),
      );
      const result = await rollup(['hostile/*.json', '--markdown', 'hostile.md']);
      assert.equal(result.code, 0, result.stderr);
      const markdown = await readFile(join(work, 'hostile.md'), 'utf8');
      assert.match(markdown, /@octocat/, 'the hostile text is there');
      const live = liveMarkup(markdown).filter((m) => !(m.kind === 'html' && isOurMarker(m.text)));
      assert.deepEqual(live, [], markdown);
    } finally {
      emu.setVariant({});
    }
  });

  it('scan run --record: a path it cannot write is one line before any request', async () => {
    const before = emu.requests().length;
    const result = await runCli(
      ['scan', 'run', '--type', 'compliance', '--watch', '--record', work],
      cliEnv(emu),
    );
    assert.equal(result.code, 1);
    assert.match(result.stderr, /Sanity checks failed: --record ".*" is a directory/);
    assert.equal(emu.requests().length, before, 'nothing sent');
  });

  it('usage: no record given is one line and exit 1; no API key is needed', async () => {
    const none = await rollup([]);
    assert.equal(none.code, 1);
    assert.match(none.stderr, /^tenant-scan: error: missing <record or plan files or globs…>/m);
    const bad = await rollup(['records/*.json', '--max-failed-tenants', 'some']);
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /--max-failed-tenants must be a whole number/);
  });
});
