#!/usr/bin/env node
// Entry of the tenant-scan CLI (bundled to dist/cli/index.js).
import { run } from './cli/run.js';
import { keepHttpParserOnBaselineCompiler } from './v8-tuning.js';

keepHttpParserOnBaselineCompiler();
void run();
