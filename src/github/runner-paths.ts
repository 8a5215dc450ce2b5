// Where the runner lets a step write, and where a step keeps its own files: the workspace and its
// temp directory. Output paths of the Action and of the rollup sub-action must resolve inside one
// of them; the files a step always writes (results, record, roll-up) go to RUNNER_TEMP, one per step.

import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Root } from '../pipeline/common/output-paths.js';

type Env = Record<string, string | undefined>;

export function writableRoots(env: Env): Root[] {
  const roots: Root[] = [
    { name: 'the workspace (GITHUB_WORKSPACE)', path: env.GITHUB_WORKSPACE || process.cwd() },
  ];
  if (env.RUNNER_TEMP) roots.push({ name: 'RUNNER_TEMP', path: env.RUNNER_TEMP });
  return roots;
}

/** `RUNNER_TEMP/tenant-scan/<name>-<step id>.json`: a file of this step's own. */
export function stepFile(name: string, env: Env): string {
  const step = (env.GITHUB_ACTION ?? 'step').replace(/[^A-Za-z0-9_.-]/g, '_') || 'step';
  return join(env.RUNNER_TEMP || tmpdir(), 'tenant-scan', `${name}-${step}.json`);
}
