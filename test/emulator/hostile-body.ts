// Answers a broken gateway or a compromised endpoint gives, in place of the real one (the handler
// has run: a POST did act): a body that never ends, a huge one, one that trickles a byte at a time
// forever, or no answer at all. Each ends only when the client goes away or the emulator closes.
import type { ServerResponse } from 'node:http';
import { drained } from './drain.js';
import type { Fault } from './types.js';

export type HostileFault = Extract<
  Fault,
  { kind: 'endless-body' | 'huge-body' | 'trickle' | 'no-answer' }
>;

const HOSTILE_KINDS = new Set<Fault['kind']>(['endless-body', 'huge-body', 'trickle', 'no-answer']);

export function isHostileFault(fault: Fault | null | undefined): fault is HostileFault {
  return fault !== null && fault !== undefined && HOSTILE_KINDS.has(fault.kind);
}

const PIECE = Buffer.alloc(64 * 1024, 'a');
/** The JSON an API answer starts with: a client reading it sees a success envelope begin. */
const JSON_HEAD = '{"success":true,"data":{"name":"';
const JSON_TAIL = '"}}';

/** `kind`: a JSON API answer or a report (application/pdf). */
export async function writeHostile(
  res: ServerResponse,
  fault: HostileFault,
  kind: 'json' | 'pdf',
  headers: Record<string, string> = {},
): Promise<void> {
  if (fault.kind === 'no-answer') return; // the request stays open, unanswered
  // Writes after the client left would be buffered without end: stop at its 'close'.
  let gone = false;
  res.once('close', () => (gone = true));
  const type = kind === 'json' ? 'application/json' : 'application/pdf';
  const length =
    fault.kind === 'huge-body' && fault.declared ? { 'content-length': String(fault.bytes) } : {};
  res.writeHead(200, { ...headers, 'content-type': type, ...length });
  res.flushHeaders();
  const head = kind === 'json' ? JSON_HEAD : '%PDF-1.7\n';
  if (fault.kind === 'trickle') return trickle(res, head, fault.intervalMs ?? 1_000);
  const total = fault.kind === 'huge-body' ? fault.bytes : Infinity;
  const tail = kind === 'json' ? JSON_TAIL : '';
  if (!res.write(Buffer.from(head).subarray(0, Math.min(head.length, total)))) await drained(res);
  let sent = head.length;
  while (!gone && sent < total - tail.length) {
    const piece = PIECE.subarray(0, Math.min(PIECE.length, total - tail.length - sent));
    sent += piece.length;
    if (!res.write(piece)) await drained(res);
  }
  if (!gone) res.end(tail.slice(0, Math.max(0, total - sent)));
}

/** The head, then one space every `intervalMs` (JSON whitespace, or PDF padding), forever. */
function trickle(res: ServerResponse, head: string, intervalMs: number): Promise<void> {
  let at = 0;
  return new Promise((resolve) => {
    const timer = setInterval(() => {
      if (res.destroyed || res.socket === null) {
        clearInterval(timer);
        return resolve();
      }
      res.write(at < head.length ? head[at++]! : ' ');
    }, intervalMs);
    res.once('close', () => {
      clearInterval(timer);
      resolve();
    });
  });
}
