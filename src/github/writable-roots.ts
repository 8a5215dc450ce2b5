// Where the runner lets a step write: the workspace and its temp directory. Output paths of the
// Action and of the rollup sub-action must resolve inside one of them.

import type { Root } from '../pipeline/output-paths.js';

export function writableRoots(env: Record<string, string | undefined>): Root[] {
  const roots: Root[] = [
    { name: 'the workspace (GITHUB_WORKSPACE)', path: env.GITHUB_WORKSPACE || process.cwd() },
  ];
  if (env.RUNNER_TEMP) roots.push({ name: 'RUNNER_TEMP', path: env.RUNNER_TEMP });
  return roots;
}
