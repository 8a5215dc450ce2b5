// Where a report is fetched from (docs/guarantees.md, "Addresses"; src/client/reports.ts), over
// generated addresses and redirect chains. The service hands out an address (in a body field or a
// 302/303), and each hop may redirect to another (absolute or relative, any redirect status). Each
// address is drawn from a class — a public or a local IPv4 or IPv6 address (loopback, private,
// link-local, shared, unspecified, unique-local, and local IPv4 in mapped, translated, NAT64,
// compatible and 6to4 forms), a public name, `localhost` or a name under it — and then spelled any
// way the WHATWG URL parser reads as that host: case, a trailing dot, decimal, hex, octal and short
// IPv4, fullwidth characters and ideographic dots, percent-encoding, IPv6 uncompressed, with
// leading zeros or a dotted tail, userinfo before an `@` (naming another host), ports; with any
// scheme. The class is the oracle: the test never asks the code what an address is.
//
// The download runs through a real undici Agent whose connector stands for the internet: it notes
// the host each connection was opened for and connects to one local server that plays every
// origin. The property: the hops fetched are exactly those before the first one the rule refuses
// (https, plain http to a loopback host only; no loopback, link-local or private host unless the
// API is on such a network), a refused hop is a DownloadError that says which rule, never with
// a file left behind, and no hop receives an Authorization header.
import assert from 'node:assert/strict';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { Agent } from 'undici';
import { DownloadError } from '../../src/client/index.js';
import {
  downloadReport,
  reportStatusFromRedirect,
  toReportStatus,
} from '../../src/client/reports.js';
import { propertyParameters } from '../helpers/property.js';
import { startLocalServer, type LocalServer } from './local-server.js';

type HostClass = 'public' | 'local' | 'loopback' | 'broken';

interface Host {
  /** What the address is, by construction. */
  kind: HostClass;
  /** One spelling of it, as it goes between `//` (and userinfo) and the port. */
  spelled: string;
}

const v4 = (a: number, b: number, c: number, d: number) =>
  ((a << 24) | (b << 16) | (c << 8) | d) >>> 0;
type Block = [first: number, bits: number];
const LOOPBACK_V4: Block[] = [[v4(127, 0, 0, 0), 8]];
const LOCAL_V4: Block[] = [
  [v4(10, 0, 0, 0), 8],
  [v4(172, 16, 0, 0), 12],
  [v4(192, 168, 0, 0), 16],
  [v4(169, 254, 0, 0), 16],
  [v4(100, 64, 0, 0), 10],
  [v4(0, 0, 0, 0), 8],
];
const PUBLIC_V4: Block[] = [
  [v4(8, 8, 0, 0), 16],
  [v4(1, 1, 1, 0), 24],
  [v4(52, 0, 0, 0), 11],
  [v4(142, 250, 0, 0), 15],
];
const inBlocks = (blocks: Block[]) =>
  fc.oneof(
    ...blocks.map(([first, bits]) =>
      fc.integer({ min: 0, max: 2 ** (32 - bits) - 1 }).map((offset) => (first + offset) >>> 0),
    ),
  );

const octets = (n: number) => [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255];
const FULLWIDTH_DIGIT = (d: string) => String.fromCharCode(0xff10 + Number(d));

/** Every IPv4 spelling the WHATWG parser reads as `n`. */
function v4Spelling(n: number): fc.Arbitrary<string> {
  const [a, b, c, d] = octets(n) as [number, number, number, number];
  return fc.oneof(
    fc.constant(`${a}.${b}.${c}.${d}`),
    fc.constant(String(n)),
    fc.constantFrom(`0x${n.toString(16)}`, `0X${n.toString(16).toUpperCase()}`),
    fc.constant([a, b, c, d].map((x) => `0${x.toString(8)}`).join('.')),
    fc.constant(`${a}.${(b << 16) | (c << 8) | d}`),
    fc.constant(`${a}.${b}.${(c << 8) | d}`),
    fc.constant(`${a}.${b}.${c}.${d}.`),
    fc.constant(`${a}.${b}.${c}.${d}`.replace(/\d/g, FULLWIDTH_DIGIT)),
    fc.constant(`${a}。${b}。${c}。${d}`),
    fc.constant(`%3${String(a)[0]}${String(a).slice(1)}.${b}.${c}.${d}`),
  );
}

const hex16 = (x: number) => x.toString(16);

/** IPv6 groups (8 numbers) spelled: compressed or not, any case, leading zeros. */
function v6Spelling(groups: readonly number[]): fc.Arbitrary<string> {
  return fc.tuple(fc.boolean(), fc.boolean(), fc.boolean()).map(([full, upper, zeros]) => {
    let text = full
      ? groups.map((g) => (zeros ? hex16(g).padStart(4, '0') : hex16(g))).join(':')
      : compress(groups);
    if (upper) text = text.toUpperCase();
    return `[${text}]`;
  });
}

function compress(groups: readonly number[]): string {
  let best = -1;
  let length = 0;
  for (let i = 0; i < groups.length; i++) {
    let j = i;
    while (j < groups.length && groups[j] === 0) j++;
    if (j - i > length && j - i > 1) [best, length] = [i, j - i];
  }
  if (best === -1) return groups.map(hex16).join(':');
  const head = groups.slice(0, best).map(hex16).join(':');
  const tail = groups
    .slice(best + length)
    .map(hex16)
    .join(':');
  return `${head}::${tail}`;
}

/** The IPv4-mapped form of `n` (::ffff:a.b.c.d), spelled with a hex or a dotted tail. */
function mappedV4(n: number): fc.Arbitrary<string> {
  return fc.oneof(
    v6Spelling([0, 0, 0, 0, 0, 0xffff, n >>> 16, n & 0xffff]),
    fc.constant(`[::ffff:${octets(n).join('.')}]`),
  );
}

/** Other IPv6 forms that carry an IPv4 address: translated, NAT64, compatible, 6to4. */
function embeddedV4(n: number): fc.Arbitrary<string> {
  const hi = n >>> 16;
  const lo = n & 0xffff;
  const dotted = octets(n).join('.');
  return fc.oneof(
    v6Spelling([0, 0, 0, 0, 0xffff, 0, hi, lo]),
    v6Spelling([0x64, 0xff9b, 0, 0, 0, 0, hi, lo]),
    fc.constant(`[64:ff9b::${dotted}]`),
    v6Spelling([0, 0, 0, 0, 0, 0, hi, lo]),
    fc.constant(`[::${dotted}]`),
    v6Spelling([0x2002, hi, lo, 0, 0, 0, 0, 1]),
  );
}

/** A name spelled: case, a trailing dot, fullwidth letters, a percent-encoded letter. */
function nameSpelling(name: string): fc.Arbitrary<string> {
  return fc
    .tuple(fc.constantFrom('as is', 'upper', 'mixed', 'fullwidth', 'percent'), fc.boolean())
    .map(([form, dot]) => {
      const spelled =
        form === 'upper'
          ? name.toUpperCase()
          : form === 'mixed'
            ? [...name].map((ch, i) => (i % 2 ? ch.toUpperCase() : ch)).join('')
            : form === 'fullwidth'
              ? [...name]
                  .map((ch) =>
                    /[a-z]/.test(ch) ? String.fromCharCode(ch.charCodeAt(0) + 0xfee0) : ch,
                  )
                  .join('')
              : form === 'percent'
                ? `%${name.charCodeAt(0).toString(16)}${name.slice(1)}`
                : name;
      return dot ? `${spelled}.` : spelled;
    });
}

const randomGroup = fc.integer({ min: 0, max: 0xffff });
const local6 = fc.oneof(
  fc.constant([0, 0, 0, 0, 0, 0, 0, 0]),
  fc.array(randomGroup, { minLength: 7, maxLength: 7 }).map((g) => [0xfe80, ...g]),
  fc
    .array(randomGroup, { minLength: 7, maxLength: 7 })
    .map((g) => [0xfd00 | (g[0]! & 0xff), ...g.slice(1), 1]),
);
const PUBLIC_V6 = [
  [0x2001, 0x4860, 0x4860, 0, 0, 0, 0, 0x8888],
  [0x2606, 0x4700, 0x4700, 0, 0, 0, 0, 0x1111],
  [0x2a00, 0x1450, 0x4001, 0x80b, 0, 0, 0, 0x200e],
];

const host: fc.Arbitrary<Host> = fc.oneof(
  inBlocks(PUBLIC_V4)
    .chain(v4Spelling)
    .map((spelled) => ({ kind: 'public' as const, spelled })),
  fc
    .constantFrom(...PUBLIC_V6)
    .chain(v6Spelling)
    .map((spelled) => ({ kind: 'public' as const, spelled })),
  fc
    .constantFrom(
      'storage.example.com',
      'bucket.s3.eu-west-1.amazonaws.com',
      'xn--bcher-kva.example',
      'bücher.example',
      'localhost.example.com',
      'localhostx',
    )
    .chain(nameSpelling)
    .map((spelled) => ({ kind: 'public' as const, spelled })),
  inBlocks(LOOPBACK_V4)
    .chain(v4Spelling)
    .map((spelled) => ({ kind: 'loopback' as const, spelled })),
  fc
    .constantFrom(
      '[::1]',
      '[0:0:0:0:0:0:0:1]',
      '[0000::0001]',
      '[::ffff:127.0.0.1]',
      '[::FFFF:7F00:1]',
    )
    .map((spelled) => ({ kind: 'loopback' as const, spelled })),
  fc
    .constantFrom('localhost', 'files.localhost')
    .chain(nameSpelling)
    .map((spelled) => ({ kind: 'loopback' as const, spelled })),
  inBlocks(LOCAL_V4)
    .chain(v4Spelling)
    .map((spelled) => ({ kind: 'local' as const, spelled })),
  inBlocks(LOOPBACK_V4)
    .chain(mappedV4)
    .map((spelled) => ({ kind: 'loopback' as const, spelled })),
  inBlocks(LOCAL_V4)
    .chain(mappedV4)
    .map((spelled) => ({ kind: 'local' as const, spelled })),
  // Five forms, each as likely as a class of its own.
  ...Array.from({ length: 3 }, () =>
    inBlocks([...LOCAL_V4, ...LOOPBACK_V4])
      .chain(embeddedV4)
      .map((spelled) => ({ kind: 'local' as const, spelled })),
  ),
  local6.chain(v6Spelling).map((spelled) => ({ kind: 'local' as const, spelled })),
  fc
    .constantFrom('[::1', 'exa mple.com', '%zz', '1.2.3.4.5', '[::1]]', 'a<b.example')
    .map((spelled) => ({ kind: 'broken' as const, spelled })),
);

interface Hop {
  scheme: string;
  host: Host;
  userinfo: string;
  port: string;
  /** A redirect to it names only the path (same host as the hop before). */
  relative: boolean;
  status: number;
}

const hop: fc.Arbitrary<Hop> = fc.record({
  scheme: fc.oneof(
    { weight: 8, arbitrary: fc.constant('https') },
    { weight: 4, arbitrary: fc.constantFrom('http', 'HTTPS', 'Http') },
    { weight: 2, arbitrary: fc.constantFrom('ftp', 'file', 'ws', 'wss', 'javascript') },
  ),
  host,
  userinfo: fc.constantFrom('', '', 'user:pass@', 'storage.example.com@', '%40@'),
  port: fc.constantFrom('', '', ':443', ':8443', ':65535'),
  relative: fc.boolean(),
  status: fc.constantFrom(301, 302, 303, 307, 308),
});

const chain = fc.record({
  hops: fc.array(hop, { minLength: 1, maxLength: 4 }),
  given: fc.constantFrom('downloadUrl', 'url', 'presignedUrl', 'href', 302, 303),
  apiIsLocal: fc.boolean(),
});

const address = (h: Hop, k: number) =>
  `${h.scheme}://${h.userinfo}${h.host.spelled}${h.port}/hop/${k}?X-Amz-Signature=s${k}`;

/** The rule, from the docs: https, or plain http to a loopback host; no local host unless the
 *  API is on a local network. `why` names the rule a refused hop breaks. */
function judge(h: Hop, kind: HostClass, apiIsLocal: boolean): 'ok' | 'insecure' | 'local' {
  const scheme = h.scheme.toLowerCase();
  if (scheme !== 'https' && !(scheme === 'http' && kind === 'loopback')) return 'insecure';
  if (kind !== 'public' && !apiIsLocal) return 'local';
  return 'ok';
}

let internet: LocalServer;
let port: number;
let connections: string[] = [];
let plan: { hops: Hop[] } = { hops: [] };

before(async () => {
  internet = await startLocalServer((req, res) => {
    const k = Number(/^\/hop\/(\d+)/.exec(req.url ?? '')?.[1] ?? -1);
    const next = plan.hops[k + 1];
    if (!next) {
      res.end(`report of hop ${k}`);
      return;
    }
    const location = next.relative
      ? `/hop/${k + 1}?X-Amz-Signature=s${k + 1}`
      : address(next, k + 1);
    // A header holds bytes: what is not ASCII goes percent-encoded, as a server sends it.
    const bytes = location.replace(/[^\x21-\x7e]/gu, (ch) => encodeURIComponent(ch));
    res.writeHead(plan.hops[k]!.status, { location: bytes }).end();
  });
  port = Number(new URL(internet.origin).port);
});
after(() => internet.close());

/** The internet: every connection goes to the one local server; the host asked for is noted. */
function internetAgent(): Agent {
  return new Agent({
    connect: (options, callback) => {
      connections.push(options.hostname);
      const socket = net.connect(port, '127.0.0.1');
      socket.once('connect', () => callback(null, socket));
      socket.once('error', (error) => callback(error, null));
    },
  });
}

describe("a report is fetched from the service's storage only (docs/guarantees.md, Addresses)", () => {
  it('every hop of any spelling is fetched exactly when the rule allows it and every hop before it', async () => {
    const api = new URL('https://api.tenant.example/api/v1/scans/s1/report');
    await fc.assert(
      fc.asyncProperty(chain, async ({ hops, given, apiIsLocal }) => {
        plan = { hops };
        connections = [];
        const requestsBefore = internet.requests.length;
        const dir = await mkdtemp(join(tmpdir(), 'report-address-'));
        const agent = internetAgent();
        try {
          // The origin of each hop: a relative redirect keeps the one of the hop before.
          const effective = hops.map((_, k) => {
            const from = hops.slice(0, k + 1).findLastIndex((x, i) => i === 0 || !x.relative);
            return hops[from]!;
          });
          const verdicts = effective.map((h, k) =>
            URL.canParse(address(h, k)) ? judge(h, h.host.kind, apiIsLocal) : 'invalid',
          );
          const refusedAt = verdicts.findIndex((v) => v !== 'ok');
          const first = address(hops[0]!, 0);
          const status =
            typeof given === 'number'
              ? reportStatusFromRedirect(first, api)
              : toReportStatus({ status: 'ready', [given]: first }, api);
          const target = join(dir, 'report.pdf');
          const outcome = await downloadReport('s1', target, {
            dispatcher: agent,
            userAgent: 'tenant-scan-test',
            timeoutMs: 5_000,
            deadlineMs: 10_000,
            fetchStatus: () => Promise.resolve(status),
            apiIsLocal: () => Promise.resolve(apiIsLocal),
          }).catch((error: unknown) => error);
          const fetched = internet.requests.slice(requestsBefore);
          const expectedHops = refusedAt === -1 ? hops.length : refusedAt;
          const shown = `${hops.map((h, k) => (k > 0 && h.relative ? `/hop/${k}` : address(h, k))).join(' → ')} (API local: ${apiIsLocal})`;
          assert.deepEqual(
            fetched.map((r) => r.url.replace(/\?.*/, '')),
            Array.from({ length: expectedHops }, (_, k) => `/hop/${k}`),
            `hops fetched of ${shown}`,
          );
          // Connections were opened only for hosts of hops the rule allowed (as the URL parser
          // reads them; undici names an IPv6 host without its brackets).
          const allowedHosts = effective
            .slice(0, expectedHops)
            .map((h, k) => new URL(address(h, k)).hostname.replace(/^\[|\]$/g, ''));
          for (const hostname of connections) {
            assert.ok(allowedHosts.includes(hostname), `${shown}: connected to ${hostname}`);
          }
          for (const r of fetched) assert.equal(r.headers.authorization, undefined);
          if (refusedAt === -1) {
            assert.ok(!(outcome instanceof Error), `${shown}: ${String(outcome)}`);
            assert.equal(await readFile(target, 'utf8'), `report of hop ${hops.length - 1}`);
          } else {
            assert.ok(outcome instanceof DownloadError, `${shown}: ${String(outcome)}`);
            const code = {
              insecure: 'INSECURE_DOWNLOAD_ADDRESS',
              local: 'LOCAL_DOWNLOAD_ADDRESS',
              invalid: refusedAt === 0 ? 'REPORT_NOT_READY' : 'INVALID_DOWNLOAD_ADDRESS',
            }[verdicts[refusedAt] as 'insecure' | 'local' | 'invalid'];
            assert.equal(outcome.code, code, `${shown}: ${outcome.message}`);
            assert.deepEqual(await readdir(dir), [], `${shown} left a file`);
          }
        } finally {
          await agent.close();
          await rm(dir, { recursive: true, force: true });
        }
      }),
      propertyParameters(300),
    );
  });

  // Found by the property: a Location the URL parser refuses escaped as a bare TypeError.
  it('a redirect whose Location is not an address is a DownloadError, with no file left', async () => {
    plan = {
      hops: [
        {
          scheme: 'https',
          host: { kind: 'public', spelled: 'storage.example.com' },
          userinfo: '',
          port: '',
          relative: false,
          status: 302,
        },
        {
          scheme: 'https',
          host: { kind: 'broken', spelled: '[::1' },
          userinfo: '',
          port: '',
          relative: false,
          status: 302,
        },
      ],
    };
    const dir = await mkdtemp(join(tmpdir(), 'report-address-'));
    const agent = internetAgent();
    try {
      const error = await downloadReport('s1', join(dir, 'report.pdf'), {
        dispatcher: agent,
        userAgent: 'tenant-scan-test',
        timeoutMs: 5_000,
        deadlineMs: 10_000,
        fetchStatus: () =>
          Promise.resolve(
            reportStatusFromRedirect(
              address(plan.hops[0]!, 0),
              new URL('https://api.tenant.example/'),
            ),
          ),
        apiIsLocal: () => Promise.resolve(false),
      }).catch((e: unknown) => e);
      assert.ok(error instanceof DownloadError, String(error));
      assert.equal(error.code, 'INVALID_DOWNLOAD_ADDRESS');
      assert.equal(
        error.message,
        'Refusing a report download redirect from https://storage.example.com/hop/0: its Location is not an address.',
      );
      assert.deepEqual(await readdir(dir), []);
    } finally {
      await agent.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
