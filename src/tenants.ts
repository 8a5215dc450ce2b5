// Entry of the tenants sub-action (tenants/action.yml → dist/tenants/index.js): the action's inputs
// as a command line of the bundled CLI (`scan run --tenants`), run in this process. The CLI owns the
// rest: every tenant at once, its record, one line per tenant state change, the chunk's roll-up as
// the step summary, and on the runner's SIGINT every scan this step triggered cancelled remotely.
// Each tenant's scan is saved as step state as it is triggered and settles: when the step is killed
// outright, the post step (tenants-post.ts) cancels the scans left running.
import * as core from '@actions/core';
import { run } from './cli/run.js';
import { INPUT_OF_OPTION, TENANTS_WORDING, tenantsCommandLine } from './github/tenants/inputs.js';
import { savingTenantScans } from './github/tenants/state.js';

let argv: string[];
try {
  argv = await tenantsCommandLine();
} catch (error) {
  core.setFailed(error instanceof Error ? error.message : String(error));
  process.exit(1);
}
await run(argv, {
  patientSignals: true,
  tenantScans: savingTenantScans(),
  jobWording: TENANTS_WORDING,
  optionNames: INPUT_OF_OPTION,
});
