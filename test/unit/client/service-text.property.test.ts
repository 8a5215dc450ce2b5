// Guarantee 8, "Service text never drives your terminal" (docs/guarantees.md): for any text the
// service sends — any Unicode, C0 and C1 controls, escape sequences (CSI, OSC, DCS, SOS/PM/APC,
// whole or cut short, nested), bidirectional overrides and isolates, invisibles — in any field,
// what reaches the log, an annotation, the job summary or the CLI's tables holds no control
// character, no escape and no bidirectional control; the CLI's `--output json` and the record keep
// the text exact (JSON escapes it).
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { describeFinding } from '../../../src/client/findings.js';
import { displayLine } from '../../../src/client/redact.js';
import { printOutput, record, table } from '../../../src/cli/render.js';
import { annotationOf } from '../../../src/github/annotations.js';
import * as log from '../../../src/github/log.js';
import { markdownText } from '../../../src/pipeline/common/markdown.js';
import { findingJson } from '../../../src/pipeline/output/record.js';
import { propertyParameters } from '../../helpers/property.js';

const ESC = '\u001b';
/** What a terminal acts on: C0 and C1 controls (ESC and CSI among them), DEL, and the Unicode
 *  bidirectional controls (\p{Bidi_Control}: LRM, RLM, ALM, embeddings, overrides, isolates). */
// eslint-disable-next-line no-control-regex
const DRIVES_A_TERMINAL = /[\u0000-\u001f\u007f-\u009f]|\p{Bidi_Control}/u;

/** Pieces of hostile service text: sequences whole and cut short, controls, bidi, invisibles. */
const piece = fc.oneof(
  { weight: 3, arbitrary: fc.string({ unit: 'binary', maxLength: 6 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 6 }) },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      `${ESC}[31m`,
      `${ESC}[2J`,
      `${ESC}[1;2`,
      `${ESC}[`,
      '\u009b31m',
      '\u009b',
      `${ESC}]0;pwned\u0007`,
      `${ESC}]8;;https://evil.example${ESC}\\`,
      `${ESC}]0;unterminated`,
      `${ESC}P1$r${ESC}\\`,
      `${ESC}Pno end`,
      `${ESC}X`,
      `${ESC}^`,
      `${ESC}_`,
      '\u0090',
      '\u009d0;t\u009c',
      `${ESC}${ESC}[`,
      ESC,
      `${ESC}c`,
      '\r',
      '\b',
      '\u0007',
      '\u0000',
      '\u007f',
      '\u0085',
      '\u2028',
      '\u202e',
      '\u202a',
      '\u2066',
      '\u2069',
      '\u200e',
      '\u200f',
      '\u061c',
      '\u200b',
      '\ufeff',
      '\u00ad',
      '::error::forged',
      '\n::warning::forged',
    ),
  },
);
const serviceText = fc.array(piece, { maxLength: 8 }).map((parts) => parts.join(''));

function clean(surface: string, text: string): void {
  const found = DRIVES_A_TERMINAL.exec(text);
  assert.equal(
    found,
    null,
    `${surface} holds U+${found?.[0].codePointAt(0)?.toString(16).padStart(4, '0')}: ${JSON.stringify(text)}`,
  );
}

/** What the Action's log functions write to stdout (the runner reads it) while `write` runs. */
function stdoutOf(write: () => void): string {
  const chunks: string[] = [];
  const original = process.stdout.write.bind(process.stdout);
  process.stdout.write = ((chunk: string | Uint8Array) => {
    chunks.push(String(chunk));
    return true;
  }) as typeof process.stdout.write;
  try {
    write();
  } finally {
    process.stdout.write = original;
  }
  return chunks.join('');
}

/** What `--output json` prints for `value` (cli/render.ts printOutput, a piece at a time). */
async function printedJson(value: unknown): Promise<string> {
  const parts: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      parts.push(chunk.toString('utf8'));
      done();
    },
  });
  await printOutput(stream, 'json', { json: value, text: '' });
  return parts.join('');
}

describe('guarantee 8: service text never drives the terminal', () => {
  it('the log, annotations, the summary and the CLI tables hold no control, escape or bidi control', () => {
    fc.assert(
      fc.property(serviceText, serviceText, serviceText, (title, category, status) => {
        const finding = describeFinding({
          checkId: status,
          title,
          category,
          severity: 'high',
          remediation: title,
          reference: category,
          result: 'Failed',
        });
        clean('a log line', displayLine(`Scan ${status}: ${title}`));
        const written = stdoutOf(() => {
          log.info(`Tenant: ${title}`);
          log.warning(`History: ${category}`, { title: status });
        });
        // Each log call is one line of the runner's protocol, nothing forged after a line break.
        assert.equal(written.split('\n').length, 3, JSON.stringify(written));
        for (const line of written.split('\n')) clean('the log', line);
        const annotation = annotationOf(finding);
        clean('an annotation', annotation.message);
        clean('an annotation title', annotation.title);
        clean('the summary', markdownText(title, 200));
        const columns = [
          { header: status, value: (f: typeof finding) => f.title },
          { header: 'check', value: (f: typeof finding) => f.identity },
          { header: 'category', value: (f: typeof finding) => f.category },
        ];
        for (const line of table([finding], columns).split('\n')) clean('a CLI table', line);
        const shown = record([
          [status, title],
          ['category', category],
        ]);
        for (const line of shown.split('\n')) clean('a CLI record', line);
      }),
      propertyParameters(300),
    );
  });

  it('the CLI JSON and the record keep the text exact', async () => {
    await fc.assert(
      fc.asyncProperty(serviceText, serviceText, async (title, description) => {
        fc.pre(title.trim() !== '');
        const finding = describeFinding({ checkId: 'C-1', title, description, result: 'Failed' });
        const recorded = JSON.parse(JSON.stringify(findingJson(finding))) as Record<
          string,
          unknown
        >;
        const text = await printedJson([findingJson(finding)]);
        const printed = JSON.parse(text) as Array<Record<string, unknown>>;
        for (const kept of [recorded, printed[0]]) {
          assert.equal(kept?.title, title);
          if (description.trim() !== '') assert.equal(kept?.description, description);
        }
        for (const line of text.split('\n')) clean('the CLI JSON', line);
      }),
      propertyParameters(300),
    );
  });
});
