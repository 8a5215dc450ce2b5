// The machine a benchmark ran on, for the write-up (figures mean nothing without it).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, totalmem } from 'node:os';
import { NODE_24 } from '../../test/helpers/runner.js';

export interface Machine {
  nproc: number;
  cpu: string;
  memoryGiB: number;
  node: string;
  kernel: string;
  loadAverageAtStart: number[];
}

export function describeMachine(): Machine {
  return {
    nproc: availableParallelism(),
    cpu: cpus()[0]?.model ?? 'unknown',
    memoryGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    node: execFileSync(NODE_24, ['-v'], { encoding: 'utf8' }).trim(),
    kernel: readFirstLine('/proc/sys/kernel/osrelease'),
    loadAverageAtStart: loadavg().map((l) => Math.round(l * 100) / 100),
  };
}

export function machineLine(m: Machine): string {
  return (
    `${m.nproc} CPUs (${m.cpu}), ${m.memoryGiB} GiB RAM, Node ${m.node} (the action's runtime, ` +
    `node_modules/.bin/node), Linux ${m.kernel}, load average at start ${m.loadAverageAtStart.join(' / ')}`
  );
}

function readFirstLine(path: string): string {
  try {
    return readFileSync(path, 'utf8').split('\n')[0] ?? '';
  } catch {
    return 'unknown';
  }
}
