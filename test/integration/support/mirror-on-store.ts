/**
 * The mirror's services on one SqlStore (either engine), for the stores' contract suite
 * (stores/mirror.test.ts): MirrorStore, Materializer, FolderQueries, ThreadQueries and
 * DeltaReader, with accounts inserted as plain rows.
 */
import { accountDocument, DeltaReader, mailSources } from '../../../src-server/mirror/delta-reader';
import { Materializer } from '../../../src-server/mirror/materialize';
import { MirrorStore } from '../../../src-server/mirror/mirror-store';
import { PushHub } from '../../../src-server/push/push-hub';
import { FolderQueries } from '../../../src-server/reading/folder-queries';
import { ThreadQueries } from '../../../src-server/reading/thread-queries';
import type { SqlStore } from '../../../src-server/store/sql';
import { TransactionLog } from '../../../src-server/store/transaction-log';

/** An account row (the mirror's tables hang off it). */
export async function insertAccount(store: SqlStore, email: string): Promise<number> {
  const row = await store.get<{ id: number }>(
    `INSERT INTO accounts (email, name, imap_host, imap_port, imap_security, smtp_host, smtp_port, smtp_security, secret, created_at)
     VALUES (?, '', 'localhost', 143, 'none', 'localhost', 25, 'none', ?, 0) RETURNING id`,
    [email, Buffer.alloc(0)],
  );
  return row!.id;
}

export function mirrorOnStore(store: SqlStore) {
  const txlog = new TransactionLog(store);
  const push = new PushHub();
  const mirror = new MirrorStore({ store, txlog, push });
  const materializer = new Materializer(store);
  const delta = new DeltaReader({ store, txlog, sources: { ...mailSources(materializer), preferences: accountDocument(() => undefined), plan: accountDocument(() => undefined), contacts: accountDocument(() => undefined), scheduled: accountDocument(() => undefined), rules: accountDocument(() => undefined), identities: accountDocument(() => undefined), labels: accountDocument(() => undefined), timers: accountDocument(() => undefined), templates: accountDocument(() => undefined) } });
  return { store, txlog, push, mirror, materializer, folders: new FolderQueries(store, materializer), threads: new ThreadQueries(store), delta };
}

/** A message id by folder and UID, read back for assertions. */
export async function messageId(store: SqlStore, folderId: number, uid: number): Promise<number | undefined> {
  return (await store.get<{ id: number }>('SELECT id FROM messages WHERE folder_id = ? AND uid = ?', [folderId, uid]))?.id;
}

/** The thread a message is in. */
export async function threadOfMessage(store: SqlStore, messageIdHeader: string): Promise<number> {
  return (await store.get<{ id: number }>('SELECT thread_id AS id FROM messages WHERE message_id_header = ?', [messageIdHeader]))!.id;
}
