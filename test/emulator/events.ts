// Scan-finished events: record the emails that would be sent and POST to the team-chat webhook.
import { request } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { Emulator } from './types.js';
import type { Clock } from './clock.js';
import type { ScanRecord, Store, TenantRecord } from './store.js';
import { scanStateAt } from './scan-lifecycle.js';

export type NotificationRecord = ReturnType<Emulator['notifications']>[number];

const WEBHOOK_TIMEOUT_MS = 5_000;

export class EventDispatcher {
  readonly sent: NotificationRecord[] = [];
  private readonly pending = new Set<Promise<void>>();

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
  ) {}

  /** Emit the finish event of every scan that reached a terminal state and has not emitted yet. */
  sweep(): void {
    const now = this.clock.now();
    for (const scan of this.store.scans.values()) {
      if (scan.eventEmitted) continue;
      const { status } = scanStateAt(scan, now);
      if (status === 'completed' || status === 'failed') this.emit(scan, status);
      else if (status === 'cancelled') scan.eventEmitted = true;
    }
  }

  /** Resolves when every webhook post started so far has finished. */
  async flush(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
  }

  private emit(scan: ScanRecord, event: 'completed' | 'failed'): void {
    scan.eventEmitted = true;
    const tenant = this.store.tenants.get(scan.tenantId);
    if (!tenant) return;
    const settings = tenant.notifications;
    const emailOn = event === 'completed' ? settings.emailOnComplete : settings.emailOnFail;
    const teamsOn = event === 'completed' ? settings.teamsOnComplete : settings.teamsOnFail;
    if (emailOn) {
      this.sent.push({
        at: this.clock.now(),
        channel: 'email',
        scanId: scan.id,
        event,
        to: tenant.ownerEmail,
      });
    }
    if (teamsOn && settings.teamsWebhookUrl)
      this.postToTeams(settings.teamsWebhookUrl, tenant, scan, event);
  }

  private postToTeams(
    url: string,
    tenant: TenantRecord,
    scan: ScanRecord,
    event: 'completed' | 'failed',
  ): void {
    const body = JSON.stringify({
      type: 'message',
      summary: `Scan ${event}`,
      text: `Scan ${scan.id} (${scan.scanType}) for ${tenant.name ?? 'your organisation'} ${event}.`,
      scanId: scan.id,
      scanType: scan.scanType,
      event,
    });
    const delivery = post(url, body).then((status) => {
      this.sent.push({
        at: this.clock.now(),
        channel: 'teams',
        scanId: scan.id,
        event,
        to: url,
        status,
      });
    });
    this.pending.add(delivery);
    void delivery.finally(() => this.pending.delete(delivery));
  }
}

/** POST JSON; resolves with the HTTP status, or 0 when the post failed. */
function post(url: string, body: string): Promise<number> {
  return new Promise((resolve) => {
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      resolve(0);
      return;
    }
    const send = target.protocol === 'https:' ? httpsRequest : request;
    const req = send(
      target,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
        timeout: WEBHOOK_TIMEOUT_MS,
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(0));
    req.end(body);
  });
}
