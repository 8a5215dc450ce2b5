// A roll-up that also writes the fleet's CSV and OCSF files: every tenant's findings, each record's
// rows written as it is read, so thousands of tenants are never held at once. Both files are
// whole or absent: a roll-up that throws leaves neither.

import type { ExportPaths } from '../output/exports.js';
import { rollUpFiles, type Rollup, type RollupReaders, type RollupSettings } from './rollup.js';

export async function rollUpWithExports(
  patterns: readonly string[],
  cwd: string,
  settings: RollupSettings,
  paths: ExportPaths,
  observe?: RollupReaders['observe'],
): Promise<{ rollup: Rollup; written: ExportPaths }> {
  if (!paths.csvPath && !paths.ocsfPath) {
    return { rollup: await rollUpFiles(patterns, cwd, settings, { observe }), written: {} };
  }
  // Loaded only when a file is asked for: the CSV library is not part of every start-up.
  const { FindingsExport } = await import('../output/exports.js');
  const exports = await FindingsExport.open(paths, settings.nowMs);
  try {
    const rollup = await rollUpFiles(patterns, cwd, settings, { observe, exports });
    return { rollup, written: await exports.commit() };
  } catch (error) {
    await exports.abort();
    throw error;
  }
}
