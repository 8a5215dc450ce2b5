// Entry of the Action's post step (dist/post/index.js): only calls runPost().
import { runPost } from './github/post.js';

await runPost();
process.exit();
