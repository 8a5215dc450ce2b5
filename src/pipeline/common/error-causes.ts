// What went wrong, by its cause: one row per cause a user fixes differently, with the heading its
// line starts with, whether the user must fix it or the service/network failed, and the remedy.
// The cause decides the words, not the phase the job happened to be in: nothing listening at the
// address is "Connection failed", never "Authentication failed". Rows are tried in order. The
// model is the CodeQL action's cli-errors.ts.

import {
  AuthenticationError,
  DownloadError,
  isTlsFailure,
  NetworkError,
  NotFoundError,
  PermissionError,
  PlanLimitError,
  RateLimitError,
  ServerError,
  ServiceUnavailableError,
  TenantApiError,
  TimeoutError,
  ValidationError,
} from '../../client/index.js';
import { EXAMPLE_API_URL } from './api-address.js';
import { identifiedBy, isFixedRoute, routeAtEnd } from './api-routes.js';
import type { JobHeading, JobWording } from './wording.js';

export interface ErrorCause {
  /** The row's name, for tests and docs. */
  name: string;
  /** What the line starts with ("Connection failed: …"); the job's phase when absent. */
  heading?: JobHeading;
  /** 'user': something the user must fix; 'failure': the service or the network failed. */
  kind: 'user' | 'failure';
  /** `timed out` when no (complete) answer came in time; `failed` when absent. */
  verb?: 'timed out';
  /** The detail names the setting or command that fixes it, or says that none does: every face
   *  shows it (not only the job). */
  namesSetting?: boolean;
  /** One line: what happened and what to do. */
  detail: string;
}

interface CauseRow {
  name: string;
  heading?: JobHeading;
  verb?: 'timed out';
  namesSetting?: boolean;
  kind: 'user' | 'failure';
  matches(error: TenantApiError): boolean;
  explain(error: TenantApiError, wording: JobWording): string;
}

const UNREACHABLE = new Set([
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EHOSTDOWN',
  'ETIMEDOUT',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/** scheme://host:port of the address a request went to; its path too when `withPath`. */
function whereOf(error: TenantApiError, withPath = false): string {
  const address = error.address ?? '';
  try {
    const url = new URL(address);
    return withPath ? `${url.origin}${url.pathname}` : url.origin;
  } catch {
    return address || 'the API address';
  }
}

/** The base path the hints give as an example: the example address's. */
const EXAMPLE_BASE_PATH = new URL(EXAMPLE_API_URL).pathname;

/** Whether the API address already ends in the example's base path before the route
 *  (…/v1/tenants/me): then adding it is not the fix, the host is what is wrong. */
function hasExampleBasePath(error: TenantApiError): boolean {
  try {
    const pathname = new URL(error.address ?? '').pathname;
    const route = error.path ?? '';
    const base = route && pathname.endsWith(route) ? pathname.slice(0, -route.length) : pathname;
    return base.replace(/\/+$/, '').endsWith(EXAMPLE_BASE_PATH);
  } catch {
    return false;
  }
}

/** The route of the API the address was given with (…/v1/scans), before the request's own. */
function routeInAddress(error: TenantApiError): string | undefined {
  const route = error.path ?? '';
  try {
    const pathname = new URL(error.address ?? '').pathname;
    if (route === '' || !pathname.endsWith(route)) return undefined;
    return routeAtEnd(pathname.slice(0, -route.length), false);
  } catch {
    return undefined;
  }
}

function hostOf(error: TenantApiError): string {
  try {
    return new URL(error.address ?? '').hostname;
  } catch {
    return 'the API host';
  }
}

/** What the service said, briefly, beside a remedy that already says what it means. */
export function briefApiError(error: TenantApiError): string {
  const said = [`HTTP ${error.status ?? '?'} ${error.code}`];
  if (error.serverMessage) said.push(`: ${error.serverMessage}`);
  if (error.requestId) said.push(`, request id ${error.requestId}`);
  return said.join('');
}

/** A client error's own message, with its HTTP status when the message does not already say it. */
export function describeApiError(error: TenantApiError): string {
  if (error.status === undefined || error.message.includes(`HTTP ${error.status}`)) {
    return error.message;
  }
  return `${error.message} (HTTP ${error.status}${error.code ? ` ${error.code}` : ''})`;
}

function tlsRemedy(code: string): string {
  if (code === 'EPROTO' || /WRONG_VERSION|PACKET_LENGTH/i.test(code)) {
    return 'the far end does not speak TLS: is it an http:// address given as https://, or the wrong port?';
  }
  if (/ALTNAME|HOSTNAME/i.test(code)) {
    return 'its certificate is for another name: check the host in the address';
  }
  if (/EXPIRED|NOT_YET_VALID/i.test(code)) return 'its certificate is out of date';
  return 'its certificate is not trusted here: for a private certificate authority, give its certificate in NODE_EXTRA_CA_CERTS';
}

/** A route without an id answered 404, or the address was given with a route of the API at its
 *  end, or a route answered an HTML page where JSON was expected: the address is a website, or
 *  lacks the API's base path (the host alone where the API lives under …/v1), or has too much. A
 *  404 on a route with an id is the thing not found (the `not-found` row). */
function isNotTheApi(error: TenantApiError): boolean {
  if (!(error instanceof NotFoundError)) {
    return error.htmlPage === true && error.code === 'INVALID_RESPONSE';
  }
  const path = error.path ?? '';
  // a base path may end in words a route has (…/scans/v1): only a route with no id tells
  return (
    isFixedRoute(path) || (identifiedBy(path) === undefined && routeInAddress(error) !== undefined)
  );
}

/** What the service answered, briefly: an HTML page's words are a gateway's, not the API's. */
function answerOf(e: TenantApiError): string {
  return e.htmlPage ? `HTTP ${e.status ?? '?'}, an HTML page` : briefApiError(e);
}

function notTheApi(e: TenantApiError, wording: JobWording): string {
  const where = whereOf(e, true);
  const answer = answerOf(e);
  const route = routeInAddress(e);
  if (route) {
    return `no such route at ${where} (${answer}): ${wording.apiUrl} ends in ${route}, a route of the API; it should end at the base path (for example …${EXAMPLE_BASE_PATH}), not a route`;
  }
  if (hasExampleBasePath(e)) {
    const what = e.htmlPage ? `${where} is not the Tenant API` : `no such route at ${where}`;
    return `${what} (${answer}): the base path is there, so the host may not be the Tenant API's; check ${wording.apiUrl}`;
  }
  return e.htmlPage
    ? `${where} is not the Tenant API (${answer}): is its base path (for example …${EXAMPLE_BASE_PATH}) missing? Check ${wording.apiUrl}`
    : `the service has no such route at ${where}: the API address may lack its base path (for example …${EXAMPLE_BASE_PATH}); check ${wording.apiUrl} (${answer})`;
}

/** A 404 on a route that names a thing by its id: no such thing, and where the face lists them. */
function notFound(e: TenantApiError, wording: JobWording): string {
  const route = e.path ?? '';
  const named = identifiedBy(route) ?? { thing: undefined, id: '?' };
  const list = named.thing && wording.listIds?.[named.thing];
  // the id may be one the job got (a scan it triggered, a key in a plan): no "check the id"
  const remedy = list
    ? `see the ids with ${list}`
    : "it may have been deleted, or the key may be another tenant's";
  // what a 404 means on a report's route is not known: the scan, or only its report
  const what = /\/report(?:\/generate)?$/.test(route)
    ? `scan ${named.id} or its report was not found`
    : `no ${named.thing ?? 'thing'} has the id ${named.id}`;
  // a web page may be a website's answer: the address may be wrong as well
  const orAddress = e.htmlPage ? `, or ${wording.apiUrl} is not the Tenant API's address` : '';
  return `${e.method ?? ''} ${route}: ${what}${orAddress} (${answerOf(e)}); ${remedy}`.trim();
}

/** Wait, upgrade, or what the face offers instead of a new scan (the Action follows one). */
function quotaRemedy(wording: JobWording): string {
  const instead = wording.insteadOfTrigger;
  return instead
    ? `wait for it to renew, upgrade the plan, or ${instead} instead of triggering one`
    : 'wait for it to renew or upgrade the plan';
}

const ROWS: CauseRow[] = [
  {
    name: 'nothing-answers',
    heading: 'Connection',
    kind: 'user',
    matches: (e) => e instanceof NetworkError && e.code === 'ECONNREFUSED',
    explain: (e, wording) =>
      `nothing answers at ${whereOf(e)} (connection refused): check ${wording.apiUrl}, and that the service is up`,
  },
  {
    name: 'no-such-host',
    heading: 'Connection',
    kind: 'user',
    matches: (e) => e instanceof NetworkError && e.code === 'ENOTFOUND',
    explain: (e, wording) =>
      `no host named ${hostOf(e)} (DNS lookup found nothing): check ${wording.apiUrl}`,
  },
  {
    name: 'dns-unavailable',
    heading: 'Connection',
    kind: 'failure',
    matches: (e) => e instanceof NetworkError && e.code === 'EAI_AGAIN',
    explain: (e) =>
      `the name ${hostOf(e)} could not be looked up (DNS EAI_AGAIN): the runner's DNS failed; try again later`,
  },
  {
    name: 'unreachable',
    heading: 'Connection',
    kind: 'failure',
    matches: (e) => e instanceof NetworkError && UNREACHABLE.has(e.code),
    explain: (e, wording) =>
      `${whereOf(e)} cannot be reached (${e.code}): check ${wording.apiUrl}, the runner's network and any proxy (HTTPS_PROXY, NO_PROXY)`,
  },
  {
    name: 'tls',
    heading: 'TLS',
    kind: 'user',
    matches: (e) => e instanceof NetworkError && isTlsFailure(e.code),
    explain: (e) => `the TLS handshake with ${whereOf(e)} failed (${e.code}): ${tlsRemedy(e.code)}`,
  },
  {
    name: 'key-refused',
    heading: 'Authentication',
    kind: 'user',
    matches: (e) => e instanceof AuthenticationError,
    explain: (e, wording) =>
      `the API key was refused: check ${wording.apiKey}, it may be mistyped or revoked (${briefApiError(e)})`,
  },
  {
    name: 'no-api-access',
    heading: 'Authentication',
    kind: 'user',
    matches: (e) => e instanceof PermissionError && e.code === 'PLAN_API_ACCESS_REQUIRED',
    explain: (e) =>
      `the tenant's plan does not include API access: upgrade the plan or use another tenant's key (${briefApiError(e)})`,
  },
  {
    name: 'forbidden',
    heading: 'Authentication',
    kind: 'user',
    matches: (e) => e instanceof PermissionError,
    explain: (e) =>
      `the API key may not do this: use a key of an account with the needed rights, on a plan with API access (${briefApiError(e)})`,
  },
  {
    name: 'not-the-api',
    heading: 'Address',
    kind: 'user',
    matches: isNotTheApi,
    explain: notTheApi,
  },
  {
    name: 'not-found',
    kind: 'user',
    namesSetting: true,
    matches: (e) => e instanceof NotFoundError && identifiedBy(e.path ?? '') !== undefined,
    explain: notFound,
  },
  {
    name: 'quota',
    kind: 'user',
    matches: (e) => e instanceof PlanLimitError,
    explain: (e, wording) =>
      `the plan's scan quota is used up: ${quotaRemedy(wording)} (${briefApiError(e)})`,
  },
  {
    name: 'rejected',
    kind: 'user',
    matches: (e) => e instanceof ValidationError,
    explain: (e) => `the service rejected the request: ${describeApiError(e)}`,
  },
  {
    name: 'rate-limited',
    kind: 'failure',
    matches: (e) => e instanceof RateLimitError,
    explain: (e) =>
      `still rate limited after retrying (${describeApiError(e)}); too many jobs may share this account's limit`,
  },
  {
    name: 'unavailable',
    kind: 'failure',
    matches: (e) => e instanceof ServiceUnavailableError,
    explain: (e) => `the service was unavailable (${describeApiError(e)}); try again later`,
  },
  {
    // The results' pages held more than the read may keep: not whole, so no verdict; the line
    // names the cap and the setting that raises it.
    name: 'results-cap',
    kind: 'user',
    namesSetting: true,
    matches: (e) => e instanceof ServerError && e.code === 'LIST_BYTES_LIMIT',
    explain: (e, wording) =>
      `${e.message.replace(/\.$/, '')}: raise ${wording.resultsMax} to read it whole`,
  },
  {
    // The whole read of the results (every page) has its own deadline (the client's
    // LIST_READ_DEADLINE_MS), which no setting moves: the request timeout bounds each page, the
    // results cap their size. Not whole, so no verdict; a timeout, not a failure of the phase.
    name: 'read-deadline',
    verb: 'timed out',
    kind: 'failure',
    namesSetting: true,
    matches: (e) => e instanceof ServerError && e.code === 'READ_DEADLINE',
    explain: (e, wording) =>
      `${e.message.replace(/\.$/, '')}: the service sent the pages too slowly; no setting lengthens this limit (${wording.resultsMax} bounds their size, not the time): try again later`,
  },
  {
    // A hang is a timeout in the phase it held up ("Authentication timed out: GET /tenants/me: no
    // answer within 20 s"), never the phase's failure: the key was not refused, nothing answered.
    // A slow answer names the setting that gives the service longer; a silence past the fixed
    // silence limit says no setting lengthens it (the request timeout would not help).
    name: 'timed-out',
    verb: 'timed out',
    kind: 'failure',
    namesSetting: true,
    matches: (e) => e instanceof TimeoutError,
    explain: (e, wording) => {
      const said = describeApiError(e).replace(/\.$/, '');
      return e instanceof TimeoutError && e.bound === 'silence'
        ? `${said}; the service sent nothing for that long, and no setting lengthens this silence limit (${wording.requestTimeout} bounds the whole exchange): try again later`
        : `${said}; if the service needs longer, raise ${wording.requestTimeout}`;
    },
  },
  {
    // The client's message already says whether the request may have reached the service.
    name: 'service-failed',
    kind: 'failure',
    matches: (e) =>
      e instanceof NetworkError || e instanceof ServerError || e instanceof DownloadError,
    explain: (e) => describeApiError(e),
  },
];

/** Every cause the table knows, in its order (docs/errors.md lists each). */
export const ERROR_CAUSE_NAMES: readonly string[] = ROWS.map((row) => row.name);

/** The cause of a client error, or undefined for anything that is not one. */
export function causeOf(error: unknown, wording: JobWording): ErrorCause | undefined {
  if (!(error instanceof TenantApiError)) return undefined;
  const row = ROWS.find((candidate) => candidate.matches(error));
  if (!row) return { name: 'other', kind: 'failure', detail: describeApiError(error) };
  return {
    name: row.name,
    heading: row.heading,
    verb: row.verb,
    namesSetting: row.namesSetting,
    kind: row.kind,
    detail: row.explain(error, wording),
  };
}
