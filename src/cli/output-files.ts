// The files a command will write (-o, --junit, --sarif, --results-file) are checked before its first
// request: a directory, a device, a path through a file or under a directory that cannot be made
// (/proc) is one `Sanity checks failed:` line, and nothing is sent.

import { SettingsError, checkWritableFile, type ExportPaths } from '../pipeline/index.js';
import { AS_TYPED, stringOption, type OptionNaming, type ParsedInput } from './command.js';

export async function checkOutputFiles(
  files: ReadonlyArray<[label: string, path: string | undefined]>,
): Promise<void> {
  const problems: string[] = [];
  for (const [label, path] of files) {
    const problem = path === undefined ? undefined : await checkWritableFile(label, path);
    if (problem) problems.push(problem);
  }
  if (problems.length > 0) throw new SettingsError(problems);
}

/** A fleet's files (`rollup`, `scan run --tenants`): the roll-up's Markdown, the CSV and OCSF
 *  findings, and the report page at `htmlFile`, each checked before anything is read or sent. */
export async function fleetOutputFiles(
  input: ParsedInput,
  htmlFile: string | undefined,
  optionName: OptionNaming = AS_TYPED,
): Promise<{ markdownFile?: string; exportPaths: ExportPaths }> {
  const markdownFile = stringOption(input, 'markdown');
  const exportPaths = {
    csvPath: stringOption(input, 'csv'),
    ocsfPath: stringOption(input, 'ocsf'),
  };
  await checkOutputFiles([
    [optionName('--markdown'), markdownFile],
    [optionName('--csv'), exportPaths.csvPath],
    [optionName('--ocsf'), exportPaths.ocsfPath],
    [optionName('--html'), htmlFile],
  ]);
  return { markdownFile, exportPaths };
}
