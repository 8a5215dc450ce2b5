// The emulator's state: tenants, keys, scans, reports and notification settings.
import type { ScanPlan, TenantSeed } from './types.js';
import type { Clock } from './clock.js';
import { IdSource, intFrom, pick, uuidFrom } from './rng.js';

export interface NotificationSettings {
  emailOnComplete: boolean;
  emailOnFail: boolean;
  teamsWebhookUrl: string | null;
  teamsOnComplete: boolean;
  teamsOnFail: boolean;
}

export interface KeyRecord {
  id: string;
  tenantId: string;
  name: string;
  key: string;
  msTenantId: string | null;
  createdAt: string;
  lastUsedAt: string | null;
  revoked: boolean;
}

export interface Connection {
  id: string;
  msTenantId: string;
  displayName: string;
  connectedAt: string;
}

export interface Target {
  id: string;
  host: string;
  label: string | null;
  verified: boolean;
  createdAt: string;
  verifiedAt: string | null;
}

export interface PlanState {
  name: string;
  apiAccess: boolean;
  scanQuota: number;
  reportAllowance: number;
  reportCredits: number;
}

export interface TenantRecord {
  id: string;
  name: string | null;
  plan: PlanState;
  allowanceUsed: number;
  creditsSpent: number;
  scansTriggered: number;
  connections: Connection[];
  scanPlan: ScanPlan;
  notifications: NotificationSettings;
  targets: Target[];
  ownerEmail: string;
  createdAt: string;
  /** Bumped by drift(): the tenant changed, its next scans fail other checks. */
  resultsGeneration: number;
}

export interface ReportRecord {
  /** Emulator ms when generate was called. */
  requestedAtMs: number;
  creditConsumed: boolean;
  sizeBytes: number;
}

export interface ScanRecord {
  id: string;
  tenantId: string;
  scanType: string;
  keyId?: string;
  createdAtMs: number;
  plan: ScanPlan;
  hidden: boolean;
  deleted: boolean;
  cancelledAtMs?: number;
  /** A clock that was wrong when the scan was stamped: its dates are shown this far off (ms;
   *  negative: behind), while it ran when its plan says. Seeded past scans only. */
  datesShiftMs?: number;
  /** What decides which of its results fail (ResultLayout): the tenant, the scan type and the
   *  tenant's results generation, so scans agree until the tenant drifts; the scan id itself
   *  when every scan draws its own (EmulatorOptions.results 'every-scan'). */
  resultsKey: string;
  /** Set once the finish event (emails, webhook) has been emitted. */
  eventEmitted: boolean;
  report?: ReportRecord;
}

export const MAX_ACTIVE_KEYS = 10;

const DEFAULT_NOTIFICATIONS: NotificationSettings = {
  emailOnComplete: true,
  emailOnFail: true,
  teamsWebhookUrl: null,
  teamsOnComplete: false,
  teamsOnFail: true,
};

const ORG_SLUGS = ['contoso', 'fabrikam', 'northwind', 'tailspin', 'woodgrove', 'adatum'];

export class Store {
  readonly tenants = new Map<string, TenantRecord>();
  readonly keys = new Map<string, KeyRecord>();
  private readonly keysByValue = new Map<string, KeyRecord>();
  readonly scans = new Map<string, ScanRecord>();
  /** Scan ids in creation order. */
  readonly scanOrder: string[] = [];
  readonly ids: IdSource;

  constructor(
    readonly seed: number,
    readonly clock: Clock,
    /** 'stable': a tenant's scans of a type fail the same checks until it drifts, as a real
     *  tenant's do; 'every-scan': each scan draws its own (churn for tests that want it). */
    readonly results: 'stable' | 'every-scan' = 'stable',
  ) {
    this.ids = new IdSource(seed);
  }

  private resultsKeyOf(tenant: TenantRecord, scanType: string, scanId: string): string {
    if (this.results === 'every-scan') return scanId;
    return `${tenant.id}/${scanType}/${tenant.resultsGeneration}`;
  }

  addTenant(seed: TenantSeed = {}): TenantRecord {
    const index = this.ids.next('tenant');
    const id = seed.id ?? uuidFrom(this.seed, 'tenant', index);
    if (this.tenants.has(id)) throw new Error(`tenant ${id} exists`);
    const name = seed.name === undefined ? 'Contoso Ltd' : seed.name;
    const slug = pick(ORG_SLUGS, this.seed, 'slug', index);
    const connections = (
      seed.connections ?? [{ msTenantId: uuidFrom(this.seed, 'ms', index) }]
    ).map((c, i) => ({
      id: uuidFrom(this.seed, 'connection', index, i),
      msTenantId: c.msTenantId,
      displayName: c.displayName ?? `${name ?? 'Directory'} (${slug}.onmicrosoft.com)`,
      connectedAt: this.clock.iso(
        this.clock.now() - intFrom(30, 400, this.seed, 'conn-age', index, i) * 86_400_000,
      ),
    }));
    const tenant: TenantRecord = {
      id,
      name,
      plan: {
        name: seed.plan?.apiAccess === false ? 'Starter' : 'Business',
        apiAccess: seed.plan?.apiAccess ?? true,
        scanQuota: seed.plan?.scanQuota ?? Infinity,
        reportAllowance: seed.plan?.reportAllowance ?? 0,
        reportCredits: seed.plan?.reportCredits ?? 10,
      },
      allowanceUsed: 0,
      creditsSpent: 0,
      scansTriggered: 0,
      connections,
      scanPlan: seed.scanPlan ?? {},
      notifications: { ...DEFAULT_NOTIFICATIONS },
      targets: [],
      ownerEmail: `secops@${slug}.example.com`,
      createdAt: this.clock.iso(this.clock.now() - 500 * 86_400_000),
      resultsGeneration: 0,
    };
    this.seedSettings(tenant, seed);
    this.tenants.set(id, tenant);
    return tenant;
  }

  patchTenant(tenantId: string, patch: Partial<TenantSeed>): void {
    const tenant = this.tenant(tenantId);
    if (patch.name !== undefined) tenant.name = patch.name;
    if (patch.plan) {
      const { apiAccess, scanQuota, reportAllowance, reportCredits } = patch.plan;
      if (apiAccess !== undefined) tenant.plan.apiAccess = apiAccess;
      if (scanQuota !== undefined) tenant.plan.scanQuota = scanQuota;
      if (reportAllowance !== undefined) tenant.plan.reportAllowance = reportAllowance;
      if (reportCredits !== undefined) tenant.plan.reportCredits = reportCredits;
    }
    if (patch.connections) {
      tenant.connections = patch.connections.map((c, i) => ({
        id: uuidFrom(this.seed, 'connection', tenant.id, 'patched', i),
        msTenantId: c.msTenantId,
        displayName: c.displayName ?? c.msTenantId,
        connectedAt: this.clock.iso(),
      }));
    }
    if (patch.scanPlan) tenant.scanPlan = patch.scanPlan;
    this.seedSettings(tenant, patch);
  }

  /** Notification fields and targets of a seed (addTenant, patchTenant). */
  private seedSettings(tenant: TenantRecord, seed: Partial<TenantSeed>): void {
    if (seed.notifications) Object.assign(tenant.notifications, seed.notifications);
    if (seed.targets) {
      tenant.targets = seed.targets.map((t) => ({
        id: this.ids.uuid('target'),
        host: t.host.toLowerCase(),
        label: t.label ?? null,
        verified: t.verified ?? false,
        createdAt: this.clock.iso(),
        verifiedAt: t.verified ? this.clock.iso() : null,
      }));
    }
  }

  tenant(tenantId: string): TenantRecord {
    const tenant = this.tenants.get(tenantId);
    if (!tenant) throw new Error(`unknown tenant ${tenantId}`);
    return tenant;
  }

  addKey(tenantId: string, name: string, msTenantId: string | null = null): KeyRecord {
    this.tenant(tenantId);
    const record: KeyRecord = {
      id: this.ids.uuid('key-id'),
      tenantId,
      name,
      key: this.ids.apiKey(),
      msTenantId,
      createdAt: this.clock.iso(),
      lastUsedAt: null,
      revoked: false,
    };
    this.keys.set(record.id, record);
    this.keysByValue.set(record.key, record);
    return record;
  }

  keyByValue(value: string): KeyRecord | undefined {
    return this.keysByValue.get(value);
  }

  activeKeys(tenantId: string): KeyRecord[] {
    return [...this.keys.values()].filter((k) => k.tenantId === tenantId && !k.revoked);
  }

  /** `idPrefix`: what goes before the uuid of the scan's id (a hostile service's ids). */
  addScan(tenant: TenantRecord, scanType: string, keyId?: string, idPrefix = ''): ScanRecord {
    const id = `${idPrefix}${this.ids.uuid('scan')}`;
    const scan: ScanRecord = {
      id,
      resultsKey: this.resultsKeyOf(tenant, scanType, id),
      tenantId: tenant.id,
      scanType,
      createdAtMs: this.clock.now(),
      plan: { ...tenant.scanPlan },
      hidden: false,
      deleted: false,
      eventEmitted: false,
      ...(keyId ? { keyId } : {}),
    };
    tenant.scansTriggered++;
    this.scans.set(scan.id, scan);
    this.scanOrder.push(scan.id);
    return scan;
  }

  /** A scan created at `createdAtMs` (a past time) with its own plan: it does not count against
   *  the plan's quota, like a scan the dashboard ran. */
  addPastScan(
    tenant: TenantRecord,
    scanType: string,
    plan: ScanPlan,
    createdAtMs: number,
  ): ScanRecord {
    const id = this.ids.uuid('scan');
    const scan: ScanRecord = {
      id,
      resultsKey: this.resultsKeyOf(tenant, scanType, id),
      tenantId: tenant.id,
      scanType,
      createdAtMs,
      plan: { ...plan },
      hidden: false,
      deleted: false,
      eventEmitted: true,
    };
    this.scans.set(scan.id, scan);
    this.scanOrder.push(scan.id);
    return scan;
  }

  /** A scan of this tenant that was not deleted. */
  liveScan(tenantId: string, scanId: string): ScanRecord | undefined {
    const scan = this.scans.get(scanId);
    return scan && scan.tenantId === tenantId && !scan.deleted ? scan : undefined;
  }

  scansOf(tenantId: string): ScanRecord[] {
    return this.scanOrder
      .map((id) => this.scans.get(id))
      .filter((s): s is ScanRecord => s !== undefined && s.tenantId === tenantId);
  }
}
