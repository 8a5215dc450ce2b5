// A canary key must never appear in the log, the summary, outputs, state, files the job leaves, or
// any request to an origin other than the API's (download origin, artifact backend, GitHub).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  findSecretInDirectory,
  findSecretInRequests,
  findSecretInTexts,
} from '../helpers/secret-scan.js';
import { QUICK_SCAN, startWorld, stepTexts, visibleLog, type World } from './world.js';

const PR_EVENT = {
  name: 'pull_request',
  payload: {
    pull_request: { number: 3, head: { sha: 'ab'.repeat(20), ref: 'f' }, base: { ref: 'main' } },
  },
};

describe('action: the API key stays secret', () => {
  let world: World;
  before(async () => {
    world = await startWorld();
    world.emulator.setScanPlan({
      ...QUICK_SCAN,
      outcome: { kind: 'completed', total: 40, failed: 5 },
    });
  });
  after(() => world.close());

  it('a full run (report, artifact, check run, comment, post step) leaks the key nowhere', async () => {
    const canary = world.emulator.apiKey;
    world.emulator.setVariant({ downloadAddress: 'redirect303' });
    const result = await world.job(
      { report: 'generate', 'check-run': 'true', 'pr-comment': 'true' },
      { event: PR_EVENT },
    );
    assert.equal(result.main.exitCode, 1, visibleLog(result.main));
    assert.ok(result.main.masks.includes(canary), 'masked at once');
    assert.ok(world.artifacts.finalized().length >= 1);
    assert.ok(world.github.checkRuns.length >= 1);
    for (const step of [result.main, result.post]) {
      if (step) assert.deepEqual(findSecretInTexts(canary, stepTexts(step)), []);
    }
    assert.deepEqual(await findSecretInDirectory(canary, result.job.root), []);
    assert.deepEqual(findSecretInRequests(canary, world.artifacts.requests, 'artifact'), []);
    assert.deepEqual(findSecretInRequests(canary, world.github.requests, 'github'), []);
    const elsewhere = world.emulator
      .requests()
      .filter((r) => r.origin !== 'api')
      .filter((r) => JSON.stringify(r).includes(canary));
    assert.deepEqual(elsewhere, []);
  });

  it('a refused key is not echoed in the failure line', async () => {
    const canary = 'ak_live_CANARYcanaryCANARYcanary0000';
    const step = await world.main({ 'api-key': canary });
    assert.equal(step.exitCode, 1);
    assert.deepEqual(findSecretInTexts(canary, stepTexts(step)), []);
  });

  it('a malformed key is not echoed either', async () => {
    const canary = 'ak_live_CANARY with a space';
    const step = await world.main({ 'api-key': canary });
    assert.equal(step.exitCode, 1);
    assert.deepEqual(findSecretInTexts(canary, stepTexts(step)), []);
    assert.deepEqual(findSecretInTexts('CANARY', stepTexts(step)), []);
  });
});
