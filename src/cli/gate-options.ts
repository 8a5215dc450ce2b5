// --fail-on-severity, --baseline, --fail-on, --waivers, --waivers-max-days, --history and
// --sla-days: the gate's settings of `scan run` and `scan results` (the settings table's rows, read
// from the command line), checked before any request.

import {
  GATE_SETTINGS,
  readGateSettings,
  type GateSettings,
  type SettingsProblems,
} from '../pipeline/index.js';
import { type CommandContext, type OptionNaming, type ParsedInput } from './command.js';
import { flagSource } from './flag-table.js';
import { listWords } from './errors.js';
import type { OptionName } from './options.js';

/** The gate's flags, from the settings table. */
export const GATE_OPTIONS: OptionName[] = Object.values(GATE_SETTINGS).map(
  (row) => row.flag as OptionName,
);

/** The gate's settings; problems are added to `problems` (the caller throws them all at once). */
export function gateSettingsOf(
  input: ParsedInput,
  problems: SettingsProblems,
  optionName?: OptionNaming,
): Promise<GateSettings> {
  return readGateSettings(flagSource(input, problems, optionName), problems, {
    wait: true,
    waitLabel: '--watch',
  });
}

/** Flags whose names say "fail on": giving one turns the gate on, as --fail-on-findings does. A
 *  user who writes --fail-on-severity high expects high findings to fail the step (the Action's
 *  gate is on by default); the other gate flags shape the comparison and also serve reports. */
export const GATE_ON_OPTIONS: OptionName[] = ['fail-on-severity', 'fail-on'];

/** Whether the exit code follows the gate (2 when failed findings fail it): --fail-on-findings,
 *  or any flag of the command's list that turns it on. */
export function gateIsOn(
  input: ParsedInput,
  gateOn: readonly OptionName[] = GATE_ON_OPTIONS,
): boolean {
  return (
    input.values['fail-on-findings'] === true ||
    gateOn.some((name) => input.values[name] !== undefined)
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
