// "Did you mean …?": the known name closest to what was typed, by edit distance, or one that
// contains it (--severity → --fail-on-severity). Nothing when nothing is close.

/** Edit distance counting a swap of two neighbours as one edit ("scna" → "scan"), the commonest
 *  typo (optimal string alignment). */
function distance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  const at = (i: number, j: number) => rows[i]?.[j] ?? 0;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        value = Math.min(value, at(i - 2, j - 2) + 1);
      }
      (rows[i] as number[])[j] = value;
    }
  }
  return at(a.length, b.length);
}

/** The candidate a user most likely meant by `typed`, if any is close enough. */
export function closest(typed: string, candidates: readonly string[]): string | undefined {
  const word = typed.toLowerCase();
  const limit = Math.max(1, Math.min(3, Math.floor(word.length / 3)));
  let best: { name: string; score: number } | undefined;
  for (const name of new Set(candidates)) {
    const score = distance(word, name.toLowerCase());
    if (score <= limit && (!best || score < best.score)) best = { name, score };
  }
  if (best) return best.name;
  if (word.length < 4) return undefined;
  return candidates.find((name) => name.toLowerCase().includes(word));
}

/** "; did you mean `scan`?" or ''. */
export function didYouMean(typed: string, candidates: readonly string[], prefix = ''): string {
  const name = closest(typed, candidates);
  return name ? `; did you mean ${prefix}${name}?` : '';
}
