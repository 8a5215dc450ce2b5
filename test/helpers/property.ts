// fast-check's parameters for every property test: a fixed seed in `npm test`, so a red run is the
// same red run on any machine; `npm run test:properties -- --runs N [--seed S|random]` runs them
// long (scripts/test-properties.mjs sets the two variables below). A failure prints the seed, the
// path and the shrunk counterexample: `--seed S` with fast-check's `path` replays it.
import type { Parameters } from 'fast-check';

/** The seed of every property in `npm test`; any fixed number would do. */
export const DEFAULT_SEED = 20_261_128;

/** How many runs: `defaultRuns` in `npm test` (chosen per property to keep it quick), else PROPERTY_RUNS. */
export function propertyRuns(defaultRuns: number): number {
  const asked = Number(process.env.PROPERTY_RUNS);
  return Number.isSafeInteger(asked) && asked > 0 ? asked : defaultRuns;
}

function propertySeed(): number {
  const asked = process.env.PROPERTY_SEED;
  if (asked === 'random') return Math.floor(Math.random() * 2 ** 31) - 2 ** 30;
  const n = Number(asked);
  return asked !== undefined && asked !== '' && Number.isSafeInteger(n) ? n : DEFAULT_SEED;
}

/**
 * fc.assert's parameters: seeded, `defaultRuns` unless a long run asks for more, and no time limit
 * of fast-check's own (node:test's per-file timeout and our deadlines bound a run).
 */
export function propertyParameters<T>(
  defaultRuns: number,
  extra: Parameters<T> = {},
): Parameters<T> {
  return {
    seed: propertySeed(),
    numRuns: propertyRuns(defaultRuns),
    endOnFailure: process.env.PROPERTY_SHRINK === 'off',
    ...extra,
  };
}
