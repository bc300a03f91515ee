/**
 * Live thread lists. Each subscription keeps the window a tab shows; after every committed
 * change (delta page, optimistic command, its settlement) it re-reads the window's keys,
 * reads only the rows that are new to the window or named by the change, and sends the
 * tab a ListPatch with just the rows that differ. Refreshes are single-flight per list:
 * changes arriving meanwhile are folded into one more refresh.
 */
import type { ListPatch, ListScope, ListSnapshot, ListWindow, ThreadRow } from '../../shared/worker-mail-api';
import type { ChangeFeed, MailChange } from '../mail-store/change-feed';
import { pushToTab, refreshOnce } from './live-push';
import { accountsOf, type ThreadListReader } from './thread-list-reader';
import { fitToBudget, rowKey, sameThreadRow } from './views';

/** A tab renders about 100 rows; more would also break the ~100 KB message budget. */
export const MAX_WINDOW = 200;

interface Subscription {
  readonly id: string;
  readonly scope: ListScope;
  readonly accounts: ReadonlySet<string>;
  window: ListWindow;
  readonly onPatch: (patch: ListPatch) => unknown;
  rows: ThreadRow[];
  total: number;
  complete: boolean;
  truncated: boolean;
  /** A priority list's Important section (ListSnapshot.important); undefined for any other list. */
  important: number | undefined;
  /** Row keys named by changes since the last refresh. */
  dirty: Set<string>;
  everything: boolean;
  running: Promise<void> | null;
  again: boolean;
}

export interface ListSubscriptionsDeps {
  readonly reader: ThreadListReader;
  readonly changes: ChangeFeed;
  readonly onError?: (error: unknown) => void;
  /** A tab that has not taken a patch in this long is gone (a closed port never answers). */
  readonly patchTimeoutMs?: number;
  /**
   * Whether an account has caught up with the gateway at least once (ListSnapshot.complete).
   * Absent: always (engines that do not sync, tests).
   */
  readonly settled?: (accountId: string) => Promise<boolean>;
}

const PATCH_TIMEOUT_MS = 60_000;

/** ListSnapshot.truncated is sent only when true: every other list leaves it out. */
const cut = (truncated: boolean) => (truncated ? { truncated: true } : {});
/** ListSnapshot.important is sent only for a priority list. */
const sections = (important: number | undefined) => (important === undefined ? {} : { important });

const clampWindow = (window: ListWindow): ListWindow => ({
  offset: Math.max(0, Math.floor(window.offset)),
  limit: Math.max(1, Math.min(MAX_WINDOW, Math.floor(window.limit))),
});

/** Only the rows that differ; the whole window when so many moved that a list of changes would be larger. */
export function diffWindow(previous: readonly ThreadRow[], next: readonly ThreadRow[]): { changed: { index: number; row: ThreadRow }[]; replace: boolean } {
  const changed: { index: number; row: ThreadRow }[] = [];
  next.forEach((row, i) => {
    if (!sameThreadRow(previous[i], row)) changed.push({ index: i, row });
  });
  const shrank = next.length < previous.length;
  return { changed, replace: shrank || changed.length > Math.max(8, next.length / 4) };
}

export class ListSubscriptions {
  private readonly subscriptions = new Map<string, Subscription>();

  constructor(private readonly deps: ListSubscriptionsDeps) {
    deps.changes.subscribe((change) => this.changed(change));
  }

  async watch(params: { scope: ListScope; window: ListWindow }, onPatch: (patch: ListPatch) => unknown): Promise<ListSnapshot> {
    const window = clampWindow(params.window);
    const read = await this.read(params.scope, window, [], new Set(), true);
    const subscription: Subscription = {
      id: crypto.randomUUID(),
      scope: params.scope,
      accounts: new Set(accountsOf(params.scope)),
      window,
      onPatch,
      rows: read.rows,
      total: read.total,
      complete: read.complete,
      truncated: read.truncated,
      important: read.important,
      dirty: new Set(),
      everything: false,
      running: null,
      again: false,
    };
    this.subscriptions.set(subscription.id, subscription);
    return { subscriptionId: subscription.id, total: read.total, offset: window.offset, rows: fitToBudget(read.rows), complete: read.complete, ...cut(read.truncated), ...sections(read.important) };
  }

  async move(params: { subscriptionId: string; window: ListWindow }): Promise<ListSnapshot> {
    const subscription = this.subscriptions.get(params.subscriptionId);
    if (!subscription) return { subscriptionId: params.subscriptionId, total: 0, offset: 0, rows: [], complete: true };
    // Let a running refresh finish first, so its patch cannot describe the old window after this snapshot.
    while (subscription.running) await subscription.running;
    subscription.window = clampWindow(params.window);
    const read = await this.read(subscription.scope, subscription.window, subscription.rows, new Set(), false);
    subscription.rows = read.rows;
    subscription.total = read.total;
    subscription.complete = read.complete;
    subscription.truncated = read.truncated;
    subscription.important = read.important;
    subscription.dirty.clear();
    return { subscriptionId: subscription.id, total: read.total, offset: subscription.window.offset, rows: fitToBudget(read.rows), complete: read.complete, ...cut(read.truncated), ...sections(read.important) };
  }

  unwatch(subscriptionId: string): void {
    this.subscriptions.delete(subscriptionId);
  }

  /** An account caught up with the gateway for the first time: its lists say whether they are complete now. */
  settled(accountId: string): void {
    for (const subscription of this.subscriptions.values()) if (subscription.accounts.has(accountId) && !subscription.complete) this.refresh(subscription);
  }

  get size(): number {
    return this.subscriptions.size;
  }

  private changed(change: MailChange): void {
    for (const subscription of this.subscriptions.values()) {
      if (!subscription.accounts.has(change.accountId)) continue;
      for (const threadId of change.threadIds) subscription.dirty.add(rowKey(change.accountId, threadId));
      if (change.everything || change.foldersChanged) subscription.everything = true;
      this.refresh(subscription);
    }
  }

  private refresh(subscription: Subscription): void {
    refreshOnce(subscription, () => this.update(subscription), {
      live: () => this.subscriptions.has(subscription.id),
      ...(this.deps.onError ? { onError: this.deps.onError } : {}),
    });
  }

  private async update(subscription: Subscription): Promise<void> {
    const dirty = subscription.dirty;
    const everything = subscription.everything;
    subscription.dirty = new Set();
    subscription.everything = false;
    const read = await this.read(subscription.scope, subscription.window, subscription.rows, dirty, everything);
    if (!this.subscriptions.has(subscription.id)) return;
    const { changed, replace } = diffWindow(subscription.rows, read.rows);
    const totalChanged = read.total !== subscription.total;
    const completeChanged = read.complete !== subscription.complete;
    const truncatedChanged = read.truncated !== subscription.truncated;
    const importantChanged = read.important !== subscription.important;
    subscription.rows = read.rows;
    subscription.total = read.total;
    subscription.complete = read.complete;
    subscription.truncated = read.truncated;
    subscription.important = read.important;
    if (changed.length === 0 && !totalChanged && !replace && !completeChanged && !truncatedChanged && !importantChanged) return;
    const { offset } = subscription.window;
    const flags = {
      ...(completeChanged ? { complete: read.complete } : {}),
      ...(truncatedChanged ? { truncated: read.truncated } : {}),
      ...(importantChanged ? sections(read.important) : {}),
    };
    const patch: ListPatch = replace
      ? { subscriptionId: subscription.id, total: read.total, offset, rows: fitToBudget(read.rows), ...flags }
      : { subscriptionId: subscription.id, total: read.total, offset, changed: changed.map(({ index, row }) => ({ index: offset + index, row })), ...flags };
    // The tab is gone (closed without unwatching): stop working for it.
    if (!(await pushToTab(() => subscription.onPatch(patch), this.deps.patchTimeoutMs ?? PATCH_TIMEOUT_MS))) this.subscriptions.delete(subscription.id);
  }

  /** The window's rows: reused from `previous` unless new to the window or named dirty. */
  private async read(scope: ListScope, window: ListWindow, previous: readonly ThreadRow[], dirty: ReadonlySet<string>, everything: boolean) {
    const [found, settled] = await Promise.all([this.deps.reader.window(scope, window), this.accountsSettled(scope)]);
    // An empty list is known empty only once the gateway has read its folders too (a first sync may be ahead of it).
    const complete = settled && (found.total > 0 || (await this.deps.reader.foldersMirrored(scope)));
    const known = new Map(previous.map((row) => [row.key, row]));
    const missing = found.keys.filter((key) => !found.rows.has(key) && (everything || dirty.has(key) || !known.has(key)));
    const loaded = missing.length > 0 ? await this.deps.reader.rows(missing) : new Map<string, ThreadRow>();
    const rows = found.keys.flatMap((key) => {
      const row = found.rows.get(key) ?? loaded.get(key) ?? known.get(key);
      return row ? [row] : [];
    });
    return { total: found.total, rows, complete, truncated: found.truncated ?? false, important: found.important };
  }

  /** Whether every account of the scope has caught up with the gateway (an empty list before that is only "not here yet"). */
  private async accountsSettled(scope: ListScope): Promise<boolean> {
    const settled = this.deps.settled;
    if (!settled) return true;
    const accounts = accountsOf(scope);
    if (accounts.length === 0) return false; // no account known yet: nothing can be said
    const each = await Promise.all(accounts.map((accountId) => settled(accountId)));
    return each.every(Boolean);
  }
}
