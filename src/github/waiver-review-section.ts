// The waivers a pull request adds or extends, as the job summary (and so the check run and the
// PR comment) shows them right under the headline: a table the reviewer must see.

import type { GateOutcome, Waiver } from '../pipeline/gate/judge.js';
import { markdownCode, markdownText } from '../pipeline/common/markdown.js';
import { plural } from '../pipeline/common/text.js';
import {
  expiredByGate,
  untilWords,
  waiverChangeWords,
  waiverEffectWords,
  type WaiverReview,
} from './pr-waivers.js';

const MAX_WAIVERS_SHOWN = 20;

/** The waivers a pull request adds or extends, right under the headline: the reviewer must see
 *  them. The file is the pull request's: its text is shown as plain text. One the gate found
 *  expired is marked so, and not counted among those that keep findings from failing. */
export function waiverReviewSection(
  review: WaiverReview | undefined,
  gate: GateOutcome | undefined,
): string {
  if (!review) return '';
  const expired = expiredByGate(gate?.expired);
  const file = markdownCode(review.file, 200, false);
  if (review.kind === 'not-compared') {
    if (review.waivers.length === 0) return '';
    return [
      `**⚠️ Waivers not compared with the base branch** (${markdownText(review.why, 300)}): every waiver of ${file} is listed as if this pull request added it.`,
      waiverTable(
        review.waivers.map((waiver) => ({ waiver })),
        expired,
      ),
    ].join('\n\n');
  }
  if (review.changes.length === 0) return '';
  const what = waiverChangeWords(review.changes);
  const lapsed = review.changes.filter((c) => expired(c.waiver)).length;
  const effect = waiverEffectWords(review.changes.length, lapsed);
  return [
    `**⚠️ This pull request ${what}** in ${file} (compared with the base commit ${markdownCode(review.base.slice(0, 12), 12, false)}): ${effect}.`,
    waiverTable(review.changes, expired),
  ].join('\n\n');
}

function waiverTable(
  changes: ReadonlyArray<{ waiver: Waiver; before?: string }>,
  expired: (waiver: Waiver) => boolean,
): string {
  const rows = changes.slice(0, MAX_WAIVERS_SHOWN).map((change) => {
    const { waiver } = change;
    const until = markdownText(untilWords(change, expired(waiver)), 40);
    const owner = waiver.owner ? markdownText(waiver.owner, 100) : '—';
    return `| ${markdownCode(waiver.check, 80)} | ${until} | ${markdownText(waiver.reason, 200)} | ${owner} |`;
  });
  const more =
    changes.length > MAX_WAIVERS_SHOWN
      ? [`\n_…and ${plural(changes.length - MAX_WAIVERS_SHOWN, 'more waiver')}._`]
      : [];
  return ['| Waived check | Until | Reason | Owner |', '|---|---|---|---|', ...rows, ...more].join(
    '\n',
  );
}
