/**
 * Whether the engine can reach the network (spec §4, §7, §9): a GET of the small status
 * image with no cache; the answer is kept for 1 minute. When the browser says it went
 * offline we believe it at once and look again 1 minute later (and each minute after,
 * while it stays offline); when it says it is back we look at once.
 */
import { systemClock, type Clock } from '../../shared/clock';
import { TIME } from '../../shared/constants';
import { backoffDelay } from './backoff';

/** How long an answer holds, and the re-check delay after the browser reports offline (spec §9). */
export const ONLINE_CACHE_MS = TIME.minute;
export const OFFLINE_RECHECK_MS = TIME.minute;
/**
 * When the browser says it is online but the status image does not answer (the gateway
 * restarting, a proxy between), the next looks come sooner — 5 s doubling up to the
 * minute — so a tab is not left saying "offline" for a minute after the server is back
 * (issue point 24). The spec's minute stays for when the browser itself says offline.
 */
export const UNREACHABLE_RECHECK_MS = { first: 5_000, max: OFFLINE_RECHECK_MS } as const;
const CHECK_TIMEOUT_MS = 10_000;

/** The browser's own signal: `navigator.onLine` and the global online/offline events. */
export interface BrowserOnlineSignal {
  readonly onLine: () => boolean;
  /** Calls `listener` with the new value on every online/offline event; returns an unsubscribe. */
  readonly subscribe: (listener: (online: boolean) => void) => () => void;
}

export interface OnlineStatusDeps {
  readonly fetch: typeof fetch;
  /** The status image, e.g. `https://mail.example.com/status.png`. */
  readonly statusUrl: string;
  readonly clock?: Clock;
  readonly browser?: BrowserOnlineSignal;
}

export interface OnlineStatus {
  /** Reachable now? The cached answer when younger than a minute, unless `force`. */
  isOnline(params?: { force?: boolean }): Promise<boolean>;
  /** The last answer, without checking (null before the first). */
  readonly last: boolean | null;
  /** Told whenever the answer changes. */
  subscribe(listener: (online: boolean) => void): () => void;
  dispose(): void;
}

/** The global scope's signal (a worker has navigator.onLine and online/offline events too). */
export function globalOnlineSignal(): BrowserOnlineSignal | undefined {
  const scope = globalThis as unknown as { navigator?: { onLine?: boolean }; addEventListener?: typeof addEventListener; removeEventListener?: typeof removeEventListener };
  if (typeof scope.navigator?.onLine !== 'boolean' || typeof scope.addEventListener !== 'function') return undefined;
  return {
    onLine: () => scope.navigator?.onLine !== false,
    subscribe(listener) {
      const online = () => listener(true);
      const offline = () => listener(false);
      scope.addEventListener?.('online', online);
      scope.addEventListener?.('offline', offline);
      return () => {
        scope.removeEventListener?.('online', online);
        scope.removeEventListener?.('offline', offline);
      };
    },
  };
}

export function createOnlineStatus(deps: OnlineStatusDeps): OnlineStatus {
  const clock = deps.clock ?? systemClock;
  const listeners = new Set<(online: boolean) => void>();
  let last: boolean | null = null;
  let checkedAt = Number.NEGATIVE_INFINITY;
  let checking: Promise<boolean> | null = null;
  let recheckTimer: unknown = null;
  /** Failed looks in a row while the browser says it is online. */
  let unreachable = 0;

  const record = (online: boolean, { browserOffline = false } = {}) => {
    checkedAt = clock.now();
    const changed = online !== last;
    last = online;
    if (changed) for (const listener of listeners) listener(online);
    // While offline, keep looking once a minute; the browser may never fire 'online' (a captive portal).
    if (recheckTimer !== null) clock.clearTimeout(recheckTimer);
    const delay = browserOffline ? OFFLINE_RECHECK_MS : backoffDelay(unreachable + 1, { baseMs: UNREACHABLE_RECHECK_MS.first, maxMs: UNREACHABLE_RECHECK_MS.max });
    unreachable = online || browserOffline ? 0 : unreachable + 1;
    recheckTimer = online ? null : clock.setTimeout(() => void check(true), delay);
  };

  const probe = async (): Promise<boolean> => {
    const controller = new AbortController();
    const timer = clock.setTimeout(() => controller.abort(), CHECK_TIMEOUT_MS);
    try {
      // Any answer from the host means the network works; only no answer means offline.
      const response = await deps.fetch(deps.statusUrl, { cache: 'no-store', signal: controller.signal });
      await response.body?.cancel().catch(() => undefined);
      return true;
    } catch {
      return false;
    } finally {
      clock.clearTimeout(timer);
    }
  };

  const check = (force: boolean): Promise<boolean> => {
    if (!force && last !== null && clock.now() - checkedAt < ONLINE_CACHE_MS) return Promise.resolve(last);
    checking ??= probe()
      .then((online) => {
        record(online);
        return online;
      })
      .finally(() => (checking = null));
    return checking;
  };

  const unsubscribe = deps.browser?.subscribe((online) => {
    if (online) void check(true);
    else record(false, { browserOffline: true }); // the browser knows it has no network; re-checked in a minute
  });

  return {
    isOnline: (params) => check(params?.force ?? false),
    get last() {
      return last;
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    dispose() {
      unsubscribe?.();
      if (recheckTimer !== null) clock.clearTimeout(recheckTimer);
      listeners.clear();
    },
  };
}
