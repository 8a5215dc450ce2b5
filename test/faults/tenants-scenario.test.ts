// The campaign's multi-tenant runs (tenants.ts): one seed in eight, apart from the rotation runs,
// reproducible; 300 campaign runs draw every tenant fault, each concurrency, and SIGTERM.
import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { isRotationSeed } from './rotation.js';
import { TENANT_FAULTS, generateTenantsScenario, isTenantsSeed } from './tenants.js';

describe('multi-tenant scenarios', () => {
  it('one seed in eight, never a rotation seed, and a seed draws the same scenario again', () => {
    const seeds = Array.from({ length: 800 }, (_, i) => 20261121 + i);
    assert.equal(seeds.filter(isTenantsSeed).length, 100);
    assert.ok(!seeds.some((seed) => isTenantsSeed(seed) && isRotationSeed(seed)));
    assert.deepEqual(generateTenantsScenario(77), generateTenantsScenario(77));
  });

  it('300 campaign runs draw every fault, faults on some tenants only, each concurrency and SIGTERM', () => {
    const scenarios = Array.from({ length: 300 }, (_, i) => 20261121 + i)
      .filter(isTenantsSeed)
      .map(generateTenantsScenario);
    const faults = new Set(scenarios.flatMap((s) => s.tenants.map((t) => t.fault)));
    assert.deepEqual([...faults].sort(), [...TENANT_FAULTS].sort());
    assert.ok(
      scenarios.filter((s) => s.tenants.some((t) => t.fault === 'none')).length >=
        scenarios.length * 0.8,
      'most runs have tenants without a fault: they must not suffer',
    );
    assert.deepEqual(new Set(scenarios.map((s) => s.concurrency)), new Set([1, 2, 50]));
    assert.ok(scenarios.some((s) => s.sigterm));
  });
});
