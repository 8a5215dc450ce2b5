// Invalid inputs: each gives one clear line ("Sanity checks failed: …"), exit code 1, and not a
// single request to the API (nor to GitHub or the artifact backend).
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { errorLines, startWorld, visibleLog, type World } from './world.js';

interface BadInput {
  name: string;
  inputs: Record<string, string>;
  expect: RegExp;
}

const BAD_INPUTS: BadInput[] = [
  { name: 'empty key', inputs: { 'api-key': '' }, expect: /input 'api-key' is required/ },
  {
    name: 'whitespace-only key',
    inputs: { 'api-key': '   ' },
    expect: /input 'api-key' is required/,
  },
  {
    name: 'key with a line break inside',
    inputs: { 'api-key': 'ak_live_abc\ndef' },
    expect: /input 'api-key' contains whitespace or a line break/,
  },
  {
    name: 'wrong key prefix',
    inputs: { 'api-key': 'sk_test_123456' },
    expect: /input 'api-key' is not an API key: keys start with ak_live_/,
  },
  {
    name: 'http to a remote host',
    inputs: { 'api-url': 'http://api.example.com/v1' },
    expect: /input 'api-url' must use https:\/\//,
  },
  { name: 'not a URL', inputs: { 'api-url': 'not a url' }, expect: /input 'api-url' is not a URL/ },
  {
    name: 'URL with credentials',
    inputs: { 'api-url': 'https://user:pw@api.example.com' },
    expect: /must not carry a user name or password/,
  },
  {
    name: 'negative timeout',
    inputs: { 'scan-timeout-minutes': '-5' },
    expect: /input 'scan-timeout-minutes' must be a number of minutes above 0/,
  },
  { name: 'huge timeout', inputs: { 'scan-timeout-minutes': '99999999' }, expect: /at most 7200/ },
  { name: 'zero timeout', inputs: { 'scan-timeout-minutes': '0' }, expect: /above 0/ },
  {
    name: 'unknown report mode',
    inputs: { report: 'always' },
    expect: /input 'report' must be one of none, if-ready, generate/,
  },
  {
    name: 'not a boolean',
    inputs: { wait: 'maybe' },
    expect: /input 'wait' must be true or false, got "maybe"/,
  },
  {
    name: 'negative annotations',
    inputs: { annotations: '-1' },
    expect: /input 'annotations' must be a whole number from 0 to 1000/,
  },
  {
    name: 'retention out of range',
    inputs: { 'retention-days': '365' },
    expect: /input 'retention-days' must be a whole number from 1 to 90/,
  },
  {
    name: 'artifact name with a path',
    inputs: { 'artifact-name': '../../escape.pdf' },
    expect: /input 'artifact-name' must be a plain file name/,
  },
  {
    name: 'scan-id with path traversal',
    inputs: { 'scan-id': '../tenants/me' },
    expect: /input 'scan-id' must be a scan id/,
  },
  {
    name: 'scan type with spaces',
    inputs: { 'scan-type': 'full scan' },
    expect: /input 'scan-type' must be a scan type/,
  },
  {
    name: 'report-path is a directory',
    inputs: { report: 'generate', 'report-path': '.' },
    expect: /input 'report-path' "\." is a directory/,
  },
  {
    name: 'junit-file is a directory',
    inputs: { 'junit-file': '.' },
    expect: /input 'junit-file' "\." is a directory/,
  },
  {
    name: 'sarif-file outside the workspace',
    inputs: { 'sarif-file': '/etc/results.sarif' },
    expect:
      /input 'sarif-file' "\/etc\/results\.sarif" is outside the workspace \(GITHUB_WORKSPACE\) or RUNNER_TEMP/,
  },
  {
    name: 'report-path above the workspace',
    inputs: { report: 'if-ready', 'report-path': '../x.pdf' },
    expect: /input 'report-path' "\.\.\/x\.pdf" is outside the workspace/,
  },
  {
    name: 'junit-file on a device',
    inputs: { 'junit-file': '/dev/stdout' },
    expect: /input 'junit-file' "\/dev\/stdout" is outside the workspace/,
  },
  {
    name: 'sarif-file without waiting',
    inputs: { 'sarif-file': 'results.sarif', wait: 'false' },
    expect: /input 'sarif-file' needs wait: true/,
  },
  {
    name: 'unknown tracking mode',
    inputs: { 'tracking-issue': 'always' },
    expect: /input 'tracking-issue' must be none, one, per-finding, got "always"/,
  },
  {
    name: 'tracking without a token',
    inputs: { 'tracking-issue': 'one', 'github-token': '' },
    expect: /input 'github-token' is empty but check-run, pr-comment or tracking-issue is on/,
  },
  {
    name: 'tracking assignee that is no user name',
    inputs: { 'tracking-issue': 'one', 'tracking-assignees': 'ops team' },
    expect:
      /input 'tracking-assignees' must be a comma-separated list, each a GitHub user name, got "ops team"/,
  },
  {
    name: 'tracking label too long',
    inputs: { 'tracking-issue': 'one', 'tracking-labels': 'x'.repeat(51) },
    expect: /input 'tracking-labels' must be a comma-separated list, each a label/,
  },
  {
    name: 'tracking with no label (which would match every issue)',
    inputs: { 'tracking-issue': 'per-finding', 'tracking-labels': ' , ' },
    expect:
      /input 'tracking-labels' is empty but tracking-issue is per-finding: give at least one label/,
  },
  {
    name: 'report without waiting',
    inputs: { report: 'generate', wait: 'false' },
    expect: /input 'report' needs wait: true/,
  },
];

describe('action: invalid inputs', () => {
  let world: World;
  before(async () => {
    world = await startWorld();
  });
  after(() => world.close());

  for (const bad of BAD_INPUTS) {
    it(`${bad.name} → one clear line, exit 1, no request`, async () => {
      world.emulator.clearRequests();
      const githubBefore = world.github.requests.length;
      const artifactsBefore = world.artifacts.requests.length;
      const step = await world.main(bad.inputs);
      assert.equal(step.exitCode, 1, visibleLog(step));
      const errors = errorLines(step);
      assert.equal(errors.length, 1, errors.join('\n'));
      assert.match(errors[0] ?? '', /^Sanity checks failed: /);
      assert.match(errors[0] ?? '', bad.expect);
      assert.doesNotMatch(visibleLog(step), /undefined|\n\s+at |Error:/);
      assert.equal(world.emulator.requests().length, 0);
      assert.equal(world.github.requests.length, githubBefore);
      assert.equal(world.artifacts.requests.length, artifactsBefore);
    });
  }

  it('several bad inputs → one line each', async () => {
    const step = await world.main({ wait: 'sure', report: 'pdf', annotations: 'many' });
    assert.equal(step.exitCode, 1);
    assert.equal(errorLines(step).length, 3);
    assert.equal(world.emulator.requests().length, 0);
  });

  it('SERVICE_API_URL is used when api-url is empty, and checked like it', async () => {
    world.emulator.clearRequests();
    const step = await world.main(
      { 'api-url': '' },
      { env: { SERVICE_API_URL: 'ftp://example.com' } },
    );
    assert.equal(step.exitCode, 1);
    assert.match(
      errorLines(step)[0] ?? '',
      /^Sanity checks failed: env SERVICE_API_URL must be an https:\/\/ URL/,
    );
    assert.equal(world.emulator.requests().length, 0);
  });
});

// Gap: a missing or unreadable event file was ignored (PR status skipped after the whole scan).
describe('action: the event file (GITHUB_EVENT_PATH)', () => {
  let world: World;
  let dir: string;
  before(async () => {
    world = await startWorld();
    dir = await mkdtemp(join(tmpdir(), 'tenant-scan-event-'));
  });
  after(async () => {
    await world.close();
    await rm(dir, { recursive: true, force: true });
  });

  const cases: Array<{ name: string; path: () => Promise<string>; expect: RegExp }> = [
    {
      name: 'set but absent',
      path: async () => join(dir, 'no-such-event.json'),
      expect: /env GITHUB_EVENT_PATH names an event file that does not exist/,
    },
    {
      name: 'unreadable (a directory)',
      path: async () => dir,
      expect: /env GITHUB_EVENT_PATH names an event file that cannot be read \(.*EISDIR\)/,
    },
    {
      name: 'not JSON',
      path: async () => {
        const path = join(dir, 'event.txt');
        await writeFile(path, '<html>not json</html>');
        return path;
      },
      expect: /env GITHUB_EVENT_PATH names an event file that is not a JSON object/,
    },
  ];

  for (const bad of cases) {
    it(`an event file ${bad.name} → one clear line, exit 1, before any request`, async () => {
      world.emulator.clearRequests();
      const step = await world.main({}, { env: { GITHUB_EVENT_PATH: await bad.path() } });
      assert.equal(step.exitCode, 1, visibleLog(step));
      const errors = errorLines(step);
      assert.equal(errors.length, 1, errors.join('\n'));
      assert.match(errors[0] ?? '', /^Sanity checks failed: /);
      assert.match(errors[0] ?? '', bad.expect);
      assert.equal(world.emulator.requests().length, 0);
    });
  }

  it('GITHUB_EVENT_PATH not set at all (not on a runner): the scan runs as before', async () => {
    const step = await world.main({}, { env: { GITHUB_EVENT_PATH: undefined } });
    assert.equal(step.outputs.verdict, 'failed', visibleLog(step));
    assert.equal(errorLines(step).at(-1), 'Verdict failed: 5 failed findings');
    assert.ok(world.emulator.requests().length > 0);
  });
});
