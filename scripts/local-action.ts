// `npm run local-action [-- <env file>]`: runs the Action's TypeScript source (src/github/run.ts,
// then the post step src/github/post.ts) with GitHub's local debugger, @github/local-action, which
// swaps @actions/core for its own stubs and prints the outputs. Without an argument it starts the
// Tenant API emulator and uses .env.example with the emulator's key and address filled in; with one
// it uses that file as is. Then it prints the job summary the step wrote. Exit code: local-action's
// own (0 once it ran the action, whatever the verdict; the log shows a failed step's ::error::).
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseEnv } from 'node:util';
import { startEmulator } from '../test/emulator/emulator.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const LOCAL_ACTION = join(ROOT, 'node_modules', '.bin', 'local-action');

/** .env.example with the emulator's key and address, and the summary and scratch space in `dir`. */
async function emulatorEnvFile(dir: string, apiKey: string, apiUrl: string): Promise<string> {
  const overrides: Record<string, string> = {
    'INPUT_API-KEY': apiKey,
    'INPUT_API-URL': apiUrl,
    GITHUB_STEP_SUMMARY: join(dir, 'summary.md'),
    RUNNER_TEMP: dir,
  };
  const lines = (await readFile(join(ROOT, '.env.example'), 'utf8')).split('\n').map((line) => {
    const name = /^([\w.-]+)=/.exec(line)?.[1];
    return name !== undefined && name in overrides ? `${name}=${overrides[name]}` : line;
  });
  const file = join(dir, '.env');
  await writeFile(file, lines.join('\n'));
  return file;
}

function runLocalAction(envFile: string): Promise<number> {
  const args = ['.', 'src/github/run.ts', envFile, '--post', 'src/github/post.ts'];
  return new Promise((resolvePromise, reject) => {
    const child = spawn(LOCAL_ACTION, args, { cwd: ROOT, stdio: 'inherit' });
    child.on('error', reject);
    child.on('close', (code) => resolvePromise(code ?? 1));
  });
}

async function printSummary(envFile: string): Promise<void> {
  const path = parseEnv(await readFile(envFile, 'utf8')).GITHUB_STEP_SUMMARY;
  console.log('\n── Job summary ' + '─'.repeat(60));
  if (!path) return console.log('(GITHUB_STEP_SUMMARY is not set in the env file)');
  const file = resolve(ROOT, path);
  console.log(existsSync(file) ? (await readFile(file, 'utf8')).trim() : `(nothing at ${file})`);
}

/** The env file's summary goes into a fresh file, so what is printed is this run's alone. */
async function freshSummary(envFile: string): Promise<void> {
  const path = parseEnv(await readFile(envFile, 'utf8')).GITHUB_STEP_SUMMARY;
  if (!path) return;
  const file = resolve(ROOT, path);
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, '');
}

async function main(): Promise<number> {
  const given = process.argv[2];
  if (given !== undefined) {
    const envFile = resolve(given);
    await freshSummary(envFile);
    const code = await runLocalAction(envFile);
    await printSummary(envFile);
    return code;
  }
  const emulator = await startEmulator({ clockSpeed: 20 });
  emulator.setScanPlan({ durationMs: 8_000, queuedMs: 1_000 });
  let dir: string | undefined;
  try {
    dir = await mkdtemp(join(tmpdir(), 'tenant-scan-local-action-'));
    const envFile = await emulatorEnvFile(dir, emulator.apiKey, emulator.url);
    console.log(`Tenant API emulator: ${emulator.url} (env file ${envFile})`);
    const code = await runLocalAction(envFile);
    await printSummary(envFile);
    return code;
  } finally {
    if (dir) await rm(dir, { recursive: true, force: true });
    await emulator.close();
  }
}

process.exitCode = await main();
