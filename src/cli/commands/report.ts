// report status | generate | list | download <id> [-o <file>] [--wait] [--generate]

import { mkdir } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { ReportListItem, ReportStatus } from '../../client/index.js';
import type { CommandSpec } from '../command.js';
import {
  DEFAULT_REPORT_PATH,
  SettingProblem,
  SettingsError,
  parseMinutes,
  testPacingMs,
  waitWhileRendering,
} from '../../pipeline/index.js';
import { UsageError } from '../errors.js';
import { anyRecord, record, table } from '../render.js';
import { checkOutputFiles } from '../output-files.js';
import { downloadJson, reportItemJson, reportStatusJson } from '../views.js';
import { oneCall } from './one-call.js';

const STATE_HINTS: Record<ReportStatus['state'], string> = {
  ready: 'download it with: tenant-scan report download <id>',
  rendering: 'the report is being generated: tenant-scan report download <id> --wait',
  orgNameRequired:
    'set the organisation name of the tenant in the dashboard, then generate the report',
  locked: 'not generated yet: tenant-scan report generate <id> (may spend a report credit)',
  unknown: 'the service sent a status this tool does not know',
};

const list: CommandSpec = {
  path: ['report', 'list'],
  summary: 'List the reports of the tenant (every page)',
  async run(ctx) {
    const items: ReportListItem[] = [];
    for await (const item of ctx.client().reports.list({ signal: ctx.signal })) items.push(item);
    return {
      json: items.map(reportItemJson),
      text: table<ReportListItem>(items, [
        { header: 'scan', value: (r) => r.scanId },
        { header: 'status', value: (r) => r.status },
        { header: 'generated', value: (r) => r.generatedAt },
      ]),
    };
  },
};

const DEFAULT_WAIT_MINUTES = 5;

/** Why the report cannot be downloaded now, and what to run instead. */
function notReady(id: string, status: ReportStatus, waited: number | undefined): Error {
  const why: Record<ReportStatus['state'], string> = {
    ready: 'is ready but the service gave no download address',
    locked: `is not generated yet (status locked): run 'tenant-scan report generate ${id}' (it may spend a report credit), or add --generate`,
    rendering:
      waited === undefined
        ? 'is still rendering: add --wait to wait for it'
        : `was still rendering after ${waited} minute${waited === 1 ? '' : 's'}: try again later, or raise --timeout`,
    orgNameRequired:
      "needs the tenant's organisation name: set it in the dashboard (Settings), then generate the report",
    unknown: `has a status this tool does not know (${JSON.stringify(status.status)}); see 'tenant-scan report status ${id}'`,
  };
  return new Error(`the report of scan ${id} ${why[status.state]}`);
}

const download: CommandSpec = {
  path: ['report', 'download'],
  summary: 'Download the report of a scan to a file',
  args: ['id'],
  options: ['out', 'wait', 'generate', 'timeout'],
  optionHelp: {
    timeout: `Give up waiting for the report after this many minutes (default ${DEFAULT_WAIT_MINUTES})`,
  },
  details: [
    `The file (default ${DEFAULT_REPORT_PATH}) is written whole or not at all. The report must be`,
    'ready (see report status); --wait waits while it is rendering, --generate generates it first when it',
    `is not yet (this may spend a report credit). --timeout defaults to ${DEFAULT_WAIT_MINUTES} minutes.`,
  ].join('\n'),
  async run(ctx, input) {
    const id = input.args.id ?? '';
    const path = typeof input.values.out === 'string' ? input.values.out : DEFAULT_REPORT_PATH;
    const generate = input.values.generate === true;
    const wait = generate || input.values.wait === true;
    const timeout = typeof input.values.timeout === 'string' ? input.values.timeout : undefined;
    if (timeout !== undefined && !wait) {
      throw new UsageError('--timeout needs --wait or --generate', 'report download');
    }
    const timeoutMs = parseTimeout(timeout);
    await checkOutputFiles([['-o/--out', path]]);
    const client = ctx.client();
    const signal = ctx.signal;
    let status = await client.reports.status(id, { signal });
    if (status.state === 'locked' && generate) {
      ctx.note(`Generating the report of scan ${id} (this may spend a report credit)`);
      await client.reports.generate(id, { signal });
      status = await client.reports.status(id, { signal });
    }
    if (status.state === 'rendering' && wait) {
      ctx.note(
        `The report of scan ${id} is rendering: waiting up to ${timeoutMs / 60_000} minutes`,
      );
      status = await waitWhileRendering(client, id, {
        timeoutMs,
        signal,
        pollMs: testPacingMs(ctx.io.env),
      });
    }
    if (status.state !== 'ready') throw notReady(id, status, wait ? timeoutMs / 60_000 : undefined);
    await mkdir(dirname(resolve(path)), { recursive: true });
    const result = await client.reports.download(id, path, { signal });
    return {
      json: downloadJson(id, result),
      text: record([
        ['scan', id],
        ['file', result.path],
        ['bytes', result.bytes],
        ['sha256', result.sha256],
        ['type', result.contentType],
      ]),
    };
  },
};

function parseTimeout(raw: string | undefined): number {
  try {
    return parseMinutes('--timeout', raw, DEFAULT_WAIT_MINUTES);
  } catch (error) {
    if (error instanceof SettingProblem) throw new SettingsError([error.message]);
    throw error;
  }
}

export const REPORT_COMMANDS: CommandSpec[] = [
  oneCall({
    path: ['report', 'status'],
    summary: 'Show the report status of a scan (ready, rendering, orgNameRequired, locked)',
    arg: 'id',
    call: (client, o, id) => client.reports.status(id, o),
    show: (report, id) => ({
      json: reportStatusJson(id, report),
      text: record([
        ['scan', id],
        ['status', report.status],
        ['expires', report.expiresAt],
        ['next', STATE_HINTS[report.state].replace('<id>', id)],
      ]),
    }),
  }),
  oneCall({
    path: ['report', 'generate'],
    summary: 'Generate the report of a scan (may spend a report credit)',
    arg: 'id',
    details:
      'Generating may consume a report credit when the plan has no allowance; running this command is consent to that.',
    call: (client, o, id) => client.reports.generate(id, o),
    show: (answer, id) => ({
      json: { scanId: id, ...answer },
      text: anyRecord({ scan: id, ...answer }),
    }),
  }),
  list,
  download,
];
