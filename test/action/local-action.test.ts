// `npm run local-action`: GitHub's local debugger (@github/local-action) runs the Action's source
// against the emulator. It works by swapping @actions/core, so the outputs and the job summary show
// only when the Action speaks the runner protocol through @actions/core.
import assert from 'node:assert/strict';
import { renderedText } from '../helpers/gfm.js';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { PROJECT_ROOT } from '../helpers/runner.js';

describe('npm run local-action', () => {
  it('shows the outputs (verdict, failed, total) and the job summary of a run on the emulator', () => {
    const run = spawnSync(
      process.execPath,
      ['--import', 'tsx', join(PROJECT_ROOT, 'scripts', 'local-action.ts')],
      { cwd: PROJECT_ROOT, encoding: 'utf8', timeout: 120_000 },
    );
    const log = `${run.stdout}\n${run.stderr}`;
    assert.equal(run.status, 0, log);
    assert.doesNotMatch(log, /No outputs were set!/);
    const outputs = log.slice(log.indexOf('Action Outputs'));
    assert.match(outputs, /'verdict'\s+│ 'failed'/);
    assert.match(outputs, /'failed'\s+│ '5'/);
    assert.match(outputs, /'total'\s+│ '40'/);
    const summary = log.slice(log.indexOf('── Job summary'));
    assert.match(renderedText(summary), /^❌ Tenant scan failed: 5 findings, the worst \w+$/m);
    assert.match(summary, /\| Checks \| 40 \|/);
    assert.match(log, /::error::Verdict failed: 5 failed findings/);
  });
});
