// How a store command gets the new key whole, or never starts. A store command runs in a process
// group of its own, so a tenant-scan killed outright (SIGKILL of its process alone) leaves it to
// finish. Started directly, a kill that lands while it is being started (between the fork and the
// write of the key) leaves it reading an empty standard input, and a store that takes an empty
// value then holds no key at all. So the store command is started by a small Node program run
// with tenant-scan's own Node (the handover): it reads `<bytes>:<JSON of the key and the store
// command's environment>` to the end of its input, starts the store command only when that is
// whole, writes the key to it, and reports on fd 3 how it ended. Both are in the same process
// group, killed together. The handover itself runs with an empty environment, so what the store
// command is given (NODE_OPTIONS, say) does not reach it.

/** The handover's exit status when its input was not a whole frame (tenant-scan died first). */
export const INCOMPLETE_STATUS = 70;

/** What the handover reports on fd 3: the store command's end, or why it did not start. */
export type HandoverReport =
  { code: number | null; signal: NodeJS.Signals | null } | { error: string } | { incomplete: true };

/** The handover's input: the length in bytes of what follows, a colon, the key and the store
 *  command's environment as JSON. */
export function handoverFrame(key: string, env: Record<string, string>): string {
  const body = JSON.stringify({ key, env });
  return `${Buffer.byteLength(body, 'utf8')}:${body}`;
}

/** The handover, run as `node -e HANDOVER_SOURCE -- <program> <args…>` (CommonJS). */
export const HANDOVER_SOURCE = `
const { spawn } = require('node:child_process');
const { writeSync } = require('node:fs');
const report = (value) => {
  try { writeSync(3, JSON.stringify(value) + '\\n'); } catch {}
};
const chunks = [];
process.stdin.on('data', (chunk) => chunks.push(chunk));
process.stdin.on('error', () => {});
process.stdin.on('end', () => {
  const input = Buffer.concat(chunks);
  const colon = input.indexOf(58);
  const head = colon > 0 ? input.subarray(0, colon).toString('latin1') : '';
  const body = input.subarray(colon + 1);
  let given;
  try {
    if (/^[1-9][0-9]*$/.test(head) && body.length === Number(head)) given = JSON.parse(body.toString('utf8'));
  } catch {}
  if (typeof given?.key !== 'string' || given.key === '' || typeof given.env !== 'object' || given.env === null) {
    report({ incomplete: true });
    process.exit(${INCOMPLETE_STATUS});
  }
  const [program, ...args] = process.argv.slice(1);
  const child = spawn(program, args, {
    env: given.env,
    stdio: ['pipe', 'inherit', 'inherit', 'ignore'],
  });
  child.on('error', (error) => {
    report({ error: error.code || error.message });
    process.exit(71);
  });
  child.stdin.on('error', () => {});
  child.stdin.end(given.key);
  child.on('exit', (code, signal) => {
    report({ code, signal });
    process.exit(0);
  });
});
`;

/** The handover's report, from what it wrote on fd 3; undefined when it wrote none (killed). */
export function parseHandoverReport(text: string): HandoverReport | undefined {
  const line = text.split('\n').find((l) => l.trim() !== '');
  if (line === undefined) return undefined;
  try {
    const value = JSON.parse(line) as Record<string, unknown>;
    if (value.incomplete === true) return { incomplete: true };
    if (typeof value.error === 'string') return { error: value.error };
    const code = typeof value.code === 'number' ? value.code : null;
    const signal = typeof value.signal === 'string' ? (value.signal as NodeJS.Signals) : null;
    return { code, signal };
  } catch {
    return undefined;
  }
}
