// Gate settings that depend on one another or on the disk, checked the same way by both faces.

import { stat } from 'node:fs/promises';
import type { GateSettings } from './gate.js';
import { DEFAULT_WAIVERS_FILE } from './waivers.js';

/** The waivers file named, else the default one when it exists, else none. */
export async function waiversFileOrDefault(named: string | undefined): Promise<string | undefined> {
  if (named !== undefined) return named;
  const info = await stat(DEFAULT_WAIVERS_FILE).catch(() => undefined);
  return info?.isFile() ? DEFAULT_WAIVERS_FILE : undefined;
}

/** One line when the gate's settings contradict each other (labels: how the face names them). */
export function gateProblem(
  gate: GateSettings,
  wait: boolean,
  labels: { failOn: string; baseline: string; wait: string },
): string | undefined {
  if (gate.failOn === 'new' && gate.baseline.kind === 'none') {
    return `${labels.failOn} is new but there is no baseline to compare with: set ${labels.baseline} to previous or to a results file of an earlier run`;
  }
  if (!wait && gate.baseline.kind !== 'none') {
    return `${labels.baseline} needs ${labels.wait} (findings are compared only once the scan has finished)`;
  }
  return undefined;
}
