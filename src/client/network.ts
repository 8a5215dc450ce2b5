// Which network an address is on. A report's presigned address comes from the service: when it
// points at the runner itself or its private network (loopback, link-local, private, unique-local,
// CGNAT, reserved ranges), fetching it would let a service read what only the runner can reach and
// upload it as an artifact. Such addresses are refused unless the API itself is on such a network
// (a local emulator, an intranet deployment). Names are checked where they are resolved: the
// download's connections go through `guardedLookup`.
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import type { ConnectionOptions } from 'node:tls';
import ipaddr from 'ipaddr.js';

const IPV4_COMPATIBLE = ipaddr.IPv6.parseCIDR('::/96');

/** An IP literal (v4, v6, bracketed v6) that is not on the public internet. */
export function isLocalAddress(address: string): boolean {
  const literal = address.replace(/^\[|\]$/g, '');
  if (!ipaddr.isValid(literal)) return false;
  const parsed = ipaddr.parse(literal);
  if (parsed.kind() === 'ipv4') return parsed.range() !== 'unicast';
  const v6 = parsed as ipaddr.IPv6;
  if (v6.isIPv4MappedAddress()) return v6.toIPv4Address().range() !== 'unicast';
  // The deprecated IPv4-compatible form (::a.b.c.d) is judged by its IPv4 address, which ipaddr.js
  // leaves in the unicast range.
  if (v6.range() === 'unicast' && v6.match(IPV4_COMPATIBLE)) {
    return ipaddr.fromByteArray(v6.toByteArray().slice(12)).range() !== 'unicast';
  }
  return v6.range() !== 'unicast';
}

/** A host that is local by its name alone: a local IP literal, localhost or *.localhost (with or
 *  without the trailing dot of a fully qualified name: `localhost.` is the same name). */
export function isLocalHostname(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  return host === 'localhost' || host.endsWith('.localhost') || isLocalAddress(host);
}

/** The `lookup` option of net/tls connections (undici passes its `connect` options on). */
export type Lookup = NonNullable<ConnectionOptions['lookup']>;

/** The error a guarded lookup gives for a name that resolves to a local address. */
export class LocalAddressError extends Error implements NodeJS.ErrnoException {
  readonly code = 'ELOCALADDRESS';
  constructor(
    readonly hostname: string,
    readonly address: string,
  ) {
    super(`${hostname} resolves to ${address}, a loopback, link-local or private address`);
  }
}

/** A `lookup` for net/tls connections (undici's `connect` options) that refuses names resolving
 *  to local addresses unless `allowLocal()` says the API is on such a network too. */
export function guardedLookup(allowLocal: () => Promise<boolean>): Lookup {
  return (hostname, options, callback) => {
    const family = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : options.family;
    dnsLookup(hostname, { family, hints: options.hints, all: true }, (error, addresses) => {
      if (error) return callback(error, '', 0);
      const answer = () => {
        if (options.all) return (callback as AllCallback)(null, addresses);
        callback(null, addresses[0]?.address ?? '', addresses[0]?.family ?? 0);
      };
      const local = addresses.find((entry) => isLocalAddress(entry.address));
      if (!local) return answer();
      allowLocal().then(
        (allowed) =>
          allowed ? answer() : callback(new LocalAddressError(hostname, local.address), '', 0),
        (failure: NodeJS.ErrnoException) => callback(failure, '', 0),
      );
    });
  };
}

type AllCallback = (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void;

/** Whether a host is on a local network: by its name, else by what it resolves to (once). */
export function localNetworkCheck(hostname: string): () => Promise<boolean> {
  let answer: Promise<boolean> | undefined;
  return () =>
    (answer ??= isLocalHostname(hostname)
      ? Promise.resolve(true)
      : new Promise((resolve) => {
          dnsLookup(hostname, { all: true }, (error, addresses) =>
            resolve(!error && addresses.some((entry) => isLocalAddress(entry.address))),
          );
        }));
}
