// Entry of the rotate-key sub-action (rotate-key/action.yml → dist/rotate-key/index.js): only
// calls run().
import { run } from './github/rotate-key/run.js';

await run();
process.exit();
