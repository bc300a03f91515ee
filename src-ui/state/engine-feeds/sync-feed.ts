/**
 * The engine's sync status pushes: written to syncStatusAtom, and folders and counts follow
 * each account's sync, whatever is on screen. List patches refresh only the account of the
 * list shown, so an account whose first sync finished while another account's folder was
 * open kept an empty folder list in the sidebar (and mail arriving in it, a stale unread
 * count) until something else asked again.
 */
import type { SyncStatus } from '../../../shared/worker-mail-api';
import { syncStatusAtom } from '../atoms';
import type { FeedContext } from './feed-context';
import type { MailboxCounts } from './mailbox-counts';

export function createSyncFeed({ store, isStopped }: FeedContext, counts: Pick<MailboxCounts, 'refreshMailboxes'>): (status: SyncStatus) => void {
  return function onSyncStatus(status) {
    if (isStopped()) return;
    const before = store.get(syncStatusAtom)[status.accountId];
    store.set(syncStatusAtom, (all) => ({ ...all, [status.accountId]: status }));
    // The first status of an account only says where it stands (setAccounts has just asked).
    if (!before) return;
    const applied = status.appliedTransactionId !== before.appliedTransactionId;
    const caughtUp = status.phase === 'idle' && before.phase !== 'idle';
    if (applied || caughtUp) counts.refreshMailboxes([status.accountId]);
  };
}
