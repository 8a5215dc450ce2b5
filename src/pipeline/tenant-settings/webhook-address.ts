// Which addresses the service may be told to post to. The service posts scan events to the
// webhook of the tenant's settings from its own network: an address that names this machine, a
// cloud's metadata service or an internal network would make it reach where it must not. The rule
// is on what the address says — no name is resolved — in every spelling the WHATWG URL parser
// accepts: it turns decimal, octal, hex and shortened IPv4 into dotted decimal and compresses IPv6,
// and ipaddr.js tells the range; IPv6 forms that carry an IPv4 address (mapped, translated,
// compatible, NAT64, 6to4) are judged by that address. (The Action's own notify-webhook is the
// user's runner posting to the user's choice: not this rule.)

import ipaddr from 'ipaddr.js';

/** Names of cloud metadata services, from the clouds' documentation: Google Cloud
 *  (`metadata.google.internal`, and `metadata` inside a VM), AWS (`instance-data`,
 *  `instance-data.ec2.internal`), Tencent Cloud, IBM Cloud VPC. Azure documents addresses only
 *  (below); `metadata.azure.com` is listed all the same, as a name an attacker may try. */
const METADATA_NAMES = new Set([
  'metadata.google.internal',
  'metadata',
  'instance-data',
  'instance-data.ec2.internal',
  'metadata.tencentyun.com',
  'api.metadata.cloud.ibm.com',
  'metadata.azure.com',
]);

/** Addresses of metadata services outside the internal ranges: Azure's WireServer (its docs: treat
 *  169.254.169.254 as 168.63.129.16). Alibaba's 100.100.100.200 is in the shared range anyway. */
const METADATA_ADDRESSES = new Set(['168.63.129.16']);

/** Names only a local network resolves: RFC 6761 (localhost), RFC 6762 (local), RFC 8375
 *  (home.arpa), ICANN's private-use `internal` (AWS's `*.compute.internal`, Google's
 *  `*.c.PROJECT.internal`) and the common `localdomain`. */
const LOCAL_SUFFIXES = ['localhost', 'local', 'internal', 'home.arpa', 'localdomain'];

const V4_REASONS: Record<string, string> = {
  loopback: 'a loopback address (this machine)',
  linkLocal: 'a link-local address (where cloud metadata services answer)',
  private: 'a private address (RFC 1918)',
  unspecified: 'an unspecified address',
  carrierGradeNat: 'a shared address (RFC 6598, where Alibaba Cloud metadata answers)',
};

const V6_REASONS: Record<string, string> = {
  loopback: 'a loopback address (this machine)',
  linkLocal: 'a link-local address (fe80::/10)',
  uniqueLocal: 'a unique-local (private) address (fc00::/7, where AWS metadata answers)',
  unspecified: 'an unspecified address',
  rfc6052: 'a local-use NAT64 address (64:ff9b:1::/48)',
};

/** IPv6 prefixes whose last 32 bits are an IPv4 address: IPv4-mapped, SIIT-translated, NAT64's
 *  well-known prefix, and the deprecated IPv4-compatible form. */
const V4_IN_LAST_32_BITS = (
  [
    ['::ffff:0:0/96', 'an IPv4-mapped form of'],
    ['::ffff:0:0:0/96', 'an IPv4-translated form of'],
    ['64:ff9b::/96', 'a NAT64 form of'],
    ['::/96', 'an IPv4-compatible form of'],
  ] as const
).map(([cidr, form]) => ({ range: ipaddr.IPv6.parseCIDR(cidr), form }));
const SIX_TO_FOUR = ipaddr.IPv6.parseCIDR('2002::/16');

/** Why the service must not be pointed at `address`, or undefined when it may. */
export function webhookAddressProblem(address: string): string | undefined {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    return 'not an address';
  }
  if (url.protocol !== 'https:') return 'not an https:// address';
  return hostProblem(url.hostname);
}

/** `hostname` as URL gives it: lower-case, IPv4 in dotted decimal, IPv6 in brackets. */
function hostProblem(hostname: string): string | undefined {
  if (hostname.startsWith('[')) return v6Problem(ipaddr.IPv6.parse(hostname.slice(1, -1)));
  if (ipaddr.IPv4.isValidFourPartDecimal(hostname)) return v4Problem(ipaddr.IPv4.parse(hostname));
  return nameProblem(hostname.replace(/\.$/, ''));
}

function nameProblem(name: string): string | undefined {
  if (METADATA_NAMES.has(name)) return 'the name of a cloud metadata service';
  const local = LOCAL_SUFFIXES.find((suffix) => name === suffix || name.endsWith(`.${suffix}`));
  if (local !== undefined) return `a name only a local network resolves (.${local})`;
  if (!name.includes('.')) return 'a name without a domain (only a local network resolves it)';
  return undefined;
}

function v4Problem(address: ipaddr.IPv4): string | undefined {
  if (METADATA_ADDRESSES.has(address.toString())) return 'the address of a cloud metadata service';
  const range = address.range();
  if (range === 'unicast') return undefined;
  return V4_REASONS[range] ?? `an address of the ${range} range, not a public one`;
}

function v6Problem(address: ipaddr.IPv6): string | undefined {
  const range = address.range();
  if (range === 'loopback' || range === 'unspecified') return V6_REASONS[range];
  const embedded = embeddedV4(address);
  if (embedded) {
    const problem = v4Problem(embedded.address);
    return problem === undefined ? undefined : `${embedded.form} ${problem}`;
  }
  if (range === 'unicast') return undefined;
  return V6_REASONS[range] ?? `an address of the ${range} range, not a public one`;
}

function embeddedV4(address: ipaddr.IPv6): { address: ipaddr.IPv4; form: string } | undefined {
  const bytes = address.toByteArray();
  for (const { range, form } of V4_IN_LAST_32_BITS) {
    if (address.match(range)) {
      return { address: ipaddr.fromByteArray(bytes.slice(12)) as ipaddr.IPv4, form };
    }
  }
  if (address.match(SIX_TO_FOUR)) {
    return {
      address: ipaddr.fromByteArray(bytes.slice(2, 6)) as ipaddr.IPv4,
      form: 'a 6to4 form of',
    };
  }
  return undefined;
}
