// `.tenant-scan/tenant.yml` into what the tenant should look like: YAML through `yaml` (its nodes
// keep their line), checked against the shipped JSON Schema with ajv. Every problem is one line
// naming the file, the line and the fix; a webhook address is never echoed.

import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { isMap, isScalar, LineCounter, parseDocument, type Document, type Node } from 'yaml';
import { SettingsError } from '../common/settings-problems.js';
import { yamlSyntaxProblem } from '../common/yaml-syntax.js';
import { quoteValue } from '../common/text.js';
import { secretProblems } from './file-secrets.js';
import { TENANT_FILE_SCHEMA } from './schema.js';
import { webhookShown } from './webhook.js';
import { webhookAddressProblem } from './webhook-address.js';

export const DEFAULT_TENANT_FILE = '.tenant-scan/tenant.yml';
/** Far above any real file: a bigger one is a mistake, not settings. */
export const MAX_TENANT_FILE_BYTES = 1024 * 1024;

export type NotificationFlag =
  'emailOnComplete' | 'emailOnFail' | 'teamsOnComplete' | 'teamsOnFail';
export const NOTIFICATION_FLAGS: readonly NotificationFlag[] = [
  'emailOnComplete',
  'emailOnFail',
  'teamsOnComplete',
  'teamsOnFail',
];

export interface DesiredTarget {
  host: string;
  label?: string;
  verify: boolean;
}

export interface HygieneRules {
  /** Days; undefined: the rule is off. */
  keyUnusedDays?: number;
  keyMaxAgeDays?: number;
  keysNearCap?: number;
  scanStaleDays?: number;
}

export const DEFAULT_HYGIENE: Required<HygieneRules> = {
  keyUnusedDays: 30,
  keyMaxAgeDays: 90,
  keysNearCap: 8,
  scanStaleDays: 8,
};

export interface TenantFile {
  flags: Partial<Record<NotificationFlag, boolean>>;
  /** undefined: not managed; null: no webhook; {env}: the variable holding the address. */
  webhook?: { env: string } | null;
  /** undefined: targets are not managed. */
  targets?: { prune: boolean; list: DesiredTarget[] };
  hygiene: HygieneRules;
}

let compiled: ValidateFunction | undefined;

/** The schema's validator, compiled on first use: compiling costs every CLI start ~0.1 s. */
function tenantFileValidator(): ValidateFunction {
  // strictRequired off: the `not: {required}` that forbids both webhook fields names properties of its parent.
  compiled ??= new Ajv({ allErrors: true, strict: true, strictRequired: false }).compile(
    TENANT_FILE_SCHEMA,
  );
  return compiled;
}

/** The settings of a file's text (`path` names it in messages). A file that holds a secret — an
 *  API key, or one of `secrets` or the webhook address its variable holds in `env` — is refused
 *  first, without a word of it. */
export function parseTenantFile(
  path: string,
  text: string,
  held: { secrets?: readonly string[]; env?: Record<string, string | undefined> } = {},
): TenantFile {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, uniqueKeys: true });
  const secrets = [...(held.secrets ?? []), ...namedWebhook(doc, held.env)];
  const leaks = secretProblems(path, text, doc, lines, secrets);
  if (leaks.length > 0) throw new SettingsError(leaks);
  const at = (offset: number | undefined) => `${path} line ${lines.linePos(offset ?? 0).line}`;
  const [syntax] = doc.errors;
  if (syntax) throw new SettingsError([yamlSyntaxProblem(path, text, syntax)]);
  const value: unknown = doc.contents === null ? {} : doc.toJS({ maxAliasCount: 100 });
  const data = value ?? {};
  const validate = tenantFileValidator();
  if (!validate(data)) {
    throw new SettingsError(schemaProblems(validate.errors ?? [], doc, at));
  }
  const file = data as FileShape;
  const problems = duplicateHosts(file, doc, at);
  if (problems.length > 0) throw new SettingsError(problems);
  return toTenantFile(file);
}

/** The address in the variable the file names for the webhook: a secret the file must not hold. */
function namedWebhook(doc: Document, env: Record<string, string | undefined> = {}): string[] {
  const name: unknown = doc.getIn(['notifications', 'teamsWebhookUrlEnv']);
  const value = typeof name === 'string' && ENV_NAME.test(name) ? env[name]?.trim() : undefined;
  return value ? [value] : [];
}

interface FileShape {
  notifications?: Partial<Record<NotificationFlag, boolean>> & {
    teamsWebhookUrlEnv?: string;
    teamsWebhookUrl?: null;
  };
  attackSurface?: {
    prune?: boolean;
    targets?: Array<{ host: string; label?: string; verify?: boolean }>;
  };
  hygiene?: Partial<Record<keyof HygieneRules, number | false>>;
}

function toTenantFile(file: FileShape): TenantFile {
  const notes = file.notifications ?? {};
  const flags: TenantFile['flags'] = {};
  for (const flag of NOTIFICATION_FLAGS) if (notes[flag] !== undefined) flags[flag] = notes[flag];
  const webhook =
    notes.teamsWebhookUrlEnv !== undefined
      ? { env: notes.teamsWebhookUrlEnv }
      : 'teamsWebhookUrl' in notes
        ? null
        : undefined;
  const surface = file.attackSurface;
  const hygiene: HygieneRules = {};
  for (const rule of Object.keys(DEFAULT_HYGIENE) as Array<keyof HygieneRules>) {
    const given = file.hygiene?.[rule];
    if (given !== false) hygiene[rule] = given ?? DEFAULT_HYGIENE[rule];
  }
  return {
    flags,
    ...(webhook !== undefined ? { webhook } : {}),
    ...(surface?.targets !== undefined || surface?.prune !== undefined
      ? {
          targets: {
            prune: surface.prune ?? false,
            list: (surface.targets ?? []).map((t) => ({
              host: t.host.toLowerCase(),
              ...(t.label !== undefined ? { label: t.label } : {}),
              verify: t.verify ?? false,
            })),
          },
        }
      : {}),
    hygiene,
  };
}

type At = (offset: number | undefined) => string;

function duplicateHosts(file: FileShape, doc: Document, at: At): string[] {
  const seen = new Set<string>();
  const problems: string[] = [];
  (file.attackSurface?.targets ?? []).forEach((target, index) => {
    const host = target.host.toLowerCase();
    if (seen.has(host)) {
      const node = doc.getIn(['attackSurface', 'targets', index], true) as Node | undefined;
      problems.push(
        `${at(node?.range?.[0])}: target ${quoteValue(host)} is listed twice: keep one entry per host`,
      );
    }
    seen.add(host);
  });
  return problems;
}

/** One line per wrong place: ajv reports a failed `oneOf` with each branch's error too. */
function schemaProblems(errors: ErrorObject[], doc: Document, at: At): string[] {
  const byPlace = new Map<string, string>();
  for (const error of errors) {
    const segments = error.instancePath.split('/').slice(1).map(unescapePointer);
    const extra =
      error.keyword === 'additionalProperties' ? [String(error.params.additionalProperty)] : [];
    const place = [...segments, ...extra].join('.');
    const line = at(offsetOf(doc, segments, extra[0]));
    const message = `${line}: ${describe(error, segments, extra[0])}`;
    const known = byPlace.get(place);
    // A oneOf's own message is clearer than the branch errors that come before it.
    if (known === undefined || error.keyword === 'oneOf') byPlace.set(place, message);
  }
  return [...byPlace.values()];
}

function unescapePointer(segment: string): string {
  return segment.replace(/~1/g, '/').replace(/~0/g, '~');
}

function offsetOf(doc: Document, segments: string[], key: string | undefined): number | undefined {
  const path = segments.map((s) => (/^\d+$/.test(s) ? Number(s) : s));
  const node = (path.length === 0 ? doc.contents : doc.getIn(path, true)) as
    Node | null | undefined;
  if (key !== undefined && node && isMap(node)) {
    const pair = node.items.find((p) => isScalar(p.key) && String(p.key.value) === key);
    if (pair && isScalar(pair.key)) return pair.key.range?.[0];
  }
  return node?.range?.[0];
}

const FIX: Record<string, string> = {
  keysNearCap: 'a number of keys from 1 to 10, or false',
};

function describe(error: ErrorObject, segments: string[], unknownKey: string | undefined): string {
  const where = segments.length > 0 ? `\`${segments.join('.')}\`` : 'the file';
  const field = segments.at(-1) ?? '';
  switch (error.keyword) {
    case 'additionalProperties': {
      const allowed = allowedKeys(segments);
      const hint = allowed.length > 0 ? `: use ${allowed.join(', ')}` : '';
      return `unknown field ${quoteValue(unknownKey ?? '')} in ${where}${hint}`;
    }
    case 'type':
      if (field === 'teamsWebhookUrl') {
        return 'the webhook address is never written in the file (it carries a signature): put it in a secret and name its environment variable with `teamsWebhookUrlEnv`, or write `teamsWebhookUrl: null` for no webhook';
      }
      return `${where} must be ${article(String(error.params.type))}`;
    case 'oneOf':
      return `${where} must be ${FIX[field] ?? 'a whole number of days from 1 to 3650, or false'}`;
    case 'not':
      return 'give `teamsWebhookUrlEnv` or `teamsWebhookUrl: null`, not both';
    case 'required':
      return `${where} needs \`${String(error.params.missingProperty)}\``;
    case 'pattern':
      return field === 'teamsWebhookUrlEnv'
        ? `${where} must name an environment variable (letters, digits, _), not hold the address`
        : `${where} must be a hostname or an IPv4 address`;
    default:
      return `${where} ${error.message ?? 'is not valid'}`;
  }
}

function article(type: string): string {
  if (type === 'object') return 'a mapping of `key: value` lines';
  if (type === 'array') return 'a list';
  if (type === 'integer') return 'a whole number';
  return `${/^[aeiou]/.test(type) ? 'an' : 'a'} ${type}`;
}

function allowedKeys(segments: string[]): string[] {
  let schema: unknown = TENANT_FILE_SCHEMA;
  for (const segment of segments) {
    const s = schema as { properties?: Record<string, unknown>; items?: unknown };
    schema = /^\d+$/.test(segment) ? s.items : s.properties?.[segment];
  }
  return Object.keys((schema as { properties?: object } | undefined)?.properties ?? {});
}

/** The webhook address the file asks for, read from its environment variable. */
export function desiredWebhook(
  file: TenantFile,
  env: Record<string, string | undefined>,
): string | null | undefined {
  if (file.webhook === undefined || file.webhook === null) return file.webhook;
  return webhookFromEnv(file.webhook.env, env, 'teamsWebhookUrlEnv names it');
}

/** The https webhook address the environment variable `name` holds; one line when it holds none.
 *  `namedBy` says where the name came from (the file's field, a flag). */
export function webhookFromEnv(
  name: string,
  env: Record<string, string | undefined>,
  namedBy: string,
): string {
  if (!ENV_NAME.test(name)) {
    throw new SettingsError([
      `${namedBy} takes the name of an environment variable (letters, digits, _), not the address: put the address in a variable and name it`,
    ]);
  }
  const value = env[name]?.trim();
  if (!value) {
    throw new SettingsError([
      `${name} is empty or not set: ${namedBy}; pass the webhook address in it (e.g. from a secret)`,
    ]);
  }
  const problem = webhookAddressProblem(value);
  if (problem === 'not an address' || problem === 'not an https:// address') {
    throw new SettingsError([
      `${name} does not hold an https:// address (${webhookShown(value)}): set it to the chat service's webhook address`,
    ]);
  }
  if (problem !== undefined) {
    throw new SettingsError([
      `${name} holds ${webhookShown(value)}, ${problem}: the service would post scan events there; set it to the chat service's webhook address`,
    ]);
  }
  return value;
}

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
