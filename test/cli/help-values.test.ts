// Every value a command's help lists for an option is one that command takes: each command line
// runs in process (the CLI's main) against a local server that refuses every key, so a value the
// command accepts goes on to a request (and a 401), while one it refuses is a line naming the flag
// before anything is sent. A made-up value is refused the same way, so the check can fail. And the
// top-level help names every environment variable the CLI's code reads.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { glob } from 'tinyglobby';
import type { CommandSpec } from '../../src/cli/command.js';
import { COMMANDS } from '../../src/cli/commands/index.js';
import { ENVIRONMENT } from '../../src/cli/help.js';
import { optionInfo, type OptionName } from '../../src/cli/options.js';
import { main } from '../../src/cli/run.js';
import { ROOT } from './helpers.js';

/** Words in a value list that name a kind of value, not a word to type. */
const PLACEHOLDERS = new Set(['file']);
/** Read by the code only in tests (docs/development.md), not a user's setting. */
const TEST_ONLY_VARIABLES = new Set(['TENANT_SCAN_TEST_PACING_MS']);

let server: Server;
let url = '';
let requests = 0;

before(async () => {
  server = createServer((request, response) => {
    requests += 1;
    request.resume();
    response.writeHead(401, { 'content-type': 'application/json' });
    response.end('{"success":false,"error":{"code":"UNAUTHORIZED","message":"no"}}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
});
after(() => new Promise<void>((resolve) => server.close(() => resolve())));

function sink(): Writable & { text: string } {
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      stream.text += chunk.toString();
      done();
    },
  }) as Writable & { text: string };
  stream.text = '';
  return stream;
}

/** The error line of a run (notes and warnings before it may name flags for other reasons). */
interface CliRun {
  code: number;
  error: string;
  sent: number;
}

async function runCli(argv: string[]): Promise<CliRun> {
  const stdout = sink();
  const stderr = sink();
  const env = { SERVICE_API_KEY: `ak_live_${'a'.repeat(40)}`, SERVICE_API_URL: url };
  const before = requests;
  const code = await main(argv, { stdout, stderr, env }, new AbortController().signal);
  const error = /^tenant-scan: error: .*$/m.exec(stderr.text)?.[0] ?? '';
  return { code, error, sent: requests - before };
}

/** The words an option's `<a|b|c>` value list names on this command's page, if it has one, and
 *  whether it also takes any value of a kind (`<none|previous|file>`: any other word is a file). */
function listedWords(command: CommandSpec, option: OptionName): { words: string[]; open: boolean } {
  const shown = command.optionValue?.[option] ?? optionInfo(option).value ?? '';
  const list = /^<([a-z-]+(?:\|[a-z-]+)+)>$/.exec(shown)?.[1]?.split('|') ?? [];
  const words = list.filter((word) => !PLACEHOLDERS.has(word));
  return { words, open: words.length < list.length };
}

/** A command line of the command that it would otherwise accept, with what `option` needs. */
function commandLine(command: CommandSpec, option: OptionName): string[] {
  const line = [...command.path, ...(command.args ?? []).map(() => 'x1')];
  if (option === 'fail-on' && command.options?.includes('baseline')) {
    line.push('--baseline', 'previous', '--history', '5'); // new needs a baseline, overdue ages
  }
  if (command.rest !== undefined) line.push('no-such-records/*.json');
  if (command.path.join(' ') === 'scan run') line.push('--type', 'compliance', '--watch');
  if (command.path.join(' ') === 'keys rotate') line.push('--store-command', 'true');
  return line;
}

const CASES = COMMANDS.flatMap((command) =>
  [...(command.options ?? []), ...(command.required ?? [])].flatMap((option) => {
    const { words, open } = listedWords(command, option);
    return words.length > 0 ? [{ command, option, words, open }] : [];
  }),
);

describe("the values a command's help lists are the ones it takes", () => {
  it('finds value lists to check (the help has some)', () => {
    assert.ok(CASES.length >= 10, `only ${CASES.length} options with value lists`);
  });

  for (const { command, option, words, open } of CASES) {
    const name = `${command.path.join(' ')} --${option} <${words.join('|')}>`;
    it(name, async () => {
      const flag = new RegExp(`--${option}\\b`);
      for (const word of words) {
        const { error } = await runCli([...commandLine(command, option), `--${option}`, word]);
        assert.doesNotMatch(error, flag, `${name}: ${word} was refused: ${error}`);
      }
      if (open) return; // any other word is a value of its kind (a file): nothing to refuse
      const line = [...commandLine(command, option), `--${option}`, 'zz-not-a-value'];
      const refused = await runCli(line);
      assert.equal(refused.code, 1, refused.error);
      assert.match(refused.error, flag, `a made-up value of --${option} was taken`);
      assert.equal(refused.sent, 0, `a made-up value of --${option} sent a request`);
    });
  }
});

describe('the top-level help names every environment variable the CLI reads', () => {
  it('each variable the code reads is in the help, and each in the help is read', async () => {
    const files = await glob(['src/cli/**/*.ts', 'src/pipeline/**/*.ts', 'src/client/**/*.ts'], {
      cwd: ROOT,
      absolute: true,
    });
    const read = new Set<string>();
    for (const file of files) {
      const text = await readFile(file, 'utf8');
      for (const match of text.matchAll(/\b(?:env(?:\.|\[')|pick\(env, ')([A-Z][A-Z0-9_]+)/g)) {
        read.add(match[1] ?? '');
      }
      // A variable's name kept in a constant: `const X_ENV = 'NAME'`, `X_VARIABLE = 'NAME'`.
      for (const match of text.matchAll(/_(?:ENV|VARIABLE) = '([A-Z][A-Z0-9_]+)'/g)) {
        read.add(match[1] ?? '');
      }
    }
    const help = ENVIRONMENT.join('\n');
    const missing = [...read].filter(
      (name) => !TEST_ONLY_VARIABLES.has(name) && name !== 'PATH' && !help.includes(name),
    );
    assert.deepEqual(missing, [], `the help does not name ${missing.join(', ')}`);
    for (const named of help.matchAll(/\b([A-Z][A-Z0-9_]{3,})\b/g)) {
      assert.ok(read.has(named[1] ?? ''), `the help names ${named[1]}, which no code reads`);
    }
  });
});
