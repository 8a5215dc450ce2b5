// report status | generate | list | download <id> -o <file>

import { mkdir } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { ReportListItem, ReportStatus } from '../../client/types.js';
import type { CommandSpec } from '../command.js';
import { UsageError } from '../errors.js';
import { anyRecord, record, table } from '../render.js';
import { downloadJson, reportItemJson, reportStatusJson } from '../views.js';
import { oneCall } from './one-call.js';

const STATE_HINTS: Record<ReportStatus['state'], string> = {
  ready: 'download it with: tenant-scan report download <id> -o report.pdf',
  rendering: 'the report is being generated; look again shortly',
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

const download: CommandSpec = {
  path: ['report', 'download'],
  summary: 'Download the ready report of a scan to a file',
  args: ['id'],
  options: ['out'],
  required: ['out'],
  details: 'The file is written whole or not at all. The report must be ready (see report status).',
  async run(ctx, input) {
    const id = input.args.id ?? '';
    const path = input.values.out;
    if (typeof path !== 'string' || path.trim() === '') {
      throw new UsageError('-o <file> is required', 'report download');
    }
    await mkdir(dirname(resolve(path)), { recursive: true });
    const result = await ctx.client().reports.download(id, path, { signal: ctx.signal });
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
