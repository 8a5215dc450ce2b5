// Waivers a pull request adds or extends (issue 31). On a pull request the waivers file comes from
// the pull request's own head, so a pull request can waive what would fail its own check. The
// waivers are compared with the same file at the base commit of the event, read through GitHub's
// REST contents API (the runner's checkout has only the head; fetching the base commit with git
// would need a deeper checkout the user may not have), and each waiver that is new or expires later
// than on the base branch is named in the job summary and the PR comment. When the base file cannot
// be read, every waiver in force is named as not compared: the safe side.

import { isAbsolute, relative, resolve, sep } from 'node:path';
import type { Waiver } from '../pipeline/gate/judge.js';
import type { RunContext } from './event.js';
import { describeGitHubError, type GitHubClient } from './github-client.js';
import { plural } from '../pipeline/common/text.js';

/** A waiver of the pull request's file that the base branch's file does not hold as it is. */
export interface WaiverChange {
  waiver: Waiver;
  /** Its date on the base branch when it is extended; undefined when it is new. */
  before?: string;
}

export type WaiverReview =
  | { kind: 'compared'; file: string; base: string; changes: WaiverChange[] }
  | { kind: 'not-compared'; file: string; why: string; waivers: Waiver[] };

/** The waivers of `head` that `base` does not hold with the same or a later date. */
export function addedOrExtended(head: readonly Waiver[], base: readonly Waiver[]): WaiverChange[] {
  const before = new Map(base.map((w) => [w.check, w.expires]));
  return head.flatMap((waiver): WaiverChange[] => {
    const was = before.get(waiver.check);
    if (was === undefined) return [{ waiver }];
    return waiver.expires > was ? [{ waiver, before: was }] : [];
  });
}

/** The waivers file's path in the repository, when it is inside the workspace. */
export function repositoryPath(file: string, workspace: string): string | undefined {
  const path = relative(resolve(workspace), resolve(workspace, file));
  if (path === '' || path.startsWith('..') || isAbsolute(path)) return undefined;
  return path.split(sep).join('/');
}

interface ReviewRequest {
  github: GitHubClient | undefined;
  context: RunContext;
  /** The waivers file as the step read it (relative to the workspace) and its waivers. */
  file: string;
  waivers: readonly Waiver[];
  workspace: string;
  /** The same parser the gate uses. */
  parse(path: string, text: string): Promise<Waiver[]>;
}

/** What the pull request changed in the waivers, or undefined outside a pull request. */
export async function reviewPullRequestWaivers(
  request: ReviewRequest,
): Promise<WaiverReview | undefined> {
  const { context, file, waivers } = request;
  const base = context.baseSha ?? context.baseRef;
  if (context.pullNumber === undefined || base === undefined) return undefined;
  const notCompared = (why: string): WaiverReview => ({
    kind: 'not-compared',
    file,
    why,
    waivers: [...waivers],
  });
  const path = repositoryPath(file, request.workspace);
  if (!path) return notCompared('the waivers file is outside the workspace');
  if (!request.github) return notCompared('no github-token to read the base branch with');
  const text = await readBaseFile(request.github, context, path, base);
  if (typeof text !== 'string') return notCompared(text.why);
  let baseWaivers: Waiver[];
  try {
    baseWaivers = text === '' ? [] : await request.parse(`${path} at ${base.slice(0, 12)}`, text);
  } catch {
    baseWaivers = []; // a base file that does not parse waives nothing
  }
  return { kind: 'compared', file, base, changes: addedOrExtended(waivers, baseWaivers) };
}

/** The file's text at `ref` ('' when it does not exist there), or why it could not be read. */
async function readBaseFile(
  github: GitHubClient,
  context: RunContext,
  path: string,
  ref: string,
): Promise<string | { why: string }> {
  const { owner, repo } = context;
  if (!owner || !repo) return { why: 'GITHUB_REPOSITORY is not set' };
  try {
    const answer = await github.octokit.rest.repos.getContent({ owner, repo, path, ref });
    const data = answer.data as { type?: unknown; encoding?: unknown; content?: unknown };
    if (data.type !== 'file' || data.encoding !== 'base64' || typeof data.content !== 'string')
      return { why: `the base branch's ${path} is not a file of at most 1 MiB` };
    return Buffer.from(data.content, 'base64').toString('utf8');
  } catch (error) {
    if ((error as { status?: unknown }).status === 404) return '';
    const view = describeGitHubError(error, github.signal);
    return {
      why: `the base branch's ${path} could not be read (${view.text}${view.denied ? '; grant contents: read' : ''})`,
    };
  }
}

/** Whether the gate judged a waiver expired (it waived nothing): its `expired` list, matched on the
 *  check and the date. No list (no gate ran): none. */
export function expiredByGate(expired: readonly Waiver[] | undefined): (waiver: Waiver) => boolean {
  const keys = new Set((expired ?? []).map((waiver) => `${waiver.check}\n${waiver.expires}`));
  return (waiver) => keys.has(`${waiver.check}\n${waiver.expires}`);
}

/** What `count` listed waivers do to this check, `expired` of them past their date: an expired
 *  waiver waives nothing, so it is not among those that keep findings from failing. */
export function waiverEffectWords(count: number, expired: number): string {
  if (expired === 0) return 'the findings they waive do not fail this check';
  if (expired >= count)
    return count === 1
      ? 'it has already expired and waives nothing'
      : `all ${count} have already expired and waive nothing`;
  const inForce = count - expired;
  const rest = inForce === 1 ? 'the 1 in force waives' : `the ${inForce} in force waive`;
  const lapsed =
    expired === 1
      ? '1 has already expired and waives'
      : `${expired} have already expired and waive`;
  return `the findings ${rest} do not fail this check; ${lapsed} nothing`;
}

/** "2026-11-26 (new, expired)": a listed waiver's date, its date on the base branch, and whether
 *  it has expired. Plain text: the caller escapes it. */
export function untilWords(change: WaiverChange, expired: boolean): string {
  const was = change.before === undefined ? 'new' : `was ${change.before}`;
  return `${change.waiver.expires} (${was}${expired ? ', expired' : ''})`;
}

/** "adds 1 waiver and extends 2 waivers": what a pull request does to the waivers file. */
export function waiverChangeWords(changes: ReadonlyArray<{ before?: string }>): string {
  const added = changes.filter((c) => c.before === undefined).length;
  const extended = changes.length - added;
  return [
    added > 0 ? `adds ${plural(added, 'waiver')}` : '',
    extended > 0 ? `extends ${plural(extended, 'waiver')}` : '',
  ]
    .filter((x) => x !== '')
    .join(' and ');
}
