// The Action's main step: inputs → the scan job → artifact, outputs, summary, annotations,
// PR status → verdict. Fails the step (exit code 1) with one line; never a stack trace.

import { existsSync } from 'node:fs';
import * as core from '@actions/core';
import * as log from './log.js';
import {
  JobCancelledError,
  JobError,
  SettingsError,
  jobErrorLine,
  oneLine,
  parseWaiversText,
  readWaivers,
  pollIntervalsOf,
  redact,
  redactingLog,
  runScanJob,
} from '../pipeline/index.js';
import type { JobResult } from '../pipeline/index.js';
import { annotationOrder, planAnnotations } from './annotations.js';
import { uploadReport } from './artifact.js';
import { uploadFindingsFiles } from './file-artifacts.js';
import { readRunContext, sarifLocationUri } from './event.js';
import { ACTION_JOB_WORDING, getInputs, recordFilePath, type ActionInputs } from './inputs.js';
import { createGitHubClient, type GitHubClient } from './github-client.js';
import { emptyOutputs, outputsOf, setOutputs } from './outputs.js';
import { reviewPullRequestWaivers, type WaiverReview } from './pr-waivers.js';
import { CHECK_SUMMARY_MAX_BYTES, publishPrStatus } from './pr-status.js';
import { ActionReporter } from './reporter.js';
import { publishTrackingIssues } from './tracking/issues.js';
import { abortOnSignals } from './signals.js';
import { buildSummary, type ReportLink, type SummaryInput } from './summary.js';
import { writeJobSummary } from './job-summary.js';
import { notifyFromAction, runLinks } from './notify/notify.js';
import { unlessAborted } from './abortable.js';
import { publishErrorPage, publishHtmlPage } from './html-page.js';

type Env = Record<string, string | undefined>;

/** The main step. Exported for the runner's entry (src/main.ts) and for @github/local-action. */
export async function run(): Promise<void> {
  try {
    await runStep(process.env);
  } catch (error) {
    // Last guard (e.g. an unwritable GITHUB_OUTPUT): one line, never a stack trace.
    log.setFailed(jobErrorLine(error, secretInputs()));
  }
}

function secretInputs(): string[] {
  return [core.getInput('api-key'), core.getInput('github-token'), core.getInput('notify-webhook')];
}

async function runStep(env: Env): Promise<void> {
  let inputs: ActionInputs;
  try {
    inputs = await getInputs(env);
  } catch (error) {
    failInputs(error);
    return;
  }
  const secrets = [inputs.apiKey, inputs.githubToken ?? '', inputs.notify?.webhook ?? ''];
  const controller = new AbortController();
  const stopListening = abortOnSignals(controller);
  try {
    const result = await runScanJob(inputs.job, new ActionReporter(), {
      signal: controller.signal,
      env,
      userAgentSuffix: 'github-action',
      wording: ACTION_JOB_WORDING,
      sarifLocationUri: sarifLocationUri(env),
      pollIntervalMs: pollIntervalsOf(env),
    });
    await publish(result, inputs, env, secrets, controller.signal);
  } catch (error) {
    await publishError(error, inputs, env, secrets, controller.signal);
  } finally {
    stopListening();
  }
}

function failInputs(error: unknown): void {
  if (error instanceof SettingsError) log.failWithLines(error.lines());
  else log.setFailed(jobErrorLine(error, []));
}

function apiOrigin(inputs: ActionInputs, env: Env): string | undefined {
  const address = inputs.apiUrl ?? env.SERVICE_API_URL;
  if (!address) return undefined;
  try {
    return new URL(address).origin;
  } catch {
    return undefined;
  }
}

async function uploadArtifact(
  result: JobResult,
  inputs: ActionInputs,
  env: Env,
  signal: AbortSignal,
) {
  const download = result.report.download;
  if (!download) return { report: reportLinkWithoutFile(result, inputs) };
  const outcome = await unlessAborted(
    () =>
      uploadReport(
        { file: download.path, name: inputs.artifactName, retentionDays: inputs.retentionDays },
        env,
      ),
    signal,
  );
  if (!outcome) {
    return {
      stopped: true,
      report: {
        name: inputs.artifactName,
        path: download.path,
        note: 'the upload was stopped: the job was cancelled',
      } satisfies ReportLink,
    };
  }
  if (outcome.uploaded) {
    log.info(
      `Report uploaded as artifact ${inputs.artifactName}${outcome.url ? `: ${outcome.url}` : ''}`,
    );
    return {
      artifact: { id: outcome.id, url: outcome.url },
      report: {
        name: inputs.artifactName,
        url: outcome.url,
        path: download.path,
      } satisfies ReportLink,
    };
  }
  log.warning(`Artifact upload skipped: ${outcome.reason}; the report stays at ${download.path}`);
  return {
    report: {
      name: inputs.artifactName,
      path: download.path,
      note: outcome.reason,
    } satisfies ReportLink,
  };
}

function reportLinkWithoutFile(result: JobResult, inputs: ActionInputs): ReportLink | undefined {
  if (result.report.policy === 'none' || !result.report.note) return undefined;
  return { name: inputs.artifactName, note: result.report.note };
}

async function writeSummary(input: SummaryInput, inputs: ActionInputs, env: Env): Promise<void> {
  if (inputs.jobSummary) await writeJobSummary(buildSummary(input), env);
}

function annotate(result: JobResult, inputs: ActionInputs): void {
  const plan = planAnnotations(annotationOrder(result.findings), inputs.annotations);
  for (const annotation of plan.annotations) {
    log[annotation.level](annotation.message, { title: annotation.title });
  }
  if (plan.more) log.notice(plan.more, { title: 'Tenant scan' });
}

async function publish(
  result: JobResult,
  inputs: ActionInputs,
  env: Env,
  secrets: string[],
  signal: AbortSignal,
): Promise<void> {
  const { artifact, report, stopped } = await uploadArtifact(result, inputs, env, signal);
  const page = await publishHtmlPage(result, inputs, { env, secrets, signal });
  const files = await uploadFindingsFiles(result, inputs.retentionDays, env, signal);
  const skipped = stopped || page?.stopped || signal.aborted ? ['the artifact upload'] : [];
  setOutputs({ ...outputsOf(result, artifact), 'html-file': page?.path ?? '' });
  const github = await gitHubClientFor(result, inputs, env, secrets, signal);
  const summaryInput: SummaryInput = {
    result,
    apiOrigin: apiOrigin(inputs, env),
    report,
    page: page?.link,
    files,
    waivers: await unlessAborted(() => reviewWaivers(inputs, env, github), signal),
  };
  await writeSummary(summaryInput, inputs, env);
  annotate(result, inputs);
  if ((inputs.checkRun || inputs.prComment) && github && result.verdict !== undefined) {
    const posted = await unlessAborted(
      () => postPrStatus(github, result, inputs, env, secrets, summaryInput),
      signal,
    );
    if (!posted) skipped.push('the PR status');
  }
  if (inputs.tracking !== 'none' && github) {
    const tracked = await unlessAborted(
      () => trackIssues(github, result, inputs, env, secrets, summaryInput),
      signal,
    );
    if (!tracked) skipped.push('the tracking issues');
  }
  if (inputs.notify) {
    const context = { env, secrets, signal, reportUrl: artifact?.url };
    await notifyFromAction(inputs, { result }, context);
  }
  if (signal.aborted) {
    const verdict = result.verdict ? ` (verdict: ${result.verdict})` : '';
    const what = skipped.length > 0 ? `; ${skipped.join(' and ')} stopped` : '';
    const when = result.verdict ? 'after the scan ended' : 'after the scan was triggered';
    log.setFailed(`Publish failed: the job was cancelled ${when}${verdict}${what}`);
    return;
  }
  judge(result, inputs, secrets);
}

/** One GitHub client for all of the step's work on GitHub (one budget, one identity), when any is
 *  on; the toolkit loads only then. */
async function gitHubClientFor(
  result: JobResult,
  inputs: ActionInputs,
  env: Env,
  secrets: string[],
  signal: AbortSignal,
): Promise<GitHubClient | undefined> {
  const token = inputs.githubToken;
  const prStatus = (inputs.checkRun || inputs.prComment) && result.verdict !== undefined;
  const waivers = inputs.gate.waiversFile !== undefined && readRunContext(env).pullNumber;
  if (!token || (!prStatus && !waivers && inputs.tracking === 'none')) return undefined;
  return createGitHubClient(token, { log: redactingLog(log, secrets), signal });
}

/** On a pull request: the waivers it adds or extends, compared with the base branch's file. */
async function reviewWaivers(
  inputs: ActionInputs,
  env: Env,
  github: GitHubClient | undefined,
): Promise<WaiverReview | undefined> {
  const file = inputs.gate.waiversFile;
  const context = readRunContext(env);
  if (file === undefined || context.pullNumber === undefined) return undefined;
  const review = await reviewPullRequestWaivers({
    github,
    context,
    file,
    waivers: await readWaivers(file),
    workspace: env.GITHUB_WORKSPACE ?? process.cwd(),
    parse: parseWaiversText,
  }).catch((error: unknown) => {
    log.warning(`Waivers not compared with the base branch: ${oneLine(String(error))}`);
    return undefined;
  });
  if (review?.kind === 'compared' && review.changes.length > 0) {
    const checks = review.changes.map((c) => c.waiver.check).join(', ');
    log.info(`Waivers this pull request adds or extends (named in the summary): ${checks}`);
  } else if (review?.kind === 'not-compared') {
    log.info(`Waivers not compared with the base branch: ${review.why}`);
  }
  return review;
}

async function postPrStatus(
  github: GitHubClient,
  result: JobResult,
  inputs: ActionInputs,
  env: Env,
  secrets: string[],
  summaryInput: SummaryInput,
): Promise<true> {
  await publishPrStatus(
    {
      github,
      checkRun: inputs.checkRun,
      prComment: inputs.prComment,
      result,
      summary: buildSummary(summaryInput, CHECK_SUMMARY_MAX_BYTES),
      comment: {
        waivers: summaryInput.waivers,
        links: {
          run: runLinks(env).run,
          htmlReport: summaryInput.page?.url,
          files: summaryInput.files,
        },
      },
      context: readRunContext(env),
    },
    redactingLog(log, secrets),
  ).catch(warnFailure('PR status', secrets));
  return true;
}

/** A publication that threw is one warning: never a failure of the step. */
function warnFailure(what: string, secrets: string[]) {
  return (error: unknown) =>
    log.warning(
      redact(
        `${what} failed: ${oneLine(error instanceof Error ? error.message : String(error))}`,
        secrets,
      ),
    );
}

/** The tracking issues (tracking/issues.ts): never a failure of the step, whatever GitHub says. */
async function trackIssues(
  github: GitHubClient,
  result: JobResult,
  inputs: ActionInputs,
  env: Env,
  secrets: string[],
  summaryInput: SummaryInput,
): Promise<true> {
  const mode = inputs.tracking;
  if (mode === 'none') return true;
  await publishTrackingIssues(
    {
      github,
      mode,
      labels: inputs.trackingLabels,
      assignees: inputs.trackingAssignees,
      result,
      summary: (maxBytes) => buildSummary(summaryInput, maxBytes),
      context: readRunContext(env),
      tenant: `${apiOrigin(inputs, env) ?? ''}\n${result.tenantName ?? ''}`,
    },
    redactingLog(log, secrets),
  ).catch(warnFailure('Tracking issues', secrets));
  return true;
}

function judge(result: JobResult, inputs: ActionInputs, secrets: string[]): void {
  if (result.failStep) {
    log.setFailed(
      redact(
        `Verdict failed: ${oneLine(result.failureReason ?? `scan status ${result.status}`)}`,
        secrets,
      ),
    );
  } else if (result.verdict === 'failed') {
    log.warning(
      `Verdict: ${oneLine(result.failureReason ?? 'failed')}; the step passes because fail-on-findings is false`,
    );
  } else if (result.verdict === 'passed') {
    log.info(`Verdict: passed — ${oneLine(result.verdictReason ?? 'no failed findings')}`);
  }
}

async function publishError(
  error: unknown,
  inputs: ActionInputs,
  env: Env,
  secrets: string[],
  signal: AbortSignal,
): Promise<void> {
  const line = jobErrorLine(error, secrets);
  const scanId = error instanceof JobError ? error.scanId : undefined;
  // The job writes the record of a run that ended in an error too (bad settings aside), and the
  // page says there is no verdict and why.
  const record = recordFilePath(env);
  const page = await publishErrorPage(line, error, inputs, { env, secrets, signal });
  setOutputs({
    ...emptyOutputs(),
    'scan-id': scanId ?? '',
    'record-file': existsSync(record) ? record : '',
    'html-file': page?.path ?? '',
  });
  await writeSummary(
    {
      error: line,
      errorHeading: error instanceof JobError ? `${error.heading} failed` : undefined,
      errorKind: error instanceof JobError ? error.kind : undefined,
      scanId,
      apiOrigin: apiOrigin(inputs, env),
      page: page?.link,
    },
    inputs,
    env,
  );
  if (error instanceof SettingsError) {
    failInputs(error);
    return;
  }
  // A cancelled job has seconds left before the runner's kill: no message then.
  if (!(error instanceof JobCancelledError))
    await notifyFromAction(inputs, { error: line }, { env, secrets });
  log.setFailed(line);
}
