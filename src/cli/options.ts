// Every option of the CLI, once: its parseArgs type, its value name and its help line. A name has
// one meaning everywhere, so the whole command line can be parsed before the command is known.

import type { ParseArgsOptionsConfig } from 'node:util';

interface OptionInfo {
  type: 'string' | 'boolean';
  short?: string;
  /** Shown in help after the option, e.g. "<file>". */
  value?: string;
  help: string;
}

const OPTIONS = {
  output: {
    type: 'string',
    value: '<table|json>',
    help: 'Output format (default: SERVICE_OUTPUT, else table)',
  },
  json: { type: 'boolean', help: 'Same as --output json' },
  help: { type: 'boolean', short: 'h', help: 'Show help for the command' },
  version: { type: 'boolean', help: 'Print the version' },
  'request-timeout': {
    type: 'string',
    value: '<seconds>',
    help: 'Limit on each exchange with the service (default: SERVICE_REQUEST_TIMEOUT, else 120)',
  },
  type: { type: 'string', value: '<scan_type>', help: 'Scan type, e.g. compliance' },
  watch: { type: 'boolean', help: 'Follow progress until the scan finishes' },
  'scan-id': {
    type: 'string',
    value: '<id>',
    help: 'Follow this scan instead of triggering one (never cancelled by this command); needs --watch',
  },
  'fail-on-findings': {
    type: 'boolean',
    help: 'Exit with code 2 when failed findings fail the gate (--fail-on-severity and --fail-on turn it on too)',
  },
  'fail-on-severity': {
    type: 'string',
    value: '<info|low|medium|high|critical>',
    help: 'Only failed findings at this severity or above fail the gate (default info: all); turns the gate on',
  },
  baseline: {
    type: 'string',
    value: '<none|previous|file>',
    help: 'Compare with the previous completed scan of the type, or a results file of an earlier run',
  },
  'fail-on': {
    type: 'string',
    value: '<any|new|overdue>',
    help: 'Which failed findings fail the gate: any (default), new (not in the baseline) or overdue (past their deadline); turns the gate on',
  },
  file: {
    type: 'string',
    value: '<file>',
    help: 'tenant plan/apply: the tenant settings file (default .tenant-scan/tenant.yml)',
  },
  record: {
    type: 'string',
    value: '<file>',
    help: 'Also write the run record (what --output json prints), whatever the end, to this file: tenant-scan rollup reads it',
  },
  tenants: {
    type: 'string',
    value: '<file>',
    help: 'scan run: a JSON list of tenants [{"name", "api-url", "secret"}], secret naming the environment variable that holds the key; each tenant scanned at once, its record in --records',
  },
  concurrency: {
    type: 'string',
    value: '<n>',
    help: 'scan run --tenants: how many tenants are followed at once (default 50)',
  },
  records: {
    type: 'string',
    value: '<dir>',
    help: 'scan run --tenants: the directory of the records, one <name>.json per tenant',
  },
  'tenant-label': {
    type: 'string',
    value: '<name>',
    help: "The tenant's name in the record and in roll-ups (default: the tenant's name from the service)",
  },
  'notify-format': {
    type: 'string',
    value: '<teams|slack>',
    help: 'The chat format of the webhook in TENANT_SCAN_NOTIFY_WEBHOOK (default: guessed from its host)',
  },
  'notify-on': {
    type: 'string',
    value: '<change|new|failure|always>',
    help: 'When to post to TENANT_SCAN_NOTIFY_WEBHOOK (default change: new failing findings, fixed ones, an expired waiver, the verdict flipping)',
  },
  expect: {
    type: 'string',
    value: '<name,…>',
    help: 'The tenants expected (their scan run --tenant-label); each without a record is listed as missing and counts as failed',
  },
  markdown: { type: 'string', value: '<file>', help: 'Also write the roll-up as Markdown' },
  'max-failed-tenants': {
    type: 'string',
    value: '<n>',
    help: 'The roll-up fails only when more tenants than this fail (default 0); turns the gate on',
  },
  'max-age': {
    type: 'string',
    value: '<duration>',
    help: "A record or plan older than this (e.g. 36h, 7d, 90m: its scan time, the plan's checkedAt) is stale and counts as failed (default: any age); turns the gate on",
  },
  history: {
    type: 'string',
    value: '<scans>',
    help: 'Read this many previous completed scans of the type: how long each finding has failed, the trend (default 0)',
  },
  'sla-days': {
    type: 'string',
    value: '<severity=days,…>',
    help: 'Remediation deadlines (default critical=7,high=30,medium=90,low=180,info=365; needs --history)',
  },
  waivers: {
    type: 'string',
    value: '<file>',
    help: 'YAML waivers file (default .tenant-scan/waivers.yml when it exists)',
  },
  'waivers-max-days': {
    type: 'string',
    value: '<days>',
    help: 'Refuse a waiver that expires more than this many days ahead (default 365, at most 3650)',
  },
  'max-coverage-drop': {
    type: 'string',
    value: '<percent>',
    help: "With a baseline: fail the gate when more than this percent of the baseline's evaluated checks were not evaluated now (default 10; 100: off)",
  },
  'stall-minutes': {
    type: 'string',
    value: '<minutes>',
    help: 'Stop a scan whose progress stood still this long: cancelled, exit 1 (default 0: off)',
  },
  report: {
    type: 'string',
    value: '<none|if-ready|generate>',
    help: 'After the scan, download its report; generate may spend a report credit (default none)',
  },
  out: {
    type: 'string',
    short: 'o',
    value: '<file>',
    help: 'File to write the report to (default tenant-scan-report.pdf)',
  },
  plan: {
    type: 'string',
    value: '<file>',
    help: 'tenant apply: apply this saved plan (tenant plan --out) exactly, or nothing when the tenant or the file changed since',
  },
  junit: { type: 'string', value: '<file>', help: 'Write the results as JUnit XML' },
  sarif: {
    type: 'string',
    value: '<file>',
    help: 'Write the failed results as SARIF 2.1.0, for code scanning (each result at --sarif-location)',
  },
  csv: {
    type: 'string',
    value: '<file>',
    help: 'Write the findings as CSV for a spreadsheet (one row per finding; a fleet: every tenant)',
  },
  ocsf: {
    type: 'string',
    value: '<file>',
    help: 'Write the findings as OCSF 1.3 Detection Findings, one JSON object per line (JSON Lines)',
  },
  'sarif-location': {
    type: 'string',
    value: '<path>',
    help: "The repository file each SARIF result points at (default: the running GitHub workflow's file, else .github/workflows)",
  },
  'results-file': { type: 'string', value: '<file>', help: 'Write the failed results as JSON' },
  html: {
    type: 'string',
    value: '<file>',
    help: 'Write a self-contained HTML page to open in a browser: the verdict, counts, trend and every failed finding (docs/reports.md)',
  },
  'results-max-mib': {
    type: 'string',
    value: '<MiB>',
    help: 'The most the answers of one results read may hold together (default 32, at most 4096); past it the read is not whole: no verdict',
  },
  timeout: {
    type: 'string',
    value: '<minutes>',
    help: 'Give up waiting for the scan after this many minutes, and cancel it if this command started it (default 60)',
  },
  wait: { type: 'boolean', help: 'Wait while the report is rendering (up to --timeout)' },
  generate: {
    type: 'boolean',
    help: 'Generate the report first if it is not yet (may spend a report credit); implies --wait',
  },
  result: { type: 'string', value: '<result>', help: 'Only results with this result, e.g. Failed' },
  label: { type: 'string', value: '<label>', help: 'New label of the target' },
  'ms-tenant-id': {
    type: 'string',
    value: '<id>',
    help: 'Connected directory tenant recorded on the key (metadata only)',
  },
  'email-on-complete': {
    type: 'string',
    value: '<true|false>',
    help: 'Email when a scan completes',
  },
  'email-on-fail': { type: 'string', value: '<true|false>', help: 'Email when a scan fails' },
  'teams-on-complete': {
    type: 'string',
    value: '<true|false>',
    help: 'Post to the team-chat webhook when a scan completes',
  },
  'teams-on-fail': {
    type: 'string',
    value: '<true|false>',
    help: 'Post to the team-chat webhook when a scan fails',
  },
  'teams-webhook-url': {
    type: 'string',
    value: '<none>',
    help: 'none removes the team-chat webhook; an address is refused here (it carries a signature): use --teams-webhook-url-env',
  },
  'teams-webhook-url-env': {
    type: 'string',
    value: '<NAME>',
    help: 'The environment variable that holds the team-chat webhook address (e.g. from a secret)',
  },
  'store-command': {
    type: 'string',
    value: '<command>',
    help: 'keys rotate: the command that stores the new key, read on its standard input',
  },
  'store-read-command': {
    type: 'string',
    value: '<command>',
    help: 'keys rotate: a command that prints the key the store holds: keys never stored go with the next run, and the store is read back',
  },
  'store-env': {
    type: 'string',
    value: '<NAMES>',
    help: 'keys rotate: environment variables the store commands also get, comma-separated (they get PATH, HOME, TMPDIR, the locale, proxies and certificates); never one that holds an API key',
  },
  lineage: {
    type: 'string',
    value: '<name>',
    help: 'keys rotate: names the keys of this store (default: derived from --store-command)',
  },
  'grace-hours': {
    type: 'string',
    value: '<hours>',
    help: 'keys rotate: delete a replaced key only this long after its successor was made (default 24)',
  },
  'revoke-replaced': {
    type: 'boolean',
    help: 'keys rotate: also delete the key the rotation started from (e.g. the dashboard key), after the grace',
  },
  'dry-run': {
    type: 'boolean',
    help: 'keys rotate: say what would be created and deleted, change nothing',
  },
} as const satisfies Record<string, OptionInfo>;

export type OptionName = keyof typeof OPTIONS;

export const GLOBAL_OPTIONS: OptionName[] = [
  'output',
  'json',
  'request-timeout',
  'help',
  'version',
];

export const OPTION_NAMES = Object.keys(OPTIONS) as OptionName[];

/** Whether `name` is an option that takes a value. */
export function isStringOption(name: string): boolean {
  return (OPTIONS as Record<string, OptionInfo>)[name]?.type === 'string';
}

export function optionInfo(name: OptionName): OptionInfo {
  return OPTIONS[name];
}

/** All options for parseArgs: the command line is parsed once, then checked against the command. */
export function parseArgsConfig(): ParseArgsOptionsConfig {
  const config: ParseArgsOptionsConfig = {};
  for (const [name, info] of Object.entries(OPTIONS) as Array<[OptionName, OptionInfo]>) {
    config[name] = info.short ? { type: info.type, short: info.short } : { type: info.type };
  }
  return config;
}

/** "--out, -o <file>" for help; `value` is a command's own value list, if it has one. */
export function optionSignature(name: OptionName, value?: string): string {
  const info: OptionInfo = OPTIONS[name];
  const short = info.short ? `-${info.short}, ` : '';
  const shown = value ?? info.value;
  return `${short}--${name}${shown ? ` ${shown}` : ''}`;
}
