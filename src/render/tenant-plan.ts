// The tenant plan rendered: plain text for a terminal (service text stripped of control
// characters) and Markdown for a job summary, a pull-request comment and an issue (through the
// one Markdown path). Values are already safe to show: a webhook address is its host only.

import type { PlanDocument } from '../pipeline/tenant-settings/document.js';
import type { Scalar } from '../pipeline/tenant-settings/plan.js';
import { displayLine } from '../client/index.js';
import { markdownCode, markdownText } from '../pipeline/common/markdown.js';
import { plural } from '../pipeline/common/text.js';

function shown(value: Scalar): string {
  return value === null ? 'null' : typeof value === 'string' ? displayLine(value) : String(value);
}

export function planText(doc: PlanDocument): string {
  const lines: string[] = [];
  if (doc.applied) {
    lines.push(`Applied (${doc.applied.length}):`);
    for (const a of doc.applied) {
      lines.push(
        `  ${a.outcome.padEnd(13)} ${a.change}${a.detail ? `: ${displayLine(a.detail)}` : ''}`,
      );
    }
    if (doc.applied.length === 0) lines.push('  (nothing to change)');
    lines.push('');
  }
  lines.push(`Tenant: ${displayLine(doc.tenant ?? '(unnamed)')}`);
  lines.push(`Drift (${doc.drift.length}):`);
  for (const d of doc.drift) {
    lines.push(`  ${d.area}.${displayLine(d.field)}: ${shown(d.current)} → ${shown(d.desired)}`);
  }
  if (doc.drift.length === 0) lines.push('  (none: the tenant matches the file)');
  lines.push(`Problems (${doc.problems.length}):`);
  for (const p of doc.problems) {
    lines.push(`  ${p.code.padEnd(22)} ${displayLine(p.subject)}: ${displayLine(p.detail)}`);
  }
  if (doc.problems.length === 0) lines.push('  (none)');
  return `${lines.join('\n')}\n`;
}

/** The plan as Markdown: a headline, the drift table, the problems table. */
export function planMarkdown(doc: PlanDocument, heading = '### Tenant settings plan'): string {
  const tenant = doc.tenant ? ` of ${markdownText(doc.tenant, 120)}` : '';
  const head =
    doc.drift.length === 0 && doc.problems.length === 0
      ? `✅ The tenant${tenant} matches the file; no hygiene problem.`
      : `The tenant${tenant}: ${plural(doc.drift.length, 'setting')} drifting, ${plural(doc.problems.length, 'hygiene problem')}.`;
  const out = [heading, '', head, ''];
  if (doc.applied && doc.applied.length > 0) {
    out.push('| Change | Outcome |', '| --- | --- |');
    for (const a of doc.applied) {
      const detail = a.detail ? `: ${markdownText(a.detail, 300)}` : '';
      out.push(`| ${markdownText(a.change, 200)} | ${a.outcome}${detail} |`);
    }
    out.push('');
  }
  if (doc.drift.length > 0) {
    out.push('| Setting | Now | In the file |', '| --- | --- | --- |');
    for (const d of doc.drift) {
      out.push(
        `| ${markdownCode(`${d.area}.${d.field}`, 200)} | ${markdownCode(shown(d.current))} | ${markdownCode(shown(d.desired))} |`,
      );
    }
    out.push('');
  }
  if (doc.problems.length > 0) {
    out.push('| Problem | Subject | Detail |', '| --- | --- | --- |');
    for (const p of doc.problems) {
      out.push(
        `| ${markdownCode(p.code)} | ${markdownText(p.subject, 200)} | ${markdownText(p.detail, 300)} |`,
      );
    }
    out.push('');
  }
  return out.join('\n');
}
