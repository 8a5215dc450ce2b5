// The bundled Tenant API client. Public surface: createClient and the helpers the faces need.
//
// Design notes (decisions the seed leaves open):
// - No default address: the seed gives it only as a placeholder; baseUrl or SERVICE_API_URL is needed.
// - Retries: 429 RATE_LIMITED/uncoded and 503 SERVICE_STARTING on every method (the server did not
//   act); bare 502/503/504, timeouts and connection failures only on requests safe to repeat:
//   GET/HEAD/PUT/DELETE and the PATCH routes that set a state (scan hide/unhide, notification
//   settings, target label). A DELETE retried after a lost answer that then gets 404 counts as done.
//   POST (create scan, cancel, generate report, add/verify target, create key, EAS scan) is re-sent
//   only when the connection provably never carried it (refused, DNS, connect timeout); otherwise a
//   NetworkError with mayHaveBeenProcessed=true says it may have happened and was not repeated.
// - SCAN_PLAN_LIMIT_REACHED is a PlanLimitError whatever its status, never retried.
// - A 429 anywhere pauses every request of the same client (Pacer).
export { createClient } from './client.js';
export {
  nextCursorOf,
  MAX_PAGES,
  MAX_LIST_ITEMS,
  MAX_LIST_BYTES,
  LIST_READ_DEADLINE_MS,
} from './lists.js';
export {
  API_KEY_PREFIX,
  CLIENT_VERSION,
  isAddressable,
  isLoopbackHost,
  isPlainIdentifier,
  routeUrl,
  validateBaseUrl,
  validateClientOptions,
  type ResolvedConfig,
} from './config.js';
export { classifyError, isObject, readErrorBody, toApiError } from './envelope.js';
export * from './errors.js';
export {
  describeFinding,
  keptFinding,
  cutText,
  FINDING_TEXT_LIMITS,
  TextPool,
  isFailedFinding,
  isFailedWord,
  resultMatches,
  toSeverity,
  IDENTITY_FIELDS,
} from './findings.js';
export {
  REDACTED,
  displayLine,
  looksLikeApiKey,
  parsedWithoutSecrets,
  redact,
  redactSecrets,
  revealsSecret,
  secretPart,
  stripControls,
} from './redact.js';
export { removePartialDownloads, toReportState, toReportStatus } from './reports.js';
export {
  DEFAULT_RETRY_POLICY,
  backoffDelayMs,
  isTlsFailure,
  parseRetryAfterMs,
  resolveRetryPolicy,
  retryDelay,
  retryReasonForReply,
} from './retry.js';
export { isTerminalPhase, knownScanPhase, toScan, toScanPhase } from './scan-status.js';
export type * from './types.js';
export { FALLBACK_INTERVAL_MS, PollPlanner } from './wait.js';
export { abortReason, sleep } from './abort.js';
export {
  AnswerTooLarge,
  RequestDeadline,
  RequestTimeout,
  createDispatcher,
  exchange,
  seconds,
} from './transport.js';
