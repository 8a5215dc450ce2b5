// The page's start: read the data block, show the run's tenant, or the fleet's view the address
// names (#tenant-3, #checks), and follow the address as it changes. Marks the page ready
// (data-ready on <html>) once the first view is drawn: the browser tests and the bench wait for it.

import { button, el } from './dom.js';
import { fleetView } from './fleet.js';
import { VERDICT_TITLES, modelOf, readData } from './model.js';
import { tenantView } from './tenant.js';

function pageHeader(model) {
  const when =
    typeof model.generatedAt === 'string' ? model.generatedAt.replace('T', ' ').slice(0, 16) : '';
  return el('div', { className: 'page-header' }, [
    el('span', {
      className: 'brand',
      text: model.kind === 'fleet' ? 'Tenant roll-up report' : 'Tenant scan report',
    }),
    el('span', { className: 'generated', text: `Written ${when} UTC by ${model.tool}` }),
  ]);
}

function backToFleet() {
  return button(
    '← All tenants',
    () => {
      location.hash = '';
    },
    { className: 'back link' },
  );
}

function viewOf(model) {
  if (model.kind !== 'fleet') return tenantView(model, model.tenants[0], null);
  const opened = /^#tenant-(\d+)$/.exec(location.hash);
  const tenant = opened ? model.tenants[Number(opened[1])] : undefined;
  if (tenant) return tenantView(model, tenant, backToFleet());
  return fleetView(model, location.hash === '#checks' ? 'checks' : 'tenants');
}

function titleOf(model) {
  if (model.kind === 'fleet')
    return `Tenant roll-up: ${VERDICT_TITLES[model.verdict] ?? model.verdict}`;
  const tenant = model.tenants[0];
  return `${tenant ? tenant.name : 'Tenant'}: ${VERDICT_TITLES[model.verdict] ?? model.verdict} — tenant scan`;
}

function start() {
  const app = document.getElementById('app');
  let model;
  try {
    model = modelOf(readData());
  } catch (error) {
    app.replaceChildren(
      el('p', { className: 'problem', text: `This report cannot be shown: ${error.message}` }),
    );
    return;
  }
  document.title = titleOf(model);
  const show = () => {
    app.replaceChildren(pageHeader(model), viewOf(model));
    window.scrollTo(0, 0);
  };
  window.addEventListener('hashchange', show);
  show();
  document.documentElement.setAttribute('data-ready', 'true');
}

start();
