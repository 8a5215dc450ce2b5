// A roll-up (src/pipeline/rollup.ts) in GitHub Markdown: the verdict in one headline, the tenants
// worst first, the checks that fail in most tenants. Everything a record carries goes through the
// markdown functions (plain text, no live markup). At most `maxBytes`: rows that do not fit are cut
// from the end (the least bad) and counted in a line that says what was left out.

import type { PlanRollup, PlanRow } from '../pipeline/rollup/plans.js';
import type { CheckRow, Rollup, TenantRow } from '../pipeline/rollup/rollup.js';
import { markdownCode, markdownText } from '../pipeline/common/markdown.js';
import { plural } from '../pipeline/common/text.js';

/** The runner's job summary limit is 1 MiB; this leaves room for anything else on the page. */
export const ROLLUP_SUMMARY_MAX_BYTES = 1_000_000;
/** Share of the budget the tenants table may take before the checks get theirs. */
const TENANT_SHARE = 0.6;

const VERDICT_CELL: Record<TenantRow['verdict'], string> = {
  passed: '✅ passed',
  failed: '❌ failed',
  error: '⚠️ error',
  missing: '❓ missing',
  stale: '⌛ stale',
  unreadable: '❓ unreadable',
};

export function rollupHeadline(rollup: Rollup): string {
  return rollup.verdict === 'passed'
    ? `✅ Tenant roll-up passed: ${rollup.reason}`
    : `❌ Tenant roll-up failed: ${rollup.reason}`;
}

export function rollupMarkdown(rollup: Rollup, maxBytes = ROLLUP_SUMMARY_MAX_BYTES): string {
  const head = [`## ${markdownText(rollupHeadline(rollup), 200)}`, '', countsTable(rollup)].join(
    '\n',
  );
  let budget = maxBytes - Buffer.byteLength(head) - 4;
  const tenants = rowsThatFit(
    '### Tenants, worst first',
    '| Tenant | Verdict | Failing the gate | Failed | New | Overdue | Not evaluated | Coverage | Worst | Scan | Note |\n|---|---|---|---|---|---|---|---|---|---|---|',
    rollup.tenants.map(tenantRow),
    (left) => `_…and ${plural(left, 'more tenant')}, the least bad — see the roll-up JSON._`,
    rollup.checks.length > 0 || rollup.plans ? Math.floor(budget * TENANT_SHARE) : budget,
  );
  // Plans alone: no empty table of scan records.
  const noRecords = rollup.plans && rollup.tenants.length === 0;
  budget -= noRecords ? 0 : Buffer.byteLength(tenants) + 2;
  const parts = noRecords ? [head] : [head, tenants];
  if (rollup.plans) {
    const plans = plansMarkdown(rollup.plans, Math.floor(budget / 2));
    budget -= Buffer.byteLength(plans) + 2;
    parts.push(plans);
  }
  if (rollup.checks.length > 0) {
    parts.push(
      rowsThatFit(
        `### Checks that fail, in most tenants first`,
        '| Check | Fails in | Severity | Title |\n|---|---|---|---|',
        rollup.checks.map((check) => checkRow(check, rollup.judgedTenants)),
        (left) => `_…and ${plural(left, 'more failing check')} — see the roll-up JSON._`,
        budget,
      ),
    );
  }
  return `${parts.filter((part) => part !== '').join('\n\n')}\n`;
}

const PLAN_CELL: Record<PlanRow['verdict'], string> = {
  passed: '✅ clean',
  failed: '❌ failed',
  missing: '❓ missing',
  stale: '⌛ stale',
  unreadable: '❓ unreadable',
};

/** The plans: each problem code with the tenants that have it, then the tenants' plans. */
function plansMarkdown(plans: PlanRollup, budget: number): string {
  const codes = rowsThatFit(
    '### Tenant settings: tenants by problem',
    '| Code | Tenants | Which |\n|---|---|---|',
    plans.codes.map(
      (row) =>
        `| ${markdownCode(row.code, 64)} | ${row.tenants.length} | ${markdownText(row.tenants.join(', '), 600)} |`,
    ),
    (left) => `_…and ${plural(left, 'more code')} — see the roll-up JSON._`,
    Math.floor(budget / 2),
  );
  const rows = rowsThatFit(
    `### Tenant settings: plans, worst first (a plan fails on ${plans.failOn})`,
    '| Tenant | Plan | Drift | Problems | Codes | Checked | Note |\n|---|---|---|---|---|---|---|',
    plans.tenants.map((row) => {
      const cell = (value: number | null) => (value === null ? '—' : String(value));
      return `| ${markdownCode(row.tenant, 100)} | ${PLAN_CELL[row.verdict]} | ${cell(row.drift)} | ${cell(row.problems)} | ${markdownText(row.codes.join(', '), 200) || '—'} | ${markdownText(row.checkedAt ?? undefined, 40) || '—'} | ${markdownText(row.problem ?? undefined, 300) || ''} |`;
    }),
    (left) => `_…and ${plural(left, 'more plan')}, the least bad — see the roll-up JSON._`,
    budget - Buffer.byteLength(codes) - 2,
  );
  return plans.codes.length > 0 ? `${codes}\n\n${rows}` : rows;
}

function countsTable(rollup: Rollup): string {
  const by = (verdicts: TenantRow['verdict'][]) =>
    rollup.tenants.filter((row) => verdicts.includes(row.verdict)).length;
  return [
    '| Tenants | Count |',
    '|---|---|',
    `| Failed | ${by(['failed'])} |`,
    `| No verdict (missing, stale, unreadable, an error) | ${by(['missing', 'stale', 'unreadable', 'error'])} |`,
    `| Passed | ${by(['passed'])} |`,
    ...(rollup.plans
      ? [
          `| Plans failed (drift, a problem, an unfinished apply) | ${plansBy(rollup.plans, ['failed'])} |`,
          `| No plan (missing, stale, unreadable) | ${plansBy(rollup.plans, ['missing', 'stale', 'unreadable'])} |`,
          `| Plans clean | ${plansBy(rollup.plans, ['passed'])} |`,
        ]
      : []),
    `| In all | ${rollup.totalTenants} |`,
  ].join('\n');
}

function plansBy(plans: PlanRollup, verdicts: PlanRow['verdict'][]): number {
  return plans.tenants.filter((row) => verdicts.includes(row.verdict)).length;
}

function tenantRow(row: TenantRow): string {
  const name = row.name && row.name !== row.tenant ? ` (${markdownText(row.name, 80)})` : '';
  const cell = (value: number | null) => (value === null ? '—' : String(value));
  return `| ${markdownCode(row.tenant, 100)}${name} | ${VERDICT_CELL[row.verdict]} | ${cell(row.gating)} | ${cell(row.failed)} | ${cell(row.new)} | ${cell(row.overdue)} | ${cell(row.notEvaluated)} | ${coverageCell(row)} | ${row.worst ?? '—'} | ${markdownCode(row.scanId ?? undefined, 64) || '—'} | ${markdownText(row.problem ?? undefined, 300) || ''} |`;
}

/** "200 of 240, 40 dropped ❌": the checks evaluated now of those its baseline evaluated. */
export function coverageCell(row: Pick<TenantRow, 'coverage'>): string {
  const coverage = row.coverage;
  if (!coverage) return '—';
  const dropped = coverage.dropped > 0 ? `, ${coverage.dropped} dropped` : '';
  return `${coverage.evaluatedNow} of ${coverage.baselineEvaluated}${dropped}${coverage.fails ? ' ❌' : ''}`;
}

function checkRow(check: CheckRow, judged: number): string {
  return `| ${markdownCode(check.check, 80)} | ${check.failingTenants} of ${plural(judged, 'tenant')} | ${check.severity} | ${markdownText(check.title, 200)} |`;
}

/** A titled table of as many rows as fit in `budget` bytes, then the line for the rest. */
function rowsThatFit(
  title: string,
  header: string,
  rows: readonly string[],
  more: (left: number) => string,
  budget: number,
): string {
  const lines = [title, '', header];
  let used = Buffer.byteLength(lines.join('\n')) + Buffer.byteLength(more(rows.length)) + 4;
  let shown = 0;
  for (const row of rows) {
    const size = Buffer.byteLength(row) + 1;
    if (used + size > budget) break;
    lines.push(row);
    used += size;
    shown++;
  }
  if (shown < rows.length) lines.push('', more(rows.length - shown));
  return lines.join('\n');
}
