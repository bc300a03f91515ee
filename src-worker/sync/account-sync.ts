/**
 * One account's sync loop (STYLE item 11): explicit state, backoff, an AbortController and
 * single-flight pulls. A pull follows delta pages from the stored cursor until `hasMore`
 * is false, each page committed on its own (delta-applier.ts); the next page is fetched
 * while one is written. Websocket announcements
 * ask for a pull; announcements during a pull make exactly one more pull afterwards.
 */
import { systemClock, type Clock } from '../../shared/clock';
import type { DeltaResponse } from '../../shared/api/delta';
import { TernError } from '../../shared/errors';
import { isNetworkError } from '../api/retry';
import { endsSession } from '../api/session-ended';
import { SYNC_BACKOFF, backoffDelay, type BackoffPolicy } from '../net/backoff';
import type { AppliedPage, SyncState } from './delta-applier';
import type { OnlineStatus } from '../net/online-status';

export type SyncPhase = 'idle' | 'pulling' | 'backoff' | 'offline' | 'signed-out' | 'stopped';

export interface AccountSyncState {
  readonly phase: SyncPhase;
  readonly appliedTransactionId: number;
  /** The newest transaction id the gateway announced. */
  readonly latestTxnId: number;
  /** Failed pulls in a row (0 after a success). */
  readonly failures: number;
  readonly error: { readonly name: string; readonly message: string } | null;
}

export interface AccountSyncDeps {
  readonly delta: (params: { cursor: number; limit: number; signal: AbortSignal }) => Promise<DeltaResponse>;
  readonly applier: {
    state(): Promise<SyncState>;
    apply(page: DeltaResponse, params: { fromCursor: number; latestKnown: number }): Promise<AppliedPage | null>;
  };
  readonly online: OnlineStatus;
  readonly clock?: Clock;
  readonly random?: () => number;
  /** Log entries per page (the gateway allows up to 2000). */
  readonly pageSize?: number;
  readonly backoff?: BackoffPolicy;
  /** After each committed page (account record, live lists, command outcomes). */
  readonly onPage: (page: AppliedPage) => void | Promise<void>;
  readonly onState?: (state: AccountSyncState) => void;
  /** The gateway no longer knows this session: stop, the account must log in again. */
  readonly onSessionEnded?: (error: TernError) => void;
  /** ClearClientCache: the local copy belongs to another store; empty it, then pull again. */
  readonly onCacheCleared?: () => Promise<void>;
}

export interface AccountSync {
  /** Pulls until caught up (single flight); rejects when a pull failed (a retry is then scheduled). */
  pull(): Promise<void>;
  /** A websocket frame: the gateway has transactions up to `latestTxnId`. */
  announce(latestTxnId: number): void;
  stop(): void;
  readonly state: AccountSyncState;
}

export const DEFAULT_PAGE_SIZE = 2000;
/**
 * The first page of an empty database is small: the gateway mirrors the newest inbox page
 * first, so the log starts with the folders and that page, and the first screen commits
 * before the backfill's bigger pages.
 */
export const FIRST_PAGE_SIZE = 300;

export function createAccountSync(deps: AccountSyncDeps): AccountSync {
  const clock = deps.clock ?? systemClock;
  const controller = new AbortController();
  let state: AccountSyncState = { phase: 'idle', appliedTransactionId: 0, latestTxnId: 0, failures: 0, error: null };
  let current: Promise<void> | null = null;
  let queued: Promise<void> | null = null;
  let retryTimer: unknown = null;
  let stopOnlineWait: (() => void) | null = null;

  const set = (change: Partial<AccountSyncState>) => {
    state = { ...state, ...change };
    deps.onState?.(state);
  };
  const stopped = () => controller.signal.aborted || state.phase === 'signed-out';

  const retryLater = (delay: number) => {
    if (retryTimer !== null) clock.clearTimeout(retryTimer);
    retryTimer = clock.setTimeout(() => {
      retryTimer = null;
      void pull().catch(() => undefined);
    }, delay);
  };

  const waitForNetwork = () => {
    set({ phase: 'offline' });
    stopOnlineWait?.();
    stopOnlineWait = deps.online.subscribe((online) => {
      if (!online) return;
      stopOnlineWait?.();
      stopOnlineWait = null;
      void pull().catch(() => undefined);
    });
  };

  const fail = async (error: unknown) => {
    const tern = error instanceof TernError ? error : null;
    const failures = state.failures + 1;
    set({ failures, error: tern ? { name: tern.name, message: tern.message } : { name: 'Error', message: String(error) } });
    if (tern && endsSession(tern)) {
      set({ phase: 'signed-out' });
      deps.onSessionEnded?.(tern);
      return;
    }
    if (tern?.name === 'ClearClientCache' && deps.onCacheCleared) {
      await deps.onCacheCleared();
      retryLater(0);
      return;
    }
    if (isNetworkError(error) && !(await deps.online.isOnline({ force: true }))) {
      waitForNetwork();
      return;
    }
    set({ phase: 'backoff' });
    retryLater(backoffDelay(failures, deps.backoff ?? SYNC_BACKOFF, deps.random));
  };

  const fetchPage = (from: number): Promise<DeltaResponse> => {
    const limit = deps.pageSize ?? DEFAULT_PAGE_SIZE;
    return deps.delta({ cursor: from, limit: from === 0 ? Math.min(limit, FIRST_PAGE_SIZE) : limit, signal: controller.signal });
  };

  const run = async (): Promise<void> => {
    if (stopped()) return;
    set({ phase: 'pulling' });
    // The page after the one being written is already on its way (download and write overlap).
    let ahead: { from: number; page: Promise<DeltaResponse> } | null = null;
    try {
      let stored: SyncState | null = null;
      for (;;) {
        stored ??= await deps.applier.state();
        const { appliedTransactionId: from, cursor } = stored;
        const request: Promise<DeltaResponse> = ahead?.from === from ? ahead.page : fetchPage(from);
        ahead = null;
        const page: DeltaResponse = await request;
        if (stopped()) return;
        if (page.hasMore) {
          ahead = { from: page.cursor, page: fetchPage(page.cursor) };
          ahead.page.catch(() => undefined); // its failure is met when it is awaited, or never if it is dropped
        }
        // An unchanged mailbox costs one round trip and no write.
        if (page.changes.length > 0 || page.cursor !== from) {
          const applied = await deps.applier.apply(page, { fromCursor: from, latestKnown: Math.max(state.latestTxnId, cursor) });
          if (!applied) {
            stored = null; // the stored cursor moved under us: start again from it
            continue;
          }
          stored = applied.state;
          set({ appliedTransactionId: applied.state.appliedTransactionId, latestTxnId: Math.max(state.latestTxnId, applied.state.cursor) });
          await deps.onPage(applied);
        } else {
          set({ appliedTransactionId: from });
        }
        if (!page.hasMore) break;
      }
      set({ phase: 'idle', failures: 0, error: null });
    } catch (error) {
      if (controller.signal.aborted) return;
      await fail(error);
      throw error;
    }
  };

  const pull = (): Promise<void> => {
    if (stopped()) return Promise.resolve();
    if (!current) {
      current = run().finally(() => (current = null));
      return current;
    }
    // One more pull after the running one, shared by every request that came meanwhile.
    queued ??= current
      .catch(() => undefined)
      .then(() => {
        queued = null;
        return pull();
      });
    return queued;
  };

  return {
    pull,
    announce(latestTxnId) {
      if (latestTxnId > state.latestTxnId) set({ latestTxnId });
      // During a backoff the timer decides: a broken page must not be fetched on every frame.
      if (latestTxnId > state.appliedTransactionId && state.phase !== 'backoff') void pull().catch(() => undefined);
    },
    stop() {
      controller.abort();
      if (retryTimer !== null) clock.clearTimeout(retryTimer);
      stopOnlineWait?.();
      set({ phase: 'stopped' });
    },
    get state() {
      return state;
    },
  };
}
