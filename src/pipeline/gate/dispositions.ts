// Why a waived finding does not fail the gate: the waiver's disposition. An accepted risk, a false
// positive, a mitigated finding and one covered by a compensating control are different facts for
// an auditor, so each is counted apart; all of them still expire (waivers.ts).

export const DISPOSITIONS = [
  'risk-accepted',
  'false-positive',
  'mitigated',
  'compensating-control',
] as const;
export type Disposition = (typeof DISPOSITIONS)[number];

/** A waiver that names none. */
export const DEFAULT_DISPOSITION: Disposition = 'risk-accepted';

const WORDS: Record<Disposition, [one: string, many: string]> = {
  'risk-accepted': ['accepted risk', 'accepted risks'],
  'false-positive': ['false positive', 'false positives'],
  mitigated: ['mitigated', 'mitigated'],
  'compensating-control': ['compensating control', 'compensating controls'],
};

export function isDisposition(value: string): value is Disposition {
  return (DISPOSITIONS as readonly string[]).includes(value);
}

/** "accepted risk", "false positive": a disposition in words. */
export function dispositionWords(disposition: Disposition | undefined): string {
  return WORDS[disposition ?? DEFAULT_DISPOSITION][0];
}

/** How many waived findings of each disposition (every disposition, zeros too). */
export type DispositionCounts = Record<Disposition, number>;

export function countDispositions(
  dispositions: Iterable<Disposition | undefined>,
): DispositionCounts {
  const counts = Object.fromEntries(DISPOSITIONS.map((d) => [d, 0])) as DispositionCounts;
  for (const disposition of dispositions) counts[disposition ?? DEFAULT_DISPOSITION]++;
  return counts;
}

/** "3 accepted risks, 1 false positive": the dispositions that count, in DISPOSITIONS order. */
export function dispositionCountWords(counts: DispositionCounts): string {
  return DISPOSITIONS.filter((d) => counts[d] > 0)
    .map((d) => `${counts[d]} ${WORDS[d][counts[d] === 1 ? 0 : 1]}`)
    .join(', ');
}
