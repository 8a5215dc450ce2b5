// One example of the API address everywhere a user reads one: the docs, the READMEs, the
// action.yml files, the reusable workflows and the source (help and error texts take it from
// EXAMPLE_API_URL). The seed shows the address only as a placeholder, so two example shapes
// (`https://host/api/v1` beside `https://api.example.com/v1`) would each suggest a path that is
// not known; the hints' "for example …/v1" is the same example's path.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { glob } from 'tinyglobby';
import { EXAMPLE_API_URL } from '../../src/pipeline/common/api-address.js';
import { ROOT } from '../cli/helpers.js';

const PLACES = [
  'README.md',
  '*/README.md',
  'docs/**/*',
  'action.yml',
  '*/action.yml',
  '.github/workflows/*.yml',
  'src/**/*.ts',
];

/** A line that gives an API address: a setting of it, or words about it. */
const GIVES_AN_ADDRESS = /api-url|SERVICE_API_URL|base (?:URL|address)|API address|baseUrl/i;
const EXAMPLE_ORIGIN = new URL(EXAMPLE_API_URL).origin;
const EXAMPLE_BASE_PATH = new URL(EXAMPLE_API_URL).pathname;
const ADDRESS = /https?:\/\/[^\s"'`)<>\],|]+/g;
/** The form of an API base under an example host, whatever the host's name. */
const VERSIONED_PATH = /^\/(?:api\/)?v\d+(?:\/|$)/;

function isLoopback(url: URL): boolean {
  return ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
}

function isExampleHost(url: URL): boolean {
  return url.hostname === 'host' || /(^|\.)example(\.(com|org|net))?$/.test(url.hostname);
}

/** Every example address that is not the one example: `file:line: address`. */
async function strayExamples(): Promise<{ seen: number; stray: string[] }> {
  const files = await glob(PLACES, { cwd: ROOT, dot: true, ignore: ['**/node_modules/**'] });
  const stray: string[] = [];
  let seen = 0;
  for (const file of files) {
    const lines = (await readFile(join(ROOT, file), 'utf8')).split('\n');
    lines.forEach((line, index) => {
      // The hints' base path ("is its base path (for example …/v1) missing?") is the example's.
      for (const [, path] of line.matchAll(/for example …(\/[\w/]+)/g)) {
        seen += 1;
        if (path !== EXAMPLE_BASE_PATH) stray.push(`${file}:${index + 1}: …${path}`);
      }
      for (const [raw] of line.matchAll(ADDRESS)) {
        const text = raw.replace(/[.;:…]+$/, '');
        if (text.includes('…') || text.includes('${') || text.includes('{')) continue;
        let url: URL;
        try {
          url = new URL(text);
        } catch {
          continue; // "https://" alone: words about the scheme
        }
        if (isLoopback(url)) continue; // a test's or the emulator's own server
        const givesIt = GIVES_AN_ADDRESS.test(line) && isExampleHost(url);
        const looksLikeIt = isExampleHost(url) && VERSIONED_PATH.test(url.pathname);
        if (!givesIt && !looksLikeIt) continue;
        seen += 1;
        // An error line shows the origin alone ("nothing answers at https://api.example.com").
        if (text !== EXAMPLE_API_URL && text !== EXAMPLE_ORIGIN) {
          stray.push(`${file}:${index + 1}: ${text}`);
        }
      }
    });
  }
  return { seen, stray };
}

describe('the example API address', () => {
  it(`is ${EXAMPLE_API_URL} wherever a user reads one`, async () => {
    const { seen, stray } = await strayExamples();
    assert.ok(seen >= 20, `only ${seen} example addresses found: is the scan still reading them?`);
    assert.deepEqual(stray, []);
  });
});
