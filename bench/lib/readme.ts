// Writes measured figures into bench/README.md between markers
// `<!-- bench:NAME -->` … `<!-- /bench:NAME -->`; the prose around them (method, analysis) is
// written by hand. A block whose markers are missing is appended at the end. The file is then
// formatted with the project's prettier settings, so that `npm run format:check` stays clean.
import { readFile, writeFile } from 'node:fs/promises';
import * as prettier from 'prettier';

export async function replaceBlocks(path: string, blocks: Record<string, string>): Promise<void> {
  let text = await readFile(path, 'utf8').catch(() => '');
  for (const [name, content] of Object.entries(blocks)) {
    const open = `<!-- bench:${name} -->`;
    const close = `<!-- /bench:${name} -->`;
    const block = `${open}\n${content.trim()}\n${close}`;
    const from = text.indexOf(open);
    const to = text.indexOf(close);
    text =
      from !== -1 && to > from
        ? text.slice(0, from) + block + text.slice(to + close.length)
        : `${text.trimEnd()}\n\n${block}\n`;
  }
  const options = (await prettier.resolveConfig(path)) ?? {};
  await writeFile(path, await prettier.format(text, { ...options, filepath: path }));
}
