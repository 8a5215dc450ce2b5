#!/usr/bin/env node
// Entry of the tenant-scan CLI (bundled to dist/cli/index.js): the Node version check first, then
// run(). Both are static imports: behind a dynamic import the whole CLI became a lazily initialised
// module of the single-file bundle, which V8 parsed twice at every start (0.08 CPU-s a run).
import './cli/node-version-check.js';
import { run } from './cli/run.js';

void run();
