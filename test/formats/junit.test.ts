// JUnit writer: one test case per check, failed checks as failures, valid against the JUnit XSD.

import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { toJunitXml } from '../../src/pipeline/output/junit.js';
import { FINDINGS, NO_ID, sampleInput } from './sample.js';
import { junitProblems } from './validators.js';

let dir: string;
before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'junit-'));
});
after(() => rm(dir, { recursive: true, force: true }));

async function validate(xml: string): Promise<string[]> {
  const file = join(dir, `r-${Math.random().toString(36).slice(2)}.xml`);
  await writeFile(file, xml);
  return junitProblems(file);
}

function count(xml: string, pattern: RegExp): number {
  return [...xml.matchAll(pattern)].length;
}

describe('toJunitXml', () => {
  it('validates against the JUnit XSD, hostile text included', async () => {
    assert.deepEqual(await validate(toJunitXml(sampleInput())), []);
  });

  it('has one test case per check and counts failures, errors and skipped', () => {
    const xml = toJunitXml(sampleInput());
    assert.equal(count(xml, /<testcase /g), FINDINGS.length);
    assert.equal(count(xml, /<failure /g), 6);
    assert.equal(count(xml, /<error /g), 1);
    assert.equal(count(xml, /<skipped /g), 2);
    assert.match(
      xml,
      /<testsuite [^>]*tests="10" failures="6" errors="1" skipped="2" time="90.500"/,
    );
    assert.match(xml, /<testsuites [^>]*tests="10" failures="6" errors="1"/);
  });

  it('escapes markup and replaces characters XML cannot carry', () => {
    const xml = toJunitXml(sampleInput());
    assert.ok(xml.includes('MFA is not enforced for &lt;admins&gt; &amp; &quot;guests&quot;'));
    assert.ok(!xml.includes('\u0001'));
    assert.ok(xml.includes('🔐'));
    assert.ok(xml.includes('x=1&amp;y=2'));
    assert.ok(xml.includes('value="Contoso &amp; Co &lt;Ltd&gt;"'));
  });

  it('names a case by check id and title, grouped by category', () => {
    const xml = toJunitXml(sampleInput());
    assert.match(
      xml,
      /<testcase name="CIS-1.1.2: Audit log on" classname="tenant-scan.Logging" time="0"\/>/,
    );
    assert.match(xml, /<testcase name="f-3: Sparse finding" classname="tenant-scan.uncategorised"/);
    assert.ok(xml.includes(`<testcase name="${NO_ID}: No id at all"`));
    assert.match(xml, /<failure type="critical" message="\[critical\] MFA is not enforced/);
    assert.match(xml, /Remediation: Enforce MFA with a conditional access policy/);
  });

  it('an empty scan and a scan without times are valid too', async () => {
    const empty = toJunitXml({ scan: { id: 's', status: 'completed' }, findings: [] });
    assert.match(empty, /tests="0" failures="0" errors="0" skipped="0" time="0.000"/);
    assert.deepEqual(await validate(empty), []);
  });

  it('the XSD does reject a malformed file (the validator can fail)', async () => {
    const broken = toJunitXml(sampleInput()).replace(/ tests="10"/, ' tests="ten"');
    assert.ok((await validate(broken)).length > 0);
  });
});
