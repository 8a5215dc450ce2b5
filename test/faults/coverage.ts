// What the campaign exercised, counted over its runs: outcomes, phases that failed, reports,
// cancellations and faults that actually hit. A green campaign that never reached a path proves
// nothing about it; this tally shows which paths were reached.
import {
  refusedAmbiguousLostTrigger,
  tookAnotherJobsScanInTheRace,
  visibleLog,
} from './invariants.js';
import type { Observation } from './observation.js';

/** Labels of what one run went through. */
export function coverageTags(o: Observation): string[] {
  const tags: string[] = [];
  const main = o.main;
  if (main.signal !== null) tags.push(`main ended by ${main.signal}`);
  else if (main.outputs.verdict)
    tags.push(`verdict ${main.outputs.verdict}, exit ${main.exitCode}`);
  else if (main.exitCode === 0) tags.push('exit 0 without verdict (wait: false)');
  const failure = main.errors.at(-1);
  const phase = failure && /^([A-Z][a-z]+(?: checks)?) (?:failed|timed out):/.exec(failure)?.[1];
  if (main.exitCode !== 0 && phase) tags.push(`failed in phase ${phase}`);
  if (o.cancelKind !== 'none' && main.signalsSent.length > 0) {
    tags.push(`cancelled by ${o.cancelKind}`);
    if (cancelledWhileDownloading(o)) tags.push(`cancelled by ${o.cancelKind} while downloading`);
  }
  if (/Cancelled scan \S+ remotely/.test(visibleLog(main)))
    tags.push('main cancelled its scan remotely');
  if (o.post && /Cancelled scan/.test(visibleLog(o.post)))
    tags.push('post cancelled a scan left running');
  if (main.outputs['report-path']) tags.push('report downloaded');
  if (main.outputs['artifact-id']) tags.push('report uploaded as artifact');
  if (o.creditsAfter > o.creditsBefore) tags.push('report credit spent (report: generate)');
  if (o.inputs['scan-id']) tags.push('followed an existing scan');
  if (/^Baseline: scan /m.test(main.stdout))
    tags.push(`gate: compared with the previous scan (fail-on ${o.inputs['fail-on'] ?? 'any'})`);
  if (/^Baseline: none — /m.test(main.stdout)) tags.push('gate: baseline previous, none found');
  if (o.inputs['fail-on-severity'] && main.outputs.verdict)
    tags.push('gate: severity threshold judged');
  if (Number(main.outputs.waived) > 0) tags.push('gate: a failed finding waived');
  if (/^History: \d+ previous scans? read/m.test(main.stdout)) tags.push('history: read');
  if (/History: could not be read whole/.test(visibleLog(main)))
    tags.push('history: not read whole, every age unknown');
  if (Number(main.outputs.overdue) > 0) tags.push('history: an overdue finding');
  if (o.inputs['fail-on'] === 'overdue' && main.outputs.verdict)
    tags.push(`gate: fail-on overdue judged (${main.outputs.verdict})`);
  if (/^Tracking issue #\d+ opened/m.test(main.stdout)) tags.push('tracking: an issue opened');
  if (/^Tracking issue #\d+ closed/m.test(main.stdout)) tags.push('tracking: an issue closed');
  if (o.foreignItems?.some((item) => item.kind === 'issue'))
    tags.push("tracking: an outsider's issues carried our markers");
  if (o.foreignItems?.some((item) => item.kind === 'comment'))
    tags.push("pr comment: an outsider's comment carried our marker");
  if (/^Tracking issues left as they are/m.test(main.stdout))
    tags.push('tracking: no verdict, issues left alone');
  if (/Waiver for \S+ .* expired on /.test(visibleLog(main)))
    tags.push('gate: an expired waiver called out');
  if (/^Coverage: \d+ checks evaluated now/m.test(main.stdout))
    tags.push('coverage: compared, within max-coverage-drop');
  if (/Coverage dropped: /.test(visibleLog(main))) tags.push('coverage: dropped, the gate failed');
  if (/^Checks: .* not evaluated \(/m.test(main.stdout)) tags.push('kinds: checks not evaluated');
  if (main.errors.some((line) => /the scan stalled: no progress/.test(line)))
    tags.push('stall: stopped after stall-minutes');
  if (refusedAmbiguousLostTrigger(o))
    tags.push('known gap: two scans after a lost trigger, none taken');
  if (tookAnotherJobsScanInTheRace(o))
    tags.push("known gap: another job's scan taken after a lost trigger");
  for (const r of o.apiRequests)
    if (r.fault) tags.push(`fault hit: ${r.fault} on ${r.method} ${routeOf(r.path)}`);
  for (const d of o.downloads ?? []) {
    if (d.fault) tags.push(`fault hit: ${d.fault} on download`);
    if (d.status === 403) tags.push('download refused (expired or signed-url error)');
  }
  return [...new Set(tags)];
}

/** The download had begun (its answer's head was sent) and the main step never said it ended. */
function cancelledWhileDownloading(o: Observation): boolean {
  const begun = (o.downloads ?? []).some((d) => d.status >= 200 && d.status < 300);
  return begun && !/Report downloaded to /.test(visibleLog(o.main));
}

function routeOf(path: string): string {
  return path.replace(/\/scans\/[^/]+/, '/scans/:id');
}

/** Counts of each tag over the runs, most frequent first. */
export function tally(tagsPerRun: string[][]): Array<[string, number]> {
  const counts = new Map<string, number>();
  for (const tags of tagsPerRun)
    for (const tag of tags) counts.set(tag, (counts.get(tag) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
}
