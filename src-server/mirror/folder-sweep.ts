import type { ImapFlow, ListResponse, StatusObject } from 'imapflow';
import { hasFlag, specialUseAttribute } from '../imap/imap-flags';
import { specialUseOf } from './materialize';
import type { FolderListing, MirrorStore } from './mirror-store';
import type { FolderRow } from './mirror-rows';

export interface SweepResult {
  /** Folders that can be selected (not \Noselect / \NonExistent), by path. */
  readonly selectable: ReadonlySet<string>;
  /** Folders whose server state differs from the mirror's: they need a sync step. */
  readonly changed: readonly FolderRow[];
  /** Folders in step with the server but not fully mirrored yet. */
  readonly backfilling: readonly FolderRow[];
}

/**
 * The mirror's folder rows from one LIST. A role comes from the folder's SPECIAL-USE
 * attribute in any case (imapflow only knows `\Sent`, so it takes Cyrus's `\sent` Sent
 * for a name match); imapflow's guess from a folder's name is kept only when no folder
 * has that role from the server.
 */
export function folderListings(entries: readonly ListResponse[]): FolderListing[] {
  const attributes = entries.map((entry) => specialUseAttribute(entry.flags));
  const claimed = new Set(attributes.filter((role) => role !== null));
  return entries.map((entry, index) => {
    const guess = specialUseOf(entry.path, entry.specialUse);
    const fromName = guess !== null && !claimed.has(guess) ? guess : null;
    return {
      path: entry.path,
      name: entry.name,
      parentPath: entry.parentPath || null,
      delimiter: entry.delimiter || '/',
      specialUse: guess === 'inbox' ? guess : (attributes[index] ?? fromName),
    };
  });
}

const isSelectable = (entry: ListResponse) => !hasFlag(entry.flags, '\\Noselect') && !hasFlag(entry.flags, '\\NonExistent');

/** Whether STATUS shows anything the mirror has not seen (UIDVALIDITY, HIGHESTMODSEQ, UIDNEXT, count). */
export function statusDiffers(row: FolderRow, status: StatusObject, mirroredCount: number): boolean {
  if (row.uidvalidity === null) return true;
  if (status.uidValidity !== undefined && Number(status.uidValidity) !== row.uidvalidity) return true;
  if (status.highestModseq !== undefined && status.highestModseq.toString() !== row.highest_modseq) return true;
  if (status.uidNext !== undefined && status.uidNext !== row.uidnext) return true;
  return status.messages !== undefined && row.backfilled_to === 0 && status.messages !== mirroredCount;
}

/**
 * The cheap check of the whole account: one LIST (with LIST-STATUS where the server has it,
 * else a STATUS per folder) gives every folder's UIDVALIDITY, HIGHESTMODSEQ, UIDNEXT and
 * count. The folder list is brought up to date in the mirror, and the folders that changed
 * — by this gateway, another IMAP client or new mail — are returned for a sync step. An
 * unchanged mailbox costs this one round trip.
 */
export async function sweepFolders(params: { client: ImapFlow; store: MirrorStore; accountId: number }): Promise<SweepResult> {
  const { client, store, accountId } = params;
  const entries = await client.list({ statusQuery: { messages: true, uidNext: true, uidValidity: true, highestModseq: true } });
  const rows = await store.syncFolderList(accountId, folderListings(entries));
  const byPath = new Map(entries.map((entry) => [entry.path, entry]));
  const selectable = new Set(entries.filter(isSelectable).map((entry) => entry.path));
  const changed: FolderRow[] = [];
  const backfilling: FolderRow[] = [];
  for (const row of rows) {
    if (!selectable.has(row.path)) continue;
    const status = byPath.get(row.path)?.status;
    // A folder whose STATUS failed is checked by selecting it.
    if (!status || 'error' in status || statusDiffers(row, status, await store.messageCount(row.id))) changed.push(row);
    else if (row.backfilled_to !== 0) backfilling.push(row);
  }
  return { selectable, changed, backfilling };
}
