// No secret in the settings file (pipeline/tenant-settings/file-secrets.ts), over drawn key forms
// and places: the run's own key as written, in another case, percent-encoded, Markdown-escaped,
// its secret part alone, with a zero-width space inside, behind a YAML escape, continued over two
// lines; any other `ak_live_` key; the webhook address the file's variable holds. Wherever it is —
// a label, a host, the variable's name, a field name, a comment, an anchor, a target listed twice —
// the file is refused, every line names a line of the file, and no line reveals the secret in any
// form the redaction knows (its own pattern is the judge, not the code under test).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { readsSecret } from '../../helpers/secret-reader.js';
import { SettingsError } from '../../../src/pipeline/common/settings-problems.js';
import { parseTenantFile } from '../../../src/pipeline/tenant-settings/file.js';
import { propertyParameters } from '../../helpers/property.js';

const ALNUM = [...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'];
const secretPartOf = (length: number) =>
  fc
    .array(fc.constantFrom(...ALNUM), { minLength: length, maxLength: length })
    .map((c) => c.join(''));

/** The run's key: `ak_live_` and a secret part of 24 letters and digits, starting with a letter
 *  (so that it may also stand as a variable name or a host label). */
const runKey = fc
  .tuple(fc.constantFrom(...ALNUM.slice(0, 52)), secretPartOf(23))
  .map(([first, rest]) => `ak_live_${first}${rest}`);

type Form = (key: string) => fc.Arbitrary<string>;

const percent = (char: string) => `%${char.charCodeAt(0).toString(16).padStart(2, '0')}`;

/** Forms in which the redaction finds the run's key (redact.ts secretPattern). */
const OWN_FORMS: Form[] = [
  (key) => fc.constant(key),
  (key) => fc.constant(key.toUpperCase()),
  (key) => fc.constant(key.slice('ak_live_'.length)),
  (key) =>
    fc
      .array(fc.boolean(), { minLength: key.length, maxLength: key.length })
      .map((flags) => [...key].map((c, i) => (flags[i] ? percent(c) : c)).join('')),
  (key) => fc.nat(key.length - 2).map((at) => `${key.slice(0, at + 1)}\\${key.slice(at + 1)}`),
  (key) => fc.nat(key.length - 2).map((at) => `${key.slice(0, at + 1)}\u200b${key.slice(at + 1)}`),
  (key) =>
    fc.nat(key.length - 'ak_live_'.length - 2).map((at) => {
      const part = key.slice('ak_live_'.length);
      return `${part.slice(0, at + 1)}\u2060${part.slice(at + 1)}`;
    }),
];

interface Place {
  /** The file's text with the secret in one place. */
  yaml(secret: string): string;
  /** Whether the form may stand there at all (a host is letters, digits, dots and hyphens). */
  fits(secret: string): boolean;
}

const quoted = (text: string) => JSON.stringify(text);
const plainWord = /^[A-Za-z_][A-Za-z0-9_]*$/;
const hostPart = /^[A-Za-z0-9]+$/;

const PLACES: Place[] = [
  {
    yaml: (s) =>
      `attackSurface:\n  targets:\n    - host: app.example.com\n      label: ${quoted(s)}\n`,
    fits: () => true,
  },
  {
    yaml: (s) => `notifications:\n  emailOnFail: true\n# the key: ${s}\n`,
    fits: (s) => !s.includes('\n'),
  },
  { yaml: (s) => `${quoted(s)}: true\n`, fits: () => true },
  {
    yaml: (s) => `attackSurface:\n  targets:\n    - host: ${s}.example.com\n`,
    fits: (s) => hostPart.test(s),
  },
  {
    yaml: (s) =>
      `attackSurface:\n  targets:\n    - host: ${s}.example.com\n    - host: ${s}.example.com\n`,
    fits: (s) => hostPart.test(s),
  },
  { yaml: (s) => `notifications:\n  teamsWebhookUrlEnv: ${s}\n`, fits: (s) => plainWord.test(s) },
  {
    yaml: (s) => `notifications: &${s}\n  emailOnFail: true\nother: *${s}\n`,
    fits: (s) => plainWord.test(s),
  },
  {
    // YAML's escape of the first character: the text alone does not show the key.
    yaml: (s) =>
      `attackSurface:\n  targets:\n    - host: a.example.com\n      label: "\\x${s.charCodeAt(0).toString(16).padStart(2, '0')}${s.slice(1).replace(/\\/g, '\\\\')}"\n`,
    fits: (s) => !s.includes('"'),
  },
  {
    // A double-quoted string continued over two lines: the halves alone are not the key.
    yaml: (s) =>
      `attackSurface:\n  targets:\n    - host: a.example.com\n      label: "${s.slice(0, 10).replace(/\\/g, '\\\\')}\\\n        ${s.slice(10).replace(/\\/g, '\\\\')}"\n`,
    fits: (s) => !s.includes('"') && s.length > 12,
  },
];

function refusal(text: string, secrets: string[], env: Record<string, string> = {}): string[] {
  try {
    parseTenantFile('tenant.yml', text, { secrets, env });
  } catch (error) {
    if (error instanceof SettingsError) return error.problems;
    throw error;
  }
  return [];
}

function revealed(line: string, secret: string): boolean {
  return (
    readsSecret(line, secret) ||
    line.toLowerCase().includes(secret.toLowerCase().slice('ak_live_'.length)) ||
    line.includes('ak_live_')
  );
}

describe('no secret in the settings file (property)', () => {
  it("the run's key in any form, anywhere in the file, is refused and never shown", () => {
    const drawn = runKey.chain((key) =>
      fc
        .tuple(fc.constantFrom(...OWN_FORMS), fc.constantFrom(...PLACES))
        .chain(([form, place]) => form(key).map((secret) => ({ key, secret, place }))),
    );
    fc.assert(
      fc.property(
        drawn.filter(({ secret, place }) => place.fits(secret)),
        ({ key, secret, place }) => {
          const text = place.yaml(secret);
          const lines = refusal(text, [key]);
          assert.ok(lines.length > 0, `accepted:\n${text}`);
          for (const line of lines) {
            assert.match(
              line,
              /^tenant\.yml line \d+: .*looks like an API key: keys never go in the file$/,
            );
            assert.ok(!revealed(line, key), line);
          }
        },
      ),
      propertyParameters(300),
    );
  });

  it('any ak_live_ key, and the address the webhook variable holds, are refused too', () => {
    const other = secretPartOf(20).map((part) => `ak_live_${part}`);
    const hook = secretPartOf(30).map(
      (sig) => `https://prod-1.westeurope.logic.azure.com/wf?sig=${sig}`,
    );
    const places = [
      (s: string) =>
        `attackSurface:\n  targets:\n    - host: a.example.com\n      label: ${quoted(s)}\n`,
      (s: string) => `# ${s}\n`,
      (s: string) => `${quoted(s)}: true\n`,
    ];
    fc.assert(
      fc.property(fc.oneof(other, hook), fc.constantFrom(...places), (secret, place) => {
        const text = `notifications:\n  teamsWebhookUrlEnv: HOOK\n${place(secret)}`;
        const address = secret.startsWith('https:') ? secret : 'https://hooks.slack.com/x';
        const lines = refusal(text, [], { HOOK: address });
        assert.ok(lines.length > 0, `accepted:\n${text}`);
        for (const line of lines) assert.ok(!line.includes(secret) && !line.includes('sig='), line);
      }),
      propertyParameters(100),
    );
  });

  it('a file without a secret is read as before', () => {
    fc.assert(
      fc.property(
        runKey,
        fc.constantFrom('Production', 'edge node', 'ak-live test host'),
        (key, label) => {
          const text = `attackSurface:\n  targets:\n    - {host: app.example.com, label: ${quoted(label)}}\n`;
          assert.deepEqual(refusal(text, [key]), []);
        },
      ),
      propertyParameters(30),
    );
  });
});
