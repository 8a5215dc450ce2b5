// Entry of the tenants sub-action's post step (dist/tenants-post/index.js): only calls run().
import { run } from './github/tenants/post.js';

await run();
// Exit now: idle keep-alive sockets or timers of a library must not hold the step open.
process.exit();
