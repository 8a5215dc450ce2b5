// `npm run readmes`: the generated parts of each sub-action's README (rotate-key/, settings/,
// tenants/, rollup/) from its action.yml: the title and what it does, the inputs and the outputs.
// The rest (usage, permissions) is written by hand between them. `--check` changes nothing and
// exits 1 naming each README that is not what action.yml makes of it (test/docs/ runs it).
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { format, resolveConfig } from 'prettier';
import { parse } from 'yaml';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const SUB_ACTIONS = ['rotate-key', 'settings', 'tenants', 'rollup'] as const;

interface ActionInput {
  description?: string;
  required?: boolean;
  default?: string | number | boolean;
}

export interface ActionFile {
  name: string;
  description: string;
  inputs?: Record<string, ActionInput>;
  outputs?: Record<string, { description?: string }>;
}

export async function actionFile(folder: string): Promise<ActionFile> {
  return parse(await readFile(join(ROOT, folder, 'action.yml'), 'utf8')) as ActionFile;
}

function cell(text: string | undefined): string {
  return (text ?? '').replace(/\s+/g, ' ').trim().replace(/\|/g, '\\|');
}

function defaultOf(input: ActionInput): string {
  if (input.required) return '(required)';
  const value = input.default;
  return value === undefined || value === '' ? "`''`" : `\`${String(value)}\``;
}

function inputsTable(action: ActionFile): string {
  const rows = Object.entries(action.inputs ?? {}).map(
    ([name, input]) => `| \`${name}\` | ${defaultOf(input)} | ${cell(input.description)} |`,
  );
  return ['| Input | Default | Meaning |', '| --- | --- | --- |', ...rows].join('\n');
}

function outputsTable(action: ActionFile): string {
  const outputs = Object.entries(action.outputs ?? {});
  if (outputs.length === 0) return 'None: the step writes its records and job summary.';
  const rows = outputs.map(([name, output]) => `| \`${name}\` | ${cell(output.description)} |`);
  return ['| Output | Meaning |', '| --- | --- |', ...rows].join('\n');
}

/** The generated regions, by marker name. */
export function generatedParts(action: ActionFile): Record<string, string> {
  return {
    title: `# ${action.name}\n\n${cell(action.description)}`,
    inputs: inputsTable(action),
    outputs: outputsTable(action),
  };
}

/** `readme` with each `<!-- generated: NAME -->…<!-- /generated: NAME -->` region replaced. */
export function withGeneratedParts(readme: string, parts: Record<string, string>): string {
  let text = readme;
  for (const [name, body] of Object.entries(parts)) {
    const region = new RegExp(
      `(<!-- generated: ${name} -->\\n)(?:[\\s\\S]*?\\n)?(<!-- /generated: ${name} -->)`,
    );
    if (!region.test(text)) throw new Error(`the README has no region "generated: ${name}"`);
    text = text.replace(region, (_all, open: string, close: string) => `${open}${body}\n${close}`);
  }
  return text;
}

/** As `npm run format` leaves it (the tables aligned), so that both agree. */
export async function formatted(path: string, text: string): Promise<string> {
  return format(text, { ...(await resolveConfig(path)), filepath: path });
}

async function main(check: boolean): Promise<number> {
  const stale: string[] = [];
  for (const folder of SUB_ACTIONS) {
    const path = join(ROOT, folder, 'README.md');
    const readme = await readFile(path, 'utf8');
    const made = await formatted(
      path,
      withGeneratedParts(readme, generatedParts(await actionFile(folder))),
    );
    if (made === readme) continue;
    if (check) stale.push(`${folder}/README.md`);
    else await writeFile(path, made);
  }
  if (stale.length > 0) {
    console.error(`not what action.yml makes of it: ${stale.join(', ')}; run npm run readmes`);
    return 1;
  }
  return 0;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  process.exitCode = await main(process.argv.includes('--check'));
}
