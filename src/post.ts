// Entry of the Action's post step (dist/post/index.js): only calls run().
import { run } from './github/post.js';

await run();
// Exit now: idle keep-alive sockets or timers of a library must not hold the step open.
process.exit();
