// Entry of the Action's post step (dist/post/index.js): tunes V8 for a short run, then only calls run().
import { run } from './github/post.js';
import { keepHttpParserOnBaselineCompiler } from './v8-tuning.js';

keepHttpParserOnBaselineCompiler();
await run();
// Exit now: idle keep-alive sockets or timers of a library must not hold the step open.
process.exit();
