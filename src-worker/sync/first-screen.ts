/**
 * The first screen of a new account before the backfill (DESIGN §3: "the first screen
 * appears before the backfill ends"). Delta replays the transaction log oldest first, so
 * on a cold start the newest inbox threads would come last. This writes the folders and
 * the newest inbox threads first, without moving the cursor: delta pages, read later,
 * carry each object's current state and simply overwrite these rows.
 */
import type { MailGateway } from '../api/mail-gateway';
import type { MailTable } from '../db/mail-schema';
import { withWrite, type LocalStore } from '../db/store';
import { PendingEffects } from '../mail-store/outbox-rows';
import { readSyncState } from '../mail-store/sync-state';
import { MAIL_WRITE_TABLES, MailWriter } from '../mail-store/mail-writer';

export const FIRST_SCREEN_THREADS = 50;

/** Writes the first screen when nothing was synced yet; returns the thread ids written. */
export async function primeFirstScreen(params: {
  accountId: string;
  store: () => Promise<LocalStore<MailTable>>;
  gateway: Pick<MailGateway, 'folders' | 'threads'>;
}): Promise<{ threadIds: string[]; folders: number } | null> {
  const { folders } = await params.gateway.folders();
  const inbox = folders.find((folder) => folder.specialUse === 'inbox');
  const { threads } = inbox ? await params.gateway.threads({ folderId: inbox.id, limit: FIRST_SCREEN_THREADS }) : { threads: [] };
  return withWrite(await params.store(), MAIL_WRITE_TABLES, async (tx) => {
    // A delta page committed meanwhile is newer than what we fetched: keep it.
    if ((await readSyncState(tx)).appliedTransactionId > 0) return null;
    const writer = new MailWriter(tx, params.accountId, await PendingEffects.load(tx));
    for (const folder of folders) await writer.putFolder(folder);
    for (const thread of threads) await writer.putThread(thread);
    await writer.finish();
    return { threadIds: [...writer.threadIds], folders: folders.length };
  });
}
