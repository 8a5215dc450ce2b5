// The pure cores of issue 31's GitHub rules: whose issue or comment is ours, which state line is
// believed, what a failed request means (a rate limit is not a missing permission), which waivers
// a pull request adds or extends, and how far ahead a waiver may expire.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { describeGitHubError } from '../../../src/github/github-client.js';
import { addedOrExtended, repositoryPath } from '../../../src/github/pr-waivers.js';
import { readRunState } from '../../../src/github/state-line.js';
import { writtenBy } from '../../../src/github/token-identity.js';
import type { Waiver } from '../../../src/pipeline/gate/judge.js';
import { farAheadProblems, parseWaiversMaxDays } from '../../../src/pipeline/gate/waivers.js';

const waiver = (check: string, expires: string): Waiver => ({
  check,
  expires,
  reason: 'r',
  line: 2,
});

describe('whose issue or comment is ours', () => {
  const bot = { login: 'github-actions[bot]', id: 41898282 };
  it('by id when GitHub gave one: a login alone, or another id, is not enough', () => {
    assert.equal(writtenBy({ login: 'github-actions[bot]', id: 41898282 }, bot), true);
    assert.equal(writtenBy({ login: 'github-actions[bot]', id: 1 }, bot), false);
    assert.equal(writtenBy({ login: 'renamed', id: 41898282 }, bot), true);
    assert.equal(writtenBy(null, bot), false);
    assert.equal(writtenBy(undefined, bot), false);
  });
  it('by login (any case) when the id is unknown', () => {
    assert.equal(writtenBy({ login: 'OctoCat' }, { login: 'octocat' }), true);
    assert.equal(writtenBy({ login: 'octocat2' }, { login: 'octocat' }), false);
  });
});

describe('the state line that is believed', () => {
  const line = '<!-- tenant-scan-state:failed:abc123abc123: -->';
  it('only right under the marker', () => {
    assert.equal(readRunState(`<!-- tenant-scan:x -->\n${line}\nbody`)?.verdict, 'failed');
    assert.equal(readRunState(`<!-- tenant-scan:x -->\nbody\n${line}`), undefined);
    assert.equal(readRunState(`<!-- tenant-scan:x -->\nsee ${line}`), undefined);
  });
});

describe('what a failed GitHub request means', () => {
  const error = (status: number, message: string, headers: Record<string, string> = {}) =>
    Object.assign(new Error(message), { status, response: { headers } });
  it('a secondary or primary rate limit is not a missing permission', () => {
    for (const limited of [
      error(403, 'You have exceeded a secondary rate limit'),
      error(403, 'API rate limit exceeded', { 'x-ratelimit-remaining': '0' }),
      error(403, 'Forbidden', { 'retry-after': '30' }),
      error(429, 'Too many requests'),
    ]) {
      const view = describeGitHubError(limited);
      assert.equal(view.rateLimited, true, limited.message);
      assert.equal(view.denied, false, limited.message);
    }
    const denied = describeGitHubError(error(403, 'Resource not accessible by integration'));
    assert.deepEqual([denied.denied, denied.rateLimited], [true, false]);
  });
  it('after the budget or a cancel, it is "stopped", whatever the status', () => {
    const signal = AbortSignal.abort();
    const view = describeGitHubError(error(500, 'This operation was aborted'), signal);
    assert.deepEqual([view.stopped, view.denied, view.rateLimited], [true, false, false]);
  });
});

describe('waivers a pull request adds or extends', () => {
  it('new checks and later dates; the same or an earlier date is not named', () => {
    const base = [waiver('A', '2027-01-01'), waiver('B', '2027-01-01'), waiver('C', '2027-01-01')];
    const head = [
      waiver('A', '2027-01-01'),
      waiver('B', '2027-06-01'),
      waiver('C', '2026-12-01'),
      waiver('D', '2027-02-01'),
    ];
    assert.deepEqual(
      addedOrExtended(head, base).map((c) => [c.waiver.check, c.before]),
      [
        ['B', '2027-01-01'],
        ['D', undefined],
      ],
    );
  });
  it('the file in the repository: inside the workspace only', () => {
    assert.equal(repositoryPath('.tenant-scan/waivers.yml', '/w'), '.tenant-scan/waivers.yml');
    assert.equal(repositoryPath('/w/sub/w.yml', '/w'), 'sub/w.yml');
    assert.equal(repositoryPath('../w.yml', '/w'), undefined);
    assert.equal(repositoryPath('/etc/w.yml', '/w'), undefined);
  });
});

describe('waivers-max-days', () => {
  const now = Date.parse('2026-11-26T12:00:00Z');
  it('a waiver past today + N days is one line naming it; N days ahead is fine', () => {
    const waivers = [waiver('OK', '2027-11-26'), waiver('FAR', '2027-11-27')];
    assert.deepEqual(farAheadProblems('w.yml', waivers, 365, 'waivers-max-days', now), [
      'w.yml line 2: the waiver of check "FAR" expires 2027-11-27, more than 365 days ahead (waivers-max-days): set a date until 2027-11-26 at the latest, and renew it then',
    ]);
    assert.equal(farAheadProblems('w.yml', waivers, 366, 'x', now).length, 0);
  });
  it('1 to 3650 days, 365 by default', () => {
    assert.equal(parseWaiversMaxDays('l', ''), 365);
    assert.equal(parseWaiversMaxDays('l', ' 30 '), 30);
    for (const bad of ['0', '3651', '1.5', 'forever', '-1'])
      assert.throws(() => parseWaiversMaxDays('l', bad), /l must be a whole number of days/);
  });
});
