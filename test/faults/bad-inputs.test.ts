// The bad-input table: malformed inputs and environments, each run through dist/index.js like the
// runner. Every row must give exactly one clear ::error:: line that names what is wrong, exit code 1,
// and not a single request at the emulator (API or download origin).
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { startEmulator } from '../emulator/emulator.js';
import {
  createJobDirectory,
  removeJobDirectory,
  runActionStep,
  type JobDirectory,
  type StepResult,
} from '../helpers/runner.js';
import { secretForms } from '../helpers/secret-scan.js';

interface BadInput {
  name: string;
  /** Inputs over the good ones (the emulator's key and URL, report: none). */
  inputs?: (job: JobDirectory) => Record<string, string>;
  /** Env over the runner's (undefined removes a variable). */
  env?: (job: JobDirectory) => Record<string, string | undefined>;
  /** Prepares the job directory (files the row needs). */
  prepare?: (job: JobDirectory) => Promise<void>;
  /** What the one error line must say. */
  says: RegExp;
  /** A reported finding the action does not meet yet: the row runs as `todo` (remove when fixed). */
  finding?: string;
}

const GOOD_KEY_SHAPE = 'ak_live_badInputTableKey00000000';

const ROWS: BadInput[] = [
  // api-key
  { name: 'empty api-key', inputs: () => ({ 'api-key': '' }), says: /api-key.*required/ },
  {
    name: 'whitespace api-key',
    inputs: () => ({ 'api-key': '   \t ' }),
    says: /api-key.*required/,
  },
  {
    name: 'api-key with an inner newline (two keys pasted)',
    inputs: () => ({ 'api-key': `${GOOD_KEY_SHAPE}\n${GOOD_KEY_SHAPE}x` }),
    says: /api-key.*(whitespace|line break)/,
  },
  {
    name: 'api-key with an inner space',
    inputs: () => ({ 'api-key': 'ak_live_abc def' }),
    says: /api-key.*(whitespace|line break)/,
  },
  {
    name: 'api-key with a carriage return inside',
    inputs: () => ({ 'api-key': 'ak_live_abc\rdef' }),
    says: /api-key.*(whitespace|line break)/,
  },
  {
    name: 'api-key with a wrong prefix',
    inputs: () => ({ 'api-key': 'sk_test_0123456789' }),
    says: /api-key.*ak_live_/,
  },
  {
    name: 'api-key that is only the prefix',
    inputs: () => ({ 'api-key': 'ak_live_' }),
    says: /api-key.*ak_live_/,
  },
  // api-url / SERVICE_API_URL
  {
    name: 'no API address at all (neither api-url nor SERVICE_API_URL)',
    inputs: () => ({ 'api-url': '' }),
    env: () => ({ SERVICE_API_URL: undefined }),
    says: /^Sanity checks failed: no API address — set the api-url input or SERVICE_API_URL$/,
  },
  {
    name: 'http:// api-url to a remote host',
    inputs: () => ({ 'api-url': 'http://api.example.com/api/v1' }),
    says: /api-url.*https/,
  },
  {
    name: 'api-url that is not a URL',
    inputs: () => ({ 'api-url': 'not a url' }),
    says: /api-url.*not a URL/,
  },
  {
    name: 'api-url without a scheme',
    inputs: () => ({ 'api-url': 'api.example.com/v1' }),
    says: /api-url.*not a URL/,
  },
  {
    name: 'ftp:// api-url',
    inputs: () => ({ 'api-url': 'ftp://api.example.com/v1' }),
    says: /api-url.*https/,
  },
  {
    name: 'api-url with credentials',
    inputs: () => ({ 'api-url': 'https://user:secret@api.example.com/v1' }),
    says: /api-url.*user name or password/,
  },
  {
    name: 'api-url with a query',
    inputs: () => ({ 'api-url': 'https://api.example.com/v1?key=1' }),
    says: /api-url.*query/,
  },
  {
    name: 'SERVICE_API_URL http:// to a remote host (api-url empty)',
    inputs: () => ({ 'api-url': '' }),
    env: () => ({ SERVICE_API_URL: 'http://10.1.2.3/api/v1' }),
    says: /SERVICE_API_URL.*https/,
  },
  {
    name: 'api-url with a fragment',
    inputs: () => ({ 'api-url': 'https://api.example.com/v1#x' }),
    says: /api-url.*fragment/,
  },
  {
    name: 'api-url without a host',
    inputs: () => ({ 'api-url': 'https://' }),
    says: /api-url.*not a URL/,
  },
  // timeouts
  {
    name: 'negative scan-timeout-minutes',
    inputs: () => ({ 'scan-timeout-minutes': '-5' }),
    says: /scan-timeout-minutes/,
  },
  {
    name: 'zero scan-timeout-minutes',
    inputs: () => ({ 'scan-timeout-minutes': '0' }),
    says: /scan-timeout-minutes/,
  },
  {
    name: 'huge scan-timeout-minutes',
    inputs: () => ({ 'scan-timeout-minutes': '99999999999' }),
    says: /scan-timeout-minutes/,
  },
  {
    name: 'zero request-timeout-seconds',
    inputs: () => ({ 'request-timeout-seconds': '0' }),
    says: /request-timeout-seconds' must be a number of seconds above 0 and at most 3600, got "0"/,
  },
  {
    name: 'request-timeout-seconds over an hour',
    inputs: () => ({ 'request-timeout-seconds': '3601' }),
    says: /request-timeout-seconds' must be a number of seconds above 0 and at most 3600/,
  },
  {
    name: 'request-timeout-seconds with a unit',
    inputs: () => ({ 'request-timeout-seconds': '120s' }),
    says: /request-timeout-seconds' must be a number of seconds/,
  },
  {
    name: 'negative request-timeout-seconds',
    inputs: () => ({ 'request-timeout-seconds': '-1' }),
    says: /request-timeout-seconds/,
  },
  // the gate
  {
    name: 'fail-on-severity not a severity',
    inputs: () => ({ 'fail-on-severity': 'urgent' }),
    says: /input 'fail-on-severity' must be one of info, low, medium, high, critical, got "urgent"/,
  },
  {
    name: 'fail-on neither any, new nor overdue',
    inputs: () => ({ 'fail-on': 'worse' }),
    says: /input 'fail-on' must be any, new \(needs a baseline\) or overdue \(needs a history\)/,
  },
  {
    name: 'fail-on overdue without a history',
    inputs: () => ({ 'fail-on': 'overdue' }),
    says: /input 'fail-on' is overdue but no history is read to age the findings: set input 'history'/,
  },
  {
    name: 'history that is not a number of scans',
    inputs: () => ({ history: '-1' }),
    says: /input 'history' must be a whole number of previous scans from 0 to 100, got "-1"/,
  },
  {
    name: 'history over the bound',
    inputs: () => ({ history: '101' }),
    says: /input 'history' must be a whole number of previous scans from 0 to 100/,
  },
  {
    name: 'sla-days that are not severity=days pairs',
    inputs: () => ({ history: '3', 'sla-days': 'critical=soon' }),
    says: /input 'sla-days' must be severity=days pairs/,
  },
  {
    name: 'fail-on new without a baseline',
    inputs: () => ({ 'fail-on': 'new' }),
    says: /input 'fail-on' is new but there is no baseline to compare with: set input 'baseline'/,
  },
  {
    name: 'baseline previous with wait false',
    inputs: () => ({ baseline: 'previous', wait: 'false' }),
    says: /input 'baseline' needs wait: true/,
  },
  {
    name: 'baseline file that does not exist',
    inputs: () => ({ baseline: 'main-results.json' }),
    says: /baseline file "main-results\.json" was not found: give the results file/,
  },
  {
    name: 'baseline file that is not JSON',
    inputs: () => ({ baseline: 'base.json' }),
    prepare: (job) => writeFile(join(job.workspace, 'base.json'), '<html>'),
    says: /baseline file "base\.json" is not JSON/,
  },
  {
    name: 'baseline file without a list of findings',
    inputs: () => ({ baseline: 'base.json' }),
    prepare: (job) => writeFile(join(job.workspace, 'base.json'), '{"verdict":"failed"}'),
    says: /baseline file "base\.json" holds no list of findings/,
  },
  {
    name: 'waivers-file that does not exist',
    inputs: () => ({ 'waivers-file': 'waivers.yml' }),
    says: /waivers file "waivers\.yml" was not found/,
  },
  {
    name: 'default waivers file with broken YAML',
    prepare: async (job) => {
      await mkdir(join(job.workspace, '.tenant-scan'), { recursive: true });
      await writeFile(
        join(job.workspace, '.tenant-scan', 'waivers.yml'),
        'waivers:\n  - check: [a\n',
      );
    },
    says: /\.tenant-scan\/waivers\.yml line \d+: .*; fix the YAML syntax/,
  },
  {
    name: 'waivers file that is a list, not a mapping',
    inputs: () => ({ 'waivers-file': 'w.yml' }),
    prepare: (job) => writeFile(join(job.workspace, 'w.yml'), '- check: CIS-1\n'),
    says: /w\.yml line 1: not a waivers file: write `waivers:`/,
  },
  {
    name: 'waiver with an expiry that is not a date',
    inputs: () => ({ 'waivers-file': 'w.yml' }),
    prepare: (job) =>
      writeFile(
        join(job.workspace, 'w.yml'),
        'waivers:\n  - check: CIS-1\n    reason: ok\n    expires: 2027-02-30\n',
      ),
    says: /w\.yml line 2: waiver 1 expires "2027-02-30" is not a date: write YYYY-MM-DD/,
  },
  {
    name: 'waiver with an unknown key',
    inputs: () => ({ 'waivers-file': 'w.yml' }),
    prepare: (job) =>
      writeFile(
        join(job.workspace, 'w.yml'),
        'waivers:\n  - check: CIS-1\n    reason: ok\n    expires: 2027-02-28\n    team: x\n',
      ),
    says: /w\.yml line 2: waiver 1 has an unknown key "team": use check, reason, expires, owner/,
  },
  {
    name: 'a waiver until 9999-12-31 (further ahead than waivers-max-days)',
    inputs: () => ({ 'waivers-file': 'w.yml' }),
    prepare: (job) =>
      writeFile(
        join(job.workspace, 'w.yml'),
        'waivers:\n  - check: CIS-1\n    reason: ok\n    expires: 2026-12-01\n  - check: CIS-9\n    reason: forever\n    expires: 9999-12-31\n',
      ),
    says: /w\.yml line 5: the waiver of check "CIS-9" expires 9999-12-31, more than 365 days ahead \(waivers-max-days\): set a date until \d{4}-\d\d-\d\d at the latest/,
  },
  {
    name: 'a waiver further ahead than a shorter waivers-max-days',
    inputs: () => ({ 'waivers-file': 'w.yml', 'waivers-max-days': '30' }),
    prepare: (job) =>
      writeFile(
        join(job.workspace, 'w.yml'),
        `waivers:\n  - check: CIS-2\n    reason: ok\n    expires: ${new Date(Date.now() + 45 * 86_400_000).toISOString().slice(0, 10)}\n`,
      ),
    says: /w\.yml line 2: the waiver of check "CIS-2" expires .*, more than 30 days ahead \(waivers-max-days\)/,
  },
  {
    name: 'waivers-max-days that is no number of days',
    inputs: () => ({ 'waivers-max-days': '0' }),
    says: /input 'waivers-max-days' must be a whole number of days from 1 to 3650, got "0"/,
  },
  {
    name: 'scan-timeout-minutes in words',
    inputs: () => ({ 'scan-timeout-minutes': 'ten' }),
    says: /scan-timeout-minutes/,
  },
  {
    name: 'scan-timeout-minutes as Infinity',
    inputs: () => ({ 'scan-timeout-minutes': 'Infinity' }),
    says: /scan-timeout-minutes/,
  },
  // report
  {
    name: 'unknown report value',
    inputs: () => ({ report: 'always' }),
    says: /report.*none, if-ready, generate/,
  },
  {
    name: 'report as a boolean',
    inputs: () => ({ report: 'true' }),
    says: /report.*none, if-ready, generate/,
  },
  {
    name: 'report without waiting',
    inputs: () => ({ report: 'generate', wait: 'false' }),
    says: /report.*wait/,
  },
  // booleans
  {
    name: 'non-boolean fail-on-findings',
    inputs: () => ({ 'fail-on-findings': 'maybe' }),
    says: /fail-on-findings.*true or false/,
  },
  { name: 'non-boolean wait', inputs: () => ({ wait: 'sometimes' }), says: /wait.*true or false/ },
  {
    name: 'non-boolean job-summary',
    inputs: () => ({ 'job-summary': '2' }),
    says: /job-summary.*true or false/,
  },
  {
    name: 'non-boolean check-run',
    inputs: () => ({ 'check-run': 'enabled' }),
    says: /check-run.*true or false/,
  },
  {
    name: 'non-boolean pr-comment',
    inputs: () => ({ 'pr-comment': 'y' }),
    says: /pr-comment.*true or false/,
  },
  // numbers
  { name: 'negative annotations', inputs: () => ({ annotations: '-1' }), says: /annotations/ },
  { name: 'fractional annotations', inputs: () => ({ annotations: '1.5' }), says: /annotations/ },
  { name: 'annotations in words', inputs: () => ({ annotations: 'ten' }), says: /annotations/ },
  { name: 'retention-days 0', inputs: () => ({ 'retention-days': '0' }), says: /retention-days/ },
  { name: 'retention-days 91', inputs: () => ({ 'retention-days': '91' }), says: /retention-days/ },
  {
    name: 'retention-days in words',
    inputs: () => ({ 'retention-days': 'week' }),
    says: /retention-days/,
  },
  // file names and paths
  {
    name: 'artifact-name with path traversal',
    inputs: () => ({ 'artifact-name': '../../evil.pdf' }),
    says: /artifact-name/,
  },
  {
    name: 'artifact-name with a directory',
    inputs: () => ({ 'artifact-name': 'reports/x.pdf' }),
    says: /artifact-name/,
  },
  {
    name: 'artifact-name with a backslash',
    inputs: () => ({ 'artifact-name': '..\\evil.pdf' }),
    says: /artifact-name/,
  },
  { name: 'artifact-name ..', inputs: () => ({ 'artifact-name': '..' }), says: /artifact-name/ },
  {
    name: 'report-path that is a directory',
    inputs: () => ({ report: 'generate', 'report-path': '.' }),
    says: /report-path.*directory/,
  },
  {
    name: 'report-path inside a file (unwritable)',
    inputs: (job) => ({
      report: 'if-ready',
      'report-path': join(job.workspace, 'README.md', 'report.pdf'),
    }),
    prepare: (job) => writeFile(join(job.workspace, 'README.md'), '# readme\n'),
    says: /report-path.*inside a file/,
  },
  {
    name: 'report-path with a newline',
    inputs: () => ({ report: 'generate', 'report-path': 'a\nb.pdf' }),
    says: /report-path.*line break/,
  },
  {
    name: 'scan-id with path traversal',
    inputs: () => ({ 'scan-id': '../../tenants/me/api-keys' }),
    says: /scan-id/,
  },
  {
    name: 'scan-id with a query',
    inputs: () => ({ 'scan-id': 'abc?result=Failed' }),
    says: /scan-id/,
  },
  {
    name: 'scan-type with a slash',
    inputs: () => ({ 'scan-type': 'compliance/../x' }),
    says: /scan-type/,
  },
  {
    name: 'RUNNER_TEMP inside a file (the results file cannot be written)',
    env: (job) => ({ RUNNER_TEMP: join(job.workspace, 'not-a-dir') }),
    prepare: (job) => writeFile(join(job.workspace, 'not-a-dir'), 'x'),
    says: /results file.*inside a file/,
  },
  // GitHub side
  {
    name: 'check-run without a token',
    inputs: () => ({ 'check-run': 'true', 'github-token': '' }),
    says: /github-token/,
  },
  {
    name: 'missing event file with pr-comment on',
    inputs: () => ({ 'pr-comment': 'true' }),
    env: (job) => ({ GITHUB_EVENT_PATH: join(job.runnerTemp, 'no-such-event.json') }),
    says: /GITHUB_EVENT_PATH|event/,
  },
  {
    name: 'unreadable event file (a directory) with check-run on',
    inputs: () => ({ 'check-run': 'true' }),
    env: (job) => ({ GITHUB_EVENT_PATH: job.runnerTemp }),
    prepare: (job) => mkdir(job.runnerTemp, { recursive: true }).then(() => undefined),
    says: /GITHUB_EVENT_PATH|event/,
  },
];

describe('bad-input table: one clear line, exit 1, no request', { concurrency: 4 }, () => {
  const jobs: JobDirectory[] = [];
  after(() => Promise.all(jobs.map((job) => removeJobDirectory(job))));

  it('has at least 30 rows', () => assert.ok(ROWS.length >= 30, `${ROWS.length} rows`));

  for (const row of ROWS) {
    it(row.name, { todo: row.finding }, async () => {
      // An emulator per row: its request log is this row's alone.
      const emulator = await startEmulator({ seed: 3 });
      try {
        const job = await createJobDirectory();
        jobs.push(job);
        await row.prepare?.(job);
        const step = await runActionStep({
          entry: 'main',
          job,
          inputs: { 'api-key': emulator.apiKey, 'api-url': emulator.url, ...row.inputs?.(job) },
          env: row.env?.(job),
          timeoutMs: 20_000,
        });
        assertOneClearLine(step, row, emulator.apiKey);
        assert.deepEqual(
          emulator.requests().map((r) => `${r.origin} ${r.method} ${r.path}`),
          [],
          'no request reached the emulator',
        );
      } finally {
        await emulator.close();
      }
    });
  }
});

function assertOneClearLine(step: StepResult, row: BadInput, apiKey: string): void {
  const log = `${step.stdout}\n${step.stderr}`;
  const errors = step.annotations.filter((a) => a.level === 'error');
  assert.equal(step.exitCode, 1, `exit code 1\n${log}`);
  assert.equal(errors.length, 1, `exactly one error line\n${log}`);
  const line = errors[0]?.message ?? '';
  assert.match(line, row.says, 'the line says what is wrong');
  assert.doesNotMatch(line, /\n/, 'one line');
  assert.doesNotMatch(
    log,
    /undefined|\[object Object\]|^\s+at \S+.*:\d+:\d+\)?$/m,
    'no stack trace, no "undefined"',
  );
  for (const form of secretForms(apiKey)) assert.ok(!line.includes(form), 'the key is not echoed');
}
