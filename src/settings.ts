// Entry of the settings sub-action (settings/action.yml → dist/settings/index.js): only calls run().
import { run } from './github/settings/run.js';

await run();
process.exit();
