// The bundled CLI posting to a Slack stand-in (TENANT_SCAN_NOTIFY_WEBHOOK, --notify-on): three
// runs post two messages under change; a roll-up of tenants' records posts once for the fleet when
// a tenant changed, and not when none did; the address is never printed; a bad flag is one line
// before any request.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startEmulator } from '../emulator/emulator.js';
import type { Emulator } from '../emulator/types.js';
import { startWebhookStandin, type WebhookStandin } from '../helpers/webhook-standin.js';
import { assertBundleBuilt, cliEnv, runCli } from './helpers.js';

let emu: Emulator;
let hook: WebhookStandin;
let dir: string;

function failing(failedChecks: string[]) {
  emu.setScanPlan({
    durationMs: 500,
    queuedMs: 50,
    outcome: { kind: 'completed', total: 60, failed: 0, failedChecks },
  });
}

before(async () => {
  assertBundleBuilt();
  emu = await startEmulator({ seed: 7, clockSpeed: 100 });
  hook = await startWebhookStandin('slack');
  dir = await mkdtemp(join(tmpdir(), 'tenant-scan-notify-'));
});
after(async () => {
  await hook.close();
  await emu.close();
  await rm(dir, { recursive: true, force: true });
});

describe('cli: chat notifications', () => {
  it('scan run --watch: new failures post, the same again is silent, a fix posts', async () => {
    const env = cliEnv(emu, { TENANT_SCAN_NOTIFY_WEBHOOK: hook.url });
    const args = ['scan', 'run', '--type', 'compliance', '--watch', '--notify-format', 'slack'];
    const run = () => runCli(args, env, { cwd: dir });
    failing(['CIS-1.1.1', 'CIS-1.3.1']);
    const runs = [await run(), await run()];
    failing(['CIS-1.3.1']);
    runs.push(await run());
    assert.deepEqual(
      runs.map((r) => r.code),
      [0, 0, 0],
      runs.map((r) => r.stderr).join('\n'),
    );
    assert.equal(hook.received.length, 2, runs.map((r) => r.stderr).join('\n'));
    assert.deepEqual(
      hook.received.map((m) => m.problems),
      [[], []],
    );
    assert.match(runs[0]?.stderr ?? '', /Notification: sent to Slack — 2 new failing findings/);
    assert.match(runs[1]?.stderr ?? '', /Notification: not sent — nothing changed/);
    assert.match(runs[2]?.stderr ?? '', /Notification: sent to Slack — 1 fixed/);
    for (const r of runs)
      for (const secret of hook.secrets) assert.ok(!`${r.stdout}${r.stderr}`.includes(secret));
  });

  it('rollup: one message for the fleet when a tenant changed, none when nothing did', async () => {
    const records = join(dir, 'fleet');
    const recordOf = async (label: string, before: string[], now: string[]) => {
      const { tenantId, apiKey } = emu.addTenant({});
      emu.seedHistory([{ ageMs: 86_400_000, failedChecks: before }], tenantId);
      emu.setScanPlan(
        {
          durationMs: 500,
          queuedMs: 50,
          outcome: { kind: 'completed', total: 60, failed: 0, failedChecks: now },
        },
        tenantId,
      );
      const args = ['scan', 'run', '--type', 'compliance', '--watch', '--baseline', 'previous'];
      const record = ['--tenant-label', label, '--record', join(records, `${label}.json`)];
      const run = await runCli([...args, ...record], cliEnv(emu, { SERVICE_API_KEY: apiKey }), {
        cwd: dir,
      });
      assert.ok(run.code === 0 || run.code === 2, run.stderr);
    };
    await recordOf('steady', ['CIS-1.1.1'], ['CIS-1.1.1']);
    const rollup = (files: string[]) =>
      runCli(
        ['rollup', ...files.map((f) => join(records, `${f}.json`)), '--notify-format', 'slack'],
        cliEnv(undefined, { TENANT_SCAN_NOTIFY_WEBHOOK: hook.url }),
        { cwd: dir },
      );
    const before = hook.received.length;
    const quiet = await rollup(['steady']);
    assert.equal(quiet.code, 0, quiet.stderr);
    assert.match(quiet.stderr, /Notification: not sent — no tenant changed \(notify-on change\)/);
    assert.equal(hook.received.length, before);
    await recordOf('worse', ['CIS-1.1.1'], ['CIS-1.1.1', 'CIS-1.3.1']);
    const loud = await rollup(['steady', 'worse']);
    assert.match(loud.stderr, /Notification: sent to Slack — 1 tenant changed/);
    assert.equal(hook.received.length, before + 1);
    assert.deepEqual(hook.received.at(-1)?.problems, []);
    assert.match(hook.received.at(-1)?.body ?? '', /worse/);
    for (const r of [quiet, loud])
      for (const secret of hook.secrets) assert.ok(!`${r.stdout}${r.stderr}`.includes(secret));
  });

  it('a bad --notify-on or address is one line before any request', async () => {
    emu.clearRequests();
    const env = cliEnv(emu, { TENANT_SCAN_NOTIFY_WEBHOOK: 'http://hooks.example/s3cret-path' });
    const bad = await runCli(
      ['scan', 'run', '--type', 'compliance', '--watch', '--notify-on', 'never'],
      env,
      { cwd: dir },
    );
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /TENANT_SCAN_NOTIFY_WEBHOOK must be an https:\/\/ address/);
    assert.match(bad.stderr, /--notify-on must be one of change, new, failure, always/);
    assert.doesNotMatch(bad.stderr, /s3cret-path/);
    assert.equal(emu.requests().length, 0);
  });
});
