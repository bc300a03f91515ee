/**
 * The sidebar's inbox unread counts move with the rows (walkthrough: "unread counts lag the
 * bold row by seconds"). A thread command changes its rows in this tab at once (local
 * edits); the counts used to wait for the engine's pending status and two more round trips.
 * This is the change the command makes to each account's inbox count, from the rows as
 * shown, applied in the same step as the row edits; the engine's own count replaces it
 * when it answers (and puts it back if the command fails).
 */
import type { ThreadRow } from '../../shared/worker-mail-api';
import type { ThreadCommand } from './mail-actions';

/** Commands that take a thread's inbox messages out of the inbox (command-plan.ts). */
const LEAVE_INBOX = new Set<ThreadCommand['kind']>(['archive', 'trash', 'spam', 'delete']);

/** account id → change of its inbox's unread thread count. `inboxOf` names each account's inbox folder. */
export function inboxUnreadChanges(command: ThreadCommand, rows: readonly (ThreadRow | undefined)[], inboxOf: (accountId: string) => string | undefined): Map<string, number> {
  const changes = new Map<string, number>();
  const add = (accountId: string, by: number) => changes.set(accountId, (changes.get(accountId) ?? 0) + by);
  for (const row of rows) {
    if (!row) continue;
    const inbox = inboxOf(row.accountId);
    if (!inbox) continue;
    const inInbox = row.folderIds.includes(inbox);
    const unread = row.unreadCount > 0;
    if (command.kind === 'markRead') {
      if (inInbox && unread === command.read) add(row.accountId, command.read ? -1 : 1);
    } else if (command.kind === 'notspam') {
      if (!inInbox && unread) add(row.accountId, 1);
    } else if (command.kind === 'move') {
      const target = command.folderIdByAccount?.[row.accountId] ?? command.folderId;
      if (inInbox && unread && target !== inbox) add(row.accountId, -1);
    } else if (LEAVE_INBOX.has(command.kind) && inInbox && unread) {
      add(row.accountId, -1);
    }
  }
  for (const [accountId, change] of changes) if (change === 0) changes.delete(accountId);
  return changes;
}
