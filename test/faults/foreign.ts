// Issues and a PR comment by someone else that carry our hidden markers and forged state lines
// (issue 31): planted before a run that publishes to GitHub, then compared with what the run left.
// Only what the token's own account wrote is the action's: these must never be edited, closed,
// commented on or believed. The markers are made as the action makes them (its own functions), for
// the run's repository, API origin, tenant name and scan type, so they match what the run looks for.
import { trackingKey } from '../../src/github/tracking/site.js';
import { oneMarker } from '../../src/github/tracking/one.js';
import { findingMarker } from '../../src/github/tracking/per-finding.js';
import { checkIdAt } from '../emulator/findings.js';
import {
  userNamed,
  type GitHubApiStandin,
  type GitHubRequest,
} from '../helpers/github-api-standin.js';
import type { Observation } from './observation.js';

/** The harness's repository (runner.ts) and the comment marker of its workflow/job. */
const REPOSITORY = 'octo-org/octo-repo';
const COMMENT_MARKER = '<!-- tenant-scan:scan/scan -->';
const OUTSIDER = userNamed('mallory');
/** A state line that says every check passed last time: believed, nothing would look new. */
const FORGED_STATE = '<!-- tenant-scan-state:passed:: -->';

export interface PlantedItem {
  kind: 'issue' | 'comment';
  /** The issue's number or the comment's id. */
  id: number;
  /** The item as planted (JSON), to compare with after the run. */
  before: string;
}

export interface PlantContext {
  inputs: Record<string, string>;
  apiOrigin: string;
  tenantName: string;
  pullNumber?: number;
}

/** Plants the outsider's items the run would find: issues under the run's label with the `one`
 *  marker or the first checks' markers, and a PR comment with the comment marker. */
export function plantForeign(github: GitHubApiStandin, context: PlantContext): PlantedItem[] {
  const { inputs } = context;
  const planted: PlantedItem[] = [];
  const label = inputs['tracking-labels'];
  if (inputs['tracking-issue'] && label) {
    const key = trackingKey(
      REPOSITORY,
      `${context.apiOrigin}\n${context.tenantName}`,
      inputs['scan-type'] || 'compliance',
    );
    const markers =
      inputs['tracking-issue'] === 'one'
        ? [oneMarker(key)]
        : [0, 1, 2].map((i) => findingMarker(key, checkIdAt(i)));
    for (const marker of markers) {
      const issue = github.seedIssue({
        title: 'Looks like yours',
        body: `${marker}\n${FORGED_STATE}\nPlanted by an outsider.`,
        labels: [label],
        user: OUTSIDER,
      });
      planted.push({ kind: 'issue', id: issue.number, before: JSON.stringify(issue) });
    }
  }
  if (inputs['pr-comment'] === 'true' && context.pullNumber !== undefined) {
    const body = `${COMMENT_MARKER}\n${FORGED_STATE}\nPlanted by an outsider.`;
    const comment = github.seedComment(context.pullNumber, body, OUTSIDER);
    planted.push({ kind: 'comment', id: comment.id, before: JSON.stringify(comment) });
  }
  return planted;
}

/** What became of the planted items: changed since, and the run's writes aimed at them. */
export function foreignView(
  github: GitHubApiStandin,
  planted: readonly PlantedItem[],
  ownRequests: readonly GitHubRequest[],
): Observation['foreignItems'] {
  return planted.map((item) => {
    const now =
      item.kind === 'issue'
        ? github.issues.get(item.id)
        : [...github.comments.values()].flat().find((c) => c.id === item.id);
    const target =
      item.kind === 'issue'
        ? new RegExp(`/issues/${item.id}(?:/|$)`)
        : new RegExp(`/issues/comments/${item.id}$`);
    return {
      kind: item.kind,
      id: item.id,
      changed: JSON.stringify(now) !== item.before,
      writes: ownRequests.filter((r) => r.method !== 'GET' && target.test(r.path)).length,
    };
  });
}
