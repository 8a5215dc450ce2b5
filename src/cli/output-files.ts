// The files a command will write (-o, --junit, --sarif, --results-file) are checked before its first
// request: a directory, a device, a path through a file or under a directory that cannot be made
// (/proc) is one `Sanity checks failed:` line, and nothing is sent.

import { SettingsError, checkWritableFile } from '../pipeline/index.js';

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
