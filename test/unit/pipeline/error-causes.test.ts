// The cause table (pipeline/common/error-causes.ts): each cause its own heading, kind and remedy,
// whatever phase the job was in; client errors built as the client builds them.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  AuthenticationError,
  NetworkError,
  NotFoundError,
  PermissionError,
  PlanLimitError,
  RateLimitError,
  ServerError,
  TimeoutError,
  type ApiErrorDetails,
} from '../../../src/client/errors.js';
import { ERROR_CAUSE_NAMES, causeOf } from '../../../src/pipeline/common/error-causes.js';
import { JobFailure, JobUserError, toJobError } from '../../../src/pipeline/common/errors.js';
import { jobWording } from '../../../src/pipeline/common/wording.js';
import { ACTION_JOB_WORDING } from '../../../src/github/inputs.js';
import { CLI_JOB_WORDING, errorLine } from '../../../src/cli/errors.js';
import { TENANTS_JOB_WORDING } from '../../../src/cli/commands/scan-run-tenants.js';
import { TENANTS_WORDING } from '../../../src/github/tenants/inputs.js';
import { LIST_READ_DEADLINE_MS, readAllPages, readDeadline } from '../../../src/client/lists.js';

const labels = jobWording({ apiUrl: 'api-url', apiKey: 'the api-key secret' });
const ROUTE = {
  method: 'GET',
  path: '/tenants/me',
  address: 'https://tenant.example/tenants/me',
};

function network(code: string): NetworkError {
  return new NetworkError(`GET /tenants/me: network error ${code}`, {
    ...ROUTE,
    code,
    mayHaveBeenProcessed: false,
  });
}

function reply(details: Partial<ApiErrorDetails> & { code: string; status: number }) {
  return { ...ROUTE, ...details };
}

describe('error causes', () => {
  const cases: Array<{
    name: string;
    error: Error;
    heading: string | undefined;
    kind: 'user' | 'failure';
    says: RegExp;
  }> = [
    {
      name: 'nothing-answers',
      error: network('ECONNREFUSED'),
      heading: 'Connection',
      kind: 'user',
      says: /^nothing answers at https:\/\/tenant\.example \(connection refused\): check api-url/,
    },
    {
      name: 'no-such-host',
      error: network('ENOTFOUND'),
      heading: 'Connection',
      kind: 'user',
      says: /^no host named tenant\.example .*check api-url/,
    },
    {
      name: 'dns-unavailable',
      error: network('EAI_AGAIN'),
      heading: 'Connection',
      kind: 'failure',
      says: /try again later/,
    },
    {
      name: 'unreachable',
      error: network('EHOSTUNREACH'),
      heading: 'Connection',
      kind: 'failure',
      says: /cannot be reached \(EHOSTUNREACH\).*HTTPS_PROXY/,
    },
    {
      name: 'tls',
      error: network('DEPTH_ZERO_SELF_SIGNED_CERT'),
      heading: 'TLS',
      kind: 'user',
      says: /not trusted here: .*NODE_EXTRA_CA_CERTS/,
    },
    {
      name: 'tls',
      error: network('ERR_SSL_WRONG_VERSION_NUMBER'),
      heading: 'TLS',
      kind: 'user',
      says: /does not speak TLS: is it an http:\/\/ address given as https:\/\//,
    },
    {
      name: 'tls',
      error: network('ERR_TLS_CERT_ALTNAME_INVALID'),
      heading: 'TLS',
      kind: 'user',
      says: /for another name/,
    },
    {
      name: 'key-refused',
      error: new AuthenticationError('401', reply({ code: 'UNAUTHORIZED', status: 401 })),
      heading: 'Authentication',
      kind: 'user',
      says: /^the API key was refused: check the api-key secret/,
    },
    {
      name: 'key-refused',
      error: new AuthenticationError(
        '401',
        reply({ code: 'HTTP_401', status: 401, htmlPage: true }),
      ),
      heading: 'Authentication',
      kind: 'user',
      says: /^the API key was refused/,
    },
    {
      name: 'no-api-access',
      error: new PermissionError('403', reply({ code: 'PLAN_API_ACCESS_REQUIRED', status: 403 })),
      heading: 'Authentication',
      kind: 'user',
      says: /plan does not include API access/,
    },
    {
      name: 'forbidden',
      error: new PermissionError('403', reply({ code: 'FORBIDDEN', status: 403 })),
      heading: 'Authentication',
      kind: 'user',
      says: /may not do this/,
    },
    {
      name: 'not-the-api',
      error: new NotFoundError('404', reply({ code: 'NOT_FOUND', status: 404, htmlPage: true })),
      heading: 'Address',
      kind: 'user',
      says: /^https:\/\/tenant\.example\/tenants\/me is not the Tenant API \(HTTP 404, an HTML page\): is its base path \(for example …\/v1\) missing\?/,
    },
    {
      name: 'not-the-api',
      error: new NotFoundError('404', reply({ code: 'NOT_FOUND', status: 404 })),
      heading: 'Address',
      kind: 'user',
      says: /^the service has no such route at https:\/\/tenant\.example\/tenants\/me: the API address may lack its base path \(for example …\/v1\)/,
    },
    {
      // The base path is already there: adding it is not the fix, the host is.
      name: 'not-the-api',
      error: new NotFoundError(
        '404',
        reply({
          code: 'NOT_FOUND',
          status: 404,
          htmlPage: true,
          address: 'https://www.tenant.example/api/v1/tenants/me',
        }),
      ),
      heading: 'Address',
      kind: 'user',
      says: /^https:\/\/www\.tenant\.example\/api\/v1\/tenants\/me is not the Tenant API \(HTTP 404, an HTML page\): the base path is there, so the host may not be the Tenant API's; check api-url$/,
    },
    {
      // The example's base path (…/v1) is there: the host is what to check.
      name: 'not-the-api',
      error: new NotFoundError(
        '404',
        reply({
          code: 'NOT_FOUND',
          status: 404,
          htmlPage: true,
          address: 'https://x.example/v1/tenants/me',
        }),
      ),
      heading: 'Address',
      kind: 'user',
      says: /^https:\/\/x\.example\/v1\/tenants\/me is not the Tenant API .*: the base path is there/,
    },
    {
      name: 'not-the-api',
      error: new NotFoundError(
        '404',
        reply({ code: 'NOT_FOUND', status: 404, address: 'https://x.example/api/v1/tenants/me' }),
      ),
      heading: 'Address',
      kind: 'user',
      says: /^no such route at https:\/\/x\.example\/api\/v1\/tenants\/me \(.*\): the base path is there(?!.*lack)/,
    },
    {
      name: 'not-the-api',
      error: new ServerError(
        'not JSON',
        reply({ code: 'INVALID_RESPONSE', status: 200, htmlPage: true }),
      ),
      heading: 'Address',
      kind: 'user',
      says: /is not the Tenant API \(HTTP 200, an HTML page\)/,
    },
    {
      name: 'quota',
      error: new PlanLimitError('quota', reply({ code: 'SCAN_PLAN_LIMIT_REACHED', status: 403 })),
      heading: undefined,
      kind: 'user',
      says: /scan quota is used up/,
    },
    {
      name: 'rate-limited',
      error: new RateLimitError('429', reply({ code: 'RATE_LIMITED', status: 429 })),
      heading: undefined,
      kind: 'failure',
      says: /still rate limited/,
    },
    {
      name: 'timed-out',
      error: new TimeoutError(
        'GET /tenants/me: no answer within 20 s (the request timeout), after 2 attempts.',
        {
          ...ROUTE,
          code: 'REQUEST_TIMEOUT',
          mayHaveBeenProcessed: false,
          bound: 'request-timeout',
        },
      ),
      heading: undefined,
      kind: 'failure',
      says: /^GET \/tenants\/me: no answer within 20 s/,
    },
    {
      name: 'service-failed',
      error: new ServerError('GET /tenants/me failed: HTTP 500 INTERNAL', {
        ...reply({ code: 'INTERNAL', status: 500, htmlPage: true }),
      }),
      heading: undefined,
      kind: 'failure',
      says: /HTTP 500 INTERNAL/,
    },
  ];

  for (const c of cases) {
    it(`${c.name}: ${c.error instanceof NetworkError ? c.error.code : c.error.constructor.name}`, () => {
      const cause = causeOf(c.error, labels);
      assert.equal(cause?.name, c.name);
      assert.equal(cause?.heading, c.heading);
      assert.equal(cause?.kind, c.kind);
      assert.match(cause?.detail ?? '', c.says);
    });
  }

  it('a hang in the first phase is a timeout of that phase, not an authentication failure', () => {
    const hang = new TimeoutError(
      'GET /tenants/me: no answer within 20 s (the request timeout), after 2 attempts.',
      { ...ROUTE, code: 'REQUEST_TIMEOUT', mayHaveBeenProcessed: false, bound: 'request-timeout' },
    );
    assert.equal(
      toJobError('Authentication', hang, { wording: labels }).message,
      'Authentication timed out: GET /tenants/me: no answer within 20 s (the request timeout), after 2 attempts; if the service needs longer, raise the request timeout',
    );
  });

  it('a 404 of a route with an id is not a wrong address', () => {
    const error = new NotFoundError('404', {
      ...reply({ code: 'NOT_FOUND', status: 404, htmlPage: true }),
      path: '/scans/s-1/report',
    });
    assert.notEqual(causeOf(error, labels)?.name, 'not-the-api');
  });

  it("a 404 on a route with an id is the thing not found, whatever the id's form or the body", () => {
    const gone = (method: string, path: string, serverMessage?: string) =>
      new NotFoundError('404', {
        code: 'NOT_FOUND',
        status: 404,
        method,
        path,
        address: `https://x.example/api/v1${path}`,
        ...(serverMessage ? { serverMessage } : {}),
      });
    // A lowercase word is an id as much as one with a digit: never the address's fault.
    const key = gone('DELETE', '/tenants/me/api-keys/ci-key', 'API key not found');
    assert.equal(causeOf(key, CLI_JOB_WORDING)?.name, 'not-found');
    assert.equal(
      errorLine(key, undefined),
      'tenant-scan: error: DELETE /tenants/me/api-keys/ci-key: no API key has the id ci-key (HTTP 404 NOT_FOUND: API key not found); see the ids with tenant-scan keys list',
    );
    // A real service's 404 may have no body the emulator's has: the route decides.
    const target = gone('POST', '/tenants/me/attack-surface/targets/www/verify');
    assert.equal(
      errorLine(target, undefined),
      'tenant-scan: error: POST /tenants/me/attack-surface/targets/www/verify: no attack-surface target has the id www (HTTP 404 NOT_FOUND); see the ids with tenant-scan eas targets list',
    );
    assert.match(
      errorLine(gone('DELETE', '/tenants/me/attack-surface/targets/abc'), undefined),
      /no attack-surface target has the id abc .*tenant-scan eas targets list$/,
    );
    assert.match(
      errorLine(gone('GET', '/scans/nightly/results', 'Scan not found'), undefined),
      /^tenant-scan: error: GET \/scans\/nightly\/results: no scan has the id nightly .*; see the ids with tenant-scan scan list$/,
    );
    assert.match(
      errorLine(gone('GET', '/tenants/me/remediation-plans/p'), undefined),
      /no remediation plan has the id p .*tenant-scan remediation plans$/,
    );
    // The Action has no list command, and the id may be one the job got (a scan it triggered,
    // deleted since): what may have happened, not "check the id".
    assert.equal(
      toJobError('Trigger', key, { wording: ACTION_JOB_WORDING }).message,
      "Trigger failed: DELETE /tenants/me/api-keys/ci-key: no API key has the id ci-key (HTTP 404 NOT_FOUND: API key not found); it may have been deleted, or the key may be another tenant's",
    );
    // What a 404 means on a report's route is not known: the scan, or only its report.
    assert.match(
      errorLine(gone('GET', '/scans/3e70/report', 'Scan not found'), undefined),
      /: GET \/scans\/3e70\/report: scan 3e70 or its report was not found \(HTTP 404 NOT_FOUND: Scan not found\)/,
    );
    // A web page answered: the thing may be missing, or the address may be a website's.
    const page = new NotFoundError('404', {
      code: 'NOT_FOUND',
      status: 404,
      method: 'GET',
      path: '/scans/3e70',
      htmlPage: true,
      address: 'https://x.example/v1/scans/3e70',
    });
    assert.match(
      errorLine(page, undefined),
      /no scan has the id 3e70, or SERVICE_API_URL is not the Tenant API's address \(HTTP 404, an HTML page\)/,
    );
    // A base path that ends in a route's words (…/scans/v1) is not blamed for an id's 404.
    const based = new NotFoundError('404', {
      code: 'NOT_FOUND',
      status: 404,
      method: 'DELETE',
      path: '/tenants/me/api-keys/ci-key',
      address: 'https://x.example/scans/v1/tenants/me/api-keys/ci-key',
    });
    assert.equal(causeOf(based, CLI_JOB_WORDING)?.name, 'not-found');
    // A route without an id that answers 404 is still the address's.
    for (const path of ['/tenants/me/api-keys', '/tenants/me/attack-surface/targets']) {
      assert.equal(causeOf(gone('GET', path), labels)?.name, 'not-the-api', path);
    }
  });

  it('an address given with a route of the API at its end: it should end at the base path', () => {
    for (const [base, route] of [
      ['/api/v1/scans', '/scans'],
      ['/api/v1/scans/3e70', '/scans/3e70'],
      ['/v1/tenants/me/scans', '/tenants/me/scans'],
    ] as const) {
      const error = new NotFoundError('404', {
        code: 'NOT_FOUND',
        status: 404,
        method: 'GET',
        path: '/tenants/me',
        address: `https://x.example${base}/tenants/me`,
      });
      const cause = causeOf(error, CLI_JOB_WORDING);
      assert.equal(cause?.name, 'not-the-api');
      assert.equal(
        cause?.detail,
        `no such route at https://x.example${base}/tenants/me (HTTP 404 NOT_FOUND): SERVICE_API_URL ends in ${route}, a route of the API; it should end at the base path (for example …/v1), not a route`,
      );
    }
  });

  it('the quota: what each face offers instead of a new scan, a command that does it', () => {
    const quota = new PlanLimitError(
      'quota',
      reply({ code: 'SCAN_PLAN_LIMIT_REACHED', status: 429 }),
    );
    assert.equal(
      toJobError('Trigger', quota, { wording: ACTION_JOB_WORDING }).message,
      "Trigger failed: the plan's scan quota is used up: wait for it to renew, upgrade the plan, or follow an existing scan with scan-id instead of triggering one (HTTP 429 SCAN_PLAN_LIMIT_REACHED)",
    );
    // The CLI follows a scan that exists with --scan-id, as the Action does with scan-id.
    assert.equal(
      toJobError('Trigger', quota, { wording: CLI_JOB_WORDING }).message,
      "Trigger failed: the plan's scan quota is used up: wait for it to renew, upgrade the plan, or follow a scan that exists with tenant-scan scan run --scan-id <id> --watch instead of triggering one (HTTP 429 SCAN_PLAN_LIMIT_REACHED)",
    );
    // Many tenants at once: nothing instead, no half-named setting.
    assert.equal(
      toJobError('Trigger', quota, { wording: TENANTS_JOB_WORDING }).message,
      "Trigger failed: the plan's scan quota is used up: wait for it to renew or upgrade the plan (HTTP 429 SCAN_PLAN_LIMIT_REACHED)",
    );
  });

  it('the job line: the cause heads it in any phase, the phase stays the job’s', () => {
    const error = toJobError('Wait', network('ECONNREFUSED'), { wording: labels });
    assert.ok(error instanceof JobUserError);
    assert.equal(error.phase, 'Wait');
    assert.equal(error.heading, 'Connection');
    assert.match(
      error.message,
      /^Connection failed: nothing answers at https:\/\/tenant\.example /,
    );
    assert.equal(error.message, `Connection failed: ${error.detail}`);
    const quota = toJobError(
      'Trigger',
      new PlanLimitError('quota', reply({ code: 'SCAN_PLAN_LIMIT_REACHED', status: 429 })),
    );
    assert.match(quota.message, /^Trigger failed: the plan's scan quota/);
    assert.ok(toJobError('Results', network('EHOSTUNREACH')) instanceof JobFailure);
  });

  it('a request timeout names the setting to raise, as each face calls it', () => {
    const slow = new TimeoutError(
      'GET /tenants/me: no complete answer within 4 s (the request timeout), after 2 attempts.',
      { ...ROUTE, code: 'REQUEST_TIMEOUT', mayHaveBeenProcessed: false, bound: 'request-timeout' },
    );
    const cause = causeOf(slow, ACTION_JOB_WORDING);
    assert.equal(cause?.name, 'timed-out');
    assert.equal(cause?.kind, 'failure');
    assert.equal(
      toJobError('Trigger', slow, { wording: ACTION_JOB_WORDING }).message,
      'Trigger timed out: GET /tenants/me: no complete answer within 4 s (the request timeout), after 2 attempts; if the service needs longer, raise request-timeout-seconds',
    );
    assert.equal(
      errorLine(slow, undefined),
      'tenant-scan: error: GET /tenants/me: no complete answer within 4 s (the request timeout), after 2 attempts; if the service needs longer, raise --request-timeout or SERVICE_REQUEST_TIMEOUT',
    );
    assert.match(causeOf(slow, CLI_JOB_WORDING)?.detail ?? '', /raise --request-timeout or/);
  });

  it("a silence names the request timeout's setting when that was its limit, else says no setting lengthens it", () => {
    // The request timeout was 20 s: the silence limit was cut to it, and raising it gives longer.
    const cut = new TimeoutError(
      'GET /tenants/me: nothing received for 20 s (the request timeout).',
      {
        ...ROUTE,
        code: 'TIMEOUT',
        mayHaveBeenProcessed: false,
        bound: 'request-timeout',
      },
    );
    assert.equal(
      toJobError('Results', cut, { wording: ACTION_JOB_WORDING }).message,
      'Results timed out: GET /tenants/me: nothing received for 20 s (the request timeout); if the service needs longer, raise request-timeout-seconds',
    );
    assert.match(
      errorLine(cut, undefined),
      /; if the service needs longer, raise --request-timeout or SERVICE_REQUEST_TIMEOUT$/,
    );
    const subAction = { ...TENANTS_JOB_WORDING, ...TENANTS_WORDING };
    assert.match(
      toJobError('Results', cut, { wording: subAction }).message,
      new RegExp(`raise ${TENANTS_WORDING.requestTimeout?.replace(/[()]/g, '\\$&')}$`),
    );
    // The fixed silence limit (30 s, under a longer request timeout): nothing to raise.
    const silent = new TimeoutError('GET /tenants/me: nothing received for 30 s.', {
      ...ROUTE,
      code: 'TIMEOUT',
      mayHaveBeenProcessed: false,
      bound: 'silence',
    });
    assert.equal(causeOf(silent, labels)?.name, 'timed-out', 'silence is a timeout too');
    assert.equal(
      toJobError('Results', silent, { wording: ACTION_JOB_WORDING }).message,
      'Results timed out: GET /tenants/me: nothing received for 30 s; the service sent nothing for that long, and no setting lengthens this silence limit (request-timeout-seconds bounds the whole exchange): try again later',
    );
    assert.match(
      errorLine(silent, undefined),
      /no setting lengthens this silence limit \(--request-timeout or SERVICE_REQUEST_TIMEOUT bounds the whole exchange\)/,
    );
  });

  it("the whole results read past its deadline is a timeout that says no setting moves it, in each face's words", async () => {
    // The read itself yields it: a page that never comes, a deadline of 0.1 s.
    const hung = await readAllPages(
      ({ signal }) =>
        new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason))),
      { route: 'GET /scans/s-1/results', items: 'results' },
      { deadlineMs: 100 },
    ).catch((error: unknown) => error);
    assert.ok(hung instanceof ServerError, String(hung));
    assert.equal(causeOf(hung, labels)?.name, 'read-deadline');
    assert.match(hung.message, /not all read within 0\.1 s;/);
    const late = readDeadline('GET /scans/s-1/results', LIST_READ_DEADLINE_MS);
    const said =
      'GET /scans/s-1/results: the pages were not all read within 15 minutes; stopped, the list was not read whole: the service sent the pages too slowly; no setting lengthens this limit';
    assert.equal(
      toJobError('Results', late, { wording: ACTION_JOB_WORDING }).message,
      `Results timed out: ${said} (results-max-mib bounds their size, not the time): try again later`,
    );
    assert.equal(
      errorLine(late, undefined),
      `tenant-scan: error: ${said} (--results-max-mib bounds their size, not the time): try again later`,
    );
    // The CLI's many-tenants run, and the tenants sub-action that runs it with its own words.
    const cliTenants = toJobError('Results', late, { wording: TENANTS_JOB_WORDING });
    assert.match(cliTenants.message, /^Results timed out: .*\(--results-max-mib bounds/);
    const subAction = toJobError('Results', late, {
      wording: { ...TENANTS_JOB_WORDING, ...TENANTS_WORDING },
    });
    assert.match(subAction.message, /^Results timed out: .*\(results-max-mib bounds/);
    assert.ok(subAction instanceof JobFailure, 'the service was slow: not a user error');
  });

  it('anything that is not a client error has no cause', () => {
    assert.equal(causeOf(new Error('boom'), labels), undefined);
  });
});

describe('docs/errors.md', () => {
  it('lists every cause of the table, in its order', async () => {
    const { readFile } = await import('node:fs/promises');
    const text = await readFile(new URL('../../../docs/errors.md', import.meta.url), 'utf8');
    const listed = [...text.matchAll(/^\| `([a-z-]+)` /gm)].map((m) => m[1]);
    assert.deepEqual(listed, [...ERROR_CAUSE_NAMES]);
  });
});
