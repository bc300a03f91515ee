/**
 * The one address an outgoing request of the gateway on a stranger's behalf may go to (the
 * image proxy's GET, the one-click unsubscribe POST): every address of the host must be
 * public or allowed by the operator, and the socket is then pinned to the address checked,
 * so a rebinding DNS server cannot answer a second lookup differently (SSRF).
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP, type BlockList, type LookupFunction } from 'node:net';
import { isPublicAddress } from './public-address';

export interface AddressPolicy {
  /** Ranges the operator lets the request reach although they are not public. */
  readonly allowed?: BlockList;
  /** Resolves a host name to every address it has (default: the system's resolver). */
  readonly resolve?: (host: string) => Promise<readonly { address: string; family: number }[]>;
}

export interface PinnedAddress {
  readonly address: string;
  readonly family: number;
}

const systemResolve = (host: string) => dnsLookup(host, { all: true, verbatim: true });

/** The address to connect to; `fail('refused' | 'unavailable', reason)` makes the caller's error. */
export async function checkedAddress(hostname: string, policy: AddressPolicy, fail: (kind: 'refused' | 'unavailable', reason: string) => Error): Promise<PinnedAddress> {
  // WHATWG URL has already turned 2130706433, 0x7f.1 and 0177.0.0.1 into dotted IPv4.
  const literal = hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
  const family = isIP(literal);
  const addresses = family !== 0 ? [{ address: literal, family }] : await (policy.resolve ?? systemResolve)(literal).catch(() => []);
  if (addresses.length === 0) throw fail('unavailable', `no address for ${literal}`);
  for (const { address, family: kind } of addresses) {
    const allowed = policy.allowed?.check(address, kind === 6 ? 'ipv6' : 'ipv4') ?? false;
    if (!allowed && !isPublicAddress(address)) throw fail('refused', `${literal} is ${address}`);
  }
  return addresses[0]!;
}

/** A `lookup` for node's http(s).request that always answers the pinned address. */
export function pinnedLookup(pinned: PinnedAddress): LookupFunction {
  return (_host, lookupOptions, callback) => {
    if (lookupOptions.all) (callback as (error: null, addresses: PinnedAddress[]) => void)(null, [pinned]);
    else callback(null, pinned.address, pinned.family);
  };
}
