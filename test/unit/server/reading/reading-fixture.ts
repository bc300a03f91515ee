import type { FolderListing } from '../../../../src-server/mirror/mirror-store';
import { FolderQueries } from '../../../../src-server/reading/folder-queries';
import { ThreadQueries } from '../../../../src-server/reading/thread-queries';
import { mirrorFixture, noState, record } from '../mirror/mirror-fixture';

export const READING_FOLDERS: FolderListing[] = [
  { path: 'INBOX', name: 'INBOX', parentPath: null, delimiter: '/', specialUse: 'inbox' },
  { path: 'Sent', name: 'Sent', parentPath: null, delimiter: '/', specialUse: 'sent' },
  { path: 'Trash', name: 'Trash', parentPath: null, delimiter: '/', specialUse: 'trash' },
  { path: 'Projects', name: 'Projects', parentPath: null, delimiter: '/', specialUse: null },
  { path: 'Projects/2026', name: '2026', parentPath: 'Projects', delimiter: '/', specialUse: null },
];

type RecordFields = Omit<Parameters<typeof record>[0], 'uid'>;

/**
 * An in-memory mirror with the reading folders, a way to add messages, and the reading queries on top.
 * `sql` is the SqlStore on the same database (mirror-fixture), for the stores that moved onto it (issue 12).
 */
export async function readingFixture() {
  const fx = mirrorFixture();
  await fx.store.syncFolderList(fx.accountId, READING_FOLDERS);
  const folder = (path: string) => {
    const row = fx.db.prepare('SELECT id FROM folders WHERE account_id = ? AND path = ?').get(fx.accountId, path) as { id: number } | undefined;
    if (!row) throw new Error(`No folder ${path}`);
    return row.id;
  };
  let uid = 0;
  /** Mirrors one message into a folder (as its own sync step) and returns its row id. */
  const add = async (path: string, fields: RecordFields = {}): Promise<number> => {
    uid += 1;
    await fx.store.applyFolderBatch(fx.accountId, { folderId: folder(path), added: [record({ uid, ...fields })], flagUpdates: [], removedUids: [], state: noState });
    return (fx.db.prepare('SELECT id FROM messages WHERE folder_id = ? AND uid = ?').get(folder(path), uid) as { id: number }).id;
  };
  const threadOf = (messageId: number) => (fx.db.prepare('SELECT thread_id AS id FROM messages WHERE id = ?').get(messageId) as { id: number }).id;
  return {
    ...fx,
    folder,
    add,
    threadOf,
    folders: new FolderQueries(fx.sql, fx.materializer),
    threads: new ThreadQueries(fx.sql),
  };
}
