// --fail-on-severity, --baseline, --fail-on, --waivers, --waivers-max-days, --history and
// --sla-days: the gate's
// settings of `scan run` and `scan results`, checked before any request.

import {
  gateProblem,
  parseBaseline,
  parseFailOn,
  parseHistory,
  parseOptionalPath,
  parseSlaDays,
  parseWaiversMaxDays,
  DEFAULT_WAIVERS_MAX_DAYS,
  parseSeverityThreshold,
  waiversFileOrDefault,
  type GateSettings,
  type SettingsProblems,
} from '../pipeline/index.js';
import { stringOption, type CommandContext, type ParsedInput } from './command.js';
import { listWords } from './errors.js';
import type { OptionName } from './options.js';

export const GATE_OPTIONS: OptionName[] = [
  'fail-on-severity',
  'baseline',
  'fail-on',
  'waivers',
  'waivers-max-days',
  'history',
  'sla-days',
];

/** The gate's settings; problems are added to `problems` (the caller throws them all at once). */
export async function gateSettingsOf(
  input: ParsedInput,
  problems: SettingsProblems,
): Promise<GateSettings> {
  const gate: GateSettings = {
    threshold: problems.check(
      () => parseSeverityThreshold('--fail-on-severity', stringOption(input, 'fail-on-severity')),
      'info',
    ),
    failOn: problems.check(() => parseFailOn('--fail-on', stringOption(input, 'fail-on')), 'any'),
    baseline: problems.check(() => parseBaseline('--baseline', stringOption(input, 'baseline')), {
      kind: 'none',
    }),
    waiversFile: await waiversFileOrDefault(
      problems.check(
        () => parseOptionalPath('--waivers', stringOption(input, 'waivers')),
        undefined,
      ),
    ),
    history: problems.check(() => parseHistory('--history', stringOption(input, 'history')), 0),
    slaDays: problems.check(
      () => parseSlaDays('--sla-days', stringOption(input, 'sla-days')),
      undefined,
    ),
    waiversMaxDays: problems.check(
      () => parseWaiversMaxDays('--waivers-max-days', stringOption(input, 'waivers-max-days')),
      DEFAULT_WAIVERS_MAX_DAYS,
    ),
  };
  const problem = gateProblem(gate, true, {
    failOn: '--fail-on',
    baseline: '--baseline',
    wait: '--watch',
    history: '--history',
    slaDays: '--sla-days',
  });
  if (problem) problems.add(problem);
  return gate;
}

/** Flags whose names say "fail on": giving one turns the gate on, as --fail-on-findings does. A
 *  user who writes --fail-on-severity high expects high findings to fail the step (the Action's
 *  gate is on by default); the other gate flags shape the comparison and also serve reports. */
export const GATE_ON_OPTIONS: OptionName[] = ['fail-on-severity', 'fail-on'];

/** Whether the exit code follows the gate (2 when failed findings fail it). */
export function gateIsOn(input: ParsedInput): boolean {
  return (
    input.values['fail-on-findings'] === true ||
    GATE_ON_OPTIONS.some((name) => input.values[name] !== undefined)
  );
}

/** Gate flags that do not turn the gate on change the verdict and the JSON, not the exit code
 *  (as the service's CLI does without --fail-on-findings). Said at once, before any request, so
 *  nobody waits a whole scan to learn it or relies on it silently. */
export function noteGateOff(ctx: CommandContext, input: ParsedInput): void {
  if (gateIsOn(input)) return;
  const given = GATE_OPTIONS.filter((name) => input.values[name] !== undefined);
  if (given.length === 0) return;
  const flags = listWords(given.map((name) => `--${name}`));
  ctx.note(
    `note: the gate is off: ${flags} change${given.length === 1 ? 's' : ''} the verdict, not the exit code; add --fail-on-findings to exit 2 when the gate fails`,
  );
}
