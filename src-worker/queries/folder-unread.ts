/**
 * Folder unread counts as the user sees the mail: the gateway's count (Category.unread, the
 * server's unseen messages) with the pending commands laid over it. A message marked read,
 * archived or moved shows in the sidebar's counts the moment the command is recorded, not
 * a round trip later when the gateway's folder update arrives; a reverted command takes its
 * change off the rows, and so off the counts, in the same step.
 *
 * Per message: its server state counts where the server has it, its local state where the
 * user put it; the difference is what the pending commands change. Category.unread and the
 * messages' server states come from the same delta pages, so they agree.
 */
import type { Folder } from '../../shared/api/mail';
import type { MailTable } from '../db/mail-schema';
import type { ReadTransaction } from '../db/store';
import { liveRows, OUTBOX_TABLE } from '../mail-store/outbox-rows';
import { messageFromRow } from '../mail-store/mail-rows';

/** Tables `withPendingUnread` reads (with Category for the folders themselves). */
export const FOLDER_UNREAD_TABLES = ['Category', 'Message', OUTBOX_TABLE] as const satisfies readonly MailTable[];

/** Unread change per folder id made by the commands not confirmed yet. */
export async function pendingUnreadChanges(tx: ReadTransaction<MailTable>): Promise<Map<string, number>> {
  const changes = new Map<string, number>();
  const ids = new Set<string>();
  for (const row of await liveRows(tx)) if (row.kind === 'action') for (const id of Object.keys(row.effects)) ids.add(id);
  if (ids.size === 0) return changes;
  const add = (folderId: string, by: number) => changes.set(folderId, (changes.get(folderId) ?? 0) + by);
  for (const row of await tx.getMany('Message', [...ids])) {
    if (!row) continue;
    const { meta, deleted, server } = messageFromRow(row);
    if (!server) continue; // no change laid over this one (any more)
    if (server.unread) add(server.folderId, -1);
    if (meta.unread && !deleted) add(meta.folderId, 1);
  }
  return changes;
}

/** The folders with their unread counts as the pending commands leave them. */
export async function withPendingUnread(tx: ReadTransaction<MailTable>, folders: readonly Folder[]): Promise<Folder[]> {
  const changes = await pendingUnreadChanges(tx);
  return folders.map((folder) => {
    const change = changes.get(folder.id);
    return change ? { ...folder, unread: Math.max(0, folder.unread + change) } : folder;
  });
}
