// A stand-in of GitHub's REST API for the operations the Action calls (check runs, issues and their
// comments, pulls/get and the pull requests of a commit, repository contents, the Actions secrets
// routes of github-secrets-standin.ts, the workflow runs and artifacts routes of
// github-actions-runs-standin.ts) and of GraphQL's `viewer` (who a token acts as).
// Request bodies are validated with Ajv against the schemas extracted from GitHub's official
// OpenAPI description (test/fixtures/github-openapi-subset.json, made by
// scripts/extract-github-schemas.mjs), so it answers 422 where GitHub would. It keeps state (check
// runs with their appended annotations, issues and comments with the account that wrote them) and
// records every request.
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import * as ajvFormats from 'ajv-formats';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import {
  json,
  jsonBody,
  startRecordingServer,
  type HandlerResult,
  type RecordedRequest,
} from './http-server.js';
import type { ArtifactStandin } from './artifact-standin.js';
import {
  createRunsRoutes,
  type RunsOperationId,
  type WorkflowRunFixture,
} from './github-actions-runs-standin.js';
import {
  createSecretsRoutes,
  type SecretOperationId,
  type StoredSecret,
} from './github-secrets-standin.js';

const SUBSET_PATH = new URL('../fixtures/github-openapi-subset.json', import.meta.url);
const DOCS_URL = 'https://docs.github.com/rest';
/** An account that writes issues and comments: a user, or an App's bot. */
export interface Account {
  login: string;
  id: number;
  type: 'User' | 'Bot';
}

/** What a workflow's GITHUB_TOKEN acts as. */
export const ACTIONS_BOT: Account = { login: 'github-actions[bot]', id: 41898282, type: 'Bot' };
const BOT = ACTIONS_BOT;
const MAX_PER_PAGE = 100;
const RUNS_OPERATIONS = new Set<string>([
  'actions/list-workflow-runs',
  'actions/list-workflow-run-artifacts',
  'actions/download-artifact',
]);

/** A user as GitHub's `simple-user` schema requires it. */
function simpleUser(login: string, id: number, type: string) {
  const api = `https://api.github.com/users/${encodeURIComponent(login)}`;
  return {
    login,
    id,
    node_id: `U_${id}`,
    avatar_url: `https://avatars.githubusercontent.com/u/${id}?v=4`,
    gravatar_id: '',
    url: api,
    html_url:
      type === 'Bot'
        ? `https://github.com/apps/${login.replace(/\[bot\]$/, '')}`
        : `https://github.com/${encodeURIComponent(login)}`,
    followers_url: `${api}/followers`,
    following_url: `${api}/following{/other_user}`,
    gists_url: `${api}/gists{/gist_id}`,
    starred_url: `${api}/starred{/owner}{/repo}`,
    subscriptions_url: `${api}/subscriptions`,
    organizations_url: `${api}/orgs`,
    repos_url: `${api}/repos`,
    events_url: `${api}/events{/privacy}`,
    received_events_url: `${api}/received_events`,
    type,
    site_admin: false,
  };
}

const GITHUB_ACTIONS_APP = {
  id: 15368,
  slug: 'github-actions',
  node_id: 'MDM6QXBwMTUzNjg=',
  owner: simpleUser('github', 9919, 'Organization'),
  name: 'GitHub Actions',
  description: 'Automate your workflow from idea to production',
  external_url: 'https://help.github.com/en/actions',
  html_url: 'https://github.com/apps/github-actions',
  created_at: '2018-07-30T09:30:17Z',
  updated_at: '2024-04-10T20:33:16Z',
  permissions: { checks: 'write', issues: 'write', metadata: 'read', pull_requests: 'write' },
  events: ['check_run', 'check_suite'],
};

export type OperationId =
  | 'checks/create'
  | 'checks/update'
  | 'issues/create-comment'
  | 'issues/update-comment'
  | 'issues/list-comments'
  | 'issues/list-for-repo'
  | 'issues/create'
  | 'issues/update'
  | 'pulls/get'
  | 'repos/list-pull-requests-associated-with-commit'
  | RunsOperationId
  | SecretOperationId
  | 'repos/get-content'
  | 'search/issues-and-pull-requests'
  | 'graphql';

/** The REST operations of the OpenAPI subset (GraphQL is answered apart). */
type RestOperationId = Exclude<OperationId, 'graphql'>;

interface OperationSpec {
  operationId: RestOperationId;
  method: string;
  path: string;
  parameters: {
    name: string;
    in: string;
    required: boolean;
    schema: { type?: string; enum?: string[] };
  }[];
  requestBody: object | null;
  successStatus: number;
}

/** A request as received, with the operation it matched and why it was refused, if it was. */
export interface GitHubRequest extends RecordedRequest {
  operationId?: OperationId;
  /** Ajv errors when the body failed the OpenAPI schema (answered 422). */
  validationErrors?: string[];
}

export interface CheckRunAnnotation {
  path: string;
  start_line: number;
  end_line: number;
  annotation_level: 'notice' | 'warning' | 'failure';
  message: string;
  title?: string;
  raw_details?: string;
  start_column?: number;
  end_column?: number;
}

export interface CheckRun {
  id: number;
  name: string;
  head_sha: string;
  status: string;
  conclusion: string | null;
  details_url?: string;
  external_id?: string;
  started_at: string | null;
  completed_at: string | null;
  output: { title: string | null; summary: string | null; text: string | null };
  /** Every annotation sent by create and later updates, appended in order (as GitHub does). */
  annotations: CheckRunAnnotation[];
  /** How many create/update calls touched it. */
  calls: number;
}

export interface IssueComment {
  id: number;
  issue_number: number;
  body: string;
  user: Account;
  created_at: string;
  updated_at: string;
}

/** An issue of the repository, as the stand-in keeps it. */
export interface Issue {
  number: number;
  title: string;
  body: string;
  state: 'open' | 'closed';
  state_reason: string | null;
  labels: string[];
  assignees: string[];
  /** Who opened it: the account of the token that created it (seeded: the Actions bot unless
   *  said otherwise). */
  user: Account;
  created_at: string;
  updated_at: string;
}

export interface PullRequestFixture {
  number: number;
  head: { sha: string; ref: string };
  base: { ref: string };
  state?: 'open' | 'closed';
  title?: string;
  /** When merged: the time, and the commit the merge made on the base (a squash's, a merge's). */
  merged_at?: string | null;
  merge_commit_sha?: string | null;
  /** The head's repository, a fork's (`owner/name`; default the base's). */
  headRepository?: string;
}

/** An answer to give instead of the normal one (e.g. a 500, or a rate-limit 403 with headers). */
export interface InjectedGitHubFailure {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  times?: number;
  /** The request is handled first (a secret's PUT *is* written), then this answer is given. */
  afterHandler?: boolean;
  /** The answer waits this long (wall ms); Infinity: it never comes (the client gives up). */
  delayMs?: number;
}

export interface GitHubApiStandinOptions {
  /** The token's permissions: `read` answers writes with 403 like a fork's token. Default `write`. */
  permission?: 'write' | 'read';
  /** When set, only this token is accepted; others get 401 "Bad credentials". */
  token?: string;
  /** Pull requests served by `pulls/get`; others answer 404. */
  pullRequests?: PullRequestFixture[];
  /** When set, `checks/create` for any other `head_sha` answers 422 "No commit found for SHA". */
  knownShas?: string[];
  /** When set, only these tokens may use the Actions secrets routes; others get 403 "Resource not
   *  accessible by integration" (GITHUB_TOKEN cannot read a secrets public key). */
  secretWriters?: string[];
  /** GitHub's clock for the Actions secrets routes (their `created_at`/`updated_at` and `Date`
   *  header), e.g. the emulator's, so that advancing it moves both services' time. Default now. */
  now?: () => number;
  /** The clock of those routes' `Date` header when it is not the one that stamps `updated_at`
   *  (another of GitHub's servers). Default `now`. */
  dateNow?: () => number;
  /** The account each token acts as (GraphQL `viewer`, the author of what it writes); any other
   *  token acts as the Actions bot (a workflow's GITHUB_TOKEN). */
  accounts?: Record<string, Account>;
  /** Files of the repository by commit (or branch) and path, served by `repos/get-content`. */
  files?: Record<string, Record<string, string>>;
  /** The artifact backend whose artifacts a run's artifacts routes list and download. */
  artifacts?: ArtifactStandin;
  /** false: the token may not read Actions runs and artifacts (no `actions: read`): 403. */
  actionsRead?: boolean;
}

/** GitHub's limit on an issue comment body, and on an issue body (not in the OpenAPI schema;
 *  answered 422). */
export const COMMENT_BODY_LIMIT = 65536;
/** GitHub's limit on an issue title. */
export const ISSUE_TITLE_LIMIT = 256;
/** GitHub's limit on a label name. */
export const LABEL_NAME_LIMIT = 50;

export interface GitHubApiStandin {
  /** Origin to use as `GITHUB_API_URL`. */
  url: string;
  requests: GitHubRequest[];
  checkRuns: CheckRun[];
  /** Comments by issue (pull request) number, oldest first. */
  comments: Map<number, IssueComment[]>;
  /** The repository's issues by number (pull requests are not among them). */
  issues: Map<number, Issue>;
  /** Adds a comment as if written earlier (by a previous run, or by a human: a login, or an
   *  account). A login other than the Actions bot's is a user of its own stable id. */
  seedComment(issueNumber: number, body: string, author?: string | Account): IssueComment;
  /** An issue someone (or an overlapping run) opened: `fields` over an open, unlabelled issue by
   *  the Actions bot. */
  seedIssue(fields: Partial<Omit<Issue, 'number'>>): Issue;
  /** The account a token acts as. */
  accountOf(token: string | undefined): Account;
  /** Puts a file in the repository at a commit (or a branch); `undefined` removes it. */
  setFile(ref: string, path: string, content: string | undefined): void;
  /** A pull request, merged or not (served by pulls/get and the pull requests of a commit). */
  seedPullRequest(pull: PullRequestFixture): void;
  /** A workflow run of the repository, its artifacts those of `backendRunId` in `artifacts`. */
  seedWorkflowRun(run: WorkflowRunFixture): void;
  workflowRuns: WorkflowRunFixture[];
  failNext(operationId: OperationId, failure: InjectedGitHubFailure): void;
  /** Forgets the failures failNext queued that no request took yet. */
  clearFailures(): void;
  /** Requests that matched `operationId`. */
  requestsFor(operationId: OperationId): GitHubRequest[];
  /** Actions secrets by path (`repo:o/r/NAME`, `env:o/r/ENV/NAME`, `org:ORG/NAME`), decrypted. */
  secrets: Map<string, StoredSecret>;
  seedSecret(
    path: string,
    secret: Omit<StoredSecret, 'created_at' | 'updated_at' | 'writes'>,
  ): void;
  close(): Promise<void>;
}

interface Route {
  spec: OperationSpec;
  pattern: RegExp;
  pathParameters: string[];
  validate: ValidateFunction | undefined;
}

function loadOperations(): OperationSpec[] {
  const subset = JSON.parse(readFileSync(SUBSET_PATH, 'utf8')) as {
    operations: Record<string, OperationSpec>;
  };
  return Object.values(subset.operations);
}

/** OpenAPI 3.0 `nullable: true` means null is allowed too: JSON Schema needs it listed in an `enum`,
 *  and said as an alternative where the schema has no `type` (a `oneOf` such as an issue's title). */
function withNullableEnums(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withNullableEnums);
  if (schema === null || typeof schema !== 'object') return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) out[key] = withNullableEnums(value);
  if (out.nullable === true && Array.isArray(out.enum) && !out.enum.includes(null)) {
    out.enum = [...out.enum, null];
  }
  if (out.nullable === true && out.type === undefined) {
    const { nullable: _nullable, ...rest } = out;
    return { anyOf: [rest, { type: 'null' }] };
  }
  return out;
}

/**
 * A compiler of the fixture's OpenAPI 3.0 schemas into Ajv validators (OpenAPI keywords such as
 * `nullable` are honoured; unknown keywords are ignored).
 */
export function createOpenApiValidator(): (schema: object) => ValidateFunction {
  const ajv = new Ajv({ strict: false, allErrors: true });
  const addFormats = (ajvFormats as unknown as { default: (a: Ajv) => Ajv }).default;
  addFormats(ajv);
  return (schema) => ajv.compile(withNullableEnums(schema) as object);
}

function compileRoutes(): Route[] {
  const compile = createOpenApiValidator();
  return loadOperations().map((spec) => {
    const pathParameters: string[] = [];
    const source = spec.path.replace(/\{([^}]+)\}/g, (_m, name: string) => {
      pathParameters.push(name);
      return name === 'path' ? '(.+)' : '([^/]+)'; // a file's path in the repository has slashes
    });
    return {
      spec,
      pattern: new RegExp(`^${source}$`),
      pathParameters,
      validate: spec.requestBody ? compile(spec.requestBody) : undefined,
    };
  });
}

function describeError(error: ErrorObject): string {
  const where = error.instancePath || '/';
  return `${where} ${error.message ?? 'is invalid'}${error.params ? ` ${JSON.stringify(error.params)}` : ''}`;
}

function githubError(status: number, message: string): HandlerResult {
  return json(status, { message, documentation_url: DOCS_URL, status: String(status) });
}

const VIEWER_QUERY = /^\s*(?:query\s*)?\{\s*viewer\s*\{\s*login\s+databaseId\s*\}\s*\}\s*$/;

/** The account of a login: the Actions bot's, else a user with an id of its own (stable). */
export function userNamed(login: string): Account {
  if (login === BOT.login) return BOT;
  let id = 7;
  for (const char of login) id = (id * 31 + char.charCodeAt(0)) % 1_000_000;
  return { login, id: 2_000_000 + id, type: 'User' };
}

function tokenOf(header: string | undefined): string | undefined {
  return /^(?:token|bearer) (\S+)$/i.exec(header ?? '')?.[1];
}

export async function startGitHubApiStandin(
  options: GitHubApiStandinOptions = {},
): Promise<GitHubApiStandin> {
  const routes = compileRoutes();
  const secretsRoutes = await createSecretsRoutes(options.now, options.dateNow);
  const runsRoutes = createRunsRoutes(() => options.artifacts);
  const requests: GitHubRequest[] = [];
  const checkRuns: CheckRun[] = [];
  const comments = new Map<number, IssueComment[]>();
  const failures = new Map<OperationId, InjectedGitHubFailure[]>();
  const pullRequests = new Map((options.pullRequests ?? []).map((p) => [p.number, p]));
  const issues = new Map<number, Issue>();
  let nextId = 1;
  /** Issue numbers start above the pull request numbers the tests use. */
  let nextIssueNumber = 1001;

  function takeFailure(operationId: OperationId): InjectedGitHubFailure | undefined {
    const queue = failures.get(operationId);
    const failure = queue?.[0];
    if (!queue || !failure) return undefined;
    failure.times = (failure.times ?? 1) - 1;
    if (failure.times <= 0) queue.shift();
    return failure;
  }

  function checkRunView(run: CheckRun, base: string, owner: string, repo: string) {
    const url = `${base}/repos/${owner}/${repo}/check-runs/${run.id}`;
    const { annotations, calls: _calls, ...fields } = run;
    return {
      ...fields,
      details_url: run.details_url ?? null,
      external_id: run.external_id ?? null,
      node_id: `CR_${run.id}`,
      url,
      html_url: `https://github.com/${owner}/${repo}/runs/${run.id}`,
      output: {
        ...run.output,
        annotations_count: annotations.length,
        annotations_url: `${url}/annotations`,
      },
      check_suite: { id: 1 },
      app: GITHUB_ACTIONS_APP,
      pull_requests: [],
    };
  }

  function commentView(comment: IssueComment, base: string, owner: string, repo: string) {
    const { issue_number, user, ...fields } = comment;
    return {
      ...fields,
      user: simpleUser(user.login, user.id, user.type),
      node_id: `IC_${comment.id}`,
      url: `${base}/repos/${owner}/${repo}/issues/comments/${comment.id}`,
      html_url: `https://github.com/${owner}/${repo}/pull/${issue_number}#issuecomment-${comment.id}`,
      issue_url: `${base}/repos/${owner}/${repo}/issues/${issue_number}`,
      author_association: user.type === 'Bot' ? 'NONE' : 'MEMBER',
      performed_via_github_app: null,
    };
  }

  function applyCheckRunFields(run: CheckRun, body: Record<string, unknown>): void {
    for (const key of [
      'name',
      'head_sha',
      'details_url',
      'external_id',
      'status',
      'started_at',
      'completed_at',
    ] as const) {
      if (typeof body[key] === 'string')
        (run as unknown as Record<string, unknown>)[key] = body[key];
    }
    if (typeof body.conclusion === 'string') {
      run.conclusion = body.conclusion;
      run.status = 'completed';
      run.completed_at ??= new Date().toISOString();
    }
    const output = body.output as
      | { title?: string; summary?: string; text?: string; annotations?: CheckRunAnnotation[] }
      | undefined;
    if (output) {
      run.output = {
        title: output.title ?? run.output.title,
        summary: output.summary ?? run.output.summary,
        text: output.text ?? run.output.text,
      };
      run.annotations.push(...(output.annotations ?? []));
    }
    run.calls++;
  }

  type Params = Record<string, string>;
  type Context = {
    body: Record<string, unknown>;
    params: Params;
    query: URLSearchParams;
    /** The account the request's token acts as. */
    account: Account;
  };

  const runsHandler =
    (operationId: RunsOperationId) =>
    ({ params, query }: Context): HandlerResult =>
      runsRoutes.handlers[operationId]({ params, query, base: server.url });

  const handlers: Record<RestOperationId, (c: Context) => HandlerResult> = {
    ...secretsRoutes.handlers,
    'actions/list-workflow-runs': runsHandler('actions/list-workflow-runs'),
    'actions/list-workflow-run-artifacts': runsHandler('actions/list-workflow-run-artifacts'),
    'actions/download-artifact': runsHandler('actions/download-artifact'),
    'repos/list-pull-requests-associated-with-commit': ({ params, query }) =>
      pullsOfCommit(params, query),
    'checks/create': ({ body, params }) => {
      const run: CheckRun = {
        id: nextId++,
        name: '',
        head_sha: '',
        status: 'queued',
        conclusion: null,
        started_at: new Date().toISOString(),
        completed_at: null,
        output: { title: null, summary: null, text: null },
        annotations: [],
        calls: 0,
      };
      applyCheckRunFields(run, body);
      checkRuns.push(run);
      return json(201, checkRunView(run, server.url, params.owner ?? '', params.repo ?? ''));
    },
    'checks/update': ({ body, params }) => {
      const run = checkRuns.find((r) => r.id === Number(params.check_run_id));
      if (!run) return githubError(404, 'Not Found');
      applyCheckRunFields(run, body);
      return json(200, checkRunView(run, server.url, params.owner ?? '', params.repo ?? ''));
    },
    'issues/create-comment': ({ body, params, account }) => {
      const comment = addComment(Number(params.issue_number), String(body.body), account);
      return json(201, commentView(comment, server.url, params.owner ?? '', params.repo ?? ''));
    },
    'issues/update-comment': ({ body, params }) => {
      const comment = [...comments.values()].flat().find((c) => c.id === Number(params.comment_id));
      if (!comment) return githubError(404, 'Not Found');
      comment.body = String(body.body);
      comment.updated_at = new Date().toISOString();
      return json(200, commentView(comment, server.url, params.owner ?? '', params.repo ?? ''));
    },
    'issues/list-comments': ({ params, query }) => listComments(params, query),
    'issues/list-for-repo': ({ params, query }) => listIssues(params, query),
    'search/issues-and-pull-requests': ({ query }) => searchIssues(query),
    'issues/create': ({ body, params, account }) => {
      const now = new Date().toISOString();
      const issue: Issue = {
        number: nextIssueNumber++,
        title: String(body.title),
        body: typeof body.body === 'string' ? body.body : '',
        state: 'open',
        state_reason: null,
        labels: labelNames(body.labels),
        assignees: stringList(body.assignees),
        user: account,
        created_at: now,
        updated_at: now,
      };
      issues.set(issue.number, issue);
      return json(201, issueView(issue, server.url, params.owner ?? '', params.repo ?? ''));
    },
    'issues/update': ({ body, params }) => {
      const issue = issues.get(Number(params.issue_number));
      if (!issue) return githubError(404, 'Not Found');
      if (typeof body.title === 'string') issue.title = body.title;
      if (typeof body.body === 'string') issue.body = body.body;
      if (body.state === 'open' || body.state === 'closed') {
        issue.state = body.state;
        issue.state_reason =
          body.state === 'open'
            ? 'reopened'
            : typeof body.state_reason === 'string'
              ? body.state_reason
              : 'completed';
      }
      if (body.labels !== undefined) issue.labels = labelNames(body.labels);
      if (body.assignees !== undefined) issue.assignees = stringList(body.assignees);
      issue.updated_at = new Date().toISOString();
      return json(200, issueView(issue, server.url, params.owner ?? '', params.repo ?? ''));
    },
    'repos/get-content': ({ params, query }) => {
      const path = params.path ?? '';
      const content = options.files?.[query.get('ref') ?? 'main']?.[path];
      if (content === undefined) return githubError(404, 'Not Found');
      return json(200, fileView(path, content, params.owner ?? '', params.repo ?? ''));
    },
    'pulls/get': ({ params }) => {
      const pull = pullRequests.get(Number(params.pull_number));
      if (!pull) return githubError(404, 'Not Found');
      return json(200, {
        state: 'open',
        title: `PR ${pull.number}`,
        ...pull,
        id: pull.number,
        draft: false,
      });
    },
  };

  /** A pull request as GitHub's `pull-request-simple` gives it (the fields a reader uses). */
  function pullView(pull: PullRequestFixture, owner: string, repo: string) {
    const base = `${owner}/${repo}`;
    const head = pull.headRepository ?? base;
    const repoView = (fullName: string) => ({
      id: 1,
      full_name: fullName,
      name: fullName.split('/')[1],
      owner: { login: fullName.split('/')[0] },
      fork: fullName !== base,
    });
    return {
      id: pull.number,
      number: pull.number,
      state: pull.state ?? (pull.merged_at ? 'closed' : 'open'),
      title: pull.title ?? `PR ${pull.number}`,
      url: `${server.url}/repos/${base}/pulls/${pull.number}`,
      html_url: `https://github.com/${base}/pull/${pull.number}`,
      user: simpleUser('octocat', 583231, 'User'),
      merged_at: pull.merged_at ?? null,
      merge_commit_sha: pull.merge_commit_sha ?? null,
      head: { ...pull.head, label: `${head.split('/')[0]}:${pull.head.ref}`, repo: repoView(head) },
      base: { ...pull.base, sha: pull.merge_commit_sha ?? '', repo: repoView(base) },
    };
  }

  /** GET /repos/{owner}/{repo}/commits/{commit_sha}/pulls: the pull request that merged the
   *  commit (its merge commit), and open ones whose head it is. */
  function pullsOfCommit(params: Params, query: URLSearchParams): HandlerResult {
    const sha = params.commit_sha ?? '';
    if (options.knownShas && !options.knownShas.includes(sha)) {
      return githubError(422, `No commit found for SHA: ${sha}`);
    }
    const perPage = Math.min(Number(query.get('per_page') ?? 30) || 30, MAX_PER_PAGE);
    const found = [...pullRequests.values()].filter(
      (p) => p.merge_commit_sha === sha || (!p.merged_at && p.head.sha === sha),
    );
    return json(
      200,
      found.slice(0, perPage).map((p) => pullView(p, params.owner ?? '', params.repo ?? '')),
    );
  }

  /** A file as `repos/get-content` answers it: base64 in lines of 60, as GitHub sends it. */
  function fileView(path: string, content: string, owner: string, repo: string) {
    const base64 = Buffer.from(content, 'utf8').toString('base64');
    const sha = createHash('sha1').update(`blob ${Buffer.byteLength(content)}\0${content}`);
    const url = `${server.url}/repos/${owner}/${repo}/contents/${path}`;
    return {
      type: 'file',
      encoding: 'base64',
      size: Buffer.byteLength(content),
      name: path.split('/').at(-1),
      path,
      content: base64.replace(/.{60}/g, '$&\n'),
      sha: sha.digest('hex'),
      url,
      git_url: null,
      html_url: null,
      download_url: null,
      _links: { self: url, git: null, html: null },
    };
  }

  function labelNames(value: unknown): string[] {
    if (!Array.isArray(value)) return [];
    return value.map((l) => (typeof l === 'string' ? l : String((l as { name?: unknown }).name)));
  }

  function stringList(value: unknown): string[] {
    return Array.isArray(value) ? value.map(String) : [];
  }

  function issueView(issue: Issue, base: string, owner: string, repo: string) {
    const url = `${base}/repos/${owner}/${repo}/issues/${issue.number}`;
    return {
      id: issue.number * 10,
      node_id: `I_${issue.number}`,
      url,
      repository_url: `${base}/repos/${owner}/${repo}`,
      html_url: `https://github.com/${owner}/${repo}/issues/${issue.number}`,
      number: issue.number,
      title: issue.title,
      body: issue.body,
      state: issue.state,
      state_reason: issue.state_reason,
      labels: issue.labels.map((name, i) => ({ id: i + 1, name, color: 'ededed', default: false })),
      assignees: issue.assignees.map((login, i) => simpleUser(login, 5000 + i, 'User')),
      user: simpleUser(issue.user.login, issue.user.id, issue.user.type),
      comments: (comments.get(issue.number) ?? []).length,
      created_at: issue.created_at,
      updated_at: issue.updated_at,
      closed_at: issue.state === 'closed' ? issue.updated_at : null,
      locked: false,
      author_association: 'NONE',
    };
  }

  /** GET /repos/{owner}/{repo}/issues: state (open by default), labels (all of them), creator
   *  (a login, case-insensitive), pages. */
  function listIssues(params: Params, query: URLSearchParams): HandlerResult {
    const perPage = Math.min(Number(query.get('per_page') ?? 30) || 30, MAX_PER_PAGE);
    const page = Math.max(Number(query.get('page') ?? 1) || 1, 1);
    const state = query.get('state') ?? 'open';
    const wanted = (query.get('labels') ?? '').split(',').filter((l) => l !== '');
    const creator = query.get('creator')?.toLowerCase();
    const all = [...issues.values()]
      .filter((issue) => state === 'all' || issue.state === state)
      .filter((issue) => wanted.every((label) => issue.labels.includes(label)))
      .filter((issue) => creator === undefined || issue.user.login.toLowerCase() === creator)
      .sort((a, b) => b.number - a.number);
    const lastPage = Math.max(Math.ceil(all.length / perPage), 1);
    const path = `/repos/${params.owner}/${params.repo}/issues`;
    const filters = `state=${state}${wanted.length > 0 ? `&labels=${wanted.join(',')}` : ''}${creator ? `&creator=${encodeURIComponent(creator)}` : ''}`;
    const link = (p: number, rel: string) =>
      `<${server.url}${path}?${filters}&per_page=${perPage}&page=${p}>; rel="${rel}"`;
    const links = [
      ...(page > 1 ? [link(page - 1, 'prev'), link(1, 'first')] : []),
      ...(page < lastPage ? [link(page + 1, 'next'), link(lastPage, 'last')] : []),
    ];
    const views = all
      .slice((page - 1) * perPage, page * perPage)
      .map((issue) => issueView(issue, server.url, params.owner ?? '', params.repo ?? ''));
    return json(200, views, links.length > 0 ? { link: links.join(', ') } : {});
  }

  /** GET /search/issues, for what the Action asks: `repo:`, `is:issue` (GitHub wants `is:issue`
   *  or `is:pull-request` in every query), `in:body`, `author:` (a login, or `app/<name>` for an
   *  App's bot), `label:`, `state:`, and quoted or bare terms that the title or body (with
   *  `in:body`, the body) must hold, case-insensitive; sorted by creation, one page. */
  function searchIssues(query: URLSearchParams): HandlerResult {
    const q = query.get('q') ?? '';
    if (q.length > 256)
      return githubError(422, 'Validation Failed: the search is longer than 256 characters');
    const tokens = [...q.matchAll(/(\w+:)?(?:"([^"]*)"|(\S+))/g)].map((m) => ({
      qualifier: m[1]?.slice(0, -1).toLowerCase(),
      value: m[2] ?? m[3] ?? '',
    }));
    const kinds = tokens.filter((t) => t.qualifier === 'is' || t.qualifier === 'type');
    if (!kinds.some((t) => ['issue', 'pr', 'pull-request'].includes(t.value)))
      return githubError(422, "Query must include 'is:issue' or 'is:pull-request'");
    if (kinds.some((t) => t.value !== 'issue' && t.value !== 'open' && t.value !== 'closed'))
      return json(200, { total_count: 0, incomplete_results: false, items: [] });
    const inBody = tokens.some((t) => t.qualifier === 'in' && t.value === 'body');
    const known = new Set(['repo', 'is', 'type', 'in', 'author', 'label', 'state']);
    const matches = (issue: Issue): boolean =>
      tokens.every(({ qualifier, value }) => {
        const v = value.toLowerCase();
        if (qualifier === 'author') {
          const login = v.startsWith('app/') ? `${v.slice(4)}[bot]` : v;
          return issue.user.login.toLowerCase() === login;
        }
        if (qualifier === 'label') return issue.labels.some((l) => l.toLowerCase() === v);
        if (qualifier === 'state') return issue.state === v;
        if (qualifier !== undefined && known.has(qualifier)) return true;
        const text = (inBody ? issue.body : `${issue.title}\n${issue.body}`).toLowerCase();
        return text.includes(qualifier === undefined ? v : `${qualifier}:${v}`);
      });
    const repo = tokens.find((t) => t.qualifier === 'repo')?.value ?? '';
    const [owner = '', name = ''] = repo.split('/');
    const perPage = Math.min(Number(query.get('per_page') ?? 30) || 30, MAX_PER_PAGE);
    const page = Math.max(Number(query.get('page') ?? 1) || 1, 1);
    const descending = query.get('order') !== 'asc';
    const all = [...issues.values()]
      .filter(matches)
      .sort((a, b) => (descending ? b.number - a.number : a.number - b.number));
    const items = all
      .slice((page - 1) * perPage, page * perPage)
      .map((issue) => ({ ...issueView(issue, server.url, owner, name), score: 1 }));
    return json(200, { total_count: all.length, incomplete_results: false, items });
  }

  /** Why a query breaks the operation's parameters as GitHub's description gives them (a required
   *  one missing, a word not of its enum, an integer that is not one), or undefined. */
  function queryProblem(route: Route, query: URLSearchParams): string | undefined {
    for (const parameter of route.spec.parameters.filter((p) => p.in === 'query')) {
      const value = query.get(parameter.name);
      if (value === null) {
        if (parameter.required) return `${parameter.name} is required`;
        continue;
      }
      if (parameter.schema.enum && !parameter.schema.enum.includes(value))
        return `${parameter.name} must be one of ${parameter.schema.enum.join(', ')}`;
      if (parameter.schema.type === 'integer' && !/^-?\d+$/.test(value))
        return `${parameter.name} must be an integer`;
    }
    return undefined;
  }

  function addComment(issueNumber: number, body: string, user: Account): IssueComment {
    const now = new Date().toISOString();
    const comment: IssueComment = {
      id: nextId++,
      issue_number: issueNumber,
      body,
      user,
      created_at: now,
      updated_at: now,
    };
    comments.set(issueNumber, [...(comments.get(issueNumber) ?? []), comment]);
    return comment;
  }

  function listComments(params: Params, query: URLSearchParams): HandlerResult {
    const perPage = Math.min(Number(query.get('per_page') ?? 30) || 30, MAX_PER_PAGE);
    const page = Math.max(Number(query.get('page') ?? 1) || 1, 1);
    const since = query.get('since');
    const all = (comments.get(Number(params.issue_number)) ?? []).filter(
      (c) => !since || c.updated_at >= since,
    );
    const lastPage = Math.max(Math.ceil(all.length / perPage), 1);
    const pageItems = all.slice((page - 1) * perPage, page * perPage);
    const path = `/repos/${params.owner}/${params.repo}/issues/${params.issue_number}/comments`;
    const link = (p: number, rel: string) =>
      `<${server.url}${path}?per_page=${perPage}&page=${p}>; rel="${rel}"`;
    const links = [
      ...(page > 1 ? [link(page - 1, 'prev'), link(1, 'first')] : []),
      ...(page < lastPage ? [link(page + 1, 'next'), link(lastPage, 'last')] : []),
    ];
    const views = pageItems.map((c) =>
      commentView(c, server.url, params.owner ?? '', params.repo ?? ''),
    );
    return json(200, views, links.length > 0 ? { link: links.join(', ') } : {});
  }

  function match(request: RecordedRequest): { route: Route; params: Params } | undefined {
    for (const route of routes) {
      if (route.spec.method !== request.method) continue;
      const found = route.pattern.exec(request.path);
      if (!found) continue;
      const params: Params = {};
      route.pathParameters.forEach(
        (name, i) => (params[name] = decodeURIComponent(found[i + 1] ?? '')),
      );
      return { route, params };
    }
    return undefined;
  }

  function integerParametersValid(route: Route, params: Params): boolean {
    return route.spec.parameters
      .filter((p) => p.in === 'path' && p.schema.type === 'integer')
      .every((p) => /^\d+$/.test(params[p.name] ?? ''));
  }

  /** GitHub's rules that the OpenAPI schema does not state. */
  function ruleRefusal(operationId: OperationId, body: Record<string, unknown>) {
    const isComment =
      operationId === 'issues/create-comment' || operationId === 'issues/update-comment';
    const isIssue = operationId === 'issues/create' || operationId === 'issues/update';
    if (isIssue) {
      const refusal = issueRefusal(body);
      if (refusal) return refusal;
    }
    if (isComment && String(body.body).length > COMMENT_BODY_LIMIT) {
      return json(422, {
        message: 'Validation Failed',
        errors: [
          {
            resource: 'IssueComment',
            code: 'custom',
            field: 'body',
            message: `body is too long (maximum is ${COMMENT_BODY_LIMIT} characters)`,
          },
        ],
        documentation_url: DOCS_URL,
        status: '422',
      });
    }
    const sha = String(body.head_sha);
    if (operationId === 'checks/create' && options.knownShas && !options.knownShas.includes(sha)) {
      return githubError(422, `No commit found for SHA: ${sha}`);
    }
    return undefined;
  }

  /** GitHub's validation of an issue beyond the schema: body and title length, label names. */
  function issueRefusal(body: Record<string, unknown>): HandlerResult | undefined {
    const invalid = (field: string, message: string) =>
      json(422, {
        message: 'Validation Failed',
        errors: [{ resource: 'Issue', code: 'custom', field, message }],
        documentation_url: DOCS_URL,
        status: '422',
      });
    if (typeof body.body === 'string' && body.body.length > COMMENT_BODY_LIMIT)
      return invalid('body', `body is too long (maximum is ${COMMENT_BODY_LIMIT} characters)`);
    if (
      typeof body.title === 'string' &&
      (body.title.length > ISSUE_TITLE_LIMIT || body.title.trim() === '')
    )
      return invalid(
        'title',
        `title is too long or empty (maximum is ${ISSUE_TITLE_LIMIT} characters)`,
      );
    const bad = labelNames(body.labels).find((l) => l.trim() === '' || l.length > LABEL_NAME_LIMIT);
    if (bad !== undefined)
      return invalid('labels', `label ${JSON.stringify(bad)} is not a valid label name`);
    return undefined;
  }

  function refuse(request: GitHubRequest, route: Route): HandlerResult | undefined {
    if (!request.headers['user-agent']) {
      return githubError(
        403,
        'Request forbidden by administrative rules. Please make sure your request has a User-Agent header',
      );
    }
    const token = tokenOf(request.headers.authorization);
    if (!token) return githubError(401, 'Requires authentication');
    if (options.token !== undefined && token !== options.token)
      return githubError(401, 'Bad credentials');
    const secretsRoute = route.spec.operationId.startsWith('actions/');
    if (secretsRoute && options.secretWriters && !options.secretWriters.includes(token)) {
      return githubError(403, 'Resource not accessible by integration');
    }
    if (options.actionsRead === false && RUNS_OPERATIONS.has(route.spec.operationId)) {
      return githubError(403, 'Resource not accessible by integration');
    }
    if (options.permission === 'read' && route.spec.method !== 'GET') {
      return githubError(403, 'Resource not accessible by integration');
    }
    return undefined;
  }

  function accountOf(token: string | undefined): Account {
    return (token !== undefined ? options.accounts?.[token] : undefined) ?? BOT;
  }

  /** POST /graphql: the one query the Action asks, `viewer { login databaseId }`; GitHub answers
   *  anything it cannot run with 200 and `errors`. */
  function graphql(request: GitHubRequest): HandlerResult {
    request.operationId = 'graphql';
    const token = tokenOf(request.headers.authorization);
    if (!token) return githubError(401, 'This endpoint requires you to be authenticated.');
    if (options.token !== undefined && token !== options.token)
      return githubError(401, 'Bad credentials');
    const failure = takeFailure('graphql');
    if (failure)
      return json(failure.status, failure.body ?? { message: 'injected failure' }, failure.headers);
    let query: unknown;
    try {
      query = (jsonBody(request) as { query?: unknown } | undefined)?.query;
    } catch {
      return githubError(400, 'Problems parsing JSON');
    }
    if (typeof query !== 'string' || !VIEWER_QUERY.test(query)) {
      return json(200, {
        errors: [{ message: 'the stand-in answers `viewer { login databaseId }` only' }],
      });
    }
    const { login, id } = accountOf(token);
    return json(200, { data: { viewer: { login, databaseId: id } } });
  }

  function handle(request: GitHubRequest): HandlerResult | Promise<HandlerResult> {
    if (request.method === 'POST' && request.path === '/graphql') return graphql(request);
    const found = match(request);
    if (!found || !integerParametersValid(found.route, found.params))
      return githubError(404, 'Not Found');
    const { route, params } = found;
    request.operationId = route.spec.operationId;
    const refused = refuse(request, route);
    if (refused) return refused;
    const failure = takeFailure(route.spec.operationId);
    if (failure && !failure.afterHandler) return injected(failure);
    const result = handleRoute(request, route, params);
    return failure ? injected(failure) : result;
  }

  /** An injected answer, after its delay (a PUT it follows has been written already). */
  function injected(failure: InjectedGitHubFailure): HandlerResult | Promise<HandlerResult> {
    const answer = json(
      failure.status,
      failure.body ?? { message: 'injected failure' },
      failure.headers,
    );
    const delayMs = failure.delayMs ?? 0;
    if (delayMs <= 0) return answer;
    return new Promise((resolve) => {
      if (Number.isFinite(delayMs)) setTimeout(() => resolve(answer), delayMs);
    });
  }

  function handleRoute(request: GitHubRequest, route: Route, params: Record<string, string>) {
    let body: unknown;
    try {
      body = jsonBody(request);
    } catch {
      return githubError(400, 'Problems parsing JSON');
    }
    if (route.validate && !route.validate(body ?? {})) {
      request.validationErrors = (route.validate.errors ?? []).map(describeError);
      return githubError(422, `Invalid request.\n\n${request.validationErrors.join('\n')}`);
    }
    const refusedByRule = ruleRefusal(
      route.spec.operationId,
      (body ?? {}) as Record<string, unknown>,
    );
    if (refusedByRule) return refusedByRule;
    const query = new URL(request.url, server.url).searchParams;
    const wrongQuery = queryProblem(route, query);
    if (wrongQuery) {
      request.validationErrors = [wrongQuery];
      return githubError(422, `Validation Failed: ${wrongQuery}`);
    }
    return handlers[route.spec.operationId]({
      body: (body ?? {}) as Record<string, unknown>,
      params,
      query,
      account: accountOf(tokenOf(request.headers.authorization)),
    });
  }

  const server = await startRecordingServer(requests, (request) => handle(request));

  return {
    url: server.url,
    requests,
    checkRuns,
    comments,
    issues,
    seedComment: (issueNumber, body, author = BOT) =>
      addComment(issueNumber, body, typeof author === 'string' ? userNamed(author) : author),
    seedIssue(fields) {
      const now = new Date().toISOString();
      const issue: Issue = {
        title: 'An issue',
        body: '',
        state: 'open',
        state_reason: null,
        labels: [],
        assignees: [],
        user: BOT,
        created_at: now,
        updated_at: now,
        ...fields,
        number: nextIssueNumber++,
      };
      issues.set(issue.number, issue);
      return issue;
    },
    accountOf,
    setFile(ref, path, content) {
      options.files ??= {};
      const files = (options.files[ref] ??= {});
      if (content === undefined) delete files[path];
      else files[path] = content;
    },
    seedPullRequest(pull) {
      pullRequests.set(pull.number, pull);
    },
    seedWorkflowRun: runsRoutes.seedRun,
    workflowRuns: runsRoutes.runs,
    failNext(operationId, failure) {
      failures.set(operationId, [...(failures.get(operationId) ?? []), { ...failure }]);
    },
    clearFailures: () => failures.clear(),
    requestsFor: (operationId) => requests.filter((r) => r.operationId === operationId),
    secrets: secretsRoutes.secrets,
    seedSecret: secretsRoutes.seedSecret,
    close: () => server.close(),
  };
}
