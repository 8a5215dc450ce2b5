// The job's verdict, decided once from what the job knows at its end and carried in its result:
// whether the scan completed (and was judged), passed or failed and why, and whether the step fails.

import type { Scan } from '../../client/index.js';
import { gateFails, gateReason, type GateOutcome } from '../gate/judge.js';
import type { Verdict } from './types.js';

export interface VerdictFacts {
  /** The job waited for the scan to end (no verdict otherwise). */
  waited: boolean;
  scan: Scan;
  /** The gate's outcome: only for a scan that succeeded and whose results were judged. */
  gate?: GateOutcome;
  /** Findings that fail the gate fail the step. */
  failOnFindings: boolean;
}

export interface JobVerdict {
  /** The scan succeeded and its results were judged. */
  completed: boolean;
  verdict?: Verdict;
  /** Why the verdict is what it is (the gate's reason, or the scan's end). */
  verdictReason?: string;
  failStep: boolean;
}

export function decideVerdict({ waited, scan, gate, failOnFindings }: VerdictFacts): JobVerdict {
  const completed = scan.phase === 'succeeded' && gate !== undefined;
  if (!waited) return { completed, failStep: false };
  if (!completed || gate === undefined) {
    return {
      completed,
      verdict: 'failed',
      verdictReason: `the scan ended with status "${scan.status}"`,
      failStep: true,
    };
  }
  // A failed finding fails the gate, and so does a coverage drop beyond max-coverage-drop.
  const fails = gateFails(gate);
  return {
    completed,
    verdict: fails ? 'failed' : 'passed',
    verdictReason: gateReason(gate),
    failStep: fails && failOnFindings,
  };
}
