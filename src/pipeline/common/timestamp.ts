// The one reading of a time the service or a record gives: an ISO 8601 date and time with its zone, on a
// day the calendar has. Pure.

/** An ISO 8601 date and time with its zone (`Z` or `±hh:mm`). `Date.parse` alone also takes "1",
 *  "Nov 26 2026", and a time without a zone, which it reads in the roll-up machine's zone. */
const TIMESTAMP =
  /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:[Zz]|[+-]\d{2}:?\d{2})$/;

/** The time `text` names (ms since the epoch), or undefined when it is not an ISO 8601 date and
 *  time with its zone: the one reading of a record's or plan's time. */
export function parseTimestamp(text: string): number | undefined {
  const at = TIMESTAMP.test(text) && isCalendarDate(text) ? Date.parse(text) : Number.NaN;
  return Number.isFinite(at) ? at : undefined;
}

/** Whether the text's date is a day of the calendar: Date.parse takes 2026-02-30 for 2 March. */
function isCalendarDate(text: string): boolean {
  const [year = 0, month = 0, day = 0] = text.slice(0, 10).split('-').map(Number);
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}
