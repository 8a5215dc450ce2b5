// The world of the tracking issues' model-based property: one GitHub REST stand-in (validating
// like GitHub) for the whole test, its issues and comments cleared for each sequence, and the
// tracking code (src/github/tracking/) run in process against it with drawn verdicts and findings.
// The client is @actions/github's Octokit without the throttling plugin (its 3 s between issues
// would make a sequence take minutes; the pacing is github-client.ts's concern, not the tracking's)
// and the account is learnt as the step does (token-identity.ts).
import { getOctokit } from '@actions/github';
import type { GitHubClient } from '../../../src/github/github-client.js';
import { publishTrackingIssues } from '../../../src/github/tracking/issues.js';
import { trackingKey } from '../../../src/github/tracking/site.js';
import { readTokenIdentity } from '../../../src/github/token-identity.js';
import type { JudgedFinding } from '../../../src/pipeline/gate/judge.js';
import type { JobResult } from '../../../src/pipeline/job/types.js';
import {
  ACTIONS_BOT,
  startGitHubApiStandin,
  type Account,
  type GitHubApiStandin,
  type GitHubApiStandinOptions,
  type Issue,
  type IssueComment,
} from '../../helpers/github-api-standin.js';

export const OWNER = 'acme';
export const REPO = 'infra';
export const LABEL = 'tenant-scan';
const TENANT = 'https://api.tenant-scan.example\nContoso';
const SCAN_TYPE = 'quick';
/** The tracking key of every run of the model (one repository, tenant and scan type). */
export const KEY = trackingKey(`${OWNER}/${REPO}`, TENANT, SCAN_TYPE);

/** The checks a run may find failing: identities of the service's usual shapes. */
export const CHECKS = ['MT.1001', 'EIDSCA.AF01', 'CISA.MS.AAD.3.1', 'check-3f9a2b', 'ORCA.100'];

/** The accounts a token may act as: the workflow's GITHUB_TOKEN, a user's token, an App's. */
export const TOKENS: Record<string, Account> = {
  'token-actions': ACTIONS_BOT,
  'token-user': { login: 'octo-ci', id: 3_100_001, type: 'User' },
  'token-app': { login: 'scan-app[bot]', id: 3_100_002, type: 'Bot' },
};

export type Verdict = 'passed' | 'failed' | 'none';
export type Mode = 'one' | 'per-finding';

/** One run of the tracking, as drawn. */
export interface RunSpec {
  mode: Mode;
  verdict: Verdict;
  /** Failed findings: a check (index in CHECKS) and whether it fails the gate. */
  findings: { check: number; gating: boolean }[];
  /** The token may not write issues (a fork's, a missing permission). */
  readOnly: boolean;
}

export interface Shared {
  github: GitHubApiStandin;
  /** The stand-in's options, read at each request: `permission` is flipped for a read-only run. */
  options: GitHubApiStandinOptions;
  sequences: number;
  tally: Map<string, number>;
}

export async function startShared(): Promise<Shared> {
  const options: GitHubApiStandinOptions = { permission: 'write', accounts: { ...TOKENS } };
  return { github: await startGitHubApiStandin(options), options, sequences: 0, tally: new Map() };
}

export interface Snapshot {
  issues: Map<number, Issue>;
  comments: Map<number, IssueComment[]>;
  requests: number;
}

export interface RunLog {
  infos: string[];
  warnings: string[];
}

/** Lets every run of an overlap read before any of them writes: the widest overlap there is. */
export function readsFirst(parties: number) {
  let waiting = parties;
  let release = () => {};
  const all = new Promise<void>((resolve) => (release = resolve));
  return () => {
    let arrived = false;
    const arrive = () => {
      if (!arrived && (arrived = true) && --waiting === 0) release();
    };
    return { beforeWrite: async () => (arrive(), all), done: arrive };
  };
}

/** One sequence of commands: the state outside the stand-in that the invariants need. */
export class Sequence {
  /** Issues others wrote (by number), as they were seeded. */
  readonly outsiderIssues = new Map<number, Issue>();
  /** Comments others wrote (by id), as they were seeded. */
  readonly outsiderComments = new Map<number, IssueComment>();
  /** Whether thousands of newer issues may be seeded (a run then reads 50 pages: kept to some
   *  sequences, for time), and whether they were. */
  manyNewer: 'allowed' | 'no' | 'done';
  runs = 0;
  /** The last run drawn, for a re-run of the same night. */
  lastRun?: RunSpec;

  constructor(
    readonly shared: Shared,
    readonly token: string,
    manyNewer: boolean,
  ) {
    shared.github.issues.clear();
    shared.github.comments.clear();
    shared.github.requests.length = 0;
    shared.sequences++;
    this.manyNewer = manyNewer ? 'allowed' : 'no';
  }

  get account(): Account {
    return TOKENS[this.token] ?? ACTIONS_BOT;
  }

  get github(): GitHubApiStandin {
    return this.shared.github;
  }

  count(path: string): void {
    this.shared.tally.set(path, (this.shared.tally.get(path) ?? 0) + 1);
  }

  snapshot(): Snapshot {
    return {
      issues: new Map(
        [...this.github.issues].map(([n, issue]) => [n, structuredClone(issue)] as const),
      ),
      comments: new Map(
        [...this.github.comments].map(([n, list]) => [n, structuredClone(list)] as const),
      ),
      requests: this.github.requests.length,
    };
  }

  /** A client as the step's, with `beforeWrite` awaited before each write (overlaps). */
  client(beforeWrite?: () => Promise<void>): GitHubClient {
    const octokit = getOctokit(this.token, { baseUrl: this.github.url });
    if (beforeWrite) {
      octokit.hook.before('request', async (options) => {
        if (options.method !== 'GET' && !String(options.url).endsWith('/graphql'))
          await beforeWrite();
      });
    }
    let identity: ReturnType<typeof readTokenIdentity> | undefined;
    return {
      octokit,
      signal: new AbortController().signal,
      identity: () => (identity ??= readTokenIdentity(octokit)),
    };
  }

  /** Runs the tracking of one run to its end, as the main step calls it. */
  async track(spec: RunSpec, client: GitHubClient = this.client()): Promise<RunLog> {
    const log: RunLog = { infos: [], warnings: [] };
    const result = resultOf(spec, ++this.runs);
    await publishTrackingIssues(
      {
        github: client,
        mode: spec.mode,
        labels: [LABEL],
        assignees: [],
        result,
        summary: (maxBytes) =>
          `Tenant scan ${result.scanId}: ${result.failed} failed`.slice(0, maxBytes),
        context: { owner: OWNER, repo: REPO, workflowPath: '', commentKey: 'nightly/scan' },
        tenant: TENANT,
      },
      { info: (m) => log.infos.push(m), warning: (m) => log.warnings.push(m) },
    );
    return log;
  }
}

export function findingOf(check: number, gating: boolean): JudgedFinding {
  const identity = CHECKS[check] ?? `check-${check}`;
  return {
    id: `finding-${check}`,
    identity,
    title: `Check ${identity} fails`,
    severity: 'high',
    result: 'Failed',
    gating,
  };
}

/** The job's result for a drawn run (the gate's judgement as the verdict and gating flags). */
export function resultOf(spec: RunSpec, run: number): JobResult {
  const scanId = `scan-${run}`;
  const findings = spec.findings.map(({ check, gating }) => findingOf(check, gating));
  const verdict = spec.verdict === 'none' ? undefined : spec.verdict;
  return {
    scanId,
    status: 'completed',
    scan: {
      id: scanId,
      status: 'completed',
      phase: 'succeeded',
      knownStatus: true,
      terminal: true,
      scanType: SCAN_TYPE,
      completedAt: '2026-11-28T02:00:00Z',
      raw: {},
    },
    tenantName: 'Contoso',
    verdict,
    failed: findings.length,
    findings,
    fixed: [],
    report: { policy: 'none' },
    failureReason: verdict === 'failed' ? `${findings.length} failed findings` : undefined,
    failStep: verdict !== 'passed',
    triggered: true,
  };
}
