// npm run bench:redact — what keeping the key out of answers costs (issue 31): a results page of
// 50,000 findings as the emulator writes them (~24 MB), against its own JSON.parse in the same
// run. The client parses every answer, looks at the whole text once for the key in any form
// (jsonMayHoldSecret), and only when that cannot rule it out (a control character or an escape
// of one anywhere in the text, or the key itself) looks at every string (redactDeep).
import { jsonMayHoldSecret, redactDeep } from '../src/client/redact.js';
import { findingJson } from '../test/emulator/findings.js';
import { median } from './lib/stats.js';

const FINDINGS = Number(process.env.BENCH_REDACT_FINDINGS ?? 50_000);
const ROUNDS = Number(process.env.BENCH_REDACT_ROUNDS ?? 5);
const KEY = `ak_live_${'aB3dE5gH7jK9mN1pQ3sT5vX7zA9cE1gI3kM5oQ7s'}`;

function page(hostile: boolean): string {
  const items = Array.from({ length: FINDINGS }, (_, i) =>
    findingJson(1, 'scan', i, i % 5 === 0 ? 'Failed' : 'Passed', { hostileText: hostile }),
  );
  // A flat string, as an answer's body decoded from its bytes is.
  return Buffer.from(`{"success":true,"data":[${items.join(',')}]}`).toString('utf8');
}

function time(run: () => unknown): number {
  const samples = Array.from({ length: ROUNDS }, () => {
    const started = performance.now();
    run();
    return performance.now() - started;
  });
  return median(samples);
}

for (const [name, text] of [
  ['plain service text', page(false)],
  ['escape sequences in every finding', page(true)],
] as const) {
  const parsed: unknown = JSON.parse(text);
  const parse = time(() => JSON.parse(text));
  const look = time(() => jsonMayHoldSecret(text, KEY));
  const deep = jsonMayHoldSecret(text, KEY) ? time(() => redactDeep(parsed, KEY)) : 0;
  const ratio = (ms: number) => `×${(ms / parse).toFixed(2)}`;
  console.log(
    `${name} (${(text.length / 2 ** 20).toFixed(1)} MiB): JSON.parse ${parse.toFixed(0)} ms; ` +
      `the one look ${look.toFixed(0)} ms (${ratio(look)}); ` +
      (deep > 0 ? `every string ${deep.toFixed(0)} ms (${ratio(deep)})` : 'no string looked at'),
  );
}
