// The campaign's tenant-settings runs (settings.ts): one seed in eight, reproducible, every fault
// drawn on every write route, prune both ways.
import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { SETTINGS_FAULTS, generateSettingsScenario, isSettingsSeed } from './settings.js';
import { isRotationSeed } from './rotation.js';
import { isTenantsSeed } from './tenants.js';

describe('tenant-settings scenarios', () => {
  it('one seed in eight, none a rotation or a many-tenants seed; a seed draws the same again', () => {
    const seeds = Array.from({ length: 800 }, (_, i) => 20261121 + i);
    const mine = seeds.filter(isSettingsSeed);
    assert.equal(mine.length, 100);
    assert.ok(!mine.some((s) => isRotationSeed(s) || isTenantsSeed(s)));
    assert.deepEqual(generateSettingsScenario(77), generateSettingsScenario(77));
  });

  it('300 campaign runs draw every fault, every write route and prune both ways', () => {
    const scenarios = Array.from({ length: 300 }, (_, i) => 20261121 + i)
      .filter(isSettingsSeed)
      .map(generateSettingsScenario);
    assert.deepEqual(new Set(scenarios.map((s) => s.fault)), new Set(SETTINGS_FAULTS));
    assert.equal(new Set(scenarios.map((s) => s.route)).size, 5);
    assert.deepEqual(new Set(scenarios.map((s) => s.wanted.prune)), new Set([true, false]));
  });
});
