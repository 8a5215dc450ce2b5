// What a job is asked to do, once each face has parsed its own raw inputs.

import type { GateSettings } from '../gate/judge.js';

export type ReportPolicy = 'none' | 'if-ready' | 'generate';

/** Validated job settings (each face parses its own raw inputs into this). */
export interface JobSettings {
  apiKey: string;
  /** Other secrets the run holds: in a many-tenants run every tenant's key (one service host
   *  serves them all, so any tenant's answers may echo another's key). Redacted from this job's
   *  answers, lines and files like its own key. */
  otherSecrets?: readonly string[];
  /** Undefined: SERVICE_API_URL of the job's env (one of them is required). */
  apiUrl?: string;
  scanType: string;
  /** Follow this existing scan: never trigger one, never cancel it. */
  scanId?: string;
  wait: boolean;
  /** Overall limit on following the scan; on expiry a scan we triggered is cancelled remotely. */
  scanTimeoutMs: number;
  /** A scan whose progress (its status when it has none) stood still this long is stopped as a
   *  timeout is (job/stall.ts); 0 or undefined: off. */
  stallMs?: number;
  /** Limit on each exchange with the service, the report download included (default 120 s). */
  requestTimeoutMs?: number;
  failOnFindings: boolean;
  report: ReportPolicy;
  /** Where a downloaded report is written (absolute or relative to cwd). */
  reportPath: string;
  /** Where the JSON of the failed results is written; undefined: not written. */
  resultsPath?: string;
  /** The most bytes the answers of one results read may hold together (default the client's
   *  MAX_LIST_BYTES): past it the read is not whole and no verdict is given. */
  resultsMaxBytes?: number;
  /** Optional result files (see ../output/). */
  junitPath?: string;
  sarifPath?: string;
  /** The findings as CSV and as OCSF Detection Findings (../output/exports.ts). */
  csvPath?: string;
  ocsfPath?: string;
  /** The record of the run (../output/record.ts), written to `path` whatever its end; `label` names the
   *  tenant in roll-ups. */
  record?: { path?: string; label?: string };
  /** How long to wait for a report that is rendering. Default 300_000. */
  reportTimeoutMs?: number;
  /** Which failed findings fail the job (../gate/judge.ts). Default DEFAULT_GATE: every one. */
  gate?: GateSettings;
  /** At most this many scans listed before the trigger are kept by id in its pending window (the
   *  older ones are set aside by time); default MAX_EXISTING_SCAN_IDS. A face that saves one
   *  window per tenant asks for fewer. */
  pendingTriggerIdsMax?: number;
}
