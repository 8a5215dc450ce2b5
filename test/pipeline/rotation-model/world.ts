// The world of the rotation's model (rotation.property.test.ts): one emulator and one GitHub
// stand-in for every sequence, and per sequence a tenant and a store — a GitHub secret (the
// stand-in decrypts it), a store command, or a store command with a read command (shell scripts
// over a directory) — with the history the invariants judge a run by. Two clocks: the service's
// (the emulator's, years ahead of this machine's) and GitHub's, this machine's moved by the same
// advances and by a skew of its own; GitHub's Date header may be skewed from its own updated_at.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startEmulator } from '../../emulator/emulator.js';
import type { Emulator } from '../../emulator/types.js';
import { startGitHubApiStandin, type GitHubApiStandin } from '../../helpers/github-api-standin.js';

export const HOUR = 3_600_000;
export const MINUTE = 60_000;
const YEAR = 365 * 24 * HOUR;

export const STORE_SCRIPT = fileURLToPath(
  new URL('../../fixtures/store-command/model-store.sh', import.meta.url),
);
export const READ_SCRIPT = fileURLToPath(
  new URL('../../fixtures/store-command/model-read.sh', import.meta.url),
);
export const GITHUB_TOKEN = 'ghs_rotation_model_token';
export const OWNER = 'octo-org';

export type StoreKind = 'github' | 'command' | 'command-read';

/** What a sequence is drawn with, once: its store, grace, revoke-replaced and people's keys. */
export interface Setup {
  kind: StoreKind;
  graceHours: number;
  revokeReplaced: boolean;
  humanKeys: number;
}

/** What every sequence shares: the services and the clocks' offsets. */
export interface Shared {
  emu: Emulator;
  github: GitHubApiStandin;
  dir: string;
  /** Every advance so far (the emulator's clock moved by them too). */
  advancedMs: number;
  /** GitHub's clock minus this machine's (plus the advances). */
  githubSkewMs: number;
  /** GitHub's Date header minus its own clock (another server than the one stamping updated_at). */
  githubDateSkewMs: number;
  sequences: number;
  /** How often the runs went each way (commands.ts). */
  tally: Map<string, number>;
}

export async function startShared(): Promise<Shared> {
  const emu = await startEmulator({ seed: 4646, epochMs: Date.now() + 5 * YEAR });
  const shared = {
    emu,
    dir: mkdtempSync(join(tmpdir(), 'rotation-model-')),
    advancedMs: 0,
    githubSkewMs: 0,
    githubDateSkewMs: 0,
    sequences: 0,
    tally: new Map(),
  } as Shared;
  const githubNow = () => Date.now() + shared.advancedMs + shared.githubSkewMs;
  shared.github = await startGitHubApiStandin({
    secretWriters: [GITHUB_TOKEN],
    now: githubNow,
    dateNow: () => githubNow() + shared.githubDateSkewMs,
  });
  return shared;
}

export async function stopShared(shared: Shared): Promise<void> {
  await Promise.all([shared.emu.close(), shared.github.close()]);
  rmSync(shared.dir, { recursive: true, force: true });
}

export function serviceNow(shared: Shared): number {
  return shared.emu.now?.() ?? Date.now();
}

export function advance(shared: Shared, ms: number): void {
  shared.emu.advance(ms);
  shared.advancedMs += ms;
}

export interface KeyTruth {
  id: string;
  name: string;
  key: string;
  createdAt: string;
  lastUsedAt: string | null;
}

/** One sequence: the model (what happened, on the service's clock) and the handles on the truth. */
export class Sequence {
  readonly tenantId: string;
  readonly startKey: string;
  readonly repo: string;
  readonly secretPath: string;
  readonly storeDir: string;
  readonly humanIds = new Set<string>();
  /** Every key value the tenant ever had: none may reach any output. */
  readonly keyValues = new Set<string>();
  /** What the store held, oldest first, from the start of the command that wrote it. */
  readonly history: Array<{ value: string; fromMs: number }> = [];
  /** When a run last started holding a key (service clock). */
  readonly lastHeldByRun = new Map<string, number>();
  /** When each key the tenant had was made (service clock). */
  readonly createdAt = new Map<string, number>();
  /** What each command did, for a failure's message. */
  readonly journal: string[] = [];

  constructor(
    readonly shared: Shared,
    readonly setup: Setup,
  ) {
    const n = ++shared.sequences;
    const tenant = shared.emu.addTenant({ name: `Rotating ${n}` });
    this.tenantId = tenant.tenantId;
    this.startKey = tenant.apiKey;
    this.keyValues.add(this.startKey);
    this.repo = `model-${n}`;
    this.secretPath = `repo:${OWNER}/${this.repo}/TENANT_SCAN_API_KEY`;
    this.storeDir = mkdtempSync(join(shared.dir, `store-${n}-`));
    for (let i = 0; i < setup.humanKeys; i++) {
      const key = shared.emu.addKey(this.tenantId, `team ${i}`);
      this.keyValues.add(key);
      const id = this.keys().find((k) => k.key === key)?.id;
      if (id) this.humanIds.add(id);
    }
    if (setup.kind === 'github')
      shared.github.seedSecret(this.secretPath, { value: this.startKey });
    else writeFileSync(join(this.storeDir, 'value'), this.startKey);
    this.history.push({ value: this.startKey, fromMs: serviceNow(shared) });
  }

  get lineage(): string {
    return this.setup.kind === 'github'
      ? `github:${OWNER}/${this.repo}/TENANT_SCAN_API_KEY`
      : `model:${this.repo}`;
  }

  get graceMs(): number {
    return this.setup.graceHours * HOUR;
  }

  /** The tenant's active keys, as the emulator holds them. */
  keys(): KeyTruth[] {
    return this.shared.emu.apiKeys(this.tenantId);
  }

  /** The key the store holds now. */
  stored(): string {
    if (this.setup.kind === 'github')
      return this.shared.github.secrets.get(this.secretPath)?.value ?? '';
    return readFileSync(join(this.storeDir, 'value'), 'utf8');
  }

  /** Records a change of the store made by the command that started at `startMs`. */
  noteStored(startMs: number): void {
    const value = this.stored();
    if (value !== this.history.at(-1)?.value) this.history.push({ value, fromMs: startMs });
  }

  everHeld(value: string): boolean {
    return this.history.some((h) => h.value === value);
  }

  /** When the store moved on from `value` (undefined: it holds it, or never did). */
  leftAt(value: string): number | undefined {
    let left: number | undefined;
    this.history.forEach((h, i) => {
      const next = this.history[i + 1];
      if (h.value === value && next && next.value !== value) left = next.fromMs;
      if (h.value === value && !next) left = undefined;
    });
    return left;
  }

  /** Keys the store held before, still active, older first: what a re-run may hold. */
  olderHeld(): string[] {
    const active = new Set(this.keys().map((k) => k.key));
    const current = this.stored();
    return [...new Set(this.history.map((h) => h.value))].filter(
      (v) => v !== current && active.has(v),
    );
  }

  /** How a store command (or its read command) behaves in the next run. */
  setCommandModes(write: string, read: string): void {
    writeFileSync(join(this.storeDir, 'mode'), write);
    writeFileSync(join(this.storeDir, 'read-mode'), read);
  }

  close(): void {
    rmSync(this.storeDir, { recursive: true, force: true });
  }
}
