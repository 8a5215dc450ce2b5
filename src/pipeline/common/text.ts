// Small wording helpers shared by every message the pipeline writes.

/** Shows a user's (non-secret) value in a message: quoted, short, one line. */
export function quoteValue(raw: string): string {
  const shown = raw.length > 40 ? `${raw.slice(0, 40)}…` : raw;
  return JSON.stringify(shown);
}

/** "1 finding", "3 findings". */
export function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}
