// The line the CLI prints on its first signal says what the next one does only where it is true:
// a Ctrl-C at a terminal; not a SIGTERM (a CI system cancelling), nor a runner's step (the tenants
// sub-action), which waits out a second signal.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { stoppingLine } from '../../../src/cli/run.js';

describe('the stopping line', () => {
  it('Ctrl-C at a terminal: a second Ctrl-C quits at once', () => {
    assert.equal(
      stoppingLine('SIGINT', false),
      'Interrupted: stopping (press Ctrl-C again to quit at once)',
    );
  });

  it('SIGTERM, or any signal to a runner’s step: no Ctrl-C advice', () => {
    for (const patient of [false, true]) {
      assert.equal(stoppingLine('SIGTERM', patient), 'Terminated (SIGTERM): stopping');
    }
    assert.equal(stoppingLine('SIGINT', true), 'Interrupted: stopping');
  });
});
