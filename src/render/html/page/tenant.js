// One tenant's view (a run's whole page, or a tenant opened from a fleet): its verdict line, the
// counts, the trend, and its failed findings — filtered by severity, category and gate state,
// searched, sorted, and each one's detail beside them.

import { append, button, el, facts, httpsLink } from './dom.js';
import { trendChart } from './chart.js';
import { coverageLines } from './coverage.js';
import {
  FLAG,
  SEVERITIES,
  SEVERITY_TITLES,
  VERDICT_TITLES,
  day,
  deadlineWords,
  findingsOf,
  formatCount,
  plural,
  stateRank,
  stateWords,
  stringOf,
} from './model.js';
import { windowedTable } from './table.js';

const STATES = [
  ['gating', 'Fails the gate', FLAG.gating],
  ['new', 'New', FLAG.new],
  ['unchanged', 'Unchanged', FLAG.unchanged],
  ['overdue', 'Overdue', FLAG.overdue],
  ['waived', 'Waived', FLAG.waived],
];

export function severityBadge(severity) {
  return el('span', {
    className: `badge sev-${SEVERITIES[severity] ?? 'unknown'}`,
    text: SEVERITY_TITLES[severity] ?? 'Unknown',
  });
}

export function verdictBadge(verdict) {
  return el('span', {
    className: `badge verdict-${verdict}`,
    text: VERDICT_TITLES[verdict] ?? verdict,
    attrs: { 'data-verdict': verdict },
  });
}

function countTable(caption, rows) {
  if (!rows || rows.length === 0) return null;
  return el('table', { className: 'counts' }, [
    el('caption', { text: caption }),
    el(
      'tbody',
      {},
      rows.map(([label, value]) =>
        el('tr', {}, [
          el('th', { text: label, attrs: { scope: 'row' } }),
          el('td', { text: formatCount(value) }),
        ]),
      ),
    ),
  ]);
}

/** The verdict line without its leading symbol: the badge beside it says the verdict. */
export function headlineLine(verdict, headline) {
  return el('p', { className: 'headline', attrs: { id: 'headline' } }, [
    verdictBadge(verdict),
    ' ',
    String(headline).replace(/^\p{Extended_Pictographic}\uFE0F?\s*/u, ''),
  ]);
}

function headerOf(tenant) {
  const name = tenant.serviceName ? `${tenant.name} (${tenant.serviceName})` : tenant.name;
  return el('header', { className: `verdict-box verdict-${tenant.verdict}` }, [
    el('h1', { text: name }),
    headlineLine(tenant.verdict, tenant.headline),
  ]);
}

function severityCounts(findings) {
  const counts = SEVERITIES.map(() => 0);
  for (const finding of findings) counts[finding.severity]++;
  return SEVERITY_TITLES.map((title, index) => [title, counts[index]]).filter(([, n]) => n > 0);
}

/** A trend's chart with its caption; `values` aligned with the tenant's trend (its scans). */
function trendFigure(model, trend, values, words, unit) {
  const points = trend.map(([at], index) => ({ at: stringOf(model, at), value: values[index] }));
  return el('figure', { className: `trend ${unit}` }, [
    trendChart(points, `${words}, oldest first`, unit),
    el('figcaption', { text: `${words}, oldest first (${plural(points.length, 'scan')})` }),
  ]);
}

function summaryOf(model, tenant, findings) {
  const trend = tenant.trend ?? [];
  const evaluated = tenant.evaluatedTrend ?? [];
  const parts = [
    countTable('Failed findings by severity', severityCounts(findings)),
    countTable('Failed findings by what the gate made of them', tenant.counts),
    countTable('Checks by result', tenant.kinds),
  ];
  const row = el('div', { className: 'count-tables' }, [...parts, facts(tenant.facts ?? [])]);
  if (trend.length >= 2) {
    const failed = trend.map(([, value]) => value);
    row.append(trendFigure(model, trend, failed, 'Failed findings per scan', 'failed'));
    if (evaluated.length === trend.length && evaluated.some((value) => value !== null))
      row.append(trendFigure(model, trend, evaluated, 'Checks evaluated per scan', 'evaluated'));
  }
  const box = el('section', { className: 'summary', attrs: { 'aria-label': 'Summary' } }, [
    row,
    ...coverageLines(model, tenant.coverage),
  ]);
  for (const note of tenant.notes ?? []) box.append(el('p', { className: 'note', text: note }));
  const fixed = fixedNote(model, tenant);
  if (fixed) box.append(fixed);
  return box;
}

/** The findings fixed since the baseline, apart from the failed findings' counts: they failed then,
 *  not now. None when there was no baseline. */
function fixedNote(model, tenant) {
  const fixed = (tenant.fixed ?? []).map(([check, title]) =>
    `${stringOf(model, check)} ${stringOf(model, title)}`.trim(),
  );
  const count = tenant.figures?.fixed ?? (fixed.length > 0 ? fixed.length : null);
  if (count === null) return null;
  const text =
    fixed.length > 0
      ? ` (${formatCount(count)}): ${fixed.join('; ')}`
      : `: ${count === 0 ? 'none' : formatCount(count)}`;
  return el('p', { className: 'note fixed', text: `Fixed since the baseline${text}` });
}

const COLUMNS = [
  {
    key: 'severity',
    title: 'Severity',
    sortKey: (f) => f.severity,
    cell: (f) => severityBadge(f.severity),
  },
  {
    key: 'check',
    title: 'Check',
    sortKey: (f) => f.check,
    cell: (f) => f.check,
    className: 'mono',
  },
  { key: 'title', title: 'Title', sortKey: (f) => f.title, cell: (f) => f.title },
  { key: 'category', title: 'Category', sortKey: (f) => f.category, cell: (f) => f.category },
  { key: 'state', title: 'Gate', sortKey: stateRank, cell: stateWords },
  {
    key: 'deadline',
    title: 'Deadline',
    sortKey: (f) => (f.daysLeft === null ? Number.MAX_SAFE_INTEGER : f.daysLeft),
    cell: deadlineWords,
  },
];

function sinceWords(finding) {
  if (!finding.failingSince) return '';
  const scans =
    finding.failingScans && finding.failingScans > 1
      ? ` (${plural(finding.failingScans, 'scan')})`
      : '';
  const before = finding.flags & FLAG.beyondWindow ? 'before ' : '';
  return `${before}${day(finding.failingSince)}${scans}`;
}

function waiverWords(waiver) {
  if (!waiver) return '';
  const owner = waiver.owner ? ` (owner ${waiver.owner})` : '';
  return `until ${waiver.expires}: ${waiver.reason}${owner}`;
}

function paragraphBlock(title, body) {
  if (!body) return null;
  return el('div', { className: 'block' }, [
    el('h4', { text: title }),
    el('p', { className: 'body', text: body }),
  ]);
}

function showDetail(section, finding) {
  const link = finding.reference ? httpsLink(finding.reference, 'Help and reference') : null;
  const due = finding.dueAt
    ? `${deadlineWords(finding)} (${day(finding.dueAt)})`
    : deadlineWords(finding);
  section.replaceChildren(
    ...[
      el('h3', { text: finding.title || finding.check }),
      facts([
        ['Check', finding.check],
        ['Severity', severityBadge(finding.severity)],
        ['Category', finding.category],
        ['Gate', stateWords(finding)],
        ['Failing since', sinceWords(finding)],
        ['Deadline', due],
        ['Waived', waiverWords(finding.waiver)],
        ['Disposition', finding.waiver ? finding.waiver.disposition : ''],
      ]),
      paragraphBlock('What was found', finding.description),
      paragraphBlock('Remediation', finding.remediation),
      link ? el('p', { className: 'help' }, link) : null,
    ].filter(Boolean),
  );
}

function toggle(label, count, onChange, attrs) {
  const node = button(
    `${label} ${formatCount(count)}`,
    () => {
      const pressed = node.getAttribute('aria-pressed') !== 'true';
      node.setAttribute('aria-pressed', String(pressed));
      onChange(pressed);
    },
    { className: 'filter', attrs: { 'aria-pressed': 'false', ...attrs } },
  );
  return node;
}

function matches(filters, finding) {
  if (filters.severities.size > 0 && !filters.severities.has(finding.severity)) return false;
  if (filters.category !== null && finding.category !== filters.category) return false;
  if (filters.states.size > 0 && ![...filters.states].some((bit) => finding.flags & bit))
    return false;
  return filters.query === '' || finding.search.includes(filters.query);
}

function filterBar(findings, filters, apply) {
  const bar = el('div', {
    className: 'filters',
    attrs: { role: 'group', 'aria-label': 'Filters' },
  });
  const search = el('input', {
    className: 'search',
    attrs: {
      type: 'search',
      placeholder: 'Search check, title, category, remediation',
      'aria-label': 'Search',
      spellcheck: 'false',
      autocomplete: 'off',
    },
  });
  search.addEventListener('input', () => {
    filters.query = search.value.trim().toLowerCase();
    apply();
  });
  bar.append(search);
  const severityGroup = el('div', {
    className: 'chips',
    attrs: { role: 'group', 'aria-label': 'Severity' },
  });
  for (const [title, count] of severityCounts(findings)) {
    const index = SEVERITY_TITLES.indexOf(title);
    severityGroup.append(
      toggle(
        title,
        count,
        (on) => {
          if (on) filters.severities.add(index);
          else filters.severities.delete(index);
          apply();
        },
        { 'data-severity': SEVERITIES[index] },
      ),
    );
  }
  const stateGroup = el('div', {
    className: 'chips',
    attrs: { role: 'group', 'aria-label': 'Gate state' },
  });
  for (const [key, label, bit] of STATES) {
    const count = findings.filter((finding) => finding.flags & bit).length;
    if (count === 0) continue;
    stateGroup.append(
      toggle(
        label,
        count,
        (on) => {
          if (on) filters.states.add(bit);
          else filters.states.delete(bit);
          apply();
        },
        { 'data-state': key },
      ),
    );
  }
  append(bar, [severityGroup, stateGroup, categorySelect(findings, filters, apply)]);
  return bar;
}

function categorySelect(findings, filters, apply) {
  const categories = [...new Set(findings.map((finding) => finding.category))].sort();
  if (categories.length < 2) return null;
  const select = el('select', { attrs: { 'aria-label': 'Category' } });
  select.append(el('option', { text: 'All categories', attrs: { value: '' } }));
  categories.forEach((category, index) =>
    select.append(
      el('option', { text: category || '(none)', attrs: { value: String(index + 1) } }),
    ),
  );
  select.addEventListener('change', () => {
    filters.category = select.value === '' ? null : categories[Number(select.value) - 1];
    apply();
  });
  return select;
}

/** Those that fail the gate first, each part in the gate's order. */
function gatingFirst(findings) {
  return [
    ...findings.filter((finding) => finding.flags & FLAG.gating),
    ...findings.filter((finding) => !(finding.flags & FLAG.gating)),
  ];
}

function findingsSection(all) {
  const findings = gatingFirst(all);
  const filters = { severities: new Set(), states: new Set(), category: null, query: '' };
  const shown = el('p', { className: 'shown', attrs: { 'aria-live': 'polite', id: 'shown' } });
  const detail = el(
    'section',
    { className: 'detail', attrs: { 'aria-label': 'Finding', id: 'detail' } },
    [
      el('p', {
        className: 'hint',
        text: 'Select a finding to see its remediation, deadline and waiver.',
      }),
    ],
  );
  const aged = findings.some((finding) => finding.daysLeft !== null || finding.dueAt);
  const table = windowedTable({
    columns: aged ? COLUMNS : COLUMNS.filter((column) => column.key !== 'deadline'),
    label: 'Failed findings',
    empty: findings.length === 0 ? 'No failed findings.' : 'No failed finding matches the filters.',
    onOpen: (finding) => showDetail(detail, finding),
  });
  const apply = () => {
    const list = findings.filter((finding) => matches(filters, finding));
    table.setRows(list);
    shown.textContent = `Showing ${formatCount(list.length)} of ${plural(findings.length, 'failed finding')}`;
  };
  apply();
  return el('section', { className: 'findings', attrs: { 'aria-label': 'Failed findings' } }, [
    el('h2', { text: 'Failed findings' }),
    filterBar(findings, filters, apply),
    shown,
    el('div', { className: 'split' }, [table.element, detail]),
  ]);
}

/** Instead of the table when there is no verdict: an empty table would read as "none failed". */
function noFindingsSection() {
  return el('section', { className: 'findings', attrs: { 'aria-label': 'Failed findings' } }, [
    el('h2', { text: 'Failed findings' }),
    el('p', {
      className: 'note',
      text: 'None listed: without a verdict, no list of findings is whole.',
      attrs: { id: 'no-findings' },
    }),
  ]);
}

/** The view of one tenant; `back` (a fleet's) leads to the tenants. */
export function tenantView(model, tenant, back) {
  const findings = findingsOf(model, tenant);
  const judged = tenant.verdict === 'passed' || tenant.verdict === 'failed';
  const view = el('div', { className: 'tenant-view' });
  if (back) view.append(back);
  append(view, [
    headerOf(tenant),
    tenant.problem && !tenant.headlineSaysProblem
      ? el('p', { className: 'problem', text: tenant.problem, attrs: { id: 'problem' } })
      : null,
    summaryOf(model, tenant, findings),
    judged ? findingsSection(findings) : noFindingsSection(),
  ]);
  return view;
}
