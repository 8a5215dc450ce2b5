// The page's data (render/html/page-data.ts), read from its JSON block and decoded into the objects
// the views show, and the words for them. A tenant's findings are decoded when it is first shown.

export const SEVERITIES = ['critical', 'high', 'medium', 'low', 'info', 'unknown'];
export const SEVERITY_TITLES = ['Critical', 'High', 'Medium', 'Low', 'Info', 'Unknown'];
export const FLAG = { gating: 1, new: 2, unchanged: 4, overdue: 8, waived: 16, beyondWindow: 32 };

export const VERDICT_TITLES = {
  passed: 'Passed',
  failed: 'Failed',
  error: 'Error',
  pending: 'Not waited for',
  missing: 'Missing',
  stale: 'Stale',
  unreadable: 'Unreadable',
};

/** The data block, parsed (it is JSON: nothing in it runs). */
export function readData() {
  const block = document.getElementById('report-data');
  const data = JSON.parse(block ? block.textContent : 'null');
  if (!data || data.version !== 1 || !Array.isArray(data.tenants)) {
    throw new Error('the report data is missing or of another version');
  }
  return data;
}

function text(strings, index) {
  return Number.isInteger(index) && index >= 0 && index < strings.length
    ? String(strings[index])
    : '';
}

function decodeFinding(strings, row, index) {
  const flags = Number(row[7]) || 0;
  const finding = {
    index,
    check: text(strings, row[0]),
    title: text(strings, row[1]),
    severity: Number.isInteger(row[2]) && row[2] >= 0 && row[2] < 6 ? row[2] : 5,
    category: text(strings, row[3]),
    remediation: text(strings, row[4]),
    reference: text(strings, row[5]),
    description: text(strings, row[6]),
    flags,
    failingSince: text(strings, row[8]),
    dueAt: text(strings, row[9]),
    daysLeft: Number.isInteger(row[10]) && row[10] !== -1 ? row[10] : null,
    failingScans: Number.isInteger(row[11]) && row[11] > 0 ? row[11] : null,
    waiver: null,
  };
  if (flags & FLAG.waived) {
    finding.waiver = {
      reason: text(strings, row[12]),
      expires: text(strings, row[13]),
      owner: text(strings, row[14]),
      disposition: text(strings, row[15]),
    };
  }
  finding.search = [finding.check, finding.title, finding.category, finding.remediation]
    .join('\n')
    .toLowerCase();
  return finding;
}

/** The tenant's findings as objects (decoded once). */
export function findingsOf(model, tenant) {
  if (!tenant.decoded) {
    const rows = Array.isArray(tenant.findings) ? tenant.findings : [];
    tenant.decoded = rows.map((row, index) => decodeFinding(model.strings, row, index));
  }
  return tenant.decoded;
}

/** The page's model: the data, with its strings at hand. */
export function modelOf(data) {
  return { ...data, strings: Array.isArray(data.strings) ? data.strings : [] };
}

export function stringOf(model, index) {
  return text(model.strings, index);
}

export function formatCount(value) {
  return Number(value).toLocaleString('en-US');
}

export function plural(value, word) {
  return `${formatCount(value)} ${word}${value === 1 ? '' : 's'}`;
}

/** "16.7 %", "10 %": a percent as the gate's lines write it (gate/coverage.ts). */
export function percentWords(value) {
  return `${Number.isInteger(value) ? value : value.toFixed(1)} %`;
}

/** A series of counts in words: "240 → 240 → 200" (unknown: "?"). */
export function seriesWords(values) {
  return values.map((value) => (value === null ? '?' : formatCount(value))).join(' → ');
}

/** The day of an ISO time (the service's words: shown, never parsed into markup). */
export function day(iso) {
  return /^\d{4}-\d{2}-\d{2}/.test(iso) ? iso.slice(0, 10) : iso;
}

/** "overdue by 3 days", "due in 12 days", "due today" (gate/deadlines.ts's words). */
export function deadlineWords(finding) {
  if (finding.daysLeft === null) return finding.dueAt ? `due ${day(finding.dueAt)}` : '';
  const days = (n) => (n === 1 ? '1 day' : `${formatCount(n)} days`);
  if (finding.daysLeft < 0) return `overdue by ${days(-finding.daysLeft)}`;
  if (finding.flags & FLAG.beyondWindow) return 'failing since before the history read';
  if (finding.daysLeft === 0) return 'due today';
  return `due in ${days(finding.daysLeft)}`;
}

/** The gate's marks of a finding in words: "Fails the gate · New · Overdue". */
export function stateWords(finding) {
  const words = [];
  if (finding.flags & FLAG.gating) words.push('Fails the gate');
  if (finding.flags & FLAG.waived) words.push('Waived');
  if (finding.flags & FLAG.new) words.push('New');
  if (finding.flags & FLAG.unchanged) words.push('Unchanged');
  if (finding.flags & FLAG.overdue) words.push('Overdue');
  return words.join(' · ');
}

/** Overdue first, then new, unchanged, waived (the gate's order), those failing it before. */
export function stateRank(finding) {
  const gating = finding.flags & FLAG.gating ? 0 : 10;
  if (finding.flags & FLAG.waived) return gating + 4;
  if (finding.flags & FLAG.overdue) return gating + 1;
  if (finding.flags & FLAG.unchanged) return gating + 3;
  return gating + 2;
}
