// Key rotation as a model-based property (fast-check's fc.commands + fc.asyncModelRun): sequences
// of rotations — to a GitHub secret, a store command, or a store command with a read command —
// with stores that fail, lose their answer, exit 0 without storing, hang or leave a child holding
// their output, faults of the service, kills at every step, re-runs holding an older key, time
// passing the grace, skewed clocks and the 10-key cap. After every command the invariants of
// rotation-model/invariants.ts hold. In process over the emulator, so hundreds take seconds;
// `npm run test:properties -- --runs N test/pipeline/rotation.property.test.ts` runs it long.
import fc from 'fast-check';
import { after, before, describe, it } from 'node:test';
import { propertyParameters } from '../helpers/property.js';
import { modelCommands } from './rotation-model/commands.js';
import {
  Sequence,
  startShared,
  stopShared,
  type Setup,
  type Shared,
} from './rotation-model/world.js';

const setupArbitrary: fc.Arbitrary<Setup> = fc.record({
  kind: fc.constantFrom('github' as const, 'command' as const, 'command-read' as const),
  graceHours: fc.constantFrom(0, 1, 24),
  revokeReplaced: fc.boolean(),
  humanKeys: fc.constantFrom(0, 0, 2, 7, 8),
});

describe('key rotation, model-based', () => {
  let shared: Shared;
  before(async () => {
    shared = await startShared();
  });
  after(() => stopShared(shared));

  it('the store always holds a working key, and every line tells the truth', async (t) => {
    await fc.assert(
      fc.asyncProperty(
        setupArbitrary,
        fc.commands(modelCommands, { maxCommands: 20, size: 'medium' }),
        async (setup, commands) => {
          shared.githubSkewMs = 0;
          shared.githubDateSkewMs = 0;
          const seq = new Sequence(shared, setup);
          try {
            await fc.asyncModelRun(() => ({ model: seq, real: seq }), commands);
          } finally {
            seq.close();
          }
        },
      ),
      propertyParameters(10),
    );
    const paths = [...shared.tally].map(([path, n]) => `${path}: ${n}`);
    t.diagnostic(`${shared.sequences} sequences; ${paths.join('; ')}`);
  });
});
