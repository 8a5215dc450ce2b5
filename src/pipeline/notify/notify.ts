// The notification of one run (or one roll-up): decide whether it speaks (changes.ts), render it
// in the format asked for (the face passes the renderer, so the pipeline knows no chat format),
// deliver it (deliver.ts). Whatever happens it is one log line: never the verdict's business.

import { redact } from '../common/errors.js';
import type { JobResult } from '../job/types.js';
import type { Rollup, TenantRow } from '../rollup/rollup.js';
import {
  decideNotify,
  changedSinceBaseline,
  changesOf,
  type Changes,
  type NotifyDecision,
  type RunEnd,
} from './changes.js';
import { deliver, type DeliveryOptions } from './deliver.js';
import { decideFleetNotify } from './fleet.js';
import type { NotifyFormat, NotifySettings } from './settings.js';

/** Our own addresses a message links to. */
export interface NotifyLinks {
  run?: string;
  report?: string;
  pullRequest?: string;
}

/** What a renderer is given: the run's result (or its error line), what changed, why it speaks. */
export interface NotifyMessage {
  result?: JobResult;
  error?: string;
  changes?: Changes;
  /** A roll-up's message: the fleet's verdict and the tenants that changed (fleet.ts). */
  fleet?: { rollup: Rollup; changed: TenantRow[]; unjudged: TenantRow[] };
  /** The decision's words: "2 new failing findings, 1 fixed". */
  why: string;
  /** A run's changes since its baseline ("2 new failing findings"); [] nothing changed;
   *  undefined when there is none to compare with. */
  changed?: string[];
  links: NotifyLinks;
}

/** A message as the body of the webhook's request (JSON), within the format's limits. */
export type NotifyRenderer = (format: NotifyFormat, message: NotifyMessage) => string;

export interface NotifyLog {
  info(message: string): void;
  warning(message: string): void;
}

/** `sink` with every secret redacted from each line first (the one adapter every face gives the
 *  pipeline). `secrets` is read at each line, not copied: a secret added later (a new key from a
 *  rotation) is redacted from then on. */
export function redactingLog(sink: NotifyLog, secrets: readonly string[]): NotifyLog {
  return {
    info: (message) => sink.info(redact(message, secrets)),
    warning: (message) => sink.warning(redact(message, secrets)),
  };
}

/** What a face gives a notification: its links, the renderer, its log and the delivery's bounds. */
export interface NotifyContext {
  links: NotifyLinks;
  render: NotifyRenderer;
  log: NotifyLog;
  delivery?: DeliveryOptions;
}

const FORMAT_NAMES: Record<NotifyFormat, string> = { teams: 'Teams', slack: 'Slack' };

/** How a run ended, as the notification reads it. */
export function runEndOf(result: JobResult): RunEnd | undefined {
  if (result.verdict === undefined) return undefined;
  if (result.gate) return { kind: 'judged', verdict: result.verdict, gate: result.gate };
  return {
    kind: 'error',
    line: result.failureReason ?? `the scan ended with status ${result.status}`,
  };
}

/** Notifies about a run when `settings.on` says so; true when a message was sent. */
export async function notifyRun(
  settings: NotifySettings,
  outcome: { result: JobResult } | { error: string },
  context: NotifyContext,
): Promise<boolean> {
  const end =
    'result' in outcome
      ? runEndOf(outcome.result)
      : { kind: 'error' as const, line: outcome.error };
  if (!end) {
    context.log.info('Notification: not sent — the scan was not waited for');
    return false;
  }
  const decision = decideNotify(settings.on, end);
  const message: NotifyMessage = {
    ...('result' in outcome ? { result: outcome.result } : { error: outcome.error }),
    changes: end.kind === 'judged' ? changesOf(end.gate) : undefined,
    changed: end.kind === 'judged' ? changedSinceBaseline(end.gate, end.verdict) : undefined,
    why: decision.why,
    links: context.links,
  };
  return send(settings, decision, message, context);
}

/** Notifies once for a roll-up of many tenants when `settings.on` says so (fleet.ts decides);
 *  true when a message was sent. */
export async function notifyRollup(
  settings: NotifySettings,
  rollup: Rollup,
  context: NotifyContext,
): Promise<boolean> {
  const decision = decideFleetNotify(settings.on, rollup);
  const { changed, unjudged } = decision;
  const message = { why: decision.why, links: context.links, fleet: { rollup, changed, unjudged } };
  return send(settings, decision, message, context);
}

/** Renders and delivers a message the caller decided on (a roll-up decides its own). */
export async function send(
  settings: NotifySettings,
  decision: NotifyDecision,
  message: NotifyMessage,
  context: { render: NotifyRenderer; log: NotifyLog; delivery?: DeliveryOptions },
): Promise<boolean> {
  const name = FORMAT_NAMES[settings.format];
  if (!decision.notify) {
    context.log.info(`Notification: not sent — ${decision.why} (notify-on ${settings.on})`);
    return false;
  }
  let body: string;
  try {
    body = context.render(settings.format, message);
  } catch (error) {
    context.log.warning(
      `Notification failed: the ${name} message could not be made (${error instanceof Error ? error.message : String(error)}); the verdict is not affected`,
    );
    return false;
  }
  const delivery = await deliver(settings.webhook, body, context.delivery);
  if (delivery.sent) {
    context.log.info(`Notification: sent to ${name} — ${decision.why}`);
    return true;
  }
  context.log.warning(`Notification failed: ${delivery.why}; the verdict is not affected`);
  return false;
}
