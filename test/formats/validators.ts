// Validators of the result files: JUnit XML against the committed XSD with libxml2's xmllint
// compiled to WebAssembly (npm xmllint-wasm: no system package), SARIF against the committed SARIF
// 2.1.0 JSON schema with Ajv, and with Microsoft's SARIF multitool (npm @microsoft/sarif-multitool).

import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { validateXML } from 'xmllint-wasm';

const execFileAsync = promisify(execFile);
const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures');
export const JUNIT_XSD = join(FIXTURES, 'junit', 'junit.xsd');
export const SARIF_SCHEMA = join(FIXTURES, 'sarif', 'sarif-schema-2.1.0.json');

/** Problems xmllint reports for the file ([] when it validates against the JUnit XSD). */
export async function junitProblems(file: string): Promise<string[]> {
  const result = await validateXML({
    xml: { fileName: basename(file), contents: readFileSync(file) },
    schema: { fileName: 'junit.xsd', contents: readFileSync(JUNIT_XSD) },
  });
  return result.errors.map((error) => error.rawMessage);
}

type AddFormats = (ajv: Ajv2020) => unknown;
const addFormats = ((addFormatsModule as unknown as { default?: AddFormats }).default ??
  addFormatsModule) as unknown as AddFormats;

let sarifValidator: ReturnType<Ajv2020['compile']> | undefined;

/** Schema errors of a SARIF log ([] when valid). */
export function sarifSchemaProblems(log: unknown): string[] {
  if (!sarifValidator) {
    const ajv = new Ajv2020({ allErrors: true, strict: false });
    addFormats(ajv);
    sarifValidator = ajv.compile(JSON.parse(readFileSync(SARIF_SCHEMA, 'utf8')) as object);
  }
  if (sarifValidator(log)) return [];
  return (sarifValidator.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''}`);
}

/** The multitool's executable, or undefined when the package is not installed. */
export function sarifMultitool(): string | undefined {
  if (process.env.SARIF_MULTITOOL) return process.env.SARIF_MULTITOOL;
  try {
    const path = createRequire(import.meta.url)('@microsoft/sarif-multitool') as unknown;
    return typeof path === 'string' && existsSync(path) ? path : undefined;
  } catch {
    return undefined;
  }
}

interface MultitoolResult {
  ruleId?: string;
  level?: string;
  message?: { text?: string; id?: string; arguments?: string[] };
  locations?: Array<{ physicalLocation?: { artifactLocation?: { uri?: string } } }>;
}

/** Errors and warnings of `Sarif.Multitool validate` per file, in one run of the tool (it starts
 *  slowly). It exits 0 even on errors: its own SARIF log is read instead. `github`: GitHub code
 *  scanning's ingestion rules too (`--rule-kind Ghas`: a location for every result, …). Run as a
 *  child process without blocking, so a test's emulator and keep-alive sockets stay served. */
export async function multitoolProblems(
  tool: string,
  files: string[],
  options: { github?: boolean } = {},
): Promise<Map<string, string[]>> {
  const dir = await mkdtemp(join(tmpdir(), 'sarif-validate-'));
  try {
    const out = join(dir, 'validation.sarif');
    const ruleKinds = options.github ? ['--rule-kind', 'Ghas;Sarif'] : [];
    const ran = await execFileAsync(
      tool,
      ['validate', ...files, ...ruleKinds, '--output', out, '--log', 'ForceOverwrite'],
      { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 },
    ).catch((error: unknown) => ({ error }));
    if ('error' in ran || !existsSync(out)) {
      const why = 'error' in ran ? String((ran.error as Error).message) : 'no output';
      throw new Error(`the SARIF multitool did not run: ${why}`);
    }
    const log = JSON.parse(readFileSync(out, 'utf8')) as {
      runs?: Array<{ results?: MultitoolResult[] }>;
    };
    const problems = new Map(files.map((file) => [file, [] as string[]]));
    for (const r of log.runs?.flatMap((run) => run.results ?? []) ?? []) {
      // A result without a level is a warning (SARIF's default level).
      if (r.level !== undefined && r.level !== 'error' && r.level !== 'warning') continue;
      const uri = r.locations?.[0]?.physicalLocation?.artifactLocation?.uri ?? '';
      const file = files.find((f) => uri === pathToFileURL(f).href) ?? files[0] ?? '';
      // GitHub's rules give a message id and its arguments instead of a text.
      const text =
        r.message?.text ?? `${r.message?.id ?? ''} ${(r.message?.arguments ?? []).join(', ')}`;
      problems.get(file)?.push(`${r.ruleId ?? '?'} ${r.level ?? 'warning'}: ${text}`);
    }
    return problems;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
