import { strict as assert } from 'node:assert';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { echoForms } from '../emulator/findings.js';
import type { RecordedRequest } from './http-server.js';
import {
  containsSecret,
  findSecretInDirectory,
  findSecretInRequests,
  findSecretInTexts,
  secretForms,
} from './secret-scan.js';

const SECRET = 'tsk_canary+key/0123';

function request(overrides: Partial<RecordedRequest>): RecordedRequest {
  return {
    method: 'PUT',
    url: '/blob',
    path: '/blob',
    headers: {},
    body: Buffer.alloc(0),
    ...overrides,
  };
}

describe('secret scan', () => {
  test('finds the secret plain, URL-encoded and base64-encoded in requests', () => {
    const requests = [
      request({ headers: { authorization: `Bearer ${SECRET}` } }),
      request({ url: `/blob?k=${encodeURIComponent(SECRET)}` }),
      request({ body: Buffer.from(`{"x":"${Buffer.from(SECRET).toString('base64')}"}`) }),
      request({ headers: { 'user-agent': 'clean' }, body: Buffer.from('clean') }),
    ];
    assert.deepEqual(findSecretInRequests(SECRET, requests, 'storage'), [
      'storage PUT /blob header authorization',
      'storage PUT /blob url',
      'storage PUT /blob body',
    ]);
    assert.ok(secretForms(SECRET).length >= 3);
  });

  test('names the texts and files that contain it', async () => {
    assert.deepEqual(findSecretInTexts(SECRET, { stdout: `key=${SECRET}`, summary: 'ok' }), [
      'stdout',
    ]);
    const dir = await mkdtemp(join(tmpdir(), 'secret-scan-'));
    try {
      await mkdir(join(dir, 'nested'));
      await writeFile(join(dir, 'nested', 'report.json'), `{"key":"${SECRET}"}`);
      await writeFile(join(dir, 'clean.txt'), 'nothing');
      assert.deepEqual(await findSecretInDirectory(SECRET, dir), [
        join(dir, 'nested', 'report.json'),
      ]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  test('finds the key in every form the emulator echoes it in, not in text without it', () => {
    const key = `ak_live_${'Zx9q'.repeat(10)}`;
    for (const form of echoForms(key)) assert.ok(containsSecret(`x ${form} y`, key), form);
    assert.ok(!containsSecret('⚠️ 2 new failing findings; QUJD 0123abcd', key));
    // Base64 in lower case reads as nothing: not a leak.
    const base64 = Buffer.from(key).toString('base64');
    assert.ok(!containsSecret(base64.toLowerCase(), key));
  });
});
