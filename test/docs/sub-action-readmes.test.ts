// Each sub-action folder has a README in the shape of GitHub's own actions': what it does, usage,
// permissions, inputs and outputs. Its title, inputs and outputs are what its action.yml makes of
// them (npm run readmes), so a new input cannot be missing; its usage step takes only inputs the
// action declares, and every required one.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parse } from 'yaml';
import {
  ROOT,
  SUB_ACTIONS,
  actionFile,
  formatted,
  generatedParts,
  withGeneratedParts,
} from '../../scripts/action-readmes.js';

interface Step {
  uses?: string;
  with?: Record<string, unknown>;
}

for (const folder of SUB_ACTIONS) {
  describe(`${folder}/README.md`, () => {
    it('its title, inputs and outputs are what action.yml makes of them', async () => {
      const path = join(ROOT, folder, 'README.md');
      const readme = await readFile(path, 'utf8');
      const action = await actionFile(folder);
      const made = await formatted(path, withGeneratedParts(readme, generatedParts(action)));
      assert.equal(readme, made, `${folder}/README.md is stale: run npm run readmes`);
      for (const name of Object.keys(action.inputs ?? {})) {
        assert.ok(readme.includes(`| \`${name}\``), `input ${name} is not in the README`);
      }
      for (const heading of ['## Usage', '## Permissions', '## Inputs', '## Outputs']) {
        assert.ok(readme.includes(`\n${heading}\n`), `no ${heading}`);
      }
    });

    it('its usage step gives only inputs the action has, and every required one', async () => {
      const readme = await readFile(join(ROOT, folder, 'README.md'), 'utf8');
      const block = /```yaml\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
      const steps = parse(block) as Step[];
      const step = steps.find((s) => s.uses?.startsWith(`tenant-scan/tenant-scan/${folder}@`));
      assert.ok(step, `no step uses tenant-scan/tenant-scan/${folder}`);
      const inputs = (await actionFile(folder)).inputs ?? {};
      const given = Object.keys(step.with ?? {});
      assert.deepEqual(
        given.filter((name) => !(name in inputs)),
        [],
        'inputs the action does not have',
      );
      const required = Object.entries(inputs).filter(([, input]) => input.required);
      assert.deepEqual(
        required.map(([name]) => name).filter((name) => !given.includes(name)),
        [],
        'required inputs left out',
      );
    });
  });
}
