// The CLI's output failing: its reader gone (EPIPE, and the writes after it) is 141, said once and
// quietly; any other failure of the output (a full disk) is an error, exit 1, with its line.
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { describe, it } from 'node:test';
import {
  EXIT_OUTPUT_CLOSED,
  outputFailedLine,
  watchOutputs,
} from '../../../src/cli/output-closed.js';

function failure(code: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`write ${code}`), { code });
}

function watched(): { streams: PassThrough[]; told: number[] } {
  const streams = [new PassThrough(), new PassThrough()];
  const told: number[] = [];
  watchOutputs(streams as unknown as NodeJS.WriteStream[], (code) => told.push(code));
  return { streams, told };
}

describe('the output failing', () => {
  it('its reader gone: 141, told once whichever stream and however often', () => {
    const { streams, told } = watched();
    streams[0]?.emit('error', failure('EPIPE'));
    streams[1]?.emit('error', failure('EPIPE'));
    streams[0]?.emit('error', failure('ERR_STREAM_DESTROYED'));
    assert.deepEqual(told, [EXIT_OUTPUT_CLOSED]);
    assert.equal(EXIT_OUTPUT_CLOSED, 141);
  });

  it('any other failure: exit 1, and a line that says so', () => {
    const { streams, told } = watched();
    streams[0]?.emit('error', failure('ENOSPC'));
    assert.deepEqual(told, [1]);
    assert.equal(
      outputFailedLine(failure('ENOSPC')),
      'tenant-scan: error: the output could not be written (ENOSPC)',
    );
  });
});
