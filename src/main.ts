// Entry of the Action's main step (dist/index.js): only calls run().
import { run } from './github/run.js';

await run();
// Exit now: idle keep-alive sockets or timers of a library must not hold the step open.
process.exit();
