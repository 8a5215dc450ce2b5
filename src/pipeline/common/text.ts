// Small wording helpers shared by every message the pipeline writes.

/** Shows a user's (non-secret) value in a message: quoted, short, one line. */
export function quoteValue(raw: string): string {
  const shown = raw.length > 40 ? `${raw.slice(0, 40)}…` : raw;
  return JSON.stringify(shown);
}
