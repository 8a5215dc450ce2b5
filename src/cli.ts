#!/usr/bin/env node
// Entry of the tenant-scan CLI (bundled to dist/cli/index.js): only calls run().
import { run } from './cli/run.js';

void run();
