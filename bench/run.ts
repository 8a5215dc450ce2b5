// npm run bench — start-up, large results and the fleet (bench/README.md explains the method).
// Prints measured value vs target, writes bench/results/bench-<time>.json and latest.json, and the
// figures into bench/README.md.
//   --only=startup,large,fleet   --reps=20   --large-runs=3
//   --runs=200   --models=account,per-key   --pollers=action,naive   --scan-seconds=60
//   --per-key-keys=1,10 (per-key model: the action also with the runs spread over 10 keys)
//   --no-readme (do not touch bench/README.md)
//   --from=bench/results/bench-<time>.json (measure nothing: write that run's figures again)
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { runFleet, type FleetResult, type ModelName, type PollerName } from './fleet.js';
import { benchLargeResults, type LargeResult } from './large-results.js';
import { snapshotDist } from './lib/dist-snapshot.js';
import { describeMachine, machineLine, type Machine } from './lib/machine.js';
import { replaceBlocks } from './lib/readme.js';
import { markdownTable, type Row } from './lib/table.js';
import { benchStartup, type StartupResult } from './startup.js';
import {
  fleetDetails,
  fleetRows,
  largeDetails,
  largeRows,
  startupDetails,
  startupRows,
} from './report.js';

// Real time: the action places a scan's start from the server's timestamps, which only line up
// with the runner's clock when the emulator's clock runs at the same speed.
const FLEET_CLOCK_SPEED = 1;

const { values: args } = parseArgs({
  options: {
    only: { type: 'string', default: 'startup,large,fleet' },
    reps: { type: 'string', default: '20' },
    'large-runs': { type: 'string', default: '3' },
    runs: { type: 'string', default: '200' },
    models: { type: 'string', default: 'account,per-key' },
    pollers: { type: 'string', default: 'action,naive' },
    'scan-seconds': { type: 'string', default: '60' },
    'per-key-keys': { type: 'string', default: '1,10' },
    'no-readme': { type: 'boolean', default: false },
    from: { type: 'string' },
  },
});
const only = new Set(args.only.split(','));

interface Report {
  at: string;
  machine: Machine;
  startup?: StartupResult;
  large?: LargeResult;
  fleet: FleetResult[];
  rows: Row[];
}

const report: Report = args.from
  ? (JSON.parse(await readFile(args.from, 'utf8')) as Report)
  : await measureAll();
const machine = report.machine;
report.rows = [
  ...(report.startup ? startupRows(report.startup) : []),
  ...(report.large ? largeRows(report.large) : []),
  ...report.fleet.flatMap(fleetRows),
];

async function measureAll(): Promise<Report> {
  const machine = describeMachine();
  console.log(`machine: ${machineLine(machine)}`);
  const dist = await snapshotDist();
  const report: Report = { at: new Date().toISOString(), machine, fleet: [], rows: [] };
  try {
    if (only.has('startup')) {
      console.log(`start-up: ${args.reps} repetitions …`);
      report.startup = await benchStartup(dist, Number(args.reps));
    }
    if (only.has('large')) {
      console.log(`large results: ${args['large-runs']} runs …`);
      report.large = await benchLargeResults(dist, Number(args['large-runs']));
    }
    if (only.has('fleet')) {
      for (const { model, poller, keys } of fleetScenarios()) {
        console.log(`fleet: ${args.runs} × ${poller} under the ${model} model, ${keys} key(s) …`);
        report.fleet.push(
          await runFleet({
            runs: Number(args.runs),
            model,
            poller,
            keys,
            actionScript: dist.main,
            clockSpeed: FLEET_CLOCK_SPEED,
            scanMs: Number(args['scan-seconds']) * 1000 * FLEET_CLOCK_SPEED,
            timeoutMs: 30 * 60_000,
          }),
        );
      }
    }
  } finally {
    await dist.remove();
  }
  return report;
}

/** Each model × poller with one shared key; under per-key, the action also with more keys. */
function fleetScenarios(): Array<{ model: ModelName; poller: PollerName; keys: number }> {
  const scenarios: Array<{ model: ModelName; poller: PollerName; keys: number }> = [];
  for (const model of args.models.split(',') as ModelName[]) {
    for (const poller of args.pollers.split(',') as PollerName[]) {
      scenarios.push({ model, poller, keys: 1 });
      if (model !== 'per-key' || poller !== 'action') continue;
      for (const keys of args['per-key-keys'].split(',').map(Number)) {
        if (keys > 1) scenarios.push({ model, poller, keys });
      }
    }
  }
  return scenarios;
}

const table = markdownTable(report.rows);
console.log(`\n${table}\n`);
if (report.fleet.length) console.log(`${fleetDetails(report.fleet)}\n`);

if (!args.from) {
  const resultsDir = new URL('./results/', import.meta.url);
  await mkdir(resultsDir, { recursive: true });
  const json = JSON.stringify(report, null, 2);
  await writeFile(new URL(`bench-${report.at.replace(/[:.]/g, '-')}.json`, resultsDir), json);
  await writeFile(new URL('latest.json', resultsDir), json);
}

if (!args['no-readme']) {
  // One summary block per part, so that running one part leaves the others' latest figures.
  const command = args.from
    ? `figures of ${args.from}`
    : `\`npm run bench -- ${process.argv.slice(2).join(' ')}\``.replace(' -- `', '`');
  const summary = (rows: Row[]) =>
    [`Run of ${report.at} (${command}) on ${machineLine(machine)}.`, '', markdownTable(rows)].join(
      '\n',
    );
  const blocks: Record<string, string> = {};
  const partRows = (area: string) => report.rows.filter((r) => r.area.startsWith(area));
  if (report.startup) {
    blocks['summary-startup'] = summary(partRows('Start-up'));
    blocks.startup = startupDetails(report.startup);
  }
  if (report.large) {
    blocks['summary-large'] = summary(partRows('Large results'));
    blocks.large = largeDetails(report.large);
  }
  if (report.fleet.length) {
    blocks['summary-fleet'] = summary(partRows('Fleet'));
    blocks.fleet = fleetDetails(report.fleet);
  }
  await replaceBlocks(fileURLToPath(new URL('./README.md', import.meta.url)), blocks);
  console.log('figures written to bench/README.md');
}
