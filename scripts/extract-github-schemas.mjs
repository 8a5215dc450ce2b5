#!/usr/bin/env node
// Extracts the request schemas of the few GitHub REST operations our Action calls from GitHub's
// official OpenAPI description (npm package @octokit/openapi, file
// generated/api.github.com.deref.json) into a small committed fixture used by the REST stand-in.
//
// Usage: node scripts/extract-github-schemas.mjs <path-to-api.github.com.deref.json> [out.json]
import { readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';

const OPERATION_IDS = [
  'checks/create',
  'checks/update',
  'issues/create-comment',
  'issues/update-comment',
  'issues/list-comments',
  'issues/list-for-repo',
  'issues/create',
  'issues/update',
  'pulls/get',
  // the rotate-key sub-action's secret store: a scope's public key, the secret's metadata (when it
  // was last written), then the sealed value
  'actions/get-repo-public-key',
  'actions/create-or-update-repo-secret',
  'actions/get-environment-public-key',
  'actions/create-or-update-environment-secret',
  'actions/get-repo-secret',
  'actions/get-environment-secret',
  'actions/get-org-public-key',
  'actions/create-or-update-org-secret',
  'actions/get-org-secret',
  'actions/list-selected-repos-for-org-secret',
  'repos/get-content',
  // tracking issues: the `one` issue looked for by its marker when the labelled list is cut
  'search/issues-and-pull-requests',
  // the settings sub-action finds the reviewed plan: the merged pull request of the pushed commit,
  // the runs of the workflow on its head, the run's artifacts, the artifact's download (a 302)
  'repos/list-pull-requests-associated-with-commit',
  'actions/list-workflow-runs',
  'actions/list-workflow-run-artifacts',
  'actions/download-artifact',
];
// Responses too large to be worth it: a full pull request with its repositories, full issues, the
// contents of a path (a file, a directory, a symlink or a submodule).
const WITHOUT_RESPONSE_SCHEMA = new Set([
  'pulls/get',
  'issues/list-for-repo',
  'issues/create',
  'issues/update',
  'actions/list-selected-repos-for-org-secret',
  'repos/get-content',
  'search/issues-and-pull-requests',
  'repos/list-pull-requests-associated-with-commit',
  'actions/list-workflow-runs',
]);
const DEFAULT_OUT = 'test/fixtures/github-openapi-subset.json';
// Documentation-only keywords: dropping them keeps the fixture small without changing validation.
const DOC_KEYWORDS = new Set(['description', 'examples', 'example', 'externalDocs', 'title']);

function stripDocs(schema) {
  if (Array.isArray(schema)) return schema.map(stripDocs);
  if (schema === null || typeof schema !== 'object') return schema;
  const out = {};
  for (const [key, value] of Object.entries(schema)) {
    if (DOC_KEYWORDS.has(key) && typeof value !== 'object') continue;
    if (key === 'properties') {
      // property names may be "title" or "description": keep them, strip inside each
      out[key] = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, stripDocs(v)]));
      continue;
    }
    out[key] = stripDocs(value);
  }
  return out;
}

function pickOperation(description, operationId) {
  for (const [path, methods] of Object.entries(description.paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      if (operation?.operationId !== operationId) continue;
      const body = operation.requestBody?.content?.['application/json']?.schema;
      // A download answers 302 (to the storage's address), not 2xx.
      const statuses = Object.keys(operation.responses);
      const successStatus =
        statuses.find((s) => s.startsWith('2')) ?? statuses.find((s) => s.startsWith('3'));
      const response = operation.responses[successStatus]?.content?.['application/json']?.schema;
      return {
        operationId,
        method: method.toUpperCase(),
        path,
        parameters: (operation.parameters ?? []).map((p) => ({
          name: p.name,
          in: p.in,
          required: Boolean(p.required),
          schema: stripDocs(p.schema ?? {}),
        })),
        requestBodyRequired: Boolean(operation.requestBody?.required),
        requestBody: body ? stripDocs(body) : null,
        successStatus: Number(successStatus),
        responseSchema:
          response && !WITHOUT_RESPONSE_SCHEMA.has(operationId) ? stripDocs(response) : null,
      };
    }
  }
  throw new Error(`operationId ${operationId} not found in the OpenAPI description`);
}

/** The @octokit/openapi version the description came from (its package.json is one level up). */
function packageVersion(input) {
  try {
    const pkg = JSON.parse(
      readFileSync(join(dirname(resolve(input)), '..', 'package.json'), 'utf8'),
    );
    return pkg.name === '@octokit/openapi' ? pkg.version : 'unknown';
  } catch {
    return 'unknown';
  }
}

function main() {
  const [input, output = DEFAULT_OUT] = process.argv.slice(2);
  if (!input) {
    console.error('usage: extract-github-schemas.mjs <api.github.com.deref.json> [out.json]');
    process.exit(2);
  }
  const description = JSON.parse(readFileSync(resolve(input), 'utf8'));
  const subset = {
    source: `@octokit/openapi ${packageVersion(input)}, ${basename(input)}, info.version ${description.info?.version}`,
    note: 'Generated by scripts/extract-github-schemas.mjs; do not edit by hand.',
    operations: Object.fromEntries(OPERATION_IDS.map((id) => [id, pickOperation(description, id)])),
  };
  writeFileSync(resolve(output), JSON.stringify(subset, null, 2) + '\n');
  console.log(`wrote ${output} (${OPERATION_IDS.length} operations)`);
}

main();
