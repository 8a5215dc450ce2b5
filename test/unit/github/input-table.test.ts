// The settings table: every input of action.yml has exactly one row, every row an input or a flag
// that exists (and that scan run takes), the rows both faces have are one, and a row parses the same text the same way in both faces (only the name differs).
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { describe, it } from 'node:test';
import { parse } from 'yaml';
import { SCAN_RUN } from '../../../src/cli/commands/scan-run.js';
import { SCAN_RUN_FLAGS, TENANTS_FLAGS } from '../../../src/cli/flag-table.js';
import { OPTION_NAMES } from '../../../src/cli/options.js';
import { ACTION_INPUTS } from '../../../src/github/input-table.js';
import { NOTIFY_INPUTS } from '../../../src/github/notify/inputs.js';
import { NOTIFY_SETTINGS } from '../../../src/pipeline/notify/settings.js';
import { SettingsProblems } from '../../../src/pipeline/common/settings-problems.js';
import {
  GATE_SETTINGS,
  JOB_SETTINGS,
  readGateSettings,
  readSettings,
  type SettingRow,
} from '../../../src/pipeline/settings/table.js';

async function actionInputs(): Promise<string[]> {
  const text = await readFile(new URL('../../../action.yml', import.meta.url), 'utf8');
  return Object.keys((parse(text) as { inputs: Record<string, unknown> }).inputs);
}

describe('the settings table', () => {
  it('has one row for each input of action.yml, and none for an input it lacks', async () => {
    const rows = [...Object.values(ACTION_INPUTS), ...Object.values(GATE_SETTINGS)];
    const inTable = [...rows.map((row: SettingRow<unknown>) => row.input ?? ''), ...NOTIFY_INPUTS];
    assert.deepEqual([...inTable].sort(), (await actionInputs()).sort());
  });

  it("names only flags the CLI has, and scan run takes each of the job's and the gate's", () => {
    const rows = [
      ...Object.values(GATE_SETTINGS),
      ...Object.values(SCAN_RUN_FLAGS),
      ...Object.values(TENANTS_FLAGS),
    ];
    for (const row of [...rows, ...Object.values(NOTIFY_SETTINGS)]) {
      assert.ok(OPTION_NAMES.includes(row.flag as never), `--${row.flag}`);
      assert.ok((SCAN_RUN.options ?? []).includes(row.flag as never), `scan run --${row.flag}`);
    }
  });

  it('shares the rows both faces have: the Action reads the very rows the CLI reads', () => {
    for (const [key, row] of Object.entries(JOB_SETTINGS)) {
      assert.ok(row.input && row.flag, key);
      assert.ok(Object.values(ACTION_INPUTS).includes(row as never), `the Action's ${key}`);
      assert.ok(Object.values(SCAN_RUN_FLAGS).includes(row as never), `the CLI's ${key}`);
    }
  });

  it('reads each row once, a bad value being its one problem and its fallback', () => {
    const problems = new SettingsProblems();
    const given: Record<string, string> = { wait: 'maybe', annotations: '7' };
    const values = readSettings(
      ACTION_INPUTS,
      (row) => ({ name: `input '${row.input}'`, raw: given[row.input ?? ''] ?? '' }),
      problems,
    );
    assert.equal(values.wait, true, 'the fallback of a bad value');
    assert.equal(values.annotations, 7);
    assert.equal(values.scanType, 'compliance');
    assert.equal(values.apiKey, '', 'an empty key is a problem too');
    assert.equal(problems.problems.length, 2, problems.problems.join('\n'));
    assert.match(problems.problems[0] ?? '', /^input 'api-key' is required/);
    assert.match(problems.problems[1] ?? '', /^input 'wait' must be true or false/);
  });

  it("the gate's rows: the same parse in both faces, each naming the setting its own way", async () => {
    const text = { 'fail-on': 'new', history: 'x' } as Record<string, string>;
    const read = async (name: (row: SettingRow<unknown>) => string) => {
      const problems = new SettingsProblems();
      const gate = await readGateSettings(
        (row) => ({ name: name(row), raw: text[row.input ?? ''] }),
        problems,
        { wait: true, waitLabel: 'wait' },
      );
      return { gate, problems: problems.problems };
    };
    const action = await read((row) => `input '${row.input}'`);
    const cli = await read((row) => `--${row.flag}`);
    assert.deepEqual(action.gate, cli.gate);
    assert.equal(action.gate.failOn, 'new');
    assert.deepEqual(
      cli.problems.map((p) =>
        p
          .replace(/--history/g, "input 'history'")
          .replace(/--fail-on/g, "input 'fail-on'")
          .replace(/--baseline/g, "input 'baseline'"),
      ),
      action.problems,
    );
    assert.equal(action.problems.length, 2, action.problems.join('\n'));
    assert.match(action.problems[0] ?? '', /^input 'history' must be/);
    assert.match(action.problems[1] ?? '', /^input 'fail-on' is new but there is no baseline/);
  });
});
