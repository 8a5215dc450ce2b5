// Exit codes, stderr and --help of the bundled CLI: bad usage gives exit 1, one error line and the
// usage on stderr; bad settings and API errors give exit 1 and one stderr line; neither bad usage
// nor bad settings sends a request; every command has --help. Every error line has one prefix.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startEmulator } from '../emulator/emulator.js';
import type { Emulator } from '../emulator/types.js';
import { apiRequests, assertBundleBuilt, cliEnv, lines, runCli, type Env } from './helpers.js';

let emu: Emulator;

before(async () => {
  assertBundleBuilt();
  emu = await startEmulator({ seed: 3 });
});
after(() => emu.close());

function assertOneErrorLine(
  result: { code: number | null; stdout: string; stderr: string },
  pattern: RegExp,
) {
  assert.equal(result.code, 1, `exit code (stderr: ${result.stderr})`);
  assert.equal(result.stdout, '');
  assert.equal(lines(result.stderr).length, 1, `one stderr line, got:\n${result.stderr}`);
  assert.match(result.stderr, /^tenant-scan: error: /);
  assert.match(result.stderr, pattern);
  assert.doesNotMatch(result.stderr, /\([^()]*\(/, 'no parentheses inside parentheses');
}

const ALL_COMMANDS = [
  'tenant me',
  'tenant connections',
  'tenant notifications',
  'tenant notifications set',
  'tenant scheduled-scans',
  'scan list',
  'scan run',
  'scan get',
  'scan results',
  'scan cancel',
  'scan hide',
  'scan unhide',
  'scan delete',
  'report status',
  'report generate',
  'report list',
  'report download',
  'eas summary',
  'eas history',
  'eas targets list',
  'eas targets add',
  'eas targets update',
  'eas targets remove',
  'eas targets verify',
  'eas scan',
  'threats',
  'policies',
  'remediation capabilities',
  'remediation plans',
  'remediation plan',
  'ai-pilot remediable',
  'ai-pilot break-glass',
  'ai-pilot conditional-access',
  'keys list',
  'keys create',
  'keys delete',
  'keys revoke',
];

describe('--help', () => {
  it('the top level lists every command and the exit codes', async () => {
    const result = await runCli(['--help'], cliEnv(undefined));
    assert.equal(result.code, 0);
    for (const command of ALL_COMMANDS) assert.ok(result.stdout.includes(`  ${command}`), command);
    assert.match(result.stdout, /1 +an API error, bad usage/);
    assert.match(result.stdout, /2 +the findings gate/);
  });

  it('every command has its own --help, without a key and without a request', async () => {
    emu.clearRequests();
    const results = [];
    for (let i = 0; i < ALL_COMMANDS.length; i += 4) {
      const batch = ALL_COMMANDS.slice(i, i + 4);
      results.push(
        ...(await Promise.all(
          batch.map((c) => runCli([...c.split(' '), '--help'], cliEnv(undefined))),
        )),
      );
    }
    results.forEach((result, i) => {
      const command = ALL_COMMANDS[i] ?? '';
      assert.equal(result.code, 0, command);
      assert.match(result.stdout, new RegExp(`^Usage: tenant-scan ${command}\\b`), command);
      assert.match(
        result.stdout,
        /^Environment variables and exit codes: 'tenant-scan --help'\.$/m,
      );
      assert.equal(result.stderr, '');
    });
    assert.equal(emu.requests().length, 0);
  });

  it('a group shows its commands (scan --help, eas targets -h)', async () => {
    const scan = await runCli(['scan', '--help'], cliEnv(undefined));
    assert.equal(scan.code, 0);
    assert.match(scan.stdout, /scan run/);
    assert.ok(!scan.stdout.includes('report list'));
    const targets = await runCli(['eas', 'targets', '-h'], cliEnv(undefined));
    assert.match(targets.stdout, /eas targets verify <id>/);
  });

  it('--version prints the version', async () => {
    const result = await runCli(['--version'], cliEnv(undefined));
    assert.equal(result.code, 0);
    assert.match(result.stdout, /^\d+\.\d+\.\d+\n$/);
  });
});

describe('bad usage: exit 1, one error line and the usage on stderr, no request', () => {
  const cases: Array<{ args: string[]; env?: Env; pattern: RegExp; usage: RegExp }> = [
    { args: [], pattern: /no command given/, usage: /^Usage: tenant-scan <command>/m },
    {
      args: ['frobnicate'],
      pattern: /unknown command: "frobnicate"/,
      usage: /^Usage: tenant-scan <command>/m,
    },
    {
      args: ['scan'],
      pattern: /'scan' needs a command/,
      usage: /^Usage: tenant-scan scan <command>/m,
    },
    {
      args: ['scan', 'explode'],
      pattern: /unknown command of 'scan': "explode"/,
      usage: /^ {2}scan run {2,}Trigger a scan/m,
    },
    {
      args: ['scan', 'get'],
      pattern: /missing <id>/,
      usage: /^Usage: tenant-scan scan get <id>$/m,
    },
    { args: ['scan', 'get', 'a', 'b'], pattern: /unexpected argument "b"/, usage: /scan get <id>/ },
    {
      args: ['scan', 'list', '--bogus'],
      pattern: /--bogus/,
      usage: /Usage: tenant-scan scan list/,
    },
    {
      args: ['scan', 'list', '--label', 'x'],
      pattern: /'scan list' does not take --label/,
      usage: /Usage: tenant-scan scan list/,
    },
    {
      args: ['scan', 'list', '--json', '--output', 'table'],
      pattern: /--json contradicts --output table/,
      usage: /Usage: tenant-scan <command>/,
    },
    { args: ['scan', 'run'], pattern: /--type is required/, usage: /scan run --type <scan_type>/ },
    {
      args: ['scan', 'run', '--type', 'compliance', '--junit', 'x.xml'],
      pattern: /: --junit needs --watch$/m,
      usage: /scan run --type/,
    },
    {
      args: ['scan', 'run', '--type', 'compliance', '--junit', 'x.xml', '--sarif', 'y'],
      pattern: /: --junit and --sarif need --watch$/m,
      usage: /scan run --type/,
    },
    {
      args: ['scan', 'run', '--type', 'compliance', '--watch', '-o', 'r.pdf'],
      pattern: /give --report/,
      usage: /scan run --type/,
    },
    {
      args: ['report', 'download', 'abc', '--timeout', '3'],
      pattern: /--timeout needs --wait or --generate/,
      usage: /report download <id>/,
    },
    {
      args: ['eas', 'targets', 'update', 'abc'],
      pattern: /--label is required/,
      usage: /eas targets update <id>/,
    },
    {
      args: ['tenant', 'notifications', 'set'],
      pattern: /at least one setting/,
      usage: /tenant notifications set/,
    },
  ];
  for (const { args, env, pattern, usage } of cases) {
    it(`${args.join(' ') || '(nothing)'}${env ? ` with ${JSON.stringify(env)}` : ''}`, async () => {
      emu.clearRequests();
      const result = await runCli(args, cliEnv(emu, env));
      assert.equal(result.code, 1, result.stderr);
      assert.equal(result.stdout, '', 'the usage goes to stderr');
      const [first, blank, ...rest] = result.stderr.split('\n');
      assert.match(first ?? '', /^tenant-scan: error: /);
      assert.match(first ?? '', pattern);
      assert.equal(blank, '');
      assert.match(rest.join('\n'), usage);
      assert.equal(apiRequests(emu).length, 0, 'no request for bad usage');
    });
  }
});

describe('bad settings: exit 1, one "Sanity checks failed" line, no request', () => {
  const cases: Array<{ args: string[]; env?: Env; pattern: RegExp }> = [
    { args: ['scan', 'list', '--output', 'xml'], pattern: /--output must be table or json/ },
    {
      args: ['scan', 'list'],
      env: { SERVICE_OUTPUT: 'yaml' },
      pattern: /SERVICE_OUTPUT must be table or json/,
    },
    {
      args: ['scan', 'run', '--type', 'bad type!', '--watch'],
      pattern: /--type must be a scan type/,
    },
    {
      args: ['scan', 'run', '--type', 'compliance', '--watch', '--report', 'always'],
      pattern: /--report must be one of/,
    },
    {
      args: ['scan', 'run', '--type', 'compliance', '--watch', '--timeout=-3'],
      pattern: /--timeout must be a number of minutes/,
    },
    {
      args: ['tenant', 'notifications', 'set', '--email-on-fail', 'maybe'],
      pattern: /--email-on-fail must be true or false/,
    },
    {
      args: ['tenant', 'me'],
      env: { SERVICE_API_KEY: '' },
      pattern: /no API key — set SERVICE_API_KEY \(from a CI secret\)/,
    },
    {
      args: ['scan', 'run', '--type', 'compliance', '--watch'],
      env: { SERVICE_API_KEY: '' },
      pattern: /no API key — set SERVICE_API_KEY \(from a CI secret\)/,
    },
    { args: ['tenant', 'me'], env: { SERVICE_API_KEY: 'sk_test_123' }, pattern: /ak_live_/ },
    {
      args: ['tenant', 'me'],
      env: { SERVICE_API_URL: 'ftp://example.com' },
      pattern: /SERVICE_API_URL must be an https:\/\/ URL/,
    },
    {
      args: ['tenant', 'me'],
      env: { SERVICE_API_URL: undefined },
      pattern: /^tenant-scan: error: Sanity checks failed: no API address — set SERVICE_API_URL\n$/,
    },
    {
      // An address that ends in a route of the API: told before any request.
      args: ['tenant', 'me'],
      env: { SERVICE_API_URL: 'http://127.0.0.1:9/api/v1/tenants/me' },
      pattern:
        /^tenant-scan: error: Sanity checks failed: SERVICE_API_URL ends in \/tenants\/me, a route of the API: it should end at the base path, not a route \(for example https:\/\/api\.example\.com\/v1\), got "http:\/\/127\.0\.0\.1:9\/api\/v1\/tenants\/me"\n$/,
    },
    {
      args: ['scan', 'run', '--type', 'compliance', '--watch'],
      env: { SERVICE_API_URL: '  ' },
      pattern: /^tenant-scan: error: Sanity checks failed: no API address — set SERVICE_API_URL\n$/,
    },
  ];
  for (const { args, env, pattern } of cases) {
    it(`${args.join(' ')}${env ? ` with ${JSON.stringify(env)}` : ''}`, async () => {
      emu.clearRequests();
      const result = await runCli(args, cliEnv(emu, env));
      assertOneErrorLine(result, pattern);
      assert.match(result.stderr, /^tenant-scan: error: Sanity checks failed: /);
      assert.equal(apiRequests(emu).length, 0, 'no request for bad settings');
    });
  }
});

describe('API errors: exit 1, one stderr line, never the key', () => {
  it('401 for an unknown key', async () => {
    const key = 'ak_live_thisKeyDoesNotExist0000000000000000';
    const result = await runCli(['scan', 'list'], cliEnv(emu, { SERVICE_API_KEY: key }));
    assertOneErrorLine(result, /401/);
    assert.ok(!result.stderr.includes(key));
  });

  it('404 for a scan that does not exist, in both formats', async () => {
    for (const output of ['table', 'json']) {
      const result = await runCli(['scan', 'get', 'no-such-scan', '--output', output], cliEnv(emu));
      assertOneErrorLine(result, /404/);
    }
  });

  it('404 for an id that is a word (keys delete ci-key): no such key, and the command that lists them', async () => {
    const result = await runCli(['keys', 'delete', 'ci-key'], cliEnv(emu));
    assertOneErrorLine(
      result,
      /^tenant-scan: error: DELETE \/tenants\/me\/api-keys\/ci-key: no API key has the id ci-key \(HTTP 404 NOT_FOUND: API key not found\); see the ids with tenant-scan keys list\n$/,
    );
    const listed = await runCli(['keys', 'list', '--json'], cliEnv(emu));
    assert.equal(listed.code, 0, listed.stderr);
    const keys = JSON.parse(listed.stdout) as Array<{ id: string }>;
    assert.ok(keys.length > 0 && keys.every((key) => key.id !== ''), listed.stdout);
  });

  it('a scan that exists: each hint names a command that does what it says', async () => {
    const { apiKey } = emu.addTenant({ plan: { scanQuota: 1 } });
    const env = cliEnv(emu, { SERVICE_API_KEY: apiKey });
    const started = await runCli(['scan', 'run', '--type', 'compliance', '--json'], env);
    assert.equal(started.code, 0, started.stderr);
    const id = (JSON.parse(started.stdout) as { scan: { id: string } }).scan.id;
    // `scan run --scan-id` alone: it follows, so it needs --watch (nothing sent).
    const flag = await runCli(['scan', 'run', '--scan-id', id], env);
    assert.match(flag.stderr, /^tenant-scan: error: --scan-id needs --watch$/m);
    // The quota is used up: the line names what to do instead, and that follows the scan to its
    // verdict without triggering one.
    const refused = await runCli(['scan', 'run', '--type', 'compliance'], env);
    assert.equal(refused.code, 1);
    assert.match(
      refused.stderr,
      /^tenant-scan: error: Trigger failed: the plan's scan quota is used up: wait for it to renew, upgrade the plan, or follow a scan that exists with tenant-scan scan run --scan-id <id> --watch instead of triggering one \(HTTP \d+ SCAN_PLAN_LIMIT_REACHED/m,
    );
    emu.clearRequests();
    const followed = await runCli(
      ['scan', 'run', '--scan-id', id, '--watch', '--fail-on-findings', '--json'],
      env,
    );
    assert.ok(followed.code === 0 || followed.code === 2, followed.stderr);
    assert.equal((JSON.parse(followed.stdout) as { scan: { id: string } }).scan.id, id);
    assert.match(followed.stderr, /^Findings gate: |^No failed findings/m);
    assert.deepEqual(
      apiRequests(emu).filter((r) => r.method === 'POST'),
      [],
      'nothing triggered',
    );
  });

  it('403 for a plan without API access', async () => {
    const { apiKey } = emu.addTenant({ plan: { apiAccess: false } });
    const result = await runCli(['tenant', 'me'], cliEnv(emu, { SERVICE_API_KEY: apiKey }));
    assertOneErrorLine(result, /403/);
    assert.ok(!result.stderr.includes(apiKey));
  });

  it('the scan quota is refused at once (not retried)', async () => {
    const { apiKey, tenantId } = emu.addTenant({ plan: { scanQuota: 0 } });
    emu.clearRequests();
    const result = await runCli(
      ['scan', 'run', '--type', 'compliance'],
      cliEnv(emu, { SERVICE_API_KEY: apiKey }),
    );
    assert.equal(result.code, 1);
    const errors = lines(result.stderr).filter((line) => line.startsWith('tenant-scan:'));
    assert.equal(errors.length, 1, result.stderr);
    assert.match(errors[0] ?? '', /SCAN_PLAN_LIMIT_REACHED/);
    const triggers = apiRequests(emu).filter((r) => r.method === 'POST' && r.tenantId === tenantId);
    assert.equal(triggers.length, 1);
  });

  it('a rate-limited request is retried with a log line on stderr, then succeeds', async () => {
    emu.addFault({
      route: 'GET /tenants/me',
      fault: { kind: 'status', status: 429, code: 'RATE_LIMITED', retryAfter: 1 },
    });
    const result = await runCli(['tenant', 'me', '--output', 'json'], cliEnv(emu));
    assert.equal(result.code, 0, result.stderr);
    assert.match(
      result.stderr,
      /^Rate limited on GET \/tenants\/me \(HTTP 429\); retrying in \d+\.\d s, as the server asked \(attempt 1\)$/m,
    );
    assert.equal((JSON.parse(result.stdout) as { name: string }).name, 'Contoso Ltd');
  });

  it('an error body of any shape still gives one line', async () => {
    for (const errorShape of ['html', 'text', 'empty', 'string'] as const) {
      emu.setVariant({ errorShape });
      const result = await runCli(['scan', 'get', 'missing-scan'], cliEnv(emu));
      assertOneErrorLine(result, /404/);
    }
    emu.setVariant({});
  });
});
