// Process-wide V8 settings for our short-lived entries (the Action's steps, the CLI); the client
// library itself never changes them.
//
// undici parses HTTP with llhttp compiled to WebAssembly. After a handful of small responses V8
// judges the parser hot and recompiles it with TurboFan on a background thread: ~100 ms of CPU and
// a 30–40 MB peak of compiler memory in every run, for a parser that then reads a few more KB of
// JSON (bench/README.md). A larger tiering budget keeps it on the baseline compiler unless it
// really parses a lot. Must run before the first request (undici compiles llhttp on first use).
import { setFlagsFromString } from 'node:v8';

/** V8's default is 1.8 MB "executed"; a run's API traffic stays far below this. */
const WASM_TIERING_BUDGET = 1_000_000_000;

export function keepHttpParserOnBaselineCompiler(): void {
  setFlagsFromString(`--wasm-tiering-budget=${WASM_TIERING_BUDGET}`);
}
