// Writing a report page: whole or not at all (the project's atomic write), where a face asks.

import { writeFileAtomic } from '../../pipeline/common/files.js';
import type { Rollup } from '../../pipeline/rollup/rollup.js';
import { fleetPageData, type FleetFindings } from './fleet-data.js';
import { renderPage } from './page.js';
import { runPageData, type PageOptions, type RunPageInput } from './run-data.js';

export { FleetFindings } from './fleet-data.js';
export { errorInputOf, runInputOf } from './run-data.js';

/** Writes the page of one run; returns its absolute path. */
export function writeRunPage(
  path: string,
  input: RunPageInput,
  options: PageOptions = {},
): Promise<string> {
  return writeFileAtomic(path, renderPage(runPageData(input, options)));
}

/** Writes the page of a roll-up whose records `findings` observed; returns its absolute path. */
export function writeFleetPage(
  path: string,
  rollup: Rollup,
  findings: FleetFindings,
  options: Omit<PageOptions, 'secrets'> = {},
): Promise<string> {
  return writeFileAtomic(path, renderPage(fleetPageData(rollup, findings, options)));
}
