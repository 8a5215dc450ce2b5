// The request timeout (each exchange with the service, the report download included): one parser
// for the Action's input, the CLI's flag and SERVICE_REQUEST_TIMEOUT, the variable the CLI reads and
// the tenants sub-action's post step reads again (the main step runs the CLI), with one wording.

import {
  DEFAULT_REQUEST_TIMEOUT_SECONDS,
  MAX_REQUEST_TIMEOUT_SECONDS,
  parseSeconds,
} from './parse.js';

/** Where the environment gives the request timeout, in seconds. */
const REQUEST_TIMEOUT_VARIABLE = 'SERVICE_REQUEST_TIMEOUT';

/** Seconds as milliseconds, DEFAULT_REQUEST_TIMEOUT_SECONDS when empty; a bad value is one line
 *  naming `label`. */
export function parseRequestTimeout(label: string, raw: string | undefined): number {
  return parseSeconds(label, raw, DEFAULT_REQUEST_TIMEOUT_SECONDS, MAX_REQUEST_TIMEOUT_SECONDS);
}

/** The request timeout SERVICE_REQUEST_TIMEOUT gives; a bad value is one line naming it. */
export function requestTimeoutFromEnv(env: Record<string, string | undefined>): number {
  return parseRequestTimeout(REQUEST_TIMEOUT_VARIABLE, env[REQUEST_TIMEOUT_VARIABLE]);
}

/** The request timeout a setting gives when set (named `label` in its line), else the one
 *  SERVICE_REQUEST_TIMEOUT gives: the CLI's flag, and the tenants sub-action's input, which its
 *  post step reads again as the main step's CLI did. */
export function requestTimeoutOrEnv(
  label: string,
  raw: string | undefined,
  env: Record<string, string | undefined>,
): number {
  return raw === undefined ? requestTimeoutFromEnv(env) : parseRequestTimeout(label, raw);
}
