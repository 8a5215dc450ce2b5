// `scan run`'s command line rules, checked with its options before any variable is read or anything
// sent: a scan to trigger (--type) or to follow (--scan-id), and what needs --watch or --tenants.

import {
  AS_TYPED,
  shownAsTyped,
  stringOption,
  type OptionNaming,
  type ParsedInput,
} from '../command.js';
import { UsageError, listWords } from '../errors.js';
import { GATE_OPTIONS } from '../gate-options.js';
import type { OptionName } from '../options.js';
import {
  EXPORT_OPTIONS,
  RESULT_FILE_OPTIONS,
  checkTenantsOnly,
  isTenantsRun,
} from './scan-run-tenants.js';

export const COMMAND = 'scan run';

/** Options that need --watch: they act on the scan followed to its end. */
export const WATCH_ONLY: OptionName[] = [
  'scan-id',
  'fail-on-findings',
  ...GATE_OPTIONS,
  ...RESULT_FILE_OPTIONS,
  'html',
  ...EXPORT_OPTIONS,
  'timeout',
  'stall-minutes',
  'results-max-mib',
  'notify-format',
  'notify-on',
];

function checkWatchOnly(input: ParsedInput): void {
  if (input.values.watch === true) return;
  const given = WATCH_ONLY.filter((name) => input.values[name] !== undefined);
  if (given.length > 0) {
    const verb = given.length === 1 ? 'needs' : 'need';
    throw new UsageError(`${listWords(given.map((n) => `--${n}`))} ${verb} --watch`, COMMAND);
  }
}

/** The command line's rules, before any variable is read or anything sent. */
export function checkUsage(input: ParsedInput, optionName: OptionNaming = AS_TYPED): void {
  checkScanChoice(input, optionName);
  if (isTenantsRun(input)) return;
  checkTenantsOnly(input);
  checkWatchOnly(input);
}

/** A scan to trigger (--type) or one to follow (--scan-id): one of the two. */
function checkScanChoice(input: ParsedInput, optionName: OptionNaming): void {
  const type = stringOption(input, 'type');
  const followed = stringOption(input, 'scan-id');
  if (type !== undefined && followed !== undefined) {
    throw new UsageError(
      '--scan-id follows a scan that exists, of its own type: leave --type out',
      COMMAND,
    );
  }
  if (followed !== undefined && isTenantsRun(input)) {
    throw new UsageError('--scan-id follows one scan: it cannot be used with --tenants', COMMAND);
  }
  if (type === undefined && followed === undefined) {
    const typeName = optionName('--type');
    const example = shownAsTyped(optionName, '--type') ? '--type compliance' : 'compliance';
    // a fleet's tenants are each scanned anew: there is no scan of theirs to follow
    const orFollow = isTenantsRun(input) ? '' : ', or --scan-id <id> to follow a scan that exists';
    throw new UsageError(`${typeName} is required (for example ${example})${orFollow}`, COMMAND);
  }
}
