import { promises as dns } from 'node:dns';
import { BlockList, connect, isIP } from 'node:net';
import { MAX_AUTOCONFIG_BYTES } from './autoconfig-xml';
import type { DiscoveryDeps } from './discovery';

/**
 * Time limits of discovery on the real network. Every step fails fast: a login form
 * waiting on a dead resolver or a silent web server is worse than a clear error.
 */
export const LOOKUP_TIMEOUTS = {
  /** One DNS question (c-ares, one try). */
  dnsMs: 2_000,
  /** One autoconfig download, DNS included. */
  fetchMs: 3_000,
  /** One TCP connect of the MX-based guess. */
  connectMs: 3_000,
};

/** Addresses a name found on the internet must not lead the gateway to (its own host, the LAN). */
const INTERNAL = new BlockList();
for (const [net, bits] of [['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12], ['192.168.0.0', 16]] as const) {
  INTERNAL.addSubnet(net, bits, 'ipv4');
}
for (const [net, bits] of [['::', 127], ['fc00::', 7], ['fe80::', 10]] as const) INTERNAL.addSubnet(net, bits, 'ipv6');

export function isPublicAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (mapped) return isPublicAddress(mapped);
  const family = isIP(address);
  return family !== 0 && !INTERNAL.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/** Rejects after `ms` and runs `onTimeout` (to cancel the work) — a guard against anything that hangs. */
function within<T>(ms: number, work: Promise<T>, onTimeout: () => void): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      onTimeout();
      reject(Object.assign(new Error(`timed out after ${ms} ms`), { code: 'ETIMEOUT' }));
    }, ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/** One question on its own resolver, so cancelling it cancels nothing else. */
function ask<T>(question: (resolver: dns.Resolver) => Promise<T>): Promise<T> {
  const resolver = new dns.Resolver({ timeout: LOOKUP_TIMEOUTS.dnsMs, tries: 1 });
  return within(LOOKUP_TIMEOUTS.dnsMs + 500, question(resolver), () => resolver.cancel());
}

/**
 * Public addresses of a host, resolved with c-ares (not getaddrinfo, which can block a
 * libuv thread for the system resolver's whole timeout).
 */
async function publicAddresses(host: string): Promise<string[]> {
  if (isIP(host)) return isPublicAddress(host) ? [host] : [];
  const [v4, v6] = await Promise.all([
    ask((r) => r.resolve4(host)).catch(() => [] as string[]),
    ask((r) => r.resolve6(host)).catch(() => [] as string[]),
  ]);
  return [...v4, ...v6].filter(isPublicAddress);
}

async function readLimited(response: Response, limit: number): Promise<string | null> {
  if (Number(response.headers.get('content-length') ?? 0) > limit || !response.body) return null;
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** GET over https, no redirects (an autoconfig answer must come from the domain asked), bounded in time and size. */
async function fetchText(url: string): Promise<string | null> {
  const target = new URL(url);
  if (target.protocol !== 'https:' || (await publicAddresses(target.hostname)).length === 0) return null;
  const controller = new AbortController();
  const work = (async () => {
    const response = await fetch(target, { redirect: 'manual', signal: controller.signal, headers: { accept: 'application/xml, text/xml' } });
    return response.status === 200 ? readLimited(response, MAX_AUTOCONFIG_BYTES) : null;
  })();
  return within(LOOKUP_TIMEOUTS.fetchMs, work, () => controller.abort()).catch(() => null);
}

async function canConnect(server: { host: string; port: number }): Promise<boolean> {
  const [address] = await publicAddresses(server.host);
  if (!address) return false;
  return new Promise<boolean>((resolve) => {
    const socket = connect({ host: address, port: server.port, timeout: LOOKUP_TIMEOUTS.connectMs });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.once('connect', () => done(true));
    socket.once('timeout', () => done(false));
    socket.once('error', () => done(false));
  });
}

/** The network half of discovery's dependencies, for production (tests pass fakes). */
export function networkLookups(): Pick<DiscoveryDeps, 'dns' | 'fetchText' | 'canConnect'> {
  return {
    dns: {
      resolveSrv: (name) => ask((r) => r.resolveSrv(name)),
      resolveMx: (name) => ask((r) => r.resolveMx(name)),
    },
    fetchText,
    canConnect,
  };
}
