// The coverage compared with the baseline on a tenant's view (a run's page, a fleet's tenant).

import { el } from './dom.js';
import { formatCount, percentWords, plural, stringOf } from './model.js';

/** The coverage compared with the baseline, as the job summary's Coverage row says it, and the
 *  checks not evaluated now by identity. */
export function coverageLines(model, coverage) {
  if (!coverage) return [];
  const source = stringOf(model, coverage.source) || 'the baseline';
  const percent = coverage.baseline === 0 ? 0 : (coverage.dropped * 100) / coverage.baseline;
  const limit = coverage.maxDrop === null ? '' : `, at most ${percentWords(coverage.maxDrop)}`;
  const lines = [
    el('p', {
      className: coverage.fails ? 'coverage fails' : 'coverage',
      text: `Coverage: ${plural(coverage.evaluated, 'check')} evaluated now, ${formatCount(coverage.baseline)} in ${source}; ${formatCount(coverage.dropped)} not evaluated now (${percentWords(percent)}${limit})${coverage.fails ? ' — fails the gate' : ''}`,
      attrs: { id: 'coverage', 'data-state': coverage.fails ? 'fails' : 'within' },
    }),
  ];
  const checks = (coverage.checks ?? []).map((index) => stringOf(model, index)).filter(Boolean);
  if (checks.length > 0) {
    const more = coverage.dropped - checks.length;
    lines.push(
      el('p', {
        className: 'coverage',
        text: `Evaluated in the baseline, not evaluated now: ${checks.join(', ')}${more > 0 ? `, … and ${formatCount(more)} more` : ''}`,
        attrs: { id: 'coverage-checks' },
      }),
    );
  }
  return lines;
}
