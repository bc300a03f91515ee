/**
 * The first screen, asked for before the app is even loaded (DESIGN §8: warm start ≤ 250
 * ms). A reload of a mailbox address knows from the address alone which list it will
 * show — the unified inbox needs the account ids too, remembered from the last visit —
 * so the entry asks the engine for it in the same breath as the handshake, and the app
 * adopts the answer when its mailbox mounts (state/engine-feeds/) instead of asking
 * again after the router, the account list and the first render.
 *
 * A guess that turns out wrong (accounts changed meanwhile, another address) costs one
 * read in the engine: the bridge compares scopes and windows, and drops a list it does
 * not use.
 */
import type { ListPatch, ListScope, ListSnapshot, ListWindow } from '../../shared/worker-mail-api';
import { FIRST_WINDOW_ROWS } from '../kit/virtual-window';

/** localStorage key of the account ids the unified lists of the last visit named (primary first). */
export const ACCOUNT_IDS_KEY = 'tern.accountIds';
type UnifiedRole = Extract<ListScope, { kind: 'unified' }>['role'];
const UNIFIED_ROLES: ReadonlySet<string> = new Set<UnifiedRole>(['inbox', 'sent', 'drafts', 'archive', 'junk', 'trash', 'snoozed']);
/** A list nobody adopted by then is ended (its subscription would otherwise refresh for nothing). */
export const EARLY_LIST_MS = 15_000;

function storage(): Storage | undefined {
  try {
    return localStorage;
  } catch {
    return undefined;
  }
}

/** Remembers the account ids for the next start (an empty list forgets them: logged out). */
export function rememberAccountIds(accountIds: readonly string[]): void {
  try {
    if (accountIds.length === 0) storage()?.removeItem(ACCOUNT_IDS_KEY);
    else storage()?.setItem(ACCOUNT_IDS_KEY, JSON.stringify(accountIds));
  } catch {
    // Storage full or denied: the next start asks after the account list instead.
  }
}

function rememberedAccountIds(): readonly string[] | null {
  try {
    const ids: unknown = JSON.parse(storage()?.getItem(ACCOUNT_IDS_KEY) ?? 'null');
    return Array.isArray(ids) && ids.length > 0 && ids.every((id) => typeof id === 'string') ? ids : null;
  } catch {
    return null;
  }
}

/**
 * The list an address shows, as state/list-scope.ts builds it (same fields, same order: the
 * bridge compares the JSON). Null for addresses that show no list, or a search.
 */
export function firstScreenScope(location: { pathname: string; search: string }): ListScope | null {
  const query = new URLSearchParams(location.search).get('q');
  if (query && query.trim()) return null; // a search: rarely reloaded, and its scope depends on `in`
  const parts = location.pathname.split('/').filter(Boolean);
  let segments: string[];
  try {
    segments = parts.map(decodeURIComponent);
  } catch {
    return null;
  }
  // `/` and `/mail` redirect to the unified inbox.
  const [top, first, second] = segments.length === 0 || (segments.length === 1 && segments[0] === 'mail') ? ['mail', 'unified', 'inbox'] : segments;
  if (top !== 'mail' || !first || !second || segments.length > 3) return null;
  if (first === 'unified') {
    const accountIds = rememberedAccountIds();
    return accountIds && UNIFIED_ROLES.has(second) ? { kind: 'unified', accountIds, role: second as UnifiedRole } : null;
  }
  return { kind: 'folder', accountId: first, folderId: second };
}

/**
 * Whether an address must give way to the login screen: nobody is logged in and it is not
 * the login screen already. Decided from the account list the handshake's round trip
 * brings (connect-engine.ts) before the app's first render, so a new browser never paints
 * a mailbox on its way to the login screen (app/App.tsx loadFirstScreen, RootLayout).
 */
export function loginNeeded(accountCount: number, pathname: string): boolean {
  return accountCount === 0 && pathname !== '/login';
}

/**
 * The login screen's query when `location` sends there: a mailto: link (/compose?…) opened
 * while nobody was logged in keeps its query, so the composer it asked for opens after the
 * login instead of being lost on the way.
 */
export function loginSearchFrom(location: { pathname: string; searchStr: string }): { compose?: string } {
  const query = location.searchStr.replace(/^\?/, '');
  return location.pathname === '/compose' && query ? { compose: query } : {};
}

/** The window a mailbox first asks for (thread-list/virtual-window.ts). */
export const FIRST_WINDOW: ListWindow = { offset: 0, limit: FIRST_WINDOW_ROWS };

export interface EarlyList {
  readonly scope: ListScope;
  readonly window: ListWindow;
  /** Takes the list over: its snapshot, then every patch (those that came meanwhile first). Null once dropped. */
  adopt(onPatch: (patch: ListPatch) => unknown): Promise<ListSnapshot> | null;
  /** Not wanted: ends its subscription (now, or when the snapshot arrives). */
  drop(): void;
}

/**
 * Asks for a list now; patches that arrive before anyone adopts it are kept in order.
 * `watch` and `unwatch` are the engine's.
 */
export function requestEarlyList(params: {
  scope: ListScope;
  window: ListWindow;
  watch: (onPatch: (patch: ListPatch) => unknown) => Promise<ListSnapshot>;
  unwatch: (subscriptionId: string) => void;
}): EarlyList {
  let kept: ListPatch[] = [];
  let forward: ((patch: ListPatch) => unknown) | null = null;
  let state: 'waiting' | 'adopted' | 'dropped' = 'waiting';
  const snapshot = params.watch((patch) => (forward ? forward(patch) : void kept.push(patch)));
  snapshot.catch(() => undefined); // the adopter sees the failure; nobody else must
  const drop = () => {
    if (state !== 'waiting') return;
    state = 'dropped';
    kept = [];
    clearTimeout(expiry);
    snapshot.then((answer) => params.unwatch(answer.subscriptionId), () => undefined);
  };
  const expiry = setTimeout(drop, EARLY_LIST_MS);
  return {
    scope: params.scope,
    window: params.window,
    adopt(onPatch) {
      if (state !== 'waiting') return null;
      state = 'adopted';
      clearTimeout(expiry);
      return snapshot.then((answer) => {
        for (const patch of kept) void onPatch(patch);
        kept = [];
        forward = onPatch;
        return answer;
      });
    },
    drop,
  };
}
