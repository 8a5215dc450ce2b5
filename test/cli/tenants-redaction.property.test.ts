// Guarantees 5 and 9 across tenants (issue 46, row 4): one service host serves every tenant, so any
// tenant's answers may echo any other tenant's key. A many-tenants run of the bundled CLI
// (`scan run --tenants`, which the tenants sub-action runs too) must keep every key it holds out of
// every tenant's record, the roll-up Markdown, stdout and stderr. First the audit's case (every key
// echoed in every form the emulator knows), then a few seeded runs where the services echo the
// other tenants' keys in forms drawn by fast-check (test/helpers/secret-forms.ts), read back by the
// independent oracle (secret-reader.ts) string by string and by the cheap scanner everywhere.
import assert from 'node:assert/strict';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { startEmulator } from '../emulator/emulator.js';
import type { Emulator } from '../emulator/types.js';
import { propertyParameters } from '../helpers/property.js';
import { applyChain, chainArb } from '../helpers/secret-forms.js';
import { readsSecret } from '../helpers/secret-reader.js';
import { containsSecret } from '../helpers/secret-scan.js';
import { assertBundleBuilt, cliEnv, runCli, type Env } from './helpers.js';

let emu: Emulator;
let work: string;

before(async () => {
  assertBundleBuilt();
  emu = await startEmulator({ seed: 46, clockSpeed: 50 });
  work = await mkdtemp(join(tmpdir(), 'tenant-scan-tenants-redaction-'));
});
after(async () => {
  await emu.close();
  await rm(work, { recursive: true, force: true });
});

const NAMES = ['contoso', 'fabrikam', 'northwind'];
let runs = 0;

interface Outputs {
  keys: string[];
  /** Every file the run wrote and what it printed, by name. */
  texts: Record<string, string>;
  /** Every string of every record (the service text a tenant's job kept). */
  strings: string[];
}

function stringsOf(value: unknown, into: string[]): string[] {
  if (typeof value === 'string') into.push(value);
  else if (Array.isArray(value)) for (const item of value) stringsOf(item, into);
  else if (value !== null && typeof value === 'object') {
    for (const [name, item] of Object.entries(value)) {
      into.push(name);
      stringsOf(item, into);
    }
  }
  return into;
}

/** A fleet of three tenants on the one emulator, its run, and everything it left; `echo` sets
 *  what the services echo once the keys exist. */
async function runFleet(echo: (keys: string[]) => void): Promise<Outputs> {
  const dir = join(work, `run-${++runs}`);
  const env: Env = {};
  const keys: string[] = [];
  const list = NAMES.map((name) => {
    const tenant = emu.addTenant({
      name: `${name} Ltd`,
      scanPlan: { outcome: { kind: 'completed', total: 12, failed: 2 } },
    });
    env[`${name.toUpperCase()}_KEY`] = tenant.apiKey;
    keys.push(tenant.apiKey);
    return { name, 'api-url': emu.url, secret: `${name.toUpperCase()}_KEY` };
  });
  echo(keys);
  await writeFile(`${dir}.json`, JSON.stringify(list));
  const markdown = `${dir}.md`;
  const args = ['scan', 'run', '--type', 'compliance', '--tenants', `${dir}.json`];
  const result = await runCli([...args, '--records', dir, '--markdown', markdown, '--json'], {
    ...cliEnv(undefined, env),
    TENANT_SCAN_DEBUG: '1',
  });
  assert.equal(result.code, 0, result.stderr);
  const texts: Record<string, string> = {
    stdout: result.stdout,
    stderr: result.stderr,
    markdown: await readFile(markdown, 'utf8'),
  };
  const strings: string[] = [];
  for (const file of await readdir(dir)) {
    texts[file] = await readFile(join(dir, file), 'utf8');
    stringsOf(JSON.parse(texts[file] ?? 'null'), strings);
  }
  assert.equal(Object.keys(texts).length, 3 + NAMES.length, Object.keys(texts).join(', '));
  return { keys, texts, strings };
}

function leaks({ keys, texts }: Outputs): string[] {
  return keys.flatMap((key, index) =>
    Object.entries(texts)
      .filter(([, text]) => containsSecret(text, key))
      .map(([where]) => `${NAMES[index]}'s key in ${where}`),
  );
}

describe("many tenants: no tenant's key in any tenant's outputs", () => {
  it("every key the host holds, echoed in every form by every tenant's service", async () => {
    const outputs = await runFleet(() => emu.setVariant({ echoEveryKey: true }));
    assert.match(outputs.texts['fabrikam.json'] ?? '', /\[redacted\]/, 'the services did echo');
    assert.deepEqual(leaks(outputs), []);
  });

  it("other tenants' keys in drawn forms: read by the oracle in no string a record keeps", async () => {
    // Every service echoes every tenant's key, each in its drawn chain of forms.
    await fc.assert(
      fc.asyncProperty(fc.array(chainArb, { minLength: 1, maxLength: 3 }), async (chains) => {
        const outputs = await runFleet((keys) =>
          emu.setVariant({
            echoTexts: keys.map((key, i) => applyChain(chains[i % chains.length] ?? [], key)),
          }),
        );
        assert.deepEqual(leaks(outputs), []);
        for (const [index, key] of outputs.keys.entries()) {
          const part = key.slice('ak_live_'.length);
          const read = outputs.strings.filter((text) => readsSecret(text, part));
          assert.deepEqual(read, [], `${NAMES[index]}'s key read in a record`);
        }
      }),
      propertyParameters(3),
    );
  });
});
