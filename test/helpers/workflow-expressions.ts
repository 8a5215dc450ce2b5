// GitHub Actions expressions (`${{ … }}`) evaluated with GitHub's own parser and evaluator
// (@actions/expressions), so a test can expand a workflow's values the way the runner does:
// matrix entries, `with:` inputs, `if:` conditions.

import { Evaluator, Lexer, Parser, data } from '@actions/expressions';

export type Contexts = Record<string, unknown>;

/** A workflow step as the tests read it (js-yaml's view of the file). */
export interface WorkflowStep {
  id?: string;
  name?: string;
  uses?: string;
  if?: string;
  run?: string;
  env?: Record<string, string>;
  with?: Record<string, unknown>;
}

/** The status functions of `if:` for a run that was not cancelled and whose steps succeeded. */
const STATUS_FUNCTIONS = new Map(
  (
    [
      ['success', true],
      ['always', true],
      ['cancelled', false],
      ['failure', false],
    ] as const
  ).map(([name, value]) => [
    name,
    { name, minArgs: 0, maxArgs: 0, call: () => new data.BooleanData(value) },
  ]),
);

function evaluateExpression(source: string, contexts: Contexts): data.ExpressionData {
  const lexed = new Lexer(source).lex();
  const parsed = new Parser(lexed.tokens, Object.keys(contexts), [
    ...STATUS_FUNCTIONS.values(),
  ]).parse();
  const context = JSON.parse(JSON.stringify(contexts), data.reviver) as data.Dictionary;
  return new Evaluator(parsed, context, STATUS_FUNCTIONS).evaluate();
}

const WHOLE = /^\s*\$\{\{([\s\S]*?)\}\}\s*$/;
const EMBEDDED = /\$\{\{([\s\S]*?)\}\}/g;

/** A workflow value as the runner sees it: one `${{ }}` alone gives its value (a list stays a
 *  list); text with `${{ }}` inside is interpolated; other values as they are. */
export function expand(value: unknown, contexts: Contexts): unknown {
  if (typeof value !== 'string') return value;
  const whole = WHOLE.exec(value);
  if (whole) return plain(evaluateExpression(whole[1] ?? '', contexts));
  return value.replace(EMBEDDED, (_m, source: string) =>
    evaluateExpression(source, contexts).coerceString(),
  );
}

/** A `with:` value as the step receives it: a string ('' for null: a secret that is not set). */
export function expandString(value: unknown, contexts: Contexts): string {
  const expanded = expand(value, contexts);
  if (expanded === null || expanded === undefined) return '';
  return typeof expanded === 'string' ? expanded : JSON.stringify(expanded);
}

/** An `if:` condition: with or without `${{ }}`, true or false. */
export function condition(value: unknown, contexts: Contexts): boolean {
  if (value === undefined) return true;
  const source = String(value);
  const whole = WHOLE.exec(source);
  const inner = whole ? (whole[1] ?? '') : source;
  // `!` gives the expression's truthiness as GitHub defines it (the module keeps its helper private).
  return evaluateExpression(`!(${inner})`, contexts).coerceString() === 'false';
}

/** Every `${{ … }}` in a piece of a workflow, as written (trimmed). */
export function expressionsIn(value: unknown): string[] {
  const text = JSON.stringify(value);
  return [...text.matchAll(EMBEDDED)].map((match) => (match[1] ?? '').trim());
}

function plain(value: data.ExpressionData): unknown {
  return JSON.parse(JSON.stringify(value, data.replacer)) as unknown;
}
