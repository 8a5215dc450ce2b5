// Loaded by `npm run test:unit` before the tests: the unit tier runs in one process, in memory.
// A test there that starts a process or opens a socket fails at that call, not by being slow
// later; such a test belongs beside the end-to-end ones (docs/development.md, "The unit tier").
import childProcess from 'node:child_process';
import net from 'node:net';
import { syncBuiltinESMExports } from 'node:module';

function refuse(what: string): () => never {
  return () => {
    throw new Error(`the unit tier runs in process: ${what} is not allowed in test/unit/`);
  };
}

for (const name of [
  'spawn',
  'spawnSync',
  'exec',
  'execSync',
  'execFile',
  'execFileSync',
  'fork',
] as const) {
  Object.assign(childProcess, { [name]: refuse(`child_process.${name}`) });
}
net.Server.prototype.listen = refuse('a server listening');
Object.assign(net, { connect: refuse('a socket'), createConnection: refuse('a socket') });
syncBuiltinESMExports();
