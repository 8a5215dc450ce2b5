// The retry line of each face (the CLI's progress, the Action's log): a slow answer is said to have
// timed out, not to be a network error.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RetryEvent } from '../../../src/client/types.js';
import { retryLine as cliRetryLine } from '../../../src/cli/progress.js';
import { retryLine as actionRetryLine } from '../../../src/github/reporter.js';

const event = (reason: RetryEvent['reason']): RetryEvent => ({
  method: 'GET',
  path: '/tenants/me',
  attempt: 1,
  delayMs: 2_000,
  reason,
  fromRetryAfter: false,
});

describe('the retry line', () => {
  it('a timeout says it timed out, a network error says so, on both faces', () => {
    for (const line of [cliRetryLine, actionRetryLine]) {
      assert.equal(
        line(event('timeout')),
        'Timed out on GET /tenants/me; retrying in 2.0 s (attempt 1)',
      );
      assert.equal(
        line(event('network')),
        'Network error on GET /tenants/me; retrying in 2.0 s (attempt 1)',
      );
    }
  });
});
