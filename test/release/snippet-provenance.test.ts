// The CI snippets of docs/ci/ check the downloaded CLI file's build provenance with
// `gh attestation verify` where gh and a GitHub token are there, right after the sha256 check and
// before the file runs. Each snippet's line runs as written, with a stand-in gh that records how
// it is called (the line needs nothing but sh's builtins): without gh or without GH_TOKEN it says so and the job goes on (the sha256 was
// checked); with both it calls gh for our repository and release workflow, and a failed
// verification stops the job.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import yaml from 'js-yaml';
import { ROOT } from '../cli/helpers.js';

const VERIFY = [
  'attestation',
  'verify',
  'tenant-scan.mjs',
  '--repo',
  'tenant-scan/tenant-scan',
  '--signer-workflow',
  'tenant-scan/tenant-scan/.github/workflows/release.yml',
];

/** Each job's script lines, in order, of a snippet. */
function jobScripts(name: string): string[][] {
  const text = readFileSync(join(ROOT, 'docs', 'ci', name), 'utf8');
  if (name === 'Jenkinsfile') {
    const lines = text.split('\n').filter((line) => !line.trim().startsWith('//'));
    return [lines.flatMap((line) => /^\s*(?:sh|script:) '(.*)'\s*$/.exec(line)?.[1] ?? [])];
  }
  const doc = yaml.load(text) as Record<string, unknown> & { steps?: Array<{ script?: string }> };
  if (doc.steps) {
    return [doc.steps.flatMap((step) => (step.script ?? '').split('\n').filter((l) => l.trim()))];
  }
  return Object.values(doc)
    .filter((job): job is { script: string[] } =>
      Array.isArray((job as { script?: unknown })?.script),
    )
    .map((job) => job.script);
}

const SNIPPETS = [
  '.gitlab-ci.yml',
  'gitlab-tenants.gitlab-ci.yml',
  'azure-pipelines.yml',
  'Jenkinsfile',
];

let dir: string;
let bin: string;
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'tenant-scan-provenance-'));
  bin = join(dir, 'bin');
  mkdirSync(bin);
  mkdirSync(join(dir, 'empty'));
  // A stand-in gh: records its arguments, exits with GH_EXIT.
  writeFileSync(
    join(bin, 'gh'),
    '#!/bin/sh\nprintf "%s\\n" "$@" > "$GH_CALLED"\nexit "${GH_EXIT:-0}"\n',
  );
  chmodSync(join(bin, 'gh'), 0o755);
});
after(() => rmSync(dir, { recursive: true, force: true }));

function runLine(line: string, env: Record<string, string>) {
  const called = join(dir, 'called');
  rmSync(called, { force: true });
  const result = spawnSync('/bin/sh', ['-c', line], {
    cwd: dir,
    encoding: 'utf8',
    env: { GH_CALLED: called, ...env },
  });
  const args = existsSync(called) ? readFileSync(called, 'utf8').trim().split('\n') : undefined;
  return { code: result.status, stdout: result.stdout, args };
}

describe('CI snippets check the build provenance where gh can', () => {
  for (const name of SNIPPETS) {
    it(`${name}: after the sha256 check, before the file runs; skipped with a line, or enforced`, () => {
      const jobs = jobScripts(name);
      assert.ok(jobs.length > 0);
      for (const lines of jobs) {
        const digest = lines.findIndex((l) => l.includes('sha256sum -c -'));
        const verify = lines.findIndex((l) => l.includes('gh attestation verify'));
        const runs = lines.findIndex((l) => /node tenant-scan\.mjs /.test(l));
        assert.ok(digest >= 0 && verify === digest + 1 && runs > verify, `${name}: order`);
        const line = lines[verify] ?? '';

        const withoutGh = runLine(line, { PATH: join(dir, 'empty'), GH_TOKEN: 'ghs_x' });
        assert.equal(withoutGh.code, 0);
        assert.match(withoutGh.stdout, /build provenance not checked, the sha256 is/);
        const withoutToken = runLine(line, { PATH: bin });
        assert.equal(withoutToken.code, 0);
        assert.equal(withoutToken.args, undefined, 'gh is not called without a token');

        const verified = runLine(line, { PATH: bin, GH_TOKEN: 'ghs_x' });
        assert.equal(verified.code, 0);
        assert.deepEqual(verified.args, VERIFY);
        const refused = runLine(line, { PATH: bin, GH_TOKEN: 'ghs_x', GH_EXIT: '1' });
        assert.notEqual(refused.code, 0, 'a failed verification stops the job');
      }
    });
  }
});
