// Reads the action's metadata (action.yml) the way the runner uses it for a step: the declared
// inputs with their defaults, and the post step's condition.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

// js-yaml ships without types; this is the one function used.
const { load: loadYaml } = createRequire(import.meta.url)('js-yaml') as {
  load: (text: string) => unknown;
};

export interface ActionInput {
  description?: string;
  required?: boolean;
  default?: string;
}

export interface ActionMetadata {
  inputs: Record<string, ActionInput>;
  runs: { using?: string; main?: string; post?: string; 'post-if'?: string };
}

export function readActionMetadata(path: string): ActionMetadata {
  const parsed = loadYaml(readFileSync(path, 'utf8')) as Partial<ActionMetadata> | null;
  return { inputs: parsed?.inputs ?? {}, runs: parsed?.runs ?? {} };
}

/** The values an expression in an input default may read (`${{ github.token }}`, …). */
export type ExpressionContext = Record<string, string>;

/**
 * Evaluates an input default as the runner does for the simple forms actions use: a literal, or
 * `${{ <context.path> }}` looked up in `context` (e.g. `github.token`). Anything else throws, so a
 * test never silently runs with a default the runner would have computed differently.
 */
export function evaluateDefault(value: unknown, context: ExpressionContext): string {
  const text = String(value);
  return text.replace(/\$\{\{\s*([^}]*?)\s*\}\}/g, (_whole, expression: string) => {
    if (expression in context) return context[expression] ?? '';
    throw new Error(`runner harness: cannot evaluate \${{ ${expression} }} in an input default`);
  });
}
