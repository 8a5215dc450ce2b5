// npm run bench:redact — what keeping every secret of the run out of answers costs (issues 31, 46):
// a results page of 50,000 findings as the emulator writes them (~24 MB), against its own
// JSON.parse and against the redaction it replaced (BENCH_REDACT_BASELINE, default: the commit this
// branch left main at, its src/client taken from git), both in the same run. The client looks at all
// the answer's strings at once for any secret in any form a reader would find (revealsSecret), and
// only when it finds one looks at every string (redactDeep).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parsedWithoutSecrets } from '../src/client/redact.js';
import { echoForms, findingJson } from '../test/emulator/findings.js';
import { median } from './lib/stats.js';

const FINDINGS = Number(process.env.BENCH_REDACT_FINDINGS ?? 50_000);
const ROUNDS = Number(process.env.BENCH_REDACT_ROUNDS ?? 5);
/** A page whose every finding echoes the key in every form is redacted string by string: smaller. */
const ECHO_FINDINGS = Number(process.env.BENCH_REDACT_ECHO_FINDINGS ?? 5_000);
const KEY = `ak_live_${'aB3dE5gH7jK9mN1pQ3sT5vX7zA9cE1gI3kM5oQ7s'}`;
/** A many-tenants run holds every tenant's key. */
const TENANT_KEYS = Array.from({ length: 1000 }, (_, i) => `ak_live_${i}x${KEY.slice(12)}`);

type Old = {
  jsonMayHoldSecret(json: string, secret: string): boolean;
  redactDeep(value: unknown, secret: string): unknown;
};

/** The old redaction: its src/client from git, in a directory of its own. */
async function oldRedaction(): Promise<{ old: Old; base: string; cleanup(): void }> {
  const base =
    process.env.BENCH_REDACT_BASELINE ??
    execFileSync('git', ['merge-base', 'HEAD', 'main'], { encoding: 'utf8' }).trim();
  const dir = mkdtempSync(join(tmpdir(), 'bench-redact-'));
  const tar = execFileSync('git', ['archive', base, 'src/client']);
  execFileSync('tar', ['-x', '-C', dir], { input: tar });
  const old = (await import(join(dir, 'src/client/redact.ts'))) as Old;
  return { old, base, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

function page(
  variant: { hostileText?: boolean },
  echoed: readonly string[] = [],
  findings = FINDINGS,
): string {
  const items = Array.from({ length: findings }, (_, i) =>
    findingJson(1, 'scan', i, i % 5 === 0 ? 'Failed' : 'Passed', variant, echoed),
  );
  // A flat string, as an answer's body decoded from its bytes is.
  return Buffer.from(`{"success":true,"data":[${items.join(',')}]}`).toString('utf8');
}

/** Median CPU time (user + system) of `run`, in ms: on a shared VM wall time is mostly waiting. */
function time(run: () => unknown): number {
  const samples = Array.from({ length: ROUNDS }, () => {
    const started = process.cpuUsage();
    run();
    const used = process.cpuUsage(started);
    return (used.user + used.system) / 1000;
  });
  return median(samples);
}

const { old, base, cleanup } = await oldRedaction();
try {
  const pages = [
    ['plain service text', page({})],
    ['escape sequences in every finding', page({ hostileText: true })],
    [
      `${ECHO_FINDINGS} findings, each echoing the key in ${echoForms(KEY).length} forms`,
      page({}, echoForms(KEY), ECHO_FINDINGS),
    ],
  ] as const;
  console.log(`baseline ${base.slice(0, 7)}; CPU ms, median of ${ROUNDS}`);
  console.log('| page | JSON.parse | before (one key) | now (one key) | now (1,000 keys) |');
  for (const [name, text] of pages) {
    const parsed: unknown = JSON.parse(text);
    const parse = time(() => JSON.parse(text));
    const before = time(() => old.jsonMayHoldSecret(text, KEY) && old.redactDeep(parsed, KEY));
    const now = time(() => parsedWithoutSecrets(parsed, [KEY]));
    const many = time(() => parsedWithoutSecrets(parsed, [KEY, ...TENANT_KEYS]));
    const ratio = (ms: number) => `${ms.toFixed(0)} ms (×${(ms / parse).toFixed(1)} parse)`;
    console.log(
      `| ${name} (${(text.length / 2 ** 20).toFixed(0)} MiB) | ${parse.toFixed(0)} ms | ${ratio(before)} | ${ratio(now)}, ×${(now / before).toFixed(1)} before | ${ratio(many)} |`,
    );
  }
} finally {
  cleanup();
}
