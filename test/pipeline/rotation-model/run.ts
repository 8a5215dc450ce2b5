// One rotation of the model: the pipeline's rotateKey over the emulator, with the sequence's store
// (the real GitHubSecretStore against the stand-in, the real CommandStore running the model's
// scripts), the faults the command drew, and a kill: at the chosen call to the service or the
// store, before or after it acted, the run stops dead — nothing after it runs, as after a SIGKILL
// (the kills of the bundled CLI itself are test/cli/keys-rotate.test.ts's).
import { createClient, type TenantClient } from '../../../src/client/index.js';
import { CommandStore } from '../../../src/cli/store-command.js';
import { storeEnvironment } from '../../../src/cli/store-process.js';
import { createGitHubClient } from '../../../src/github/github-client.js';
import { GitHubSecretStore } from '../../../src/github/rotate-key/secret-store.js';
import { rotateKey, type RotationResult } from '../../../src/pipeline/rotation/rotate.js';
import type { KeyStore } from '../../../src/pipeline/rotation/store.js';
import type { FaultRule } from '../../emulator/types.js';
import {
  GITHUB_TOKEN,
  OWNER,
  READ_SCRIPT,
  STORE_SCRIPT,
  serviceNow,
  type Sequence,
} from './world.js';

export const STORE_MODES = ['ok', 'fail', 'lost', 'drop', 'hang', 'hang-stored', 'child'] as const;
export const READ_MODES = ['ok', 'fail', 'hang', 'child', 'garbage'] as const;
export const SERVICE_FAULTS = [
  'none',
  'create-5xx-after',
  'verify-fail',
  'delete-fail',
  'delete-403',
] as const;

export interface RotateSpec {
  /** Hold an older key the store held (a re-run of an older job): which one, modulo. */
  rerun: number | null;
  store: (typeof STORE_MODES)[number];
  read: (typeof READ_MODES)[number];
  service: (typeof SERVICE_FAULTS)[number];
  kill: { at: number; after: boolean } | null;
}

export interface RunOutcome {
  inUse: string;
  lines: string[];
  error?: string;
  result?: RotationResult;
  killed: boolean;
  /** Keys the run masked (its new key, a key read from the store). */
  masked: string[];
  startMs: number;
  elapsedMs: number;
}

/** A command store's deadline in the model (5 minutes in the product). */
export const COMMAND_TIMEOUT_MS = 150;
/** The store's deadline counted from the create (15 minutes in the product). */
export const STORE_DEADLINE_MS = 1500;

/** Stops the run dead at its `at`-th call (to the service or the store). */
class Kill {
  private calls = 0;
  dead = false;
  private onDeath: () => void = () => undefined;
  readonly died = new Promise<void>((resolve) => (this.onDeath = resolve));
  constructor(private readonly plan: RotateSpec['kill']) {}

  private die(): Promise<never> {
    this.dead = true;
    this.onDeath();
    return new Promise<never>(() => undefined);
  }

  async pass<T>(call: () => Promise<T>): Promise<T> {
    if (this.dead) return this.die();
    const n = this.calls++;
    const here = this.plan?.at === n;
    if (here && !this.plan?.after) return this.die();
    try {
      return await call();
    } finally {
      if (here) await this.die();
    }
  }
}

function killable(client: TenantClient, kill: Kill): TenantClient {
  const keys = client.apiKeys;
  return {
    ...client,
    apiKeys: {
      ...keys,
      list: (o) => kill.pass(() => keys.list(o)),
      create: (b, o) => kill.pass(() => keys.create(b, o)),
      delete: (id, o) => kill.pass(() => keys.delete(id, o)),
    },
  };
}

/** The store with every method behind the kill; its other members as they are. */
function killableStore(store: KeyStore, kill: Kill): KeyStore {
  const names = new Set([
    ...Object.keys(store),
    ...Object.getOwnPropertyNames(Object.getPrototypeOf(store)),
  ]);
  const wrapped: Record<string, unknown> = {};
  const source = store as unknown as Record<string, unknown>;
  for (const name of names) {
    if (name === 'constructor') continue;
    const member = source[name];
    wrapped[name] =
      typeof member === 'function'
        ? (...args: unknown[]) => kill.pass(() => member.apply(store, args) as Promise<unknown>)
        : member;
  }
  return wrapped as unknown as KeyStore;
}

function serviceFaults(fault: RotateSpec['service']): FaultRule[] {
  const always = Number.POSITIVE_INFINITY;
  if (fault === 'create-5xx-after')
    return [
      {
        route: 'POST /tenants/me/api-keys',
        fault: { kind: 'status', status: 500, afterHandler: true },
      },
    ];
  if (fault === 'verify-fail')
    return [
      {
        route: 'GET /tenants/me/api-keys',
        after: 1,
        times: 2,
        fault: { kind: 'status', status: 500 },
      },
    ];
  if (fault === 'delete-fail')
    return [
      {
        route: 'DELETE /tenants/me/api-keys/:keyId',
        times: always,
        fault: { kind: 'status', status: 500 },
      },
    ];
  if (fault === 'delete-403') {
    const refusal = { kind: 'status' as const, status: 403, code: 'AUTH_INSUFFICIENT_SCOPE' };
    return [{ route: 'DELETE /tenants/me/api-keys/:keyId', times: always, fault: refusal }];
  }
  return [];
}

function githubFaults(seq: Sequence, mode: RotateSpec['store'], read: RotateSpec['read']): void {
  const put = 'actions/create-or-update-repo-secret';
  const { github } = seq.shared;
  // the secret's metadata (its version): failing past its retries, or never answering
  const metadata = 'actions/get-repo-secret';
  if (read === 'fail') github.failNext(metadata, { status: 502, times: 4 });
  if (read === 'hang')
    github.failNext(metadata, { status: 502, delayMs: Number.POSITIVE_INFINITY });
  if (mode === 'fail') github.failNext(put, { status: 422 });
  if (mode === 'lost') github.failNext(put, { status: 502, afterHandler: true });
  if (mode === 'hang') github.failNext(put, { status: 502, delayMs: Number.POSITIVE_INFINITY });
  if (mode === 'hang-stored')
    github.failNext(put, { status: 502, afterHandler: true, delayMs: Number.POSITIVE_INFINITY });
}

/** A GitHub request's deadline in the model (30 s in the product). */
export const GITHUB_REQUEST_DEADLINE_MS = 250;

async function makeStore(
  seq: Sequence,
  note: (line: string) => void,
  secrets: string[],
): Promise<KeyStore> {
  if (seq.setup.kind === 'github') {
    const { octokit } = await createGitHubClient(GITHUB_TOKEN, {
      log: { info: note, warning: note },
      baseUrl: seq.shared.github.url,
      retryAfterBaseMs: 1,
      unpaced: true,
    });
    const scope = { kind: 'repository' as const, owner: OWNER, repo: seq.repo };
    return new GitHubSecretStore(octokit, scope, 'TENANT_SCAN_API_KEY', {
      requestDeadlineMs: GITHUB_REQUEST_DEADLINE_MS,
    });
  }
  const readArgv = seq.setup.kind === 'command-read' ? [READ_SCRIPT, seq.storeDir] : undefined;
  const env = storeEnvironment({ ...process.env, HOME: seq.storeDir }, [], secrets);
  return new CommandStore([STORE_SCRIPT, seq.storeDir], env, note, {
    secrets,
    timeoutMs: COMMAND_TIMEOUT_MS,
    ...(readArgv ? { readArgv } : {}),
  });
}

/** The key a run holds: the store's, or (a re-run) an older one it held. */
export function keyInUse(seq: Sequence, spec: RotateSpec): string {
  const older = seq.olderHeld();
  if (spec.rerun === null || older.length === 0) return seq.stored();
  return older[spec.rerun % older.length] ?? seq.stored();
}

export async function runRotation(seq: Sequence, spec: RotateSpec): Promise<RunOutcome> {
  const { emu, github } = seq.shared;
  emu.clearFaults();
  github.clearFailures();
  for (const rule of serviceFaults(spec.service)) emu.addFault(rule);
  if (seq.setup.kind === 'github') githubFaults(seq, spec.store, spec.read);
  else seq.setCommandModes(spec.store, spec.read);

  const kill = new Kill(spec.kill);
  const inUse = keyInUse(seq, spec);
  const startMs = serviceNow(seq.shared);
  seq.lastHeldByRun.set(inUse, startMs);
  const lines: string[] = [];
  const masked: string[] = [];
  const secrets = [inUse];
  const clients: TenantClient[] = [];
  const open = (apiKey: string) => {
    const client = createClient({
      apiKey,
      baseUrl: emu.url,
      retry: { maxAttempts: 2, baseDelayMs: 5 },
    });
    clients.push(client);
    return killable(client, kill);
  };
  const store = await makeStore(seq, (l) => lines.push(l), secrets);
  const started = performance.now();
  const outcome: RunOutcome = { inUse, lines, masked, killed: false, startMs, elapsedMs: 0 };
  const rotation = rotateKey(
    {
      apiKey: inUse,
      lineage: seq.lineage,
      graceMs: seq.graceMs,
      revokeReplaced: seq.setup.revokeReplaced,
      dryRun: false,
    },
    {
      client: open(inUse),
      openClient: open,
      store: killableStore(store, kill),
      mask: (secret) => {
        masked.push(secret);
        secrets.push(secret);
        seq.keyValues.add(secret);
      },
      log: (line) => lines.push(line),
      storeDeadlineMs: STORE_DEADLINE_MS,
    },
  ).then(
    (result) => void (outcome.result = result),
    (error: unknown) =>
      void (outcome.error = error instanceof Error ? error.message : String(error)),
  );
  await Promise.race([rotation, kill.died]);
  outcome.killed = kill.dead;
  outcome.elapsedMs = performance.now() - started;
  await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
  emu.clearFaults();
  github.clearFailures();
  seq.noteStored(startMs);
  return outcome;
}
