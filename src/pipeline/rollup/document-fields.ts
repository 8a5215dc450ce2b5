// Reading the fields of a file a roll-up reads (a run record, a tenant plan): each check throws
// DocumentProblem, whose message says why the file is not whole, and the file is listed as
// unreadable — never read in part.

export class DocumentProblem extends Error {}

export function problem(why: string): never {
  throw new DocumentProblem(why);
}

export function text(value: unknown, what: string): string {
  return typeof value === 'string' ? value : problem(`${what} is not a string`);
}

export function textOrNull(value: unknown, what: string): string | null {
  return value === null || value === undefined ? null : text(value, what);
}

export function count(value: unknown, what: string): number {
  return Number.isSafeInteger(value) && (value as number) >= 0
    ? (value as number)
    : problem(`${what} is not a count`);
}

export function countOrNull(value: unknown, what: string): number | null {
  return value === null || value === undefined ? null : count(value, what);
}
