// Gate settings that depend on one another or on the disk, checked the same way by both faces.

import { stat } from 'node:fs/promises';
import type { GateSettings } from './judge.js';
import { DEFAULT_WAIVERS_FILE } from './waivers.js';

/** The waivers file named, else the default one when it exists, else none. */
export async function waiversFileOrDefault(named: string | undefined): Promise<string | undefined> {
  if (named !== undefined) return named;
  const info = await stat(DEFAULT_WAIVERS_FILE).catch(() => undefined);
  return info?.isFile() ? DEFAULT_WAIVERS_FILE : undefined;
}

/** One line when the gate's settings contradict each other (names: how the face names them). */
export function gateProblem(
  gate: GateSettings,
  wait: boolean,
  names: { failOn: string; baseline: string; wait: string; history: string; slaDays: string },
): string | undefined {
  const history = gate.history ?? 0;
  if (gate.failOn === 'new' && gate.baseline.kind === 'none') {
    return `${names.failOn} is new but there is no baseline to compare with: set ${names.baseline} to previous or to a results file of an earlier run`;
  }
  if (gate.failOn === 'overdue' && history === 0) {
    return `${names.failOn} is overdue but no history is read to age the findings: set ${names.history} to how many previous scans to read (e.g. 10)`;
  }
  if (gate.slaDays !== undefined && history === 0) {
    return `${names.slaDays} needs ${names.history} (how many previous scans to read to age the findings)`;
  }
  if (!wait && (gate.baseline.kind !== 'none' || history > 0)) {
    const what = gate.baseline.kind !== 'none' ? names.baseline : names.history;
    return `${what} needs ${names.wait} (findings are compared only once the scan has finished)`;
  }
  return undefined;
}
