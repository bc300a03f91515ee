/**
 * Folders and counts: the answers of the engine's folder and count queries, asked again
 * after changes (debounced) and written to foldersAtom and inboxUnreadAtom.
 */
import { accountsAtom, foldersAtom, inboxUnreadAtom } from '../atoms';
import type { FeedContext } from './feed-context';

/** Quiet time before folders and counts are asked again after changes (a burst of patches is one refresh). */
export const MAILBOX_REFRESH_DELAY_MS = 400;

export interface MailboxCounts {
  /** Asks folders and counts of these accounts at once. */
  refreshNow(accountIds: readonly string[]): Promise<void>;
  /** Asks folders and counts again, soon (debounced); every account when none is named. */
  refreshMailboxes(accountIds?: readonly string[]): void;
  /** Moves inbox unread counts by a command's effect; answers already on their way are dropped. */
  adjustInboxUnread(changes: ReadonlyMap<string, number>): void;
}

export function createMailboxCounts({ engine, store, later, isStopped }: FeedContext): MailboxCounts {
  const dueRefresh = new Set<string>();
  let refreshTimer: ReturnType<typeof setTimeout> | null = null;
  /**
   * Refreshes overlap (an immediate one after a command, a debounced one after patches): an
   * answer older than one already shown for an account is dropped, or counts would step back.
   */
  let refreshSeq = 0;
  const shownSeq = new Map<string, number>();
  async function refreshNow(accountIds: readonly string[]) {
    const known = new Set((store.get(accountsAtom) ?? []).map((account) => account.accountId));
    const ids = accountIds.filter((id) => known.has(id));
    if (ids.length === 0) return;
    const seq = ++refreshSeq;
    const [folderLists, counts] = await Promise.all([
      Promise.all(ids.map((accountId) => engine.mail.listFolders({ accountId }).catch(() => null))),
      engine.mail.counts({ accountIds: ids }).catch(() => null),
    ]);
    if (isStopped()) return;
    const fresh = new Set(ids.filter((accountId) => (shownSeq.get(accountId) ?? 0) < seq));
    for (const accountId of fresh) shownSeq.set(accountId, seq);
    store.set(foldersAtom, (current) => {
      const next = { ...current };
      ids.forEach((accountId, i) => {
        const folders = folderLists[i];
        if (folders && fresh.has(accountId)) next[accountId] = folders;
      });
      return next;
    });
    const freshCounts = (counts ?? []).filter((count) => fresh.has(count.accountId));
    if (freshCounts.length > 0) {
      // During an account's first sync its count is of the threads arrived so far (28 of 59):
      // none is shown until the account has caught up (the sync status asks again then).
      store.set(inboxUnreadAtom, (current) => {
        const next = { ...current };
        for (const count of freshCounts) {
          if (count.complete === false) delete next[count.accountId];
          else next[count.accountId] = count.inboxUnread;
        }
        return next;
      });
    }
  }
  function adjustInboxUnread(changes: ReadonlyMap<string, number>) {
    if (changes.size === 0) return;
    const seq = ++refreshSeq;
    for (const accountId of changes.keys()) shownSeq.set(accountId, seq);
    store.set(inboxUnreadAtom, (current) => {
      const next = { ...current };
      for (const [accountId, change] of changes) if (next[accountId] !== undefined) next[accountId] = Math.max(0, next[accountId] + change);
      return next;
    });
  }
  function refreshMailboxes(accountIds?: readonly string[]) {
    for (const id of accountIds ?? (store.get(accountsAtom) ?? []).map((account) => account.accountId)) dueRefresh.add(id);
    if (refreshTimer !== null) return;
    refreshTimer = later(MAILBOX_REFRESH_DELAY_MS, () => {
      refreshTimer = null;
      const ids = [...dueRefresh];
      dueRefresh.clear();
      void refreshNow(ids);
    });
  }
  return { refreshNow, refreshMailboxes, adjustInboxUnread };
}
