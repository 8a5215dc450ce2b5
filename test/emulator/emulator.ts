// startEmulator: the Tenant API, its presigned download origin and its control origin, in-process.
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Emulator, EmulatorOptions, ScanPlan, StartEmulator } from './types.js';
import { Runtime } from './runtime.js';
import { createApiHandler } from './api-server.js';
import { createDownloadHandler } from './download-server.js';
import { createControlHandler } from './control-server.js';
import { scanTruth } from './scan-view.js';
import { checkAt, checkIdAt, isEvaluatedWord, ResultLayout } from './findings.js';
import { outcomeCounts, scanStateAt } from './scan-lifecycle.js';
import { reportDigest } from './report-bytes.js';

export type { Emulator, EmulatorOptions } from './types.js';

const EVENT_SWEEP_MS = 20;

interface Listening {
  server: Server;
  sockets: Set<Socket>;
  origin: string;
}

async function listen(server: Server, host: string, port: number): Promise<Listening> {
  const sockets = new Set<Socket>();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return { server, sockets, origin: `http://${shownHost}:${address.port}` };
}

async function stop({ server, sockets }: Listening): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  for (const socket of sockets) socket.destroy();
  await closed;
}

export const startEmulator: StartEmulator = async (options: EmulatorOptions = {}) => {
  const rt = new Runtime(options);
  const host = options.host ?? '127.0.0.1';
  const tenant = rt.store.addTenant(options.tenant);
  const defaultKey = rt.store.addKey(tenant.id, 'Default key (dashboard)');

  const api = await listen(createServer(createApiHandler(rt)), host, options.port ?? 0);
  const download = await listen(
    createServer(createDownloadHandler(rt)),
    host,
    options.downloadPort ?? 0,
  );
  rt.downloadOrigin = download.origin;

  const tenantOrDefault = (tenantId?: string): string => tenantId ?? tenant.id;
  const sweeper = setInterval(() => rt.events.sweep(), EVENT_SWEEP_MS);
  sweeper.unref();

  const emulator: Emulator = {
    url: `${api.origin}${rt.settings.basePath}`,
    downloadOrigin: download.origin,
    controlOrigin: '',
    apiKey: defaultKey.key,
    tenantId: tenant.id,

    addTenant(seed) {
      const created = rt.store.addTenant(seed);
      return {
        tenantId: created.id,
        apiKey: rt.store.addKey(created.id, 'Default key (dashboard)').key,
      };
    },
    addKey: (tenantId, name = 'Key added by test', age = {}) => {
      const record = rt.store.addKey(tenantId, name);
      const now = rt.clock.now();
      if (age.ageMs !== undefined) record.createdAt = rt.clock.iso(now - age.ageMs);
      if (typeof age.lastUsedAgoMs === 'number')
        record.lastUsedAt = rt.clock.iso(now - age.lastUsedAgoMs);
      return record.key;
    },
    apiKeys: (tenantId) =>
      rt.store
        .activeKeys(tenantOrDefault(tenantId))
        .map(({ id, name, key, createdAt, lastUsedAt }) => ({
          id,
          name,
          key,
          createdAt,
          lastUsedAt,
        })),
    setTenant: (tenantId, patch) => rt.store.patchTenant(tenantId, patch),
    setScanPlan: (plan, tenantId) =>
      rt.store.patchTenant(tenantOrDefault(tenantId), { scanPlan: plan }),
    seedHistory: (past, tenantId) => {
      const tenant = rt.store.tenant(tenantOrDefault(tenantId));
      return past.map((entry) => {
        // Completed the moment it was created: its time is its age.
        const plan: ScanPlan = {
          durationMs: 0,
          queuedMs: 0,
          outcome: {
            kind: 'completed',
            total: entry.total ?? 60,
            failed: 0,
            failedChecks: entry.failedChecks,
          },
        };
        const scan = rt.store.addPastScan(
          tenant,
          entry.scanType ?? 'compliance',
          plan,
          rt.clock.now() - entry.ageMs,
        );
        scan.hidden = entry.hidden ?? false;
        if (entry.clockSkewMs) scan.datesShiftMs = entry.clockSkewMs;
        return scan.id;
      });
    },
    drift: (tenantId) => {
      rt.store.tenant(tenantOrDefault(tenantId)).resultsGeneration++;
    },
    setVariant: (variant) => {
      rt.settings.variant = { ...variant };
    },
    setRateLimit: (model) => rt.limiter.set(model),
    addFault: (rule) => rt.faults.add(rule),
    clearFaults: () => rt.faults.clear(),

    scans: (tenantId) =>
      rt.store.scanOrder
        .map((id) => rt.store.scans.get(id))
        .filter((s) => s !== undefined && (tenantId === undefined || s.tenantId === tenantId))
        .map((s) => scanTruth(rt, s!)),
    failedFindings: (scanId) => {
      const scan = rt.store.scans.get(scanId);
      if (!scan || scanStateAt(scan, rt.clock.now()).status !== 'completed') return [];
      const counts = outcomeCounts(scan, rt.settings.seed);
      const layout = new ResultLayout(counts, rt.settings.seed, scan.resultsKey);
      return layout
        .select('Failed', 0, Math.max(1, counts.total))
        .indices.map((i) => ({ checkId: checkIdAt(i), severity: checkAt(i).severity }));
    },
    results: (scanId) => {
      const scan = rt.store.scans.get(scanId);
      if (!scan || scanStateAt(scan, rt.clock.now()).status !== 'completed') return [];
      const counts = outcomeCounts(scan, rt.settings.seed);
      const layout = new ResultLayout(counts, rt.settings.seed, scan.resultsKey);
      return Array.from({ length: counts.total }, (_, i) => {
        const result = layout.resultAt(i);
        return { checkId: checkIdAt(i), result, evaluated: isEvaluatedWord(result) };
      });
    },
    creditsSpent: (tenantId) => rt.store.tenant(tenantOrDefault(tenantId)).creditsSpent,
    notifications: () => {
      rt.events.sweep();
      return rt.events.sent.map((n) => ({ ...n }));
    },
    requests: () => rt.log.all(),
    clearRequests: () => rt.log.clear(),
    reportDigest: (scanId) => {
      const size = rt.store.scans.get(scanId)?.report?.sizeBytes ?? rt.settings.reportSizeBytes;
      return reportDigest(rt.settings.seed, scanId, size);
    },

    advance: (ms) => {
      rt.clock.advance(ms);
      rt.events.sweep();
    },
    now: () => rt.clock.now(),
    flushEvents: async () => {
      rt.events.sweep();
      await rt.events.flush();
    },
    setReportSize: (bytes) => {
      if (!Number.isInteger(bytes) || bytes < 0)
        throw new RangeError('report size must be an integer >= 0');
      rt.settings.reportSizeBytes = bytes;
    },
    close: async () => {
      clearInterval(sweeper);
      await Promise.all([stop(api), stop(download), stop(control)]);
      await rt.events.flush();
    },
  };

  const control = await listen(
    createServer(createControlHandler(rt, emulator)),
    host,
    options.controlPort ?? 0,
  );
  (emulator as { controlOrigin: string }).controlOrigin = control.origin;
  return emulator;
};
