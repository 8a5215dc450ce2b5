// The house looks down: client → pipeline (common → gate → settings → job → output → tenant-settings → rollup → notify → rotation) →
// render → the two faces (github, cli). `npm run lint:architecture` checks it (in CI and npm test).
const PIPELINE_ORDER = [
  'common',
  'gate',
  'settings',
  'job',
  'output',
  // Below the roll-up, which reads its plans as it reads output's records.
  'tenant-settings',
  'rollup',
  'notify',
  'rotation',
];

/** Forbids each pipeline room from importing a room above it (or the pipeline's own entry files). */
const pipelineLooksDown = PIPELINE_ORDER.map((room, rank) => ({
  name: `pipeline-${room}-looks-down`,
  comment: `src/pipeline/${room} may import only the rooms below it: ${PIPELINE_ORDER.slice(0, rank).join(', ') || 'none'}`,
  severity: 'error',
  from: { path: `^src/pipeline/${room}/` },
  to: {
    path: [
      ...PIPELINE_ORDER.slice(rank + 1).map((above) => `^src/pipeline/${above}/`),
      '^src/pipeline/[^/]+\\.ts$',
    ],
  },
}));

/** The GitHub face: the main step's files at src/github/, a folder per sub-action, and the services
 *  several steps share (notify/, tracking/). Sub-actions never import each other; the main step and
 *  the shared services import no sub-action. */
const SUB_ACTIONS = ['rotate-key', 'settings', 'tenants', 'rollup'];
const SUB_ACTION_PATHS = SUB_ACTIONS.map((name) => `^src/github/${name}/`);
const subActionsApart = SUB_ACTIONS.map((name) => ({
  name: `github-${name}-apart`,
  comment: `src/github/${name}/ imports no other sub-action's folder`,
  severity: 'error',
  from: { path: `^src/github/${name}/` },
  to: { path: SUB_ACTION_PATHS.filter((path) => path !== `^src/github/${name}/`) },
}));

export default {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'No import circle between files (type-only imports count).',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-folder-circular',
      comment: 'No circle between folders.',
      severity: 'error',
      scope: 'folder',
      from: {},
      to: { circular: true },
    },
    {
      name: 'client-knows-nothing-of-ci',
      comment: 'src/client imports no other folder of src/.',
      severity: 'error',
      from: { path: '^src/client/' },
      to: { path: '^src/', pathNot: '^src/client/' },
    },
    {
      name: 'client-has-one-door',
      comment: 'Outside src/client, the client is imported through src/client/index.ts only.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/client/' },
      to: { path: '^src/client/', pathNot: '^src/client/index\\.ts$' },
    },
    {
      name: 'pipeline-below-render-and-faces',
      comment: 'The pipeline imports only the client and itself.',
      severity: 'error',
      from: { path: '^src/pipeline/' },
      to: { path: '^src/', pathNot: ['^src/pipeline/', '^src/client/'] },
    },
    ...pipelineLooksDown,
    {
      name: 'render-below-faces',
      comment: 'Rendering imports the client and the pipeline only.',
      severity: 'error',
      from: { path: '^src/render/' },
      to: { path: '^src/', pathNot: ['^src/render/', '^src/pipeline/', '^src/client/'] },
    },
    {
      name: 'faces-apart',
      comment: 'The GitHub face and the CLI never import each other.',
      severity: 'error',
      from: { path: '^src/(github|cli)/' },
      to: { path: '^src/(github|cli)/', pathNot: '^src/$1/' },
    },
    ...subActionsApart,
    {
      name: 'github-main-step-below-sub-actions',
      comment:
        "The main step's files and the shared services (notify/, tracking/) import no sub-action.",
      severity: 'error',
      from: { path: ['^src/github/[^/]+\\.ts$', '^src/github/(notify|tracking)/'] },
      to: { path: SUB_ACTION_PATHS },
    },
    {
      name: 'entries-are-leaves',
      comment: 'Nothing imports an entry point (src/*.ts).',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^src/[^/]+\\.ts$' },
    },
  ],
  options: {
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
    exclude: { path: 'node_modules' },
  },
};
