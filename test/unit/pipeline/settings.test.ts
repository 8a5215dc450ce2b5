// The parse helpers both faces share: one clear line per bad value, labels as the face names them,
// and a secret never echoed.
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import {
  SettingProblem,
  SettingsError,
  SettingsProblems,
  checkWritableFile,
  parseApiKey,
  parseApiUrl,
  parseBoolean,
  parseFileName,
  parseInteger,
  parseMinutes,
  parseReportPolicy,
  parseRequestTimeout,
  parseScanId,
  requestTimeoutFromEnv,
  requestTimeoutOrEnv,
} from '../../../src/pipeline/index.js';
import { tempDir } from '../../pipeline/helpers.js';
import { connectionSettings } from '../../../src/cli/settings.js';

function problemOf(parse: () => unknown): string {
  try {
    parse();
  } catch (error) {
    assert.ok(error instanceof SettingProblem);
    return error.message;
  }
  assert.fail('expected a problem');
}

describe('parse helpers', () => {
  it('booleans: the usual words, the fallback when empty, a named problem otherwise', () => {
    assert.equal(parseBoolean('--wait', ' TRUE ', false), true);
    assert.equal(parseBoolean('--wait', 'no', true), false);
    assert.equal(parseBoolean('--wait', '', true), true);
    assert.equal(
      problemOf(() => parseBoolean('--wait', 'maybe', true)),
      '--wait must be true or false, got "maybe"',
    );
  });

  it('minutes: positive, fractions allowed, bounded', () => {
    assert.equal(parseMinutes('t', '1.5', 60), 90_000);
    assert.equal(parseMinutes('t', '', 60), 3_600_000);
    for (const bad of ['0', '-1', '1e3', 'ten', '7201'])
      assert.match(
        problemOf(() => parseMinutes('t', bad, 60)),
        /^t must be a number of minutes/,
      );
  });

  it('the request timeout: seconds, 120 by default, at most 3600; the variable names its problem', () => {
    assert.equal(parseRequestTimeout('--request-timeout', '0.5'), 500);
    assert.equal(parseRequestTimeout('--request-timeout', ''), 120_000);
    assert.equal(requestTimeoutFromEnv({}), 120_000);
    assert.equal(requestTimeoutFromEnv({ SERVICE_REQUEST_TIMEOUT: '3600' }), 3_600_000);
    assert.equal(
      problemOf(() => requestTimeoutFromEnv({ SERVICE_REQUEST_TIMEOUT: '3601' })),
      'SERVICE_REQUEST_TIMEOUT must be a number of seconds above 0 and at most 3600, got "3601"',
    );
    assert.equal(
      problemOf(() => parseRequestTimeout("input 'request-timeout-seconds'", '0')),
      `input 'request-timeout-seconds' must be a number of seconds above 0 and at most 3600, got "0"`,
    );
    const env = { SERVICE_REQUEST_TIMEOUT: '600' };
    assert.equal(requestTimeoutOrEnv('--request-timeout', '30', env), 30_000, 'the setting wins');
    assert.equal(requestTimeoutOrEnv('--request-timeout', undefined, env), 600_000);
    assert.equal(
      problemOf(() => requestTimeoutOrEnv("input 'request-timeout-seconds'", 'x', env)),
      `input 'request-timeout-seconds' must be a number of seconds above 0 and at most 3600, got "x"`,
    );
  });

  it('integers, report policy, file names, scan ids', () => {
    assert.equal(parseInteger('n', '', undefined, { min: 1, max: 90 }), undefined);
    assert.match(
      problemOf(() => parseInteger('n', '3.5', 1, { min: 1, max: 90 })),
      /whole number from 1 to 90/,
    );
    assert.equal(parseReportPolicy('r', 'IF-READY'), 'if-ready');
    assert.match(
      problemOf(() => parseReportPolicy('r', 'yes')),
      /one of none, if-ready, generate/,
    );
    assert.equal(parseFileName('a', 'report.pdf'), 'report.pdf');
    for (const bad of ['../x.pdf', 'a/b', 'a:b', '..'])
      assert.ok(problemOf(() => parseFileName('a', bad)));
    assert.equal(parseScanId('s', ' abc-123 '), 'abc-123');
    assert.ok(problemOf(() => parseScanId('s', 'a/../b')));
  });

  it('API key problems never contain the key', () => {
    for (const key of ['sk_live_secretvalue', 'ak_live_has space', 'ak_live_']) {
      const message = problemOf(() => parseApiKey('SERVICE_API_KEY', key));
      assert.ok(!message.includes(key.trim()) || key.trim() === 'ak_live_', message);
      assert.doesNotMatch(message, /secretvalue|has space/);
    }
  });

  it('API URLs: https, or http to loopback only; no credentials, query or fragment', () => {
    assert.equal(parseApiUrl('u', 'https://host/api/v1/'), 'https://host/api/v1');
    assert.equal(parseApiUrl('u', 'http://127.0.0.1:8080/api'), 'http://127.0.0.1:8080/api');
    assert.equal(parseApiUrl('u', ''), undefined);
    for (const bad of [
      'http://host/api',
      'ftp://host',
      'https://a:b@host',
      'https://host/?x=1',
      'nope',
    ]) {
      assert.ok(problemOf(() => parseApiUrl('u', bad)));
    }
    assert.equal(
      problemOf(() => parseApiUrl('SERVICE_API_URL', 'not-a-url')),
      'SERVICE_API_URL is not a URL, got "not-a-url": give the API\'s base address, e.g. https://api.example.com/v1',
    );
  });

  it('an API URL that ends in a route of the API: it should end at the base path', () => {
    assert.equal(
      problemOf(() => parseApiUrl('SERVICE_API_URL', 'http://127.0.0.1:8080/api/v1/tenants/me')),
      'SERVICE_API_URL ends in /tenants/me, a route of the API: it should end at the base path, not a route (for example https://api.example.com/v1), got "http://127.0.0.1:8080/api/v1/tenants/me"',
    );
    assert.match(
      problemOf(() => parseApiUrl("input 'api-url'", 'https://host/v1/tenants/me/scans/')),
      /^input 'api-url' ends in \/tenants\/me\/scans, a route of the API: it should end at the base path/,
    );
    assert.match(
      problemOf(() => parseApiUrl('u', 'https://host/v1/scans/3e70/results')),
      /ends in \/scans\/3e70\/results, a route/,
    );
    // What a base path might end in is left to the service's 404 to tell.
    for (const base of [
      'https://host/scans',
      'https://host/v1/tenants/meta',
      'https://host/scans/v1',
    ]) {
      assert.equal(parseApiUrl('u', base), base);
    }
  });

  it('no API key: the line the face gives names what to set', () => {
    assert.equal(
      problemOf(() => parseApiKey("input 'api-key'", ' ')),
      "input 'api-key' is required: pass the API key from a secret",
    );
    const cli = (env: Record<string, string>) => {
      try {
        connectionSettings(env, undefined);
      } catch (error) {
        assert.ok(error instanceof SettingsError);
        return error.lines();
      }
      return assert.fail('expected problems');
    };
    assert.deepEqual(cli({}), [
      'Sanity checks failed: no API key — set SERVICE_API_KEY (from a CI secret)',
      'Sanity checks failed: no API address — set SERVICE_API_URL',
    ]);
  });

  it('collects every problem, one line each', () => {
    const problems = new SettingsProblems();
    problems.check(() => parseBoolean('a', 'x', true), true);
    problems.check(() => parseReportPolicy('b', 'y'), 'none');
    const error = (() => {
      try {
        problems.throwIfAny();
      } catch (e) {
        return e;
      }
    })();
    assert.ok(error instanceof SettingsError);
    assert.deepEqual(error.lines(), [
      'Sanity checks failed: a must be true or false, got "x"',
      'Sanity checks failed: b must be one of none, if-ready, generate, got "y" (generate may spend a report credit)',
    ]);
  });

  it('writable paths: a directory or a path under a file is refused, a missing dir is fine', async () => {
    const dir = await tempDir();
    try {
      await writeFile(join(dir.path, 'file'), '');
      await mkdir(join(dir.path, 'sub'));
      assert.equal(
        await checkWritableFile('p', join(dir.path, 'new', 'deep', 'x.json')),
        undefined,
      );
      assert.match((await checkWritableFile('p', join(dir.path, 'sub'))) ?? '', /is a directory/);
      assert.match(
        (await checkWritableFile('p', join(dir.path, 'file', 'x'))) ?? '',
        /inside a file/,
      );
    } finally {
      await dir.remove();
    }
  });
});
