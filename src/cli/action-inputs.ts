// An input of the GitHub Action or a sub-action typed as a flag (`--junit-file`), or an output
// that names a file the Action writes (`--record-file`): what the CLI has in its place. Rows of the
// shared settings tables name both; the rest are listed here, and test/cli/action-inputs.test.ts
// holds the list to every action.yml. Each hint says, as data, what it points to, so whether it
// helps on the command typed is decided from that, never from its wording.

import {
  GATE_SETTINGS,
  JOB_SETTINGS,
  NOTIFY_SETTINGS,
  ROLLUP_SETTINGS,
  type SettingRow,
} from '../pipeline/index.js';
import type { OptionName } from './options.js';

export interface ActionNameHint {
  /** What the user reads after "that is an input of the GitHub Action: ". */
  says: string;
  /** The commands it tells the user to run instead (their words). */
  commands?: ReadonlyArray<readonly string[]>;
  /** The flags it points to. */
  flags?: readonly OptionName[];
}

const GITHUB_ONLY: ActionNameHint = {
  says: 'it is about GitHub (the run page, the pull request, issues, artifacts)',
};
const KEY_HANDOVER: ActionNameHint = {
  says: 'keys rotate hands the new key to --store-command',
  commands: [['keys', 'rotate']],
  flags: ['store-command'],
};

/** Inputs whose CLI counterpart is not a row of the shared tables, and what takes their place. */
export const INPUTS_WITHOUT_A_ROW: Record<string, ActionNameHint> = {
  'api-key': { says: 'the CLI reads the key from SERVICE_API_KEY' },
  'api-url': { says: 'the CLI reads the address from SERVICE_API_URL' },
  wait: { says: 'the CLI follows the scan with --watch', flags: ['watch'] },
  'request-timeout-seconds': {
    says: 'the flag is --request-timeout',
    flags: ['request-timeout'],
  },
  'notify-webhook': { says: 'the CLI reads the webhook address from TENANT_SCAN_NOTIFY_WEBHOOK' },
  'plan-fail-on': { says: 'rollup takes --fail-on', commands: [['rollup']], flags: ['fail-on'] },
  'markdown-file': { says: 'rollup takes --markdown', commands: [['rollup']], flags: ['markdown'] },
  records: {
    says: 'the records are arguments: tenant-scan rollup <records, plans or globs…>',
    commands: [['rollup']],
  },
  mode: {
    says: 'run tenant-scan tenant plan or tenant apply',
    commands: [
      ['tenant', 'plan'],
      ['tenant', 'apply'],
    ],
  },
  apply: {
    says: 'tenant apply --plan FILE applies a saved plan; tenant apply --file plans again and applies',
    commands: [['tenant', 'apply']],
    flags: ['plan', 'file'],
  },
  'plan-artifact': {
    says: 'tenant plan --out FILE saves the plan; tenant apply --plan FILE applies it',
    commands: [
      ['tenant', 'plan'],
      ['tenant', 'apply'],
    ],
    flags: ['out', 'plan'],
  },
  'secret-name': KEY_HANDOVER,
  environment: KEY_HANDOVER,
  organization: KEY_HANDOVER,
  'artifact-name': GITHUB_ONLY,
  'retention-days': GITHUB_ONLY,
  'job-summary': GITHUB_ONLY,
  annotations: GITHUB_ONLY,
  'github-token': GITHUB_ONLY,
  'check-run': GITHUB_ONLY,
  'pr-comment': GITHUB_ONLY,
  'tracking-issue': GITHUB_ONLY,
  'tracking-labels': GITHUB_ONLY,
  'tracking-assignees': GITHUB_ONLY,
};

/** Outputs of the Action that name a file it writes, whose CLI flag has another name. */
export const OUTPUT_FILES: Record<string, ActionNameHint> = {
  'record-file': { says: 'the flag is --record', flags: ['record'] },
  'rollup-file': {
    says: 'tenant-scan rollup <records…> --output json prints the roll-up',
    commands: [['rollup']],
    flags: ['output'],
  },
  'plan-file': {
    says: 'tenant plan --record FILE writes the plan',
    commands: [['tenant', 'plan']],
    flags: ['record'],
  },
  'saved-plan-file': {
    says: 'tenant plan --out FILE saves the plan',
    commands: [['tenant', 'plan']],
    flags: ['out'],
  },
};

/** The inputs whose row gives the CLI's flag another name: `junit-file` → the flag is --junit. */
export function rowHints(): Map<string, ActionNameHint> {
  const hints = new Map<string, ActionNameHint>();
  const tables = [JOB_SETTINGS, GATE_SETTINGS, ROLLUP_SETTINGS, NOTIFY_SETTINGS];
  for (const table of tables) {
    for (const row of Object.values(table) as Array<SettingRow<unknown>>) {
      if (row.input && row.flag && row.input !== row.flag) {
        hints.set(row.input, {
          says: `the flag is --${row.flag}`,
          flags: [row.flag as OptionName],
        });
      }
    }
  }
  return hints;
}

export interface ActionNameLine {
  /** "that is an input of the GitHub Action: the flag is --junit" */
  line: string;
  hint: ActionNameHint;
}

/** What the CLI has in place of an Action input or output `name`, or undefined for other words. */
export function actionInputHint(name: string): ActionNameLine | undefined {
  const input = rowHints().get(name) ?? INPUTS_WITHOUT_A_ROW[name];
  if (input) return { line: `that is an input of the GitHub Action: ${input.says}`, hint: input };
  const output = OUTPUT_FILES[name];
  return output && { line: `that is an output of the GitHub Action: ${output.says}`, hint: output };
}

/** Whether a hint helps on a command taking `options`: it tells the user to run another command,
 *  or each flag it points to is one this command takes (`--record` helps on scan run, not on
 *  scan results). */
export function hintFits(hint: ActionNameHint, options: ReadonlySet<string>): boolean {
  if ((hint.commands ?? []).length > 0) return true;
  return (hint.flags ?? []).every((flag) => options.has(flag));
}
