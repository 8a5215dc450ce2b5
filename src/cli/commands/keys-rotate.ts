// keys rotate --store-command CMD: the rotation of src/pipeline/rotation for any CI. The new key
// goes to CMD's standard input and nowhere else (not stdout, not stderr, not a file).

import { createClient } from '../../client/index.js';
import { SettingProblem, SettingsProblems, redact } from '../../pipeline/index.js';
import type { KeyRef, RotationResult } from '../../pipeline/rotation/rotate.js';
import { rotateKey } from '../../pipeline/rotation/rotate.js';
import { parseGraceMs, parseLineage } from '../../pipeline/rotation/settings.js';
import {
  stringOption,
  type CommandContext,
  type CommandSpec,
  type ParsedInput,
} from '../command.js';
import { CommandStore, lineageOfCommand, parseStoreCommand } from '../store-command.js';
import { holdsKey, storeEnvironment } from '../store-process.js';

interface RotateOptions {
  argv: string[];
  readArgv?: string[];
  /** --store-env: the variables the commands also get. */
  envNames: string[];
  lineage: string;
  graceMs: number;
  revokeReplaced: boolean;
  dryRun: boolean;
}

function readOptions(input: ParsedInput): RotateOptions {
  const problems = new SettingsProblems();
  const argv = problems.check(
    () => parseStoreCommand('--store-command', stringOption(input, 'store-command') ?? ''),
    [],
  );
  const readRaw = stringOption(input, 'store-read-command');
  const readArgv =
    readRaw === undefined
      ? undefined
      : problems.check(
          () =>
            parseStoreCommand('--store-read-command', readRaw, 'prints the key the store holds'),
          [],
        );
  const lineageRaw = stringOption(input, 'lineage');
  const lineage = problems.check(
    () =>
      lineageRaw === undefined ? lineageOfCommand(argv) : parseLineage('--lineage', lineageRaw),
    '',
  );
  const graceMs = problems.check(
    () => parseGraceMs('--grace-hours', stringOption(input, 'grace-hours')),
    0,
  );
  const envNames = problems.check(() => parseEnvNames(stringOption(input, 'store-env')), []);
  problems.throwIfAny();
  return {
    argv,
    envNames,
    ...(readArgv ? { readArgv } : {}),
    lineage,
    graceMs,
    revokeReplaced: input.values['revoke-replaced'] === true,
    dryRun: input.values['dry-run'] === true,
  };
}

/** --store-env NAME[,NAME…]: names of environment variables. */
function parseEnvNames(raw: string | undefined): string[] {
  if (raw === undefined) return [];
  const names = raw
    .split(',')
    .map((n) => n.trim())
    .filter((n) => n !== '');
  const bad = names.find((n) => !/^[A-Za-z_][A-Za-z0-9_]*$/.test(n));
  if (bad !== undefined || names.length === 0)
    throw new SettingProblem(
      `--store-env must name environment variables, comma-separated (e.g. GITLAB_TOKEN,GITLAB_HOST)${bad ? `: ${JSON.stringify(bad)} is not one` : ''}`,
    );
  return names;
}

/** The store commands' environment; a variable --store-env names that holds a key is refused. */
function commandEnvironment(ctx: CommandContext, names: readonly string[]): Record<string, string> {
  const secrets = [ctx.settings.apiKey];
  const keyed = names.filter((n) => holdsKey(ctx.io.env[n] ?? '', secrets));
  const problems = new SettingsProblems();
  if (keyed.length > 0)
    problems.add(
      `--store-env ${keyed.join(',')} holds an API key: a store command never gets one (it reads the new key on its standard input)`,
    );
  problems.throwIfAny();
  return storeEnvironment(ctx.io.env, names, secrets);
}

const keyLine = (k: KeyRef) => `${k.keyPrefix} ${k.name} (${k.id})`;

function show(result: RotationResult, options: RotateOptions) {
  const json = result.dryRun
    ? { dryRun: true, keyName: result.keyName, wouldRevoke: result.wouldRevoke, kept: result.kept }
    : {
        keyId: result.keyId,
        keyPrefix: result.keyPrefix,
        keyName: result.keyName,
        stored: result.stored,
        revoked: result.revoked,
        kept: result.kept,
      };
  const lines = result.dryRun
    ? [
        `Would create ${result.keyName} and give it to ${options.argv[0]}`,
        ...(result.wouldRevoke ?? []).map((k) => `Would delete ${keyLine(k)}`),
      ]
    : [
        result.stored === 'proven'
          ? `Rotated: new key ${result.keyPrefix} (${result.keyId}) stored by ${options.argv[0]} (read back)`
          : `Rotated: new key ${result.keyPrefix} (${result.keyId}) handed to ${options.argv[0]}, which exited 0 (not read back: --store-read-command proves it)`,
        ...result.revoked.map((k) => `Deleted ${keyLine(k)}`),
      ];
  for (const k of result.kept) lines.push(`Kept ${keyLine(k)}`);
  return { json, text: `${lines.join('\n')}\n` };
}

async function run(ctx: CommandContext, input: ParsedInput) {
  const options = readOptions(input);
  const env = commandEnvironment(ctx, options.envNames);
  const secrets = [ctx.settings.apiKey];
  const note = (line: string) => ctx.note(redact(line, secrets));
  const openClient = (apiKey: string) =>
    createClient({
      apiKey,
      baseUrl: ctx.settings.apiUrl,
      env: ctx.io.env,
      requestTimeoutMs: ctx.settings.requestTimeoutMs,
      userAgentSuffix: 'cli',
    });
  const result = await rotateKey(
    { apiKey: ctx.settings.apiKey, ...options },
    {
      client: ctx.client(),
      openClient,
      store: new CommandStore(options.argv, env, note, {
        secrets,
        ...(options.readArgv ? { readArgv: options.readArgv } : {}),
      }),
      mask: (secret) => secrets.push(secret),
      log: note,
      signal: ctx.signal,
    },
  );
  return show(result, options);
}

export const KEYS_ROTATE: CommandSpec = {
  path: ['keys', 'rotate'],
  summary: 'Replace the key in use: create, prove, hand to --store-command, then delete old keys',
  options: [
    'store-command',
    'store-read-command',
    'store-env',
    'lineage',
    'grace-hours',
    'revoke-replaced',
    'dry-run',
  ],
  required: ['store-command'],
  details: [
    'The new key goes to the standard input of --store-command (no newline), which is split into',
    'words like a shell would and run without one: no variable, glob, pipe or redirection. Its exit',
    'status 0 means stored. Keys this lineage replaced more than --grace-hours ago are deleted after',
    'the store; the key that started it only with --revoke-replaced. --store-read-command prints the',
    'key the store holds (it gets nothing on stdin): read before creating, keys this lineage made',
    'after it that the store never held are deleted then, not after the grace; read after the store,',
    'it must print the new key (another of the tenant: the new key is deleted). The commands run in',
    'a process group of their own with PATH, HOME, TMPDIR, the locale, proxies and certificates, and',
    'the variables --store-env names; never a key. See docs/rotation.md.',
  ].join('\n'),
  run,
};
