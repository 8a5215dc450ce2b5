// Preloaded with --import in a diagnostic (untimed) run: records every module file the process
// loads and writes the list to $BENCH_LOAD_TRACE at exit, to show which bundle chunks a run needs.
import { registerHooks } from 'node:module';
import { writeFileSync } from 'node:fs';

const loaded = new Set();
registerHooks({
  load(url, context, nextLoad) {
    if (url.startsWith('file:')) loaded.add(url);
    return nextLoad(url, context);
  },
});
process.on('exit', () => {
  if (process.env.BENCH_LOAD_TRACE)
    writeFileSync(process.env.BENCH_LOAD_TRACE, [...loaded].join('\n'));
});
