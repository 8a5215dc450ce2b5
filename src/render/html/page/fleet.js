// A fleet's views: its tenants worst first (verdict, counts, coverage and its drop, the trend of
// failed findings and of checks evaluated; a row opens the tenant's findings), and the checks that
// fail in most tenants (a row lists where).

import { append, button, el } from './dom.js';
import { sparkline } from './chart.js';
import { SEVERITY_TITLES, formatCount, plural, seriesWords, stringOf } from './model.js';
import { windowedTable } from './table.js';
import { headlineLine, severityBadge, verdictBadge } from './tenant.js';

const VERDICT_GROUPS = [
  ['failed', 'Failed', ['failed']],
  ['none', 'No verdict', ['error', 'missing', 'stale', 'unreadable', 'pending']],
  ['passed', 'Passed', ['passed']],
];

const VERDICT_RANK = {
  error: 0,
  missing: 0,
  stale: 0,
  unreadable: 0,
  pending: 0,
  failed: 1,
  passed: 2,
};

function figure(value) {
  return value === null || value === undefined ? '—' : formatCount(value);
}

function numberKey(value) {
  return value === null || value === undefined ? -1 : value;
}

/** "200 of 240, 40 dropped" (the job summary's Coverage column), marked when the drop fails. */
function coverageCell(coverage) {
  if (!coverage) return '—';
  const dropped = coverage.dropped > 0 ? `, ${formatCount(coverage.dropped)} dropped` : '';
  const words = `${formatCount(coverage.evaluated)} of ${formatCount(coverage.baseline)}${dropped}`;
  if (!coverage.fails) return words;
  return el(
    'span',
    {
      className: 'coverage-fails',
      attrs: {
        'data-state': 'fails',
        title: `${words}: beyond its max-coverage-drop, so the tenant fails`,
      },
    },
    [words, ' ', el('span', { className: 'badge verdict-failed', text: 'fails' })],
  );
}

/** Worst first: a drop that fails, then the biggest drop; a tenant without coverage last. */
function coverageRank(coverage) {
  if (!coverage) return 1;
  return (coverage.fails ? -1e12 : 0) - coverage.dropped;
}

/** The failed findings per scan and, when its record says, the checks evaluated per scan. */
function trendCell(tenant) {
  const failed = (tenant.trend ?? []).map(([, value]) => value);
  if (failed.length < 2) return '';
  const evaluated = tenant.evaluatedTrend ?? [];
  const withEvaluated = evaluated.length === failed.length;
  const lines = [{ values: failed, className: 'failed' }];
  if (withEvaluated) lines.push({ values: evaluated, className: 'evaluated' });
  const words = `Failed per scan: ${seriesWords(failed)}${withEvaluated ? `; checks evaluated per scan: ${seriesWords(evaluated)}` : ''}`;
  return el('span', { className: 'trend-cell', attrs: { title: words } }, sparkline(lines));
}

function tenantColumns(showCoverage) {
  return [
    { key: 'tenant', title: 'Tenant', sortKey: (t) => t.name, cell: (t) => t.name },
    {
      key: 'verdict',
      title: 'Verdict',
      sortKey: (t) => VERDICT_RANK[t.verdict] ?? 0,
      cell: (t) => verdictBadge(t.verdict),
    },
    {
      key: 'gating',
      title: 'Fail the gate',
      sortKey: (t) => -numberKey(t.figures.gating),
      cell: (t) => figure(t.figures.gating),
      className: 'num',
    },
    {
      key: 'failed',
      title: 'Failed',
      sortKey: (t) => -numberKey(t.figures.failed),
      cell: (t) => figure(t.figures.failed),
      className: 'num',
    },
    {
      key: 'new',
      title: 'New',
      sortKey: (t) => -numberKey(t.figures.new),
      cell: (t) => figure(t.figures.new),
      className: 'num',
    },
    {
      key: 'overdue',
      title: 'Overdue',
      sortKey: (t) => -numberKey(t.figures.overdue),
      cell: (t) => figure(t.figures.overdue),
      className: 'num',
    },
    {
      key: 'worst',
      title: 'Worst',
      sortKey: (t) => (t.figures.worst < 0 ? 99 : t.figures.worst),
      cell: (t) => (t.figures.worst < 0 ? '—' : severityBadge(t.figures.worst)),
    },
    ...(showCoverage
      ? [
          {
            key: 'coverage',
            title: 'Coverage',
            sortKey: (t) => coverageRank(t.coverage),
            cell: (t) => coverageCell(t.coverage),
          },
        ]
      : []),
    {
      key: 'trend',
      title: 'Trend',
      cell: trendCell,
    },
    { key: 'note', title: 'Note', cell: (t) => t.problem ?? '' },
  ];
}

function countsTable(fleet) {
  return el('table', { className: 'counts' }, [
    el('caption', { text: 'Tenants' }),
    el(
      'tbody',
      {},
      fleet.counts.map(([label, value]) =>
        el('tr', {}, [
          el('th', { text: label, attrs: { scope: 'row' } }),
          el('td', { text: formatCount(value) }),
        ]),
      ),
    ),
  ]);
}

function tenantsPanel(model) {
  const tenants = model.tenants.map((tenant, index) => ({ ...tenant, pageIndex: index }));
  const filters = { groups: new Set(), query: '' };
  const shown = el('p', { className: 'shown', attrs: { 'aria-live': 'polite', id: 'shown' } });
  const table = windowedTable({
    columns: tenantColumns(tenants.some((tenant) => tenant.coverage)),
    label: 'Tenants, worst first',
    empty: 'No tenant matches the filters.',
    rowHeight: 32,
    onOpen: (tenant) => {
      location.hash = `#tenant-${tenant.pageIndex}`;
    },
  });
  const apply = () => {
    const list = tenants.filter((tenant) => {
      const group = VERDICT_GROUPS.find(([, , verdicts]) => verdicts.includes(tenant.verdict));
      if (filters.groups.size > 0 && !(group && filters.groups.has(group[0]))) return false;
      return (
        filters.query === '' ||
        `${tenant.name}\n${tenant.serviceName ?? ''}`.toLowerCase().includes(filters.query)
      );
    });
    table.setRows(list);
    shown.textContent = `Showing ${formatCount(list.length)} of ${plural(tenants.length, 'tenant')}`;
  };
  const search = el('input', {
    className: 'search',
    attrs: {
      type: 'search',
      placeholder: 'Search tenants',
      'aria-label': 'Search tenants',
      spellcheck: 'false',
      autocomplete: 'off',
    },
  });
  search.addEventListener('input', () => {
    filters.query = search.value.trim().toLowerCase();
    apply();
  });
  const chips = el('div', {
    className: 'chips',
    attrs: { role: 'group', 'aria-label': 'Verdict' },
  });
  for (const [key, label, verdicts] of VERDICT_GROUPS) {
    const count = tenants.filter((tenant) => verdicts.includes(tenant.verdict)).length;
    if (count === 0) continue;
    const chip = button(
      `${label} ${formatCount(count)}`,
      () => {
        const pressed = chip.getAttribute('aria-pressed') !== 'true';
        chip.setAttribute('aria-pressed', String(pressed));
        if (pressed) filters.groups.add(key);
        else filters.groups.delete(key);
        apply();
      },
      { className: 'filter', attrs: { 'aria-pressed': 'false', 'data-verdict': key } },
    );
    chips.append(chip);
  }
  apply();
  return el('section', { className: 'tenants', attrs: { 'aria-label': 'Tenants' } }, [
    el('div', { className: 'filters' }, [search, chips]),
    shown,
    table.element,
  ]);
}

function checkDetail(model, section, check) {
  const list = el('ul', { className: 'tenant-list' });
  for (const index of check.tenants) {
    const tenant = model.tenants[index];
    if (!tenant) continue;
    list.append(
      el(
        'li',
        {},
        button(
          tenant.name,
          () => {
            location.hash = `#tenant-${index}`;
          },
          { className: 'link' },
        ),
      ),
    );
  }
  section.replaceChildren(
    el('h3', { text: check.title || check.check }),
    el('p', {
      text: `${check.check} · ${SEVERITY_TITLES[check.severity] ?? 'Unknown'} · fails in ${formatCount(check.tenants.length)} of ${plural(model.fleet.judged, 'tenant')}`,
    }),
    list,
  );
}

function checksPanel(model) {
  const checks = (model.fleet.checks ?? []).map(([check, title, severity, tenants]) => ({
    check: stringOf(model, check),
    title: stringOf(model, title),
    severity,
    tenants: Array.isArray(tenants) ? tenants : [],
  }));
  const detail = el(
    'section',
    { className: 'detail', attrs: { 'aria-label': 'Check', id: 'detail' } },
    [el('p', { className: 'hint', text: 'Select a check to see the tenants where it fails.' })],
  );
  const judged = model.fleet.judged;
  const table = windowedTable({
    columns: [
      {
        key: 'check',
        title: 'Check',
        sortKey: (c) => c.check,
        cell: (c) => c.check,
        className: 'mono',
      },
      {
        key: 'tenants',
        title: 'Fails in',
        sortKey: (c) => -c.tenants.length,
        cell: (c) => `${formatCount(c.tenants.length)} of ${formatCount(judged)}`,
        className: 'num',
      },
      {
        key: 'severity',
        title: 'Severity',
        sortKey: (c) => c.severity,
        cell: (c) => severityBadge(c.severity),
      },
      { key: 'title', title: 'Title', sortKey: (c) => c.title, cell: (c) => c.title },
    ],
    label: 'Checks that fail, in most tenants first',
    empty: 'No check fails in any tenant.',
    onOpen: (check) => checkDetail(model, detail, check),
  });
  table.setRows(checks);
  return el('section', { className: 'checks', attrs: { 'aria-label': 'Checks' } }, [
    el('p', {
      className: 'shown',
      text: `${plural(checks.length, 'check')} failing, in most tenants first`,
      attrs: { id: 'shown' },
    }),
    el('div', { className: 'split' }, [table.element, detail]),
  ]);
}

/** The fleet's page: `tab` is 'tenants' or 'checks'. */
export function fleetView(model, tab) {
  const tabs = el(
    'nav',
    { className: 'tabs', attrs: { 'aria-label': 'Views' } },
    [
      ['tenants', `Tenants (${formatCount(model.tenants.length)})`],
      [
        'checks',
        `The same check failing in many tenants (${formatCount((model.fleet.checks ?? []).length)})`,
      ],
    ].map(([key, label]) =>
      button(
        label,
        () => {
          location.hash = key === 'tenants' ? '' : '#checks';
        },
        {
          className: 'tab',
          attrs: { 'aria-current': key === tab ? 'page' : false, 'data-tab': key },
        },
      ),
    ),
  );
  return append(el('div', { className: 'fleet-view' }), [
    el('header', { className: `verdict-box verdict-${model.verdict}` }, [
      el('h1', { text: 'Tenant roll-up' }),
      headlineLine(model.verdict, model.headline),
    ]),
    el('section', { className: 'summary', attrs: { 'aria-label': 'Summary' } }, [
      el('div', { className: 'count-tables' }, countsTable(model.fleet)),
    ]),
    tabs,
    tab === 'checks' ? checksPanel(model) : tenantsPanel(model),
  ]);
}
