// Entry of the rollup sub-action (rollup/action.yml → dist/rollup/index.js): only calls run().
import { run } from './github/rollup/run.js';

await run();
process.exit();
