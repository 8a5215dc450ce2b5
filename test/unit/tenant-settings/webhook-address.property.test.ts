// The addresses the service may be told to post to (pipeline/tenant-settings/webhook-address.ts),
// over generated addresses: every spelling the URL parser accepts of an address inside an internal
// range — dotted, decimal, hex, octal and shortened IPv4; IPv6 compressed or not, any case, leading
// zeros, a dotted tail, and the mapped, translated, compatible, NAT64 and 6to4 forms of internal
// IPv4 — is refused in one line that shows `https://host/…` and never the path or the query; the
// same spellings of public addresses are accepted. The public blocks are written here (not asked of
// ipaddr.js), so the test does not take the rule's own word for what is public.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { webhookFromEnv } from '../../../src/pipeline/tenant-settings/file.js';
import { propertyParameters } from '../../helpers/property.js';

const SECRET = 'SIGNATURE0123456789';

/** [first address, prefix length] as 32-bit numbers. */
type V4Block = [number, number];
const v4 = (a: number, b: number, c: number, d: number) =>
  ((a << 24) | (b << 16) | (c << 8) | d) >>> 0;

const INTERNAL_V4: V4Block[] = [
  [v4(127, 0, 0, 0), 8], // loopback
  [v4(169, 254, 0, 0), 16], // link-local: cloud metadata
  [v4(10, 0, 0, 0), 8], // RFC 1918
  [v4(172, 16, 0, 0), 12],
  [v4(192, 168, 0, 0), 16],
  [v4(0, 0, 0, 0), 8], // unspecified ("this network")
  [v4(100, 64, 0, 0), 10], // shared: Alibaba Cloud metadata
  [v4(168, 63, 129, 16), 32], // Azure WireServer
];
const PUBLIC_V4: V4Block[] = [
  [v4(8, 8, 0, 0), 16],
  [v4(1, 1, 1, 0), 24],
  [v4(52, 0, 0, 0), 11],
  [v4(20, 0, 0, 0), 11],
  [v4(104, 16, 0, 0), 13],
  [v4(142, 250, 0, 0), 15],
];

function inBlock([first, bits]: V4Block): fc.Arbitrary<number> {
  const size = 2 ** (32 - bits);
  return fc.integer({ min: 0, max: size - 1 }).map((offset) => (first + offset) >>> 0);
}
const internalV4 = fc.oneof(...INTERNAL_V4.map(inBlock));
const publicV4 = fc.oneof(...PUBLIC_V4.map(inBlock));

/** A number as one IPv4 part: decimal, hex (any case, leading zeros) or octal. */
function part(value: number): fc.Arbitrary<string> {
  return fc.oneof(
    fc.constant(String(value)),
    fc.tuple(fc.constantFrom('0x', '0X'), fc.nat(2), fc.boolean()).map(([x, zeros, upper]) => {
      const hex = value.toString(16);
      return `${x}${'0'.repeat(zeros)}${upper ? hex.toUpperCase() : hex}`;
    }),
    fc.nat(2).map((zeros) => `0${'0'.repeat(zeros)}${value.toString(8)}`),
  );
}

/** Every IPv4 spelling the WHATWG parser reads: 1 to 4 parts, the last filling the rest. */
function v4Spelling(n: number): fc.Arbitrary<string> {
  const bytes = [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255];
  return fc.tuple(fc.integer({ min: 1, max: 4 }), fc.boolean()).chain(([count, dot]) => {
    const leading = bytes.slice(0, count - 1);
    const rest = bytes.slice(count - 1).reduce((acc, byte) => acc * 256 + byte, 0);
    return fc
      .tuple(...[...leading, rest].map(part))
      .map((parts) => `${parts.join('.')}${dot ? '.' : ''}`);
  });
}

function groupsOf(bytes: number[]): number[] {
  return Array.from({ length: 8 }, (_, i) => (bytes[2 * i] ?? 0) * 256 + (bytes[2 * i + 1] ?? 0));
}

/** An IPv6 spelling: any case, leading zeros, one run of zero groups (or none) as `::`, and the
 *  last 32 bits dotted or not. */
function v6Spelling(bytes: number[]): fc.Arbitrary<string> {
  const groups = groupsOf(bytes);
  return fc
    .record({ upper: fc.boolean(), pad: fc.boolean(), dotted: fc.boolean(), cut: fc.nat(7) })
    .map(({ upper, pad, dotted, cut }) => {
      const hex = (g: number) => {
        const text = pad ? g.toString(16).padStart(4, '0') : g.toString(16);
        return upper ? text.toUpperCase() : text;
      };
      const tokens = groups.map(hex);
      if (dotted) tokens.splice(6, 2, bytes.slice(12).join('.'));
      // The run of zero groups that starts at `cut` becomes `::`, when there is one.
      const compressible = (i: number) => i < (dotted ? 6 : 8) && groups[i] === 0;
      let end = cut;
      while (compressible(end)) end++;
      if (end === cut) return tokens.join(':');
      return `${tokens.slice(0, cut).join(':')}::${tokens.slice(end).join(':')}`;
    });
}

const v4Bytes = (n: number) => [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255];

/** The IPv6 forms that carry an IPv4 address. */
function carrying(n: number): fc.Arbitrary<number[]> {
  const b = v4Bytes(n);
  return fc.oneof<fc.Arbitrary<number[]>[]>(
    fc.constant([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 255, 255, ...b]), // mapped
    fc.constant([0, 0, 0, 0, 0, 0, 0, 0, 255, 255, 0, 0, ...b]), // translated
    fc.constant([0, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0, ...b]), // NAT64
    fc.constant([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, ...b]), // compatible
    fc
      .array(fc.nat(255), { minLength: 10, maxLength: 10 })
      .map((rest) => [0x20, 0x02, ...b, ...rest]), // 6to4
  );
}

function v6Block(prefix: number[], bits: number): fc.Arbitrary<number[]> {
  return fc.array(fc.nat(255), { minLength: 16, maxLength: 16 }).map((random) =>
    random.map((byte, i) => {
      const fixed = Math.max(0, Math.min(8, bits - 8 * i));
      const mask = (0xff << (8 - fixed)) & 0xff;
      return ((prefix[i] ?? 0) & mask) | (byte & ~mask & 0xff);
    }),
  );
}

const internalV6 = fc.oneof<fc.Arbitrary<number[]>[]>(
  fc.constant<number[]>([...Array<number>(15).fill(0), 1]), // ::1
  fc.constant<number[]>(Array<number>(16).fill(0)), // ::
  v6Block([0xfe, 0x80], 10), // link-local
  v6Block([0xfc], 7), // unique local: AWS metadata fd00:ec2::254
  internalV4.chain(carrying),
);
const publicV6 = fc.oneof<fc.Arbitrary<number[]>[]>(
  v6Block([0x26, 0x06, 0x47, 0x00], 32),
  v6Block([0x20, 0x01, 0x48, 0x60], 32),
  v6Block([0x2a, 0x00, 0x14, 0x50], 32),
  publicV4.chain(carrying),
);

const INTERNAL_NAMES = [
  'localhost',
  'api.localhost',
  'metadata.google.internal',
  'metadata',
  'instance-data',
  'instance-data.ec2.internal',
  'ip-10-0-0-1.eu-west-1.compute.internal',
  'metadata.tencentyun.com',
  'api.metadata.cloud.ibm.com',
  'printer.local',
  'nas.home.arpa',
  'intranet',
];
const PUBLIC_NAMES = [
  'prod-07.westeurope.logic.azure.com',
  'hooks.slack.com',
  'example.com',
  'alerts.contoso.io',
  'metadata.example.com',
];

/** A name in any case, maybe with the root's trailing dot. */
function nameSpelling(names: string[]): fc.Arbitrary<string> {
  return fc
    .tuple(fc.constantFrom(...names), fc.boolean(), fc.boolean())
    .map(([name, upper, dot]) => `${upper ? name.toUpperCase() : name}${dot ? '.' : ''}`);
}

/** `https://host/…` around a host, with what may follow it: user info, a port, a secret path and
 *  query (which must never be shown). */
function address(host: fc.Arbitrary<string>): fc.Arbitrary<string> {
  return fc
    .record({
      host,
      user: fc.constantFrom('', 'user@', 'user:pw@'),
      port: fc.constantFrom('', ':443', ':8443'),
      path: fc.constantFrom(
        `/workflows/${SECRET}`,
        `/services/T0/B0/${SECRET}`,
        `/x?sig=${SECRET}`,
      ),
    })
    .map(({ host, user, port, path }) => `https://${user}${host}${port}${path}`);
}

const internal = fc.oneof(
  address(internalV4.chain(v4Spelling)),
  address(internalV6.chain(v6Spelling).map((text) => `[${text}]`)),
  address(nameSpelling(INTERNAL_NAMES)),
);
const publicAddress = fc.oneof(
  address(publicV4.chain(v4Spelling)),
  address(publicV6.chain(v6Spelling).map((text) => `[${text}]`)),
  address(nameSpelling(PUBLIC_NAMES)),
);

function refusal(value: string): string | undefined {
  try {
    webhookFromEnv('HOOK', { HOOK: value }, 'teamsWebhookUrlEnv names it');
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

describe('the addresses the service may post to (property)', () => {
  it('every spelling of an internal address is refused, shown as https://host/… only', () => {
    fc.assert(
      fc.property(internal, (value) => {
        const line = refusal(value);
        assert.ok(line !== undefined, `accepted: ${value}`);
        assert.ok(!line.includes(SECRET), line);
        assert.ok(!line.includes('user'), line);
        assert.equal(line.split('\n').length, 1);
        assert.match(line, new RegExp(`HOOK holds https://${escape(new URL(value).host)}/…, `));
      }),
      propertyParameters(400),
    );
  });

  it('the same spellings of public addresses are accepted', () => {
    fc.assert(
      fc.property(publicAddress, (value) => {
        assert.equal(refusal(value), undefined, value);
      }),
      propertyParameters(300),
    );
  });

  it('an IPv6 zone, an address that is not one, and http are refused without showing the rest', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(
          `https://[fe80::1%25eth0]/${SECRET}`,
          `https://[fe80::1%eth0]/${SECRET}`,
          `http://hooks.slack.com/services/${SECRET}`,
          `ftp://203.0.113.9/${SECRET}`,
          `hooks.slack.com/${SECRET}`,
        ),
        (value) => {
          const line = refusal(value) ?? '';
          assert.match(line, /HOOK does not hold an https:\/\/ address/);
          assert.ok(!line.includes(SECRET), line);
        },
      ),
      propertyParameters(20),
    );
  });
});

function escape(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');
}
