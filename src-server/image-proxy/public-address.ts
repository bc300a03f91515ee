/**
 * Which IP addresses the image proxy may connect to: only the public internet. A remote
 * image URL is chosen by the sender of a mail, so without this check the gateway would
 * fetch, for anyone who can get a mail read, its own loopback services, the provider's
 * private network and the cloud's metadata endpoint (SSRF).
 *
 * The ranges are IANA's special-purpose registries (RFC 6890 and its updates) for IPv4 and
 * IPv6. IPv6 forms that carry an IPv4 address (IPv4-mapped, IPv4-compatible, NAT64, 6to4)
 * are judged by the address they carry, so `::ffff:127.0.0.1` is loopback.
 */
import { BlockList, isIP } from 'node:net';

const V4_SPECIAL: readonly (readonly [string, number])[] = [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT (and Alibaba's metadata at 100.100.100.200)
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local (the cloud metadata endpoint 169.254.169.254)
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay anycast
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, and the broadcast address
];

const V6_SPECIAL: readonly (readonly [string, number])[] = [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['100::', 64], // discard-only
  ['2001::', 23], // IETF protocol assignments (Teredo, ORCHID, …)
  ['2001:db8::', 32], // documentation
  ['fc00::', 7], // unique local (and AWS's metadata fd00:ec2::254)
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated, still routed inside some networks)
  ['ff00::', 8], // multicast
];

const special = new BlockList();
for (const [address, prefix] of V4_SPECIAL) special.addSubnet(address, prefix, 'ipv4');
for (const [address, prefix] of V6_SPECIAL) special.addSubnet(address, prefix, 'ipv6');

/** The IPv4 address an IPv6 address carries in its low 32 bits, for the forms that route to it. */
function embeddedIpv4(address: string): string | null {
  const words = expandIpv6(address);
  if (!words) return null;
  const low = `${words[6]! >> 8}.${words[6]! & 0xff}.${words[7]! >> 8}.${words[7]! & 0xff}`;
  const high = words.slice(0, 6);
  const zeros = (from: number, to: number) => high.slice(from, to).every((word) => word === 0);
  if (zeros(0, 5) && high[5] === 0xffff) return low; // ::ffff:a.b.c.d, IPv4-mapped
  if (zeros(0, 6)) return low; // ::a.b.c.d, IPv4-compatible (deprecated; :: and ::1 are caught before)
  if (high[0] === 0x64 && high[1] === 0xff9b && zeros(2, 6)) return low; // 64:ff9b::/96, NAT64
  if (high[0] === 0x2002) return `${words[1]! >> 8}.${words[1]! & 0xff}.${words[2]! >> 8}.${words[2]! & 0xff}`; // 6to4
  return null;
}

/** The eight 16-bit words of an IPv6 address (with an IPv4 tail, a zone id dropped), or null. */
function expandIpv6(address: string): number[] | null {
  let text = address.split('%')[0]!.toLowerCase();
  const v4Tail = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (v4Tail) {
    const [a, b, c, d] = v4Tail.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, v4Tail.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const left = head ? head.split(':') : [];
  const right = tail !== undefined && tail !== '' ? tail.split(':') : [];
  const missing = 8 - left.length - right.length;
  if (tail === undefined ? missing !== 0 : missing < 1) return null;
  const words = [...left, ...Array<string>(tail === undefined ? 0 : missing).fill('0'), ...right].map((word) => parseInt(word, 16));
  return words.length === 8 && words.every((word) => Number.isInteger(word) && word >= 0 && word <= 0xffff) ? words : null;
}

/** True only for an address on the public internet; anything unparsable is not. */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return !special.check(address, 'ipv4');
  if (family !== 6) return false;
  if (special.check(address.split('%')[0]!, 'ipv6')) return false;
  const carried = embeddedIpv4(address);
  return carried === null || !special.check(carried, 'ipv4');
}
