// --fail-on-severity, --baseline, --fail-on and --waivers: the gate's settings of `scan run` and
// `scan results`, checked before any request.

import {
  gateProblem,
  parseBaseline,
  parseFailOn,
  parsePath,
  parseSeverityThreshold,
  waiversFileOrDefault,
  type GateSettings,
  type SettingsProblems,
} from '../pipeline/index.js';
import type { ParsedInput } from './command.js';
import type { OptionName } from './options.js';

export const GATE_OPTIONS: OptionName[] = ['fail-on-severity', 'baseline', 'fail-on', 'waivers'];

function text(input: ParsedInput, name: OptionName): string | undefined {
  const value = input.values[name];
  return typeof value === 'string' ? value : undefined;
}

/** The gate's settings; problems are added to `problems` (the caller throws them all at once). */
export async function gateSettingsOf(
  input: ParsedInput,
  problems: SettingsProblems,
): Promise<GateSettings> {
  const gate: GateSettings = {
    threshold: problems.check(
      () => parseSeverityThreshold('--fail-on-severity', text(input, 'fail-on-severity')),
      'info',
    ),
    failOn: problems.check(() => parseFailOn('--fail-on', text(input, 'fail-on')), 'any'),
    baseline: problems.check(() => parseBaseline('--baseline', text(input, 'baseline')), {
      kind: 'none',
    }),
    waiversFile: await waiversFileOrDefault(
      problems.check(() => optionalPath('--waivers', text(input, 'waivers')), undefined),
    ),
  };
  const problem = gateProblem(gate, true, {
    failOn: '--fail-on',
    baseline: '--baseline',
    wait: '--watch',
  });
  if (problem) problems.add(problem);
  return gate;
}

function optionalPath(label: string, raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  const value = parsePath(label, raw, '');
  return value === '' ? undefined : value;
}
