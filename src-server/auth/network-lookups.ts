import { promises as dns } from 'node:dns';
import { BlockList, connect, isIP, type Socket } from 'node:net';
import { MAX_AUTOCONFIG_BYTES } from './autoconfig-xml';
import type { DiscoveryDeps } from './discovery';

/**
 * Time limits of discovery on the real network. Every wait fails fast: a login form
 * waiting on a dead resolver or a silent web server is worse than a clear error. Each
 * bounds one whole wait (its own DNS included); discovery as a whole has its own budget
 * (DISCOVERY_BUDGET_MS) and cancels what is left through the AbortSignal each call takes.
 */
export const LOOKUP_TIMEOUTS = {
  /** One DNS question (c-ares, one try). */
  dnsMs: 2_000,
  /** One autoconfig download, DNS included. */
  fetchMs: 3_000,
  /** One TCP connect of the MX-based guess, DNS included. */
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

/**
 * Rejects after `ms`, or at once when `signal` aborts, and runs `onStop` (to cancel the
 * work) — a guard against anything that hangs, and the way discovery cancels a lookup.
 */
function within<T>(ms: number, work: Promise<T>, onStop: () => void, signal?: AbortSignal): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  const stopped = new Promise<never>((_, reject) => {
    const stop = (error: Error) => {
      onStop();
      reject(error);
    };
    timer = setTimeout(() => stop(Object.assign(new Error(`timed out after ${ms} ms`), { code: 'ETIMEOUT' })), ms);
    onAbort = () => stop(Object.assign(new Error('cancelled'), { code: 'ECANCELLED' }));
    if (signal?.aborted) onAbort();
    else signal?.addEventListener('abort', onAbort, { once: true });
  });
  return Promise.race([work, stopped]).finally(() => {
    clearTimeout(timer);
    if (onAbort) signal?.removeEventListener('abort', onAbort);
  });
}

/** One question on its own resolver, so cancelling it cancels nothing else. */
function ask<T>(question: (resolver: dns.Resolver) => Promise<T>, signal?: AbortSignal): Promise<T> {
  const resolver = new dns.Resolver({ timeout: LOOKUP_TIMEOUTS.dnsMs, tries: 1 });
  return within(LOOKUP_TIMEOUTS.dnsMs + 500, question(resolver), () => resolver.cancel(), signal);
}

/**
 * Public addresses of a host, resolved with c-ares (not getaddrinfo, which can block a
 * libuv thread for the system resolver's whole timeout).
 */
async function publicAddresses(host: string, signal?: AbortSignal): Promise<string[]> {
  if (isIP(host)) return isPublicAddress(host) ? [host] : [];
  const [v4, v6] = await Promise.all([
    ask((r) => r.resolve4(host), signal).catch(() => [] as string[]),
    ask((r) => r.resolve6(host), signal).catch(() => [] as string[]),
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

/** GET over https, no redirects (an autoconfig answer must come from the domain asked), bounded in time (DNS included) and size. */
async function fetchText(url: string, signal?: AbortSignal): Promise<string | null> {
  const target = new URL(url);
  if (target.protocol !== 'https:') return null;
  const controller = new AbortController();
  const work = (async () => {
    if ((await publicAddresses(target.hostname, controller.signal)).length === 0) return null;
    const response = await fetch(target, { redirect: 'manual', signal: controller.signal, headers: { accept: 'application/xml, text/xml' } });
    return response.status === 200 ? readLimited(response, MAX_AUTOCONFIG_BYTES) : null;
  })();
  return within(LOOKUP_TIMEOUTS.fetchMs, work, () => controller.abort(), signal).catch(() => null);
}

/** Whether a TCP connect succeeds, bounded in time (DNS included). */
async function canConnect(server: { host: string; port: number }, signal?: AbortSignal): Promise<boolean> {
  const controller = new AbortController();
  let socket: Socket | undefined;
  const work = (async () => {
    const [address] = await publicAddresses(server.host, controller.signal);
    if (!address || controller.signal.aborted) return false;
    return new Promise<boolean>((resolve) => {
      const opened = connect({ host: address, port: server.port });
      socket = opened;
      const done = (ok: boolean) => {
        opened.destroy();
        resolve(ok);
      };
      opened.once('connect', () => done(true));
      opened.once('error', () => done(false));
      opened.once('close', () => done(false));
    });
  })();
  const stop = () => {
    controller.abort();
    socket?.destroy();
  };
  return within(LOOKUP_TIMEOUTS.connectMs, work, stop, signal).catch(() => false);
}

/** The network half of discovery's dependencies, for production (tests pass fakes). */
export function networkLookups(): Pick<DiscoveryDeps, 'dns' | 'fetchText' | 'canConnect'> {
  return {
    dns: {
      resolveSrv: (name, signal) => ask((r) => r.resolveSrv(name), signal),
      resolveMx: (name, signal) => ask((r) => r.resolveMx(name), signal),
    },
    fetchText,
    canConnect,
  };
}
