// One secret name in every workflow users copy: the API key is the repository secret
// TENANT_SCAN_API_KEY — in the README, the docs, the examples and the reusable workflow's own
// `secrets:` — so snippets copied from two places agree. SERVICE_API_KEY stays the CLI's
// environment variable (the service's CLI reads it), never a GitHub secret's name.
import assert from 'node:assert/strict';
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parse } from 'yaml';
import { ROOT } from '../cli/helpers.js';

export const SECRET = 'TENANT_SCAN_API_KEY';
/** The reusable workflow's other secret, for something else than the key: the chat webhook. */
const NOTIFY_SECRET = 'TENANT_SCAN_NOTIFY_WEBHOOK';
const REUSABLE = /tenant-scan\/\.github\/workflows\/tenant-scan\.yml@/;

interface Text {
  name: string;
  text: string;
}

async function filesIn(dir: string, pattern: RegExp): Promise<Text[]> {
  const names = (await readdir(join(ROOT, dir))).filter((n) => pattern.test(n));
  return Promise.all(
    names.map(async (n) => ({
      name: `${dir}/${n}`,
      text: await readFile(join(ROOT, dir, n), 'utf8'),
    })),
  );
}

/** The workflows (files) and the documents that show workflows (Markdown, whole: prose too). */
async function texts(): Promise<Text[]> {
  const readme = { name: 'README.md', text: await readFile(join(ROOT, 'README.md'), 'utf8') };
  return [
    readme,
    ...(await filesIn('docs', /\.md$/)),
    ...(await filesIn('docs/examples', /\.ya?ml$/)),
    ...(await filesIn('.github/workflows', /\.ya?ml$/)),
  ];
}

/** Secrets that hold something else than the API key: the rotation's and the release's GitHub
 *  App, the Teams address of the tenant settings, the runner's own token. */
const OTHER_SECRETS = new Set([
  'GITHUB_TOKEN',
  'ROTATION_APP_ID',
  'ROTATION_APP_PRIVATE_KEY',
  'RELEASE_APP_PRIVATE_KEY',
  'TEAMS_WEBHOOK_URL',
]);

/** What in one text names the key's secret otherwise than TENANT_SCAN_API_KEY. */
export function otherSecretNames({ name, text }: Text): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(/\bsecrets\.([A-Za-z_][A-Za-z0-9_]*)/g)) {
    if (match[1] !== SECRET && match[1] !== NOTIFY_SECRET && !OTHER_SECRETS.has(match[1] ?? '')) {
      found.push(`${name}: ${match[0]}`);
    }
  }
  // A secret named in prose or a comment ("the secret is `X`", "add the repository secret X"); a
  // many-tenants line quoted as it is printed ("secret X (given as …) is required") names a tenant's.
  for (const match of text.matchAll(/\bsecret(?: is)? `?([A-Z][A-Z0-9_]*_KEY)\b(?! \(given as)/g)) {
    if (match[1] !== SECRET) found.push(`${name}: "${match[0]}"`);
  }
  return found;
}

interface CallingJob {
  uses?: string;
  secrets?: Record<string, unknown> | 'inherit';
}

describe('one secret name for the API key in workflows', () => {
  it(`every workflow, example and doc names the secret ${SECRET}`, async () => {
    const all = await texts();
    assert.ok(all.length >= 10, `only ${all.length} files read`);
    assert.deepEqual(all.flatMap(otherSecretNames), []);
    const named = all.filter((t) => t.text.includes(`secrets.${SECRET}`)).map((t) => t.name);
    for (const where of ['README.md', 'docs/gate.md', 'docs/github.md']) {
      assert.ok(named.includes(where), `${where} shows the secret`);
    }
  });

  it('the reusable workflow takes that secret, and every call of it passes it', async () => {
    const reusable = parse(
      await readFile(join(ROOT, '.github/workflows/tenant-scan.yml'), 'utf8'),
    ) as { on: { workflow_call: { secrets: Record<string, unknown> } } };
    assert.deepEqual(Object.keys(reusable.on.workflow_call.secrets), [SECRET, NOTIFY_SECRET]);
    const calls: string[] = [];
    for (const { name, text } of await texts()) {
      const blocks = name.endsWith('.md')
        ? [...text.matchAll(/```ya?ml\n([\s\S]*?)```/g)].map((m) => m[1] ?? '')
        : [text];
      for (const block of blocks) {
        const jobs = (parse(block) as { jobs?: Record<string, CallingJob> } | null)?.jobs ?? {};
        for (const job of Object.values(jobs).filter((j) => REUSABLE.test(j.uses ?? ''))) {
          calls.push(name);
          if (job.secrets === 'inherit') continue;
          assert.deepEqual(Object.keys(job.secrets ?? {}), [SECRET], name);
        }
      }
    }
    assert.ok(calls.length >= 3, `only ${calls.length} calls of the reusable workflow found`);
  });

  it('the check finds another name (it can fail)', () => {
    const old = [
      'api-key: ${{ secrets.SERVICE_API_KEY }}',
      '# add the repository secret SERVICE_API_KEY.',
      'The secret is `MY_API_KEY`.',
    ].join('\n');
    assert.equal(otherSecretNames({ name: 'old', text: old }).length, 3);
    const good =
      "env:\n  SERVICE_API_KEY: ${{ secrets.TENANT_SCAN_API_KEY }} # the CLI's variable\n";
    assert.deepEqual(otherSecretNames({ name: 'good', text: good }), []);
  });
});
