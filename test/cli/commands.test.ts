// Every CLI command, in both output formats, run as the bundled CLI against the emulator.

import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startEmulator } from '../emulator/emulator.js';
import { junitProblems, sarifSchemaProblems } from '../formats/validators.js';
import type { Emulator } from '../emulator/types.js';
import {
  api,
  apiRequests,
  assertBundleBuilt,
  cliEnv,
  lines,
  runCli,
  triggerScan,
  type CliResult,
} from './helpers.js';

let emu: Emulator;
let work: string;

before(async () => {
  assertBundleBuilt();
  emu = await startEmulator({ seed: 11, tenant: { plan: { reportCredits: 100 } } });
  work = await mkdtemp(join(tmpdir(), 'tenant-scan-cli-'));
});
after(async () => {
  await emu.close();
  await rm(work, { recursive: true, force: true });
});

async function cli(args: string[], format: 'table' | 'json' = 'table'): Promise<CliResult> {
  const result = await runCli(
    format === 'json' ? [...args, '--output', 'json'] : args,
    cliEnv(emu),
  );
  assert.ok(
    !result.stdout.includes(emu.apiKey) && !result.stderr.includes(emu.apiKey),
    'the key leaked',
  );
  return result;
}

async function ok(args: string[], format: 'table' | 'json' = 'table'): Promise<CliResult> {
  const result = await cli(args, format);
  assert.equal(result.code, 0, `${args.join(' ')} (${format}) failed:\n${result.stderr}`);
  return result;
}

async function okJson<T = unknown>(args: string[]): Promise<T> {
  return JSON.parse((await ok(args, 'json')).stdout) as T;
}

/** Columns of a table line start at the same offsets as the header's words. */
function assertAligned(table: string, headerWords: string[]): void {
  const [header, ...rows] = lines(table);
  assert.ok(header, 'no header');
  for (const word of headerWords)
    assert.ok(header.includes(word), `header lacks ${word}: ${header}`);
  const starts = headerWords.map((word) => header.indexOf(word));
  for (const row of rows) {
    for (const start of starts.slice(1)) {
      assert.equal(row[start - 1], ' ', `column at ${start} not aligned in:\n${header}\n${row}`);
      assert.notEqual(row[start], ' ', `empty cell at ${start} in:\n${header}\n${row}`);
    }
  }
}

const READ_COMMANDS: Array<{ args: string[]; kind: 'list' | 'record' }> = [
  { args: ['tenant', 'me'], kind: 'record' },
  { args: ['tenant', 'connections'], kind: 'list' },
  { args: ['tenant', 'notifications'], kind: 'record' },
  { args: ['tenant', 'scheduled-scans'], kind: 'list' },
  { args: ['eas', 'summary'], kind: 'record' },
  { args: ['eas', 'history'], kind: 'list' },
  { args: ['threats'], kind: 'list' },
  { args: ['policies'], kind: 'list' },
  { args: ['remediation', 'capabilities'], kind: 'record' },
  { args: ['remediation', 'plans'], kind: 'list' },
  { args: ['ai-pilot', 'remediable'], kind: 'list' },
  { args: ['ai-pilot', 'break-glass'], kind: 'list' },
  { args: ['ai-pilot', 'conditional-access'], kind: 'list' },
  { args: ['keys', 'list'], kind: 'list' },
];

describe('read commands, table and json', () => {
  for (const { args, kind } of READ_COMMANDS) {
    it(args.join(' '), async () => {
      const table = await ok(args);
      assert.equal(table.stderr, '');
      assert.ok(table.stdout.trim().length > 0);
      const data = await okJson(args);
      if (kind === 'list') {
        assert.ok(Array.isArray(data), 'json is an array');
        assert.ok(data.length > 0, 'the emulator has rows for it');
        assert.equal(lines(table.stdout).length, data.length + 1, 'a header and a line per row');
      } else {
        assert.ok(data !== null && typeof data === 'object' && !Array.isArray(data));
      }
    });
  }

  it('a list of records of unknown shape is an aligned table', async () => {
    const table = await ok(['tenant', 'scheduled-scans']);
    assertAligned(table.stdout, ['ID', 'SCAN TYPE', 'CADENCE']);
  });

  it('a nested object of a record is flattened into dotted keys, never raw JSON', async () => {
    const table = await ok(['tenant', 'me']);
    assert.match(table.stdout, /^plan\.name\s+\S+/m);
    assert.match(table.stdout, /^plan\.apiAccess\s+true$/m);
    assert.doesNotMatch(table.stdout, /[{}]"/);
  });

  it('remediation plan <id> shows one plan', async () => {
    const plans = await okJson<Array<{ id: string }>>(['remediation', 'plans']);
    const id = plans[0]?.id ?? '';
    const plan = await okJson<{ id: string }>(['remediation', 'plan', id]);
    assert.equal(plan.id, id);
    assert.match((await ok(['remediation', 'plan', id])).stdout, new RegExp(id));
  });

  it('--json and SERVICE_OUTPUT=json give the same JSON as --output json, options anywhere', async () => {
    const expected = (await ok(['tenant', 'notifications'], 'json')).stdout;
    assert.equal((await ok(['--json', 'tenant', 'notifications'])).stdout, expected);
    assert.equal((await ok(['--output', 'json', 'tenant', 'notifications'])).stdout, expected);
    const viaEnv = await runCli(
      ['tenant', 'notifications'],
      cliEnv(emu, { SERVICE_OUTPUT: 'json' }),
    );
    assert.equal(viaEnv.stdout, expected);
    const override = await runCli(
      ['tenant', 'notifications', '--output', 'table'],
      cliEnv(emu, { SERVICE_OUTPUT: 'json' }),
    );
    assert.match(override.stdout, /^emailOnComplete\s+(true|false)$/m);
  });

  it('keys list never shows a full key', async () => {
    const keys = await okJson<Array<Record<string, unknown>>>(['keys', 'list']);
    assert.deepEqual(Object.keys(keys[0] ?? {}), [
      'id',
      'name',
      'keyPrefix',
      'msTenantId',
      'lastUsedAt',
      'createdAt',
    ]);
  });
});

describe('keys create | delete | revoke', () => {
  it("keys delete deletes a key (the seed's word); revoke stays as its alias", async () => {
    const first = await okJson<{ id: string; key: string }>(['keys', 'create', 'to-delete']);
    assert.deepEqual(await okJson(['keys', 'delete', first.id]), { id: first.id, deleted: true });
    const refused = await runCli(['tenant', 'me'], cliEnv(emu, { SERVICE_API_KEY: first.key }));
    assert.match(refused.stderr, /401/);
    const second = await okJson<{ id: string }>(['keys', 'create', 'to-revoke']);
    assert.match((await ok(['keys', 'revoke', second.id])).stdout, /^Revoked key /);
    assert.ok(
      !(await okJson<Array<{ id: string }>>(['keys', 'list'])).some((k) => k.id === second.id),
    );
  });

  it('creates a key shown once, lists it, revokes it; the revoked key then gets exit 1', async () => {
    const created = await okJson<{ id: string; key: string; name: string }>([
      'keys',
      'create',
      'ci-rotation',
    ]);
    assert.match(created.key, /^ak_live_/);
    assert.equal(created.name, 'ci-rotation');
    const listed = await okJson<Array<{ id: string }>>(['keys', 'list']);
    assert.ok(listed.some((k) => k.id === created.id));
    const withNewKey = await runCli(
      ['tenant', 'me'],
      cliEnv(emu, { SERVICE_API_KEY: created.key }),
    );
    assert.equal(withNewKey.code, 0);

    const revoked = await ok(['keys', 'revoke', created.id]);
    assert.match(revoked.stdout, /Revoked key/);
    const refused = await runCli(['tenant', 'me'], cliEnv(emu, { SERVICE_API_KEY: created.key }));
    assert.equal(refused.code, 1);
    assert.equal(lines(refused.stderr).length, 1);
    assert.match(refused.stderr, /401/);
    assert.ok(!refused.stderr.includes(created.key));
  });

  it('table output of create shows the key and warns on stderr to store it', async () => {
    const result = await ok(['keys', 'create', 'table-key']);
    assert.match(result.stdout, /^key\s+ak_live_/m);
    assert.match(result.stderr, /shown once/);
    const id = /^id\s+(\S+)/m.exec(result.stdout)?.[1] ?? '';
    const revoked = await okJson<{ id: string; revoked: boolean }>(['keys', 'revoke', id]);
    assert.deepEqual(revoked, { id, revoked: true });
  });
});

describe('tenant notifications set', () => {
  const address = 'https://example.webhook.office.com/webhookb2/abc?sig=secret-signature';

  it('changes only the settings given, in both formats; the address comes from a variable', async () => {
    const before = await okJson<Record<string, unknown>>(['tenant', 'notifications']);
    const args = [
      'tenant',
      'notifications',
      'set',
      '--email-on-fail',
      'false',
      '--teams-webhook-url-env',
      'TEAMS_HOOK',
      '--teams-on-fail',
      'true',
      '--output',
      'json',
    ];
    const result = await runCli(args, cliEnv(emu, { TEAMS_HOOK: address }));
    assert.equal(result.code, 0, result.stderr);
    assert.ok(!`${result.stdout}${result.stderr}`.includes('secret-signature'));
    assert.deepEqual(JSON.parse(result.stdout), {
      ...before,
      emailOnFail: false,
      // It carries a signature: shown by its host only (docs/tenant-settings.md).
      teamsWebhookUrl: 'https://example.webhook.office.com/…',
      teamsOnFail: true,
    });
    const patch = apiRequests(emu).findLast((r) => r.method === 'PATCH');
    assert.equal(patch?.body?.teamsWebhookUrl, address, 'the address in the variable was not sent');
    const table = await ok(['tenant', 'notifications', 'set', '--teams-webhook-url', 'none']);
    assert.match(table.stdout, /^teamsWebhookUrl\s+-$/m);
    assert.equal(
      (await okJson<Record<string, unknown>>(['tenant', 'notifications'])).teamsWebhookUrl,
      null,
    );
  });

  it('an address on the command line: one line saying how to pass it, unechoed, nothing sent', async () => {
    const sent = apiRequests(emu).length;
    const result = await cli([
      'tenant',
      'notifications',
      'set',
      '--email-on-fail',
      'true',
      '--teams-webhook-url',
      address,
    ]);
    assert.equal(result.code, 1);
    assert.equal(lines(result.stderr).length, 1, result.stderr);
    assert.match(result.stderr, /--teams-webhook-url-env NAME/);
    assert.ok(!`${result.stdout}${result.stderr}`.includes('webhookb2'), 'the address was echoed');
    assert.equal(apiRequests(emu).length, sent, 'a request was sent');
  });

  for (const [what, value, expected] of [
    ['an unset variable', undefined, /TEAMS_HOOK is empty or not set/],
    ['a variable without an https address', 'not a url', /TEAMS_HOOK does not hold an https/],
    [
      "an address inside the service's network",
      'https://169.254.169.254/latest/meta-data?x=secret-signature',
      /TEAMS_HOOK holds https:\/\/169\.254\.169\.254\/…, a link-local address/,
    ],
  ] as const) {
    it(`${what}: exit 1, one line, nothing sent`, async () => {
      const sent = apiRequests(emu).length;
      const env = value === undefined ? {} : { TEAMS_HOOK: value };
      const result = await runCli(
        ['tenant', 'notifications', 'set', '--teams-webhook-url-env', 'TEAMS_HOOK'],
        cliEnv(emu, env),
      );
      assert.equal(result.code, 1);
      assert.equal(lines(result.stderr).length, 1, result.stderr);
      assert.match(result.stderr, expected);
      assert.ok(!result.stderr.includes('secret-signature'), 'the address was echoed');
      assert.equal(apiRequests(emu).length, sent, 'a request was sent');
    });
  }

  it('an address given as the variable name is refused unechoed', async () => {
    const result = await cli([
      'tenant',
      'notifications',
      'set',
      '--teams-webhook-url-env',
      address,
    ]);
    assert.equal(result.code, 1);
    assert.match(result.stderr, /not the address/);
    assert.ok(!result.stderr.includes('webhookb2'), 'the address was echoed');
  });
});

describe('eas targets and eas scan', () => {
  it('add, update --label, verify, list, remove', async () => {
    const target = await okJson<{ id: string }>([
      'eas',
      'targets',
      'add',
      'portal.contoso.example',
    ]);
    assert.ok(target.id);
    const updated = await okJson<{ label?: string }>([
      'eas',
      'targets',
      'update',
      target.id,
      '--label',
      'Portal',
    ]);
    assert.equal(updated.label, 'Portal');
    await ok(['eas', 'targets', 'update', target.id, '--label', 'Portal 2']);
    await okJson(['eas', 'targets', 'verify', target.id]);
    await ok(['eas', 'targets', 'verify', target.id]);
    const listed = await okJson<Array<{ id: string }>>(['eas', 'targets', 'list']);
    assert.ok(listed.some((t) => t.id === target.id));
    assert.match((await ok(['eas', 'targets', 'list'])).stdout, /portal\.contoso\.example/);
    assert.deepEqual(await okJson(['eas', 'targets', 'remove', target.id]), {
      id: target.id,
      removed: true,
    });
    const added = await ok(['eas', 'targets', 'add', 'vpn.contoso.example']);
    assert.match(added.stdout, /vpn\.contoso\.example/);
    const other = { id: /^id\s+(\S+)$/m.exec(added.stdout)?.[1] ?? '' };
    assert.match((await ok(['eas', 'targets', 'remove', other.id])).stdout, /removed/);
    const left = await okJson<Array<{ id: string }>>(['eas', 'targets', 'list']);
    assert.ok(!left.some((t) => t.id === target.id || t.id === other.id));
  });

  it('eas scan needs a verified target (exit 1 without), then runs', async () => {
    const refused = await cli(['eas', 'scan']);
    assert.equal(refused.code, 1);
    assert.equal(lines(refused.stderr).length, 1);
    const target = await okJson<{ id: string }>(['eas', 'targets', 'add', 'www.contoso.example']);
    await okJson(['eas', 'targets', 'verify', target.id]);
    assert.match((await ok(['eas', 'scan'])).stdout, /queued/);
    const json = await okJson(['eas', 'scan']);
    assert.ok(json !== null && typeof json === 'object');
  });
});

describe('scan commands', () => {
  it('list and get show a scan with the stable JSON shape', async () => {
    const id = await triggerScan(emu);
    const listed = await okJson<Array<Record<string, unknown>>>(['scan', 'list']);
    const row = listed.find((s) => s.id === id);
    assert.ok(row);
    assert.deepEqual(Object.keys(row), [
      'id',
      'status',
      'phase',
      'terminal',
      'progress',
      'scanType',
      'createdAt',
      'completedAt',
      'summary',
    ]);
    assertAligned((await ok(['scan', 'list'])).stdout, ['ID', 'TYPE', 'STATUS', 'PROGRESS']);
    const got = await okJson<{ id: string; scanType: string }>(['scan', 'get', id]);
    assert.equal(got.id, id);
    assert.equal(got.scanType, 'compliance');
    assert.match((await ok(['scan', 'get', id])).stdout, new RegExp(`^id\\s+${id}$`, 'm'));
  });

  it('results: the findings gate exits 2 only with --fail-on-findings', async () => {
    const id = await triggerScan(emu);
    emu.advance(60_000);
    const all = await okJson<Array<{ result: string; severity: string }>>(['scan', 'results', id]);
    assert.equal(all.length, 40);
    const failedOnly = await okJson<Array<{ result: string }>>([
      'scan',
      'results',
      id,
      '--result',
      'Failed',
    ]);
    assert.equal(failedOnly.length, 5);
    assert.ok(failedOnly.every((f) => f.result === 'Failed'));

    const gated = await cli(['scan', 'results', id, '--fail-on-findings']);
    assert.equal(gated.code, 2);
    assert.equal(
      gated.stderr,
      'Coverage: not compared — no baseline to compare with\nFindings gate: 5 failed findings (exit code 2)\n',
    );
    const rows = lines(gated.stdout).slice(1);
    assert.ok(
      rows.slice(0, 5).every((row) => /\bFailed\b/.test(row)),
      'failed checks first',
    );
    assert.ok(
      rows.slice(5).every((row) => !/\bFailed\b/.test(row)),
      gated.stdout,
    );
    assertAligned(gated.stdout, ['SEVERITY', 'RESULT', 'CHECK', 'TITLE']);
    const gatedJson = await cli(['scan', 'results', id, '--fail-on-findings'], 'json');
    assert.equal(gatedJson.code, 2);
    const results = JSON.parse(gatedJson.stdout) as Array<{ result: string }>;
    assert.equal(results.length, 40);
    assert.deepEqual(
      results.map((f) => f.result === 'Failed'),
      [...Array(5).fill(true), ...Array(35).fill(false)],
      'failed checks first in JSON too',
    );
    const passedOnly = await cli([
      'scan',
      'results',
      id,
      '--result',
      'Passed',
      '--fail-on-findings',
    ]);
    assert.equal(passedOnly.code, 0);
  });

  it('results --junit --sarif write valid files', async () => {
    const id = await triggerScan(emu);
    emu.advance(60_000);
    const junit = join(work, 'results', 'r.xml');
    const sarif = join(work, 'results', 'r.sarif');
    const result = await ok(['scan', 'results', id, '--junit', junit, '--sarif', sarif]);
    assert.match(result.stderr, /JUnit XML written to .*r\.xml\nSARIF written to .*r\.sarif\n$/);
    assert.deepEqual(await junitProblems(junit), []);
    assert.equal([...(await readFile(junit, 'utf8')).matchAll(/<testcase /g)].length, 40);
    const log = JSON.parse(await readFile(sarif, 'utf8')) as {
      runs: Array<{ results: unknown[] }>;
    };
    assert.deepEqual(sarifSchemaProblems(log), []);
    assert.equal(log.runs[0]?.results.length, 5);
  });

  it('results of a clean scan pass the gate (exit 0)', async () => {
    emu.setScanPlan({ outcome: { kind: 'completed', total: 12, failed: 0 } });
    try {
      const id = await triggerScan(emu);
      emu.advance(60_000);
      const result = await cli(['scan', 'results', id, '--fail-on-findings'], 'json');
      assert.equal(result.code, 0);
      assert.equal((JSON.parse(result.stdout) as unknown[]).length, 12);
    } finally {
      emu.setScanPlan({});
    }
  });

  it('hide, unhide, cancel and delete change the ground truth', async () => {
    // Long scans: each CLI start takes a while on a busy machine, and a scan that ended first
    // could not be cancelled.
    emu.setScanPlan({ durationMs: 3_600_000 });
    const id = await triggerScan(emu);
    const truth = () => emu.scans().find((s) => s.id === id);
    assert.deepEqual(await okJson(['scan', 'hide', id]), { id, hidden: true });
    assert.equal(truth()?.hidden, true);
    assert.deepEqual(await okJson(['scan', 'unhide', id]), { id, hidden: false });
    assert.equal(truth()?.hidden, false);
    await ok(['scan', 'hide', id]);
    await ok(['scan', 'unhide', id]);
    const cancelled = await okJson<{ id: string; cancelled: boolean }>(['scan', 'cancel', id]);
    assert.equal(cancelled.cancelled, true);
    assert.equal(truth()?.status, 'cancelled');
    const second = await triggerScan(emu);
    assert.match((await ok(['scan', 'cancel', second])).stdout, /cancelled/);
    assert.deepEqual(await okJson(['scan', 'delete', id]), { id, deleted: true });
    assert.equal(truth()?.deleted, true);
    emu.setScanPlan({});
    assert.match((await ok(['scan', 'delete', second])).stdout, /deleted/);
  });
});

describe('report commands', () => {
  it('status, generate (spends a credit), then download writes the exact bytes', async () => {
    const id = await triggerScan(emu);
    emu.advance(60_000);
    const locked = await okJson<{ status: string; state: string }>(['report', 'status', id]);
    assert.equal(locked.state, 'locked');
    assert.match((await ok(['report', 'status', id])).stdout, /report generate/);
    const spent = emu.creditsSpent();
    const generated = await okJson<{ scanId: string }>(['report', 'generate', id]);
    assert.equal(generated.scanId, id);
    assert.equal(emu.creditsSpent(), spent + 1);
    emu.advance(60_000);
    assert.equal((await okJson<{ state: string }>(['report', 'status', id])).state, 'ready');

    const file = join(work, 'nested', 'report.pdf');
    const downloaded = await okJson<{ path: string; bytes: number; sha256: string }>([
      'report',
      'download',
      id,
      '-o',
      file,
    ]);
    const expected = emu.reportDigest(id);
    assert.equal(downloaded.bytes, expected.bytes);
    assert.equal(downloaded.sha256, expected.sha256);
    const bytes = await readFile(file);
    assert.equal(createHash('sha256').update(bytes).digest('hex'), expected.sha256);
    const table = await ok(['report', 'download', id, '--out', join(work, 'again.pdf')]);
    assert.match(table.stdout, new RegExp(`^sha256\\s+${expected.sha256}$`, 'm'));
    const downloads = emu.requests().filter((r) => r.origin === 'download');
    assert.ok(
      downloads.length >= 2 && downloads.every((r) => r.headers.authorization === undefined),
    );
  });

  it('downloading a report that is not ready fails with one line and leaves no file', async () => {
    const id = await triggerScan(emu);
    emu.advance(60_000);
    const file = join(work, 'locked.pdf');
    const result = await cli(['report', 'download', id, '-o', file]);
    assert.equal(result.code, 1);
    assert.equal(lines(result.stderr).length, 1, result.stderr);
    assert.ok(!existsSync(file));
  });

  it('right after generate: without --wait the error says to add it; with --wait it waits', async (t) => {
    // Its own emulator, whose reports render for 10 s: the shared one's 3 s could pass during the
    // two CLI runs on a busy machine, and the report would be ready before --wait could wait.
    const emu = await startEmulator({
      seed: 11,
      tenant: { plan: { reportCredits: 100 } },
      reportRenderMs: 10_000,
    });
    t.after(() => emu.close());
    const cli = (args: string[], format?: 'json') =>
      runCli(format === 'json' ? [...args, '--output', 'json'] : args, cliEnv(emu));
    const id = await triggerScan(emu);
    emu.advance(60_000);
    const generate = await cli(['report', 'generate', id]);
    assert.equal(generate.code, 0, generate.stderr);
    const file = join(work, 'waited.pdf');
    const early = await cli(['report', 'download', id, '-o', file]);
    assert.equal(early.code, 1);
    assert.equal(
      early.stderr,
      `tenant-scan: error: the report of scan ${id} is still rendering: add --wait to wait for it\n`,
    );
    assert.ok(!existsSync(file));
    const waited = await cli(['report', 'download', id, '-o', file, '--wait'], 'json');
    assert.equal(waited.code, 0, waited.stderr);
    assert.match(waited.stderr, /is rendering: waiting up to 5 minutes/);
    assert.equal(
      (JSON.parse(waited.stdout) as { sha256: string }).sha256,
      emu.reportDigest(id).sha256,
    );
  });

  it('a locked report: the error names report generate; --generate generates it, saying it may cost a credit', async () => {
    const id = await triggerScan(emu);
    emu.advance(60_000);
    const locked = await cli(['report', 'download', id]);
    assert.equal(locked.code, 1);
    assert.match(
      locked.stderr,
      new RegExp(
        `^tenant-scan: error: the report of scan ${id} is not generated yet \\(status locked\\): run 'tenant-scan report generate ${id}' \\(it may spend a report credit\\), or add --generate\\n$`,
      ),
    );
    const spent = emu.creditsSpent();
    const dir = await mkdtemp(join(work, 'default-path-'));
    const generated = await runCli(['report', 'download', id, '--generate'], cliEnv(emu), {
      cwd: dir,
    });
    assert.equal(generated.code, 0, generated.stderr);
    assert.match(
      generated.stderr,
      /^Generating the report of scan \S+ \(this may spend a report credit\)$/m,
    );
    assert.equal(emu.creditsSpent(), spent + 1);
    const file = join(dir, 'tenant-scan-report.pdf');
    assert.equal(
      createHash('sha256')
        .update(await readFile(file))
        .digest('hex'),
      emu.reportDigest(id).sha256,
      'the same default file name as scan run --report and the Action',
    );
  });

  it('report generate in table format', async () => {
    const id = await triggerScan(emu);
    emu.advance(60_000);
    assert.match((await ok(['report', 'generate', id])).stdout, /rendering/);
  });

  it('report list follows the cursor across pages', async () => {
    const target = 45;
    const existing = (await okJson<unknown[]>(['report', 'list'])).length;
    const ids: string[] = [];
    for (let i = existing; i < target; i++) ids.push(await triggerScan(emu));
    emu.advance(60_000);
    for (const id of ids)
      assert.equal((await api(emu, 'POST', `/scans/${id}/report/generate`)).status < 300, true);
    emu.clearRequests();
    const items = await okJson<
      Array<{ scanId: string; status: string; generatedAt: string | null }>
    >(['report', 'list']);
    assert.equal(items.length, target);
    assert.equal(new Set(items.map((i) => i.scanId)).size, target);
    const pages = apiRequests(emu).filter((r) => r.path === '/tenants/me/reports');
    assert.ok(pages.length >= 3, `followed ${pages.length} pages`);
    assert.ok(pages.some((r) => /cursor=20/.test(r.query)));
    const table = await ok(['report', 'list']);
    assert.equal(lines(table.stdout).length, target + 1);
    assertAligned(table.stdout, ['SCAN', 'STATUS', 'GENERATED']);
  });
});
