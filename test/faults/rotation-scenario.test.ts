// The campaign's rotation runs (rotation.ts): one seed in eight, reproducible, every fault drawn.
import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { ROTATION_FAULTS, generateRotationScenario, isRotationSeed } from './rotation.js';
import {
  CLI_KILLS,
  CLI_STORE_FAULTS,
  generateCliRotationScenario,
  isCliRotationSeed,
} from './cli-rotation.js';
import { isSettingsSeed } from './settings.js';
import { isTenantsSeed } from './tenants.js';

describe('rotation scenarios', () => {
  it('one seed in eight is a rotation, and a seed draws the same scenario again', () => {
    const seeds = Array.from({ length: 800 }, (_, i) => 20261121 + i);
    assert.equal(seeds.filter(isRotationSeed).length, 100);
    assert.deepEqual(generateRotationScenario(77), generateRotationScenario(77));
  });

  it('300 campaign runs draw every fault, every kill point, the cap and both revoke settings', () => {
    const scenarios = Array.from({ length: 300 }, (_, i) => 20261121 + i)
      .filter(isRotationSeed)
      .map(generateRotationScenario);
    const faults = new Set(scenarios.flatMap((s) => s.steps.map((p) => p.fault)));
    assert.deepEqual([...faults].sort(), [...ROTATION_FAULTS].sort());
    const kills = new Set(scenarios.flatMap((s) => s.steps.map((p) => String(p.kill ?? ''))));
    assert.ok(kills.size >= 4, [...kills].join(' '));
    assert.ok(
      scenarios.some((s) => s.humanKeys === 8),
      'a tenant near the cap',
    );
    assert.deepEqual(new Set(scenarios.map((s) => s.revokeReplaced)), new Set([true, false]));
  });

  it('one seed in sixteen is a CLI rotation, of no other kind, and 300 runs draw every store fault and stop', () => {
    const seeds = Array.from({ length: 300 }, (_, i) => 20261121 + i).filter(isCliRotationSeed);
    assert.ok(seeds.length >= 18 && seeds.length <= 19, `${seeds.length}`);
    assert.ok(!seeds.some((s) => isRotationSeed(s) || isTenantsSeed(s) || isSettingsSeed(s)));
    const scenarios = seeds.map(generateCliRotationScenario);
    assert.deepEqual(generateCliRotationScenario(32), generateCliRotationScenario(32));
    const faults = new Set(scenarios.flatMap((s) => s.steps.map((p) => p.fault)));
    assert.deepEqual([...faults].sort(), [...CLI_STORE_FAULTS].sort());
    const kills = new Set(scenarios.flatMap((s) => s.steps.map((p) => p.kill ?? 'none')));
    assert.deepEqual([...kills].sort(), [...CLI_KILLS, 'none'].sort());
    assert.deepEqual(new Set(scenarios.map((s) => s.readBack)), new Set([true, false]));
  });
});
