// Validators of the result files: JUnit XML against the committed XSD with libxml2's xmllint
// compiled to WebAssembly (npm xmllint-wasm: no system package), SARIF against the committed SARIF
// 2.1.0 JSON schema with Ajv, and with Microsoft's SARIF multitool (npm @microsoft/sarif-multitool).

import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { validateXML } from 'xmllint-wasm';

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
  message?: { text?: string };
  locations?: Array<{ physicalLocation?: { artifactLocation?: { uri?: string } } }>;
}

/** Errors and warnings of `Sarif.Multitool validate` per file, in one run of the tool (it starts
 *  slowly). It exits 0 even on errors: its own SARIF log is read instead. */
export function multitoolProblems(tool: string, files: string[]): Map<string, string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'sarif-validate-'));
  try {
    const out = join(dir, 'validation.sarif');
    const result = spawnSync(
      tool,
      ['validate', ...files, '--output', out, '--log', 'ForceOverwrite'],
      {
        encoding: 'utf8',
      },
    );
    if (result.error || !existsSync(out)) {
      throw new Error(`the SARIF multitool did not run: ${result.error?.message ?? result.stderr}`);
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
      problems
        .get(file)
        ?.push(`${r.ruleId ?? '?'} ${r.level ?? 'warning'}: ${r.message?.text ?? ''}`);
    }
    return problems;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
