// The tenant settings file: YAML + the shipped JSON Schema → what the tenant should look like.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { SettingsError } from '../../../src/pipeline/common/settings-problems.js';
import {
  DEFAULT_HYGIENE,
  desiredWebhook,
  parseTenantFile,
} from '../../../src/pipeline/tenant-settings/file.js';
import { TENANT_FILE_SCHEMA } from '../../../src/pipeline/tenant-settings/schema.js';
import { ROOT } from '../../cli/helpers.js';

function problems(text: string): string[] {
  try {
    parseTenantFile('tenant.yml', text);
  } catch (error) {
    assert.ok(error instanceof SettingsError, String(error));
    return error.problems;
  }
  assert.fail('no error');
}

const SECRET = 'https://prod-01.westeurope.logic.azure.com/workflows/abc/triggers?sig=SECRETSIG';

describe('tenant settings file', () => {
  it('ships the schema it validates with (for editor completion)', () => {
    const shipped: unknown = JSON.parse(readFileSync(`${ROOT}/schemas/tenant.schema.json`, 'utf8'));
    assert.deepEqual(shipped, JSON.parse(JSON.stringify(TENANT_FILE_SCHEMA)));
  });

  it('the smallest useful file manages one field; hygiene holds its defaults', () => {
    const file = parseTenantFile('t.yml', 'notifications: {emailOnFail: true}\n');
    assert.deepEqual(file.flags, { emailOnFail: true });
    assert.equal(file.webhook, undefined);
    assert.equal(file.targets, undefined);
    assert.deepEqual(file.hygiene, DEFAULT_HYGIENE);
  });

  it('an empty file manages nothing and keeps the hygiene defaults', () => {
    assert.deepEqual(parseTenantFile('t.yml', '').hygiene, DEFAULT_HYGIENE);
  });

  it('reads targets, prune, webhook variable and switched-off rules', () => {
    const file = parseTenantFile(
      't.yml',
      [
        'notifications:',
        '  teamsWebhookUrlEnv: TEAMS_HOOK',
        '  teamsOnFail: true',
        'attackSurface:',
        '  prune: true',
        '  targets:',
        '    - {host: App.Example.com, label: Prod, verify: true}',
        '    - host: 203.0.113.7',
        'hygiene: {keyMaxAgeDays: false, scanStaleDays: 3}',
      ].join('\n'),
    );
    assert.deepEqual(file.webhook, { env: 'TEAMS_HOOK' });
    assert.deepEqual(file.targets, {
      prune: true,
      list: [
        { host: 'app.example.com', label: 'Prod', verify: true },
        { host: '203.0.113.7', verify: false },
      ],
    });
    assert.equal(file.hygiene.keyMaxAgeDays, undefined);
    assert.equal(file.hygiene.scanStaleDays, 3);
    assert.equal(file.hygiene.keyUnusedDays, 30);
  });

  it('an unknown field is one line with its line number and the fields allowed', () => {
    const lines = problems('notifications:\n  emailOnFail: true\n  emailOnFial: true\n');
    assert.equal(lines.length, 1);
    assert.match(
      lines[0] ?? '',
      /^tenant\.yml line 3: unknown field "emailOnFial" in `notifications`: use emailOnComplete, emailOnFail/,
    );
  });

  it('a wrong type is one line each, all reported at once', () => {
    const lines = problems(
      'notifications:\n  emailOnFail: yes please\nhygiene:\n  keyUnusedDays: 0\n',
    );
    assert.equal(lines.length, 2, lines.join('\n'));
    assert.match(lines[0] ?? '', /line 2: `notifications.emailOnFail` must be a boolean/);
    assert.match(
      lines[1] ?? '',
      /line 4: `hygiene.keyUnusedDays` must be a whole number of days from 1 to 3650, or false/,
    );
  });

  it('a webhook address written in the file is refused without echoing it', () => {
    const lines = problems(`notifications:\n  teamsWebhookUrl: ${SECRET}\n`);
    assert.equal(lines.length, 1);
    assert.match(lines[0] ?? '', /never written in the file.*teamsWebhookUrlEnv/);
    assert.ok(!lines.join('').includes('SECRETSIG'));
  });

  it('a target listed twice, a bad host, a syntax error', () => {
    assert.match(
      problems(
        'attackSurface:\n  targets:\n    - host: a.example.com\n    - host: A.example.com\n',
      )[0] ?? '',
      /line 4: target "a.example.com" is listed twice/,
    );
    assert.match(
      problems('attackSurface:\n  targets:\n    - host: "a b"\n')[0] ?? '',
      /hostname or an IPv4/,
    );
    assert.match(
      problems('notifications: [\n')[0] ?? '',
      /^tenant\.yml line \d+: .*fix the YAML syntax$/,
    );
  });

  it('the webhook comes from its variable: unset or not https is a clear error, never echoed', () => {
    const file = parseTenantFile('t.yml', 'notifications: {teamsWebhookUrlEnv: HOOK}');
    assert.equal(desiredWebhook(file, { HOOK: SECRET }), SECRET);
    assert.throws(() => desiredWebhook(file, {}), /HOOK is empty or not set/);
    assert.throws(
      () => desiredWebhook(file, { HOOK: 'http://x.example/SECRETSIG' }),
      (e: Error) =>
        /HOOK does not hold an https/.test(e.message) && !e.message.includes('SECRETSIG'),
    );
    assert.equal(
      desiredWebhook(parseTenantFile('t.yml', 'notifications: {teamsWebhookUrl: null}'), {}),
      null,
    );
  });
});
