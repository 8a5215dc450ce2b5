// Guarantee 12 (tracking issues that never cry wolf) as a model-based property (fast-check's
// fc.commands + fc.asyncModelRun): sequences of runs of the tracking code — `one` and `per-finding`,
// failing, passing or without a verdict, findings that fail the gate or are waived, a token that may
// not write issues —, two runs that overlap (every read of both before any write), others' issues
// and comments carrying our markers or a forged state line (a user, a bot, an account that took
// over our login), a maintainer closing an issue by hand, and thousands of newer labelled issues
// of ours around the 5,000 the list reads. After each command the invariants of
// tracking-model/invariants.ts hold. In process against the GitHub REST stand-in (which validates
// like GitHub), so a sequence takes milliseconds; the bundled path is test/action/tracking.test.ts.
// `npm run test:properties -- --runs N test/action/tracking.property.test.ts` runs it long.
import fc from 'fast-check';
import { after, before, describe, it } from 'node:test';
import { propertyParameters } from '../helpers/property.js';
import { modelCommands } from './tracking-model/commands.js';
import { Sequence, startShared, TOKENS, type Shared } from './tracking-model/world.js';

describe('tracking issues, model-based', () => {
  let shared: Shared;
  before(async () => {
    shared = await startShared();
  });
  after(() => shared.github.close());

  it('others’ issues are never touched, a run without a verdict changes nothing, one open issue per thing once a run settles', async (t) => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...Object.keys(TOKENS)),
        fc.constantFrom(false, false, true),
        fc.commands(modelCommands, { maxCommands: 14, size: 'medium' }),
        async (token, manyNewer, commands) => {
          const seq = new Sequence(shared, token, manyNewer);
          await fc.asyncModelRun(() => ({ model: seq, real: seq }), commands);
        },
      ),
      propertyParameters(30),
    );
    const paths = [...shared.tally].map(([path, n]) => `${path}: ${n}`);
    t.diagnostic(`${shared.sequences} sequences; ${paths.join('; ')}`);
  });
});
