// What a run remembers in the Markdown it leaves on GitHub (the PR comment, a tracking issue), so
// the next run can say what changed: a hidden line with the verdict and short hashes of the failed
// findings' identities and of the expired waivers. Hashes only: no service text in a marker. The
// line is read only from the body's second line, right under our marker, of a comment or issue the
// token's account wrote: a state line anywhere else (pasted into the summary, another's comment) is
// not ours.

import { createHash } from 'node:crypto';
import { markdownCode } from '../pipeline/common/markdown.js';
import type { JobResult } from '../pipeline/job/types.js';

export interface RunState {
  verdict: string;
  failed: Set<string>;
  expired: Set<string>;
}

const STATE_LINE = /^<!-- tenant-scan-state:([a-z]*):([0-9a-f,]*)(?::([0-9a-f,]*))? -->$/;
/** Hashes kept (the first failed findings, worst first): bounded for a body's size; beyond them,
 *  what changed is counted from these only. */
const MAX_STATE_HASHES = 300;

/** A short, stable hash of an identity (a check id, a waiver's check). */
export function identityHash(identity: string): string {
  return createHash('sha256').update(identity).digest('hex').slice(0, 12);
}

function identityOf(finding: { identity: string; id: string }): string {
  return finding.identity || finding.id;
}

export function runState(result: JobResult): RunState {
  const failed = new Set(
    result.findings.slice(0, MAX_STATE_HASHES).map((finding) => identityHash(identityOf(finding))),
  );
  const expired = new Set((result.gate?.expired ?? []).map((w) => identityHash(w.check)));
  return { verdict: result.verdict ?? '', failed, expired };
}

export function stateLine(state: RunState): string {
  return `<!-- tenant-scan-state:${state.verdict}:${[...state.failed].join(',')}:${[...state.expired].join(',')} -->`;
}

/** The state line of a body we wrote: its second line (the first is the marker). */
export function readRunState(body: string): RunState | undefined {
  const match = STATE_LINE.exec(body.split('\n', 2)[1] ?? '');
  if (!match) return undefined;
  const hashes = (text: string | undefined) =>
    new Set((text ?? '').split(',').filter((h) => h !== ''));
  return { verdict: match[1] ?? '', failed: hashes(match[2]), expired: hashes(match[3]) };
}

/**
 * What changed between two runs, one Markdown line — "**Since the last run:** passed → failed;
 * 2 newly failing (`A`, `B`); 1 no longer failing; 1 waiver expired (`C`)." — or '' when nothing
 * did (or there is nothing to compare with).
 */
export function changes(
  before: RunState,
  now: RunState,
  result: JobResult,
  shown: NamesShown = DEFAULT_NAMES_SHOWN,
): string[] {
  const parts: string[] = [];
  if (before.verdict !== now.verdict && before.verdict !== '' && now.verdict !== '') {
    parts.push(`${before.verdict} → ${now.verdict}`);
  }
  const fresh = result.findings.filter((f) => !before.failed.has(identityHash(identityOf(f))));
  if (fresh.length > 0)
    parts.push(`${fresh.length} newly failing (${names(fresh.map(identityOf), shown)})`);
  const gone = [...before.failed].filter((hash) => !now.failed.has(hash)).length;
  if (gone > 0) parts.push(`${gone} no longer failing`);
  const expired = (result.gate?.expired ?? []).filter(
    (w) => !before.expired.has(identityHash(w.check)),
  );
  if (expired.length > 0) {
    parts.push(
      `${expired.length} waiver${expired.length === 1 ? '' : 's'} expired (${names(
        expired.map((w) => w.check),
        shown,
      )})`,
    );
  }
  return parts;
}

/** How many identities a change line names, and how long each may be. */
export interface NamesShown {
  count: number;
  chars: number;
}
const DEFAULT_NAMES_SHOWN: NamesShown = { count: 10, chars: 80 };

function names(identities: string[], { count, chars }: NamesShown): string {
  const shown = identities.slice(0, count).map((id) => markdownCode(id, chars, false));
  const more = identities.length > count ? ` and ${identities.length - count} more` : '';
  return `${shown.join(', ')}${more}`;
}

/** The change line a comment or an issue shows: `**<lead>:** …` ('no change' when none), or ''
 *  without an earlier state. */
export function changeLine(
  lead: string,
  before: RunState | undefined,
  now: RunState,
  result: JobResult,
  shown?: NamesShown,
): string {
  if (!before) return '';
  const parts = changes(before, now, result, shown);
  return `**${lead}:** ${parts.length > 0 ? parts.join('; ') : 'no change'}.`;
}
