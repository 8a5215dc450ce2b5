// Entry of the Action's post step (dist/post/index.js): tunes V8 for a short run, then only calls runPost().
import { runPost } from './github/post.js';
import { keepHttpParserOnBaselineCompiler } from './v8-tuning.js';

keepHttpParserOnBaselineCompiler();
await runPost();
process.exit();
