// SARIF writer: each failed check a result with rule id, level from severity, help text and link;
// valid against the SARIF 2.1.0 schema and clean under Microsoft's SARIF multitool.

import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { levelFromSeverity, toSarif } from '../../src/pipeline/output/sarif.js';
import { NO_ID, sampleInput } from './sample.js';
import { multitoolProblems, sarifMultitool, sarifSchemaProblems } from './validators.js';

let dir: string;
before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sarif-'));
});
after(() => rm(dir, { recursive: true, force: true }));

interface Rule {
  id: string;
  helpUri?: string;
  help: { text: string; markdown: string };
  defaultConfiguration: { level: string };
  properties: Record<string, unknown>;
}

interface Result {
  ruleId: string;
  ruleIndex: number;
  level: string;
  message: { text: string };
}

interface Run {
  tool: { driver: { name: string; version: string; rules: Rule[] } };
  results: Result[];
  automationDetails: { id: string };
}

function runOf(input = sampleInput()): Run {
  return toSarif(input).runs[0] as unknown as Run;
}

describe('toSarif', () => {
  it('is valid against the SARIF 2.1.0 JSON schema', () => {
    assert.deepEqual(sarifSchemaProblems(toSarif(sampleInput())), []);
    assert.deepEqual(
      sarifSchemaProblems(toSarif({ scan: { id: 's', status: 'completed' }, findings: [] })),
      [],
    );
  });

  it('the schema check can fail', () => {
    const log = toSarif(sampleInput()) as unknown as {
      runs: Array<{ results: Array<{ level: string }> }>;
    };
    const first = log.runs[0]?.results[0];
    if (first) first.level = 'fatal';
    assert.ok(sarifSchemaProblems(log).length > 0);
  });

  it('has a result per failed check only, each with its rule, level and message', () => {
    const run = runOf();
    assert.equal(run.results.length, 6);
    assert.deepEqual(
      run.results.map((r) => [r.ruleId, r.level]),
      [
        ['CIS-1.1.1', 'error'],
        ['CIS-1.1.1', 'error'],
        ['CIS-3.1', 'warning'],
        ['CIS-4.1', 'error'],
        ['CIS-5.1', 'note'],
        [NO_ID, 'note'],
      ],
    );
    assert.match(NO_ID, /^check-[0-9a-f]{12}$/, 'derived from its title, not a shared placeholder');
    for (const result of run.results) {
      assert.equal(run.tool.driver.rules[result.ruleIndex]?.id, result.ruleId);
      assert.match(result.message.text, /\.$/);
    }
  });

  it('one rule per check, with help text, help link and a security severity', () => {
    const run = runOf();
    assert.deepEqual(
      run.tool.driver.rules.map((r) => r.id),
      ['CIS-1.1.1', 'CIS-3.1', 'CIS-4.1', 'CIS-5.1', NO_ID],
    );
    const mfa = run.tool.driver.rules[0];
    assert.ok(mfa);
    assert.equal(mfa.helpUri, 'https://docs.example.com/checks/cis-1.1.1?x=1&y=2');
    assert.match(
      mfa.help.text,
      /^Enforce MFA with a conditional access policy\.\nReference: https:/,
    );
    assert.match(mfa.help.markdown, /\[Reference\]\(https:\/\/docs\.example\.com/);
    assert.equal(mfa.properties['security-severity'], '9.5');
    assert.equal(mfa.defaultConfiguration.level, 'error');
    const noLink = run.tool.driver.rules.find((r) => r.id === 'CIS-3.1');
    assert.ok(noLink);
    assert.equal(noLink.helpUri, undefined);
    assert.match(noLink.help.text, /No remediation text/);
    assert.equal(run.tool.driver.version, '0.1.0');
    assert.equal(run.automationDetails.id, 'tenant-scan/compliance/scan-123');
  });

  it('results carry no location unless a file is given for them', () => {
    assert.ok(runOf().results.every((r) => !('locations' in r)));
    const input = { ...sampleInput(), sarifLocationUri: '.github/workflows/nightly.yml' };
    const log = toSarif(input);
    assert.deepEqual(sarifSchemaProblems(log), []);
    const results = (log.runs[0] as unknown as Run).results as unknown as Array<{
      locations: unknown;
    }>;
    assert.deepEqual(results[0]?.locations, [
      {
        physicalLocation: {
          artifactLocation: { uri: '.github/workflows/nightly.yml' },
          region: { startLine: 1 },
        },
      },
    ]);
  });

  it('maps every severity to a SARIF level', () => {
    assert.deepEqual(
      (['critical', 'high', 'medium', 'low', 'info', 'unknown'] as const).map(levelFromSeverity),
      ['error', 'error', 'warning', 'note', 'note', 'warning'],
    );
  });

  it("passes Microsoft's SARIF multitool without errors or warnings", async (t) => {
    const tool = sarifMultitool();
    if (!tool) {
      t.skip('@microsoft/sarif-multitool is not installed (the schema check above still ran)');
      return;
    }
    const file = join(dir, 'results.sarif');
    await writeFile(file, JSON.stringify(toSarif(sampleInput()), null, 2));
    const located = join(dir, 'located.sarif');
    const withLocation = { ...sampleInput(), sarifLocationUri: '.github/workflows/nightly.yml' };
    await writeFile(located, JSON.stringify(toSarif(withLocation), null, 2));
    const bad = join(dir, 'bad.sarif');
    await writeFile(bad, JSON.stringify({ version: '2.1.0', runs: [{ tool: { driver: {} } }] }));
    const problems = await multitoolProblems(tool, [file, located, bad]);
    assert.deepEqual(problems.get(file), []);
    assert.deepEqual(problems.get(located), []);
    assert.ok((problems.get(bad) ?? []).length > 0, 'the multitool check can fail');
  });
});
