// An input of the GitHub Action or a sub-action typed as a flag (`--junit-file`), or an output
// that names a file the Action writes (`--record-file`): what the CLI has in its place. Rows of the
// shared settings tables name both; the rest are listed here, and test/cli/action-inputs.test.ts
// holds the list to every action.yml.

import {
  GATE_SETTINGS,
  JOB_SETTINGS,
  NOTIFY_SETTINGS,
  ROLLUP_SETTINGS,
  type SettingRow,
} from '../pipeline/index.js';

const GITHUB_ONLY = 'it is about GitHub (the run page, the pull request, issues, artifacts)';

/** Inputs whose CLI counterpart is not a row of the shared tables, and what takes their place. */
export const INPUTS_WITHOUT_A_ROW: Record<string, string> = {
  'api-key': 'the CLI reads the key from SERVICE_API_KEY',
  'api-url': 'the CLI reads the address from SERVICE_API_URL',
  wait: 'the CLI follows the scan with --watch',
  'request-timeout-seconds': 'the flag is --request-timeout',
  'notify-webhook': 'the CLI reads the webhook address from TENANT_SCAN_NOTIFY_WEBHOOK',
  'plan-fail-on': 'rollup takes --fail-on',
  'markdown-file': 'rollup takes --markdown',
  records: 'the records are arguments: tenant-scan rollup <records, plans or globs…>',
  mode: 'run tenant-scan tenant plan or tenant apply',
  apply:
    'tenant apply --plan FILE applies a saved plan; tenant apply --file plans again and applies',
  'plan-artifact': 'tenant plan --out FILE saves the plan; tenant apply --plan FILE applies it',
  'secret-name': 'keys rotate hands the new key to --store-command',
  environment: 'keys rotate hands the new key to --store-command',
  organization: 'keys rotate hands the new key to --store-command',
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
export const OUTPUT_FILES: Record<string, string> = {
  'record-file': 'the flag is --record',
  'rollup-file': 'tenant-scan rollup <records…> --output json prints the roll-up',
  'plan-file': 'tenant plan --record FILE writes the plan',
  'saved-plan-file': 'tenant plan --out FILE saves the plan',
};

function rowFlags(): Map<string, string> {
  const flags = new Map<string, string>();
  const tables = [JOB_SETTINGS, GATE_SETTINGS, ROLLUP_SETTINGS, NOTIFY_SETTINGS];
  for (const table of tables) {
    for (const row of Object.values(table) as Array<SettingRow<unknown>>) {
      if (row.input && row.flag && row.input !== row.flag) flags.set(row.input, row.flag);
    }
  }
  return flags;
}

/** "that is an input of the GitHub Action: the flag is --junit", or undefined for other words. */
export function actionInputHint(name: string): string | undefined {
  const flag = rowFlags().get(name);
  const hint = flag ? `the flag is --${flag}` : INPUTS_WITHOUT_A_ROW[name];
  if (hint) return `that is an input of the GitHub Action: ${hint}`;
  const output = OUTPUT_FILES[name];
  return output ? `that is an output of the GitHub Action: ${output}` : undefined;
}
