// results-max-mib (Action) and --results-max-mib (CLI): the most bytes the answers of one results
// read may hold together. Past it the read is not whole and no verdict is given (the client's
// MAX_LIST_BYTES is the default; docs/guarantees.md, Bounds).

import { MAX_LIST_BYTES } from '../../client/index.js';
import { parseInteger } from './parse.js';

/** The default, in MiB, and the most it may be raised to. */
export const DEFAULT_RESULTS_MAX_MIB = MAX_LIST_BYTES / 1024 / 1024;
export const MAX_RESULTS_MAX_MIB = 4_096;

/** MiB as bytes; the default when empty; a bad value is one line naming `label`. */
export function parseResultsMaxMib(label: string, raw: string | undefined): number {
  const mib =
    parseInteger(label, raw, DEFAULT_RESULTS_MAX_MIB, { min: 1, max: MAX_RESULTS_MAX_MIB }) ??
    DEFAULT_RESULTS_MAX_MIB;
  return mib * 1024 * 1024;
}
