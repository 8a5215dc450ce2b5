// No list is spread into a call's arguments in src/ (eslint.config.js, no-restricted-syntax):
// `Math.max(...cells)` over 150,000 results threw `Maximum call stack size exceeded` and the CLI
// printed nothing, even with --output json (issue 46, audit row 5). The rule can fail; `npm run
// lint` keeps src/ to it.
import { strict as assert } from 'node:assert';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const RULE = 'no-restricted-syntax';

async function spreadErrors(code: string, filePath = 'src/pipeline/common/example.ts') {
  const eslint = new ESLint({ cwd: ROOT });
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).filter((m) => m.ruleId === RULE);
}

describe('architecture: no list spread into call arguments', () => {
  test('a spread into a call or a constructor is an error that says why', async () => {
    const errors = await spreadErrors(
      [
        'export const widest = (xs: number[]) => Math.max(...xs);',
        'export const all = (a: string[], b: string[]) => { a.push(...b); return a; };',
        'export const set = (xs: string[][]) => new Set(...xs);',
        'export const tail = (f: (...n: number[]) => void, xs: number[]) => f(1, ...xs);',
      ].join('\n'),
    );
    assert.deepEqual(
      errors.map((e) => e.line),
      [1, 2, 3, 4],
    );
    assert.match(errors[0]?.message ?? '', /overflows the stack\. Fold with a loop/);
  });

  test('spreads that copy into a literal, and rest parameters, are not calls', async () => {
    const errors = await spreadErrors(
      [
        'export const both = (a: number[], b: number[]) => [...a, ...b];',
        'export const merged = (a: object, b: object) => ({ ...a, ...b });',
        'export const count = (...xs: number[]) => xs.length;',
      ].join('\n'),
    );
    assert.deepEqual(errors, []);
  });
});
