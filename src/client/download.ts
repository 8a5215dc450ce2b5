// One GET of a presigned address into a new file, through the client's undici dispatcher (which
// tunnels through a proxy and trusts NODE_EXTRA_CA_CERTS like every other request). A 2xx body is
// piped through a hashing, counting transform into the file; a non-2xx body (a redirect, an XML
// error) is dropped. The caller owns the temp file's name, the length check, the rename and the
// clean-up.
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { open } from 'node:fs/promises';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { request, type Dispatcher } from 'undici';
import { abortReason } from './abort.js';
import {
  AnswerTooLarge,
  RequestDeadline,
  RequestTimeout,
  declaredLength,
  isUndiciTimeout,
  withDeadline,
} from './transport.js';

/** The largest report written (a compliance report is a PDF of a few MB). */
export const MAX_REPORT_BYTES = 2 * 1024 * 1024 * 1024;

export interface FileGet {
  url: URL;
  headers: Record<string, string>;
  /** Bounds the wait for the headers and each gap between body chunks. */
  timeoutMs: number;
  /** Bounds the whole transfer: a report that trickles in still ends. */
  deadlineMs: number;
  /** A body longer than this is refused (before reading it when its Content-Length says so). */
  maxBytes: number;
  signal?: AbortSignal;
}

export interface FileReply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** Only for a 2xx: what was written to the file. */
  written?: { bytes: number; sha256: string };
}

/** Bytes the file stream may hold while a write is under way: the next write takes them all at once
 *  (writev), instead of one small write per socket read. */
const WRITE_BATCH_BYTES = 4 << 20;

/** A redirect or error body longer than this is not read further: its status is all we need. */
const MAX_DROPPED_BYTES = 64 << 10;

/**
 * GETs `req.url`; a 2xx body goes into a new file at `temp` (created exclusively). When this
 * settles, the file is closed. On rejection the file may exist: the caller removes it. Rejects
 * with AnswerTooLarge past `maxBytes`, RequestDeadline past `deadlineMs`, RequestTimeout on silence.
 */
export async function getIntoFile(
  dispatcher: Dispatcher,
  req: FileGet,
  temp: string,
): Promise<FileReply> {
  const deadline = withDeadline(req.deadlineMs, req.signal);
  try {
    const res = await request(req.url, {
      dispatcher,
      method: 'GET',
      headers: req.headers,
      signal: deadline.signal,
      headersTimeout: req.timeoutMs,
      bodyTimeout: req.timeoutMs,
    });
    const reply: FileReply = { status: res.statusCode, headers: res.headers };
    if (res.statusCode < 200 || res.statusCode >= 300) {
      await res.body.dump({ limit: MAX_DROPPED_BYTES }).catch(() => undefined);
      return reply;
    }
    if ((declaredLength(res.headers) ?? 0) > req.maxBytes) {
      res.body.destroy();
      throw new AnswerTooLarge(req.maxBytes);
    }
    return { ...reply, written: await writeBody(res.body, temp, req.maxBytes) };
  } catch (error) {
    if (req.signal?.aborted) throw abortReason(req.signal);
    if (deadline.expired()) throw new RequestDeadline(req.deadlineMs);
    if (isUndiciTimeout(error)) throw new RequestTimeout(req.timeoutMs, req.deadlineMs);
    throw error;
  } finally {
    deadline.clear();
  }
}

/** The body into a new file, hashed and counted on the way; the file is closed when this settles. */
async function writeBody(
  body: NodeJS.ReadableStream,
  temp: string,
  maxBytes: number,
): Promise<{ bytes: number; sha256: string }> {
  const file = await open(temp, 'wx');
  const digest = createHash('sha256');
  let bytes = 0;
  const tally = new Transform({
    highWaterMark: WRITE_BATCH_BYTES,
    transform(chunk: Buffer, _encoding, done) {
      bytes += chunk.length;
      if (bytes > maxBytes) return done(new AnswerTooLarge(maxBytes));
      digest.update(chunk);
      done(null, chunk);
    },
  });
  const sink = file.createWriteStream({ highWaterMark: WRITE_BATCH_BYTES });
  try {
    await pipeline(body, tally, sink);
  } catch (error) {
    // The caller removes the file as soon as this rejects: a write still under way must end first.
    if (!sink.closed) await once(sink, 'close').catch(() => undefined);
    throw error;
  }
  return { bytes, sha256: digest.digest('hex') };
}
