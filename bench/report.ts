// Rows of the verdict table and the detailed figures of each benchmark, as Markdown.
import { FLEET_TARGETS, MINIMUM_REQUESTS_PER_RUN, type FleetResult } from './fleet.js';
import {
  LARGE_FAILED,
  LARGE_TARGET_MS,
  LARGE_TARGET_RSS_MB,
  SUMMARY_LIMIT_BYTES,
  type LargeResult,
} from './large-results.js';
import type { Spread } from './lib/stats.js';
import { mib, ms, percent, seconds, type Row } from './lib/table.js';
import { STARTUP_TARGET_RATIO, type StartupResult } from './startup.js';

export function startupRows(s: StartupResult): Row[] {
  return [
    {
      area: 'Start-up',
      measure: "spawn → first API request, median (p95); ratio to `node -e ''`",
      value: `${ms(s.firstRequestMs.median)} (${ms(s.firstRequestMs.p95)}); ×${s.ratio.toFixed(2)}`,
      target: `≤ ×${STARTUP_TARGET_RATIO}`,
      met: s.ratio <= STARTUP_TARGET_RATIO,
    },
    {
      area: 'Start-up',
      measure: "`node -e ''` spawn → exit, median",
      value: ms(s.baselineMs.median),
      target: 'baseline',
    },
    {
      area: 'Start-up',
      measure: `before the libraries (dist/ of ${s.before.commit}): first request, median; ratio`,
      value: `${ms(s.before.firstRequestMs.median)}; ×${s.before.ratio.toFixed(2)}`,
      target: 'reported',
    },
    {
      area: 'Start-up',
      measure: "CPU time of a trivial run vs `node -e ''`, median",
      value: `${ms(s.actionCpuMs.median)} vs ${ms(s.baselineCpuMs.median)}`,
      target: 'reported (load-robust)',
    },
    {
      area: 'Start-up',
      measure: `CLI \`--version\`, CPU median: today; dist/cli of ${s.cli.before.commit}; ratio`,
      value: `${ms(s.cli.cpuMs.median)}; ${ms(s.cli.before.cpuMs.median)}; ×${(s.cli.cpuMs.median / s.cli.before.cpuMs.median).toFixed(2)}`,
      target: 'reported (load-robust)',
    },
    {
      area: 'Start-up',
      measure: 'bundle: main chunk; lazy chunks (loaded by a default run)',
      value: `${mib(s.bundle.main.bytes)}; ${s.bundle.chunks.map((c) => mib(c.bytes)).join(' + ')} (${s.chunksLoaded.length ? s.chunksLoaded.join(', ') : 'none'})`,
      target: 'reported',
    },
  ];
}

export function largeRows(l: LargeResult): Row[] {
  const worst = l.runs.reduce((a, b) => (b.endToExitMs > a.endToExitMs ? b : a));
  return [
    {
      area: 'Large results',
      measure: `scan end → exit, median (max) of ${l.runs.length}`,
      value: `${seconds(l.endToExitMsMedian)} (${seconds(l.endToExitMsMax)})`,
      target: `≤ ${seconds(LARGE_TARGET_MS)}`,
      met: l.endToExitMsMedian <= LARGE_TARGET_MS,
    },
    {
      area: 'Large results',
      measure: 'peak RSS of the action (max)',
      value: `${l.peakRssMBMax.toFixed(0)} MB`,
      target: `≤ ${LARGE_TARGET_RSS_MB} MB`,
      met: l.peakRssMBMax <= LARGE_TARGET_RSS_MB,
    },
    {
      area: 'Large results',
      measure: 'job summary size; worst first',
      value: `${mib(worst.summaryBytes)}; ${l.runs.every((r) => r.summaryWorstFirst) ? 'yes' : 'no'}`,
      target: '≤ 1 MiB; yes',
      met: l.runs.every((r) => r.summaryBytes <= SUMMARY_LIMIT_BYTES && r.summaryWorstFirst),
    },
    {
      area: 'Large results',
      measure: 'results file entries',
      value: l.runs.map((r) => r.resultsFileEntries).join(', '),
      target: `${LARGE_FAILED}`,
      met: l.runs.every((r) => r.resultsFileEntries === LARGE_FAILED),
    },
  ];
}

export function fleetRows(f: FleetResult): Row[] {
  const area = `Fleet ${label(f)}`;
  return [
    {
      area,
      measure: 'right verdicts; lost; failed for rate limiting',
      value: `${f.rightVerdicts}/${f.runs}; ${f.lostRuns + f.orphanScans + f.duplicateScans}; ${f.failedForRateLimiting}`,
      target: `${f.runs}/${f.runs}; 0; 0`,
      met:
        f.rightVerdicts === f.runs &&
        f.lostRuns + f.orphanScans + f.duplicateScans === 0 &&
        f.failedForRateLimiting === 0,
    },
    {
      area,
      measure: `requests / minimum (${MINIMUM_REQUESTS_PER_RUN} per run)`,
      value: `${f.requests} / ${f.minimumRequests} = ×${f.requestsRatio.toFixed(2)}`,
      target: `≤ ×${FLEET_TARGETS.requestsRatio}`,
      met: f.requestsRatio <= FLEET_TARGETS.requestsRatio,
    },
    {
      area,
      measure: '429 responses',
      value: `${f.throttled} (${percent(f.throttledShare)})`,
      target: `≤ ${percent(FLEET_TARGETS.throttledShare)}`,
      met: f.throttledShare <= FLEET_TARGETS.throttledShare,
    },
    {
      area,
      measure: 'completion delay after scan end, p95 (median)',
      value: f.completionDelayMs.n
        ? `${seconds(f.completionDelayMs.p95)} (${seconds(f.completionDelayMs.median)})`
        : 'no run finished right',
      target: `≤ ${seconds(FLEET_TARGETS.p95DelayMs)}`,
      met: f.completionDelayMs.n > 0 && f.completionDelayMs.p95 <= FLEET_TARGETS.p95DelayMs,
    },
  ];
}

const label = (f: FleetResult) => `${f.model}, ${f.poller}${f.keys > 1 ? `, ${f.keys} keys` : ''}`;

const spreadText = (s: Spread, unit: (v: number) => string = seconds) =>
  s.n ? `${unit(s.min)} / ${unit(s.median)} / ${unit(s.p95)} / ${unit(s.max)}` : '—';

export function startupDetails(s: StartupResult): string {
  return [
    `${s.repetitions} alternating repetitions (after 3 warm-up runs), at nice ${s.nice}; ${s.failedRuns} failed runs.`,
    '',
    '| min / median / p95 / max | |',
    '|---|---|',
    `| dist/index.js spawn → first API request | ${spreadText(s.firstRequestMs, ms)} |`,
    `| the same, dist/ of ${s.before.commit} (before the libraries) | ${spreadText(s.before.firstRequestMs, ms)} |`,
    `| dist/index.js spawn → exit (whole trivial run) | ${spreadText(s.actionExitMs, ms)} |`,
    `| \`node -e ''\` spawn → exit | ${spreadText(s.baselineMs, ms)} |`,
    `| CPU time (user + system), whole trivial run of dist/index.js | ${spreadText(s.actionCpuMs, ms)} |`,
    `| CPU time (user + system), \`node -e ''\` | ${spreadText(s.baselineCpuMs, ms)} |`,
    `| CPU time (user + system), \`dist/cli/index.js --version\` | ${spreadText(s.cli.cpuMs, ms)} |`,
    `| the same, dist/cli of ${s.cli.before.commit} (the CLI parsed twice) | ${spreadText(s.cli.before.cpuMs, ms)} |`,
    '',
    `Ratio (medians): ×${s.ratio.toFixed(2)} (before the libraries: ×${s.before.ratio.toFixed(2)}); the bundle adds ${ms(s.overBaselineMs)} before the first request.`,
    '',
    `Bundle dist/: main \`index.js\` ${mib(s.bundle.main.bytes)}; lazily loaded chunks: ` +
      s.bundle.chunks.map((c) => `\`${c.file}\` ${mib(c.bytes)}`).join(', ') +
      `. Chunks a default run (report: none) loaded: ${s.chunksLoaded.length ? s.chunksLoaded.join(', ') : 'none'}.`,
  ].join('\n');
}

export function largeDetails(l: LargeResult): string {
  const lines = [
    '| run | exit | scan end → exit | noticing the end | results request → exit | peak RSS | summary | rows shown | results file | annotations | requests |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
  ];
  l.runs.forEach((r, i) =>
    lines.push(
      `| ${i + 1} | ${r.exitCode} | ${seconds(r.endToExitMs)} | ${seconds(r.detectionMs)} | ${seconds(r.processingMs)} | ` +
        `${(r.peakRssMB ?? Number.NaN).toFixed(0)} MB | ${r.summaryBytes.toLocaleString('en')} B${r.summaryWorstFirst ? ', worst first' : ''} | ` +
        `${r.summaryRows} | ${r.resultsFileEntries} | ${r.annotations} | ${r.requests} |`,
    ),
  );
  return lines.join('\n');
}

export function fleetDetails(fleets: FleetResult[]): string {
  const lines = [
    '| model, poller | runs | wall | right | rate-limit failures | lost / orphan / duplicate | requests (tenant / trigger / status / results) | ×min | 429s | completion delay min / med / p95 / max | detection delay med / p95 | scan created after start min / med / p95 / max |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const f of fleets) {
    const k = f.requestsByKind;
    lines.push(
      `| ${label(f)} | ${f.runs} (scans ${f.scanWallSeconds} s ±15 %) | ${f.wallSeconds.toFixed(0)} s | ${f.rightVerdicts} | ${f.failedForRateLimiting} | ` +
        `${f.lostRuns} / ${f.orphanScans} / ${f.duplicateScans} | ${f.requests} (${k.tenant ?? 0} / ${k.trigger ?? 0} / ${k.status ?? 0} / ${k.results ?? 0}) | ` +
        `×${f.requestsRatio.toFixed(2)} | ${f.throttled} (${percent(f.throttledShare)}) | ${spreadText(f.completionDelayMs)} | ` +
        `${f.detectionDelayMs.n ? `${seconds(f.detectionDelayMs.median)} / ${seconds(f.detectionDelayMs.p95)}` : '—'} | ${spreadText(f.scanCreatedAfterStartMs)} |`,
    );
  }
  const retries = fleets.flatMap((f) => {
    const entries = Object.entries(f.retriesByReason).sort((a, b) => b[1] - a[1]);
    return entries.length
      ? [`- ${label(f)}: ${entries.map(([k, n]) => `${k} ×${n}`).join('; ')}`]
      : [];
  });
  if (retries.length) lines.push('', 'Retries the action logged:', '', ...retries);
  const errors = fleets.flatMap((f) =>
    f.sampleErrors.map((e) => `- ${label(f)}: \`${e.replace(/`/g, "'").slice(0, 300)}\``),
  );
  if (errors.length)
    lines.push('', 'Errors of runs without the right verdict (samples):', '', ...errors);
  return lines.join('\n');
}
