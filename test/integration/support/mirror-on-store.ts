/**
 * The mirror's services on one SqlStore (either engine), for the stores' contract suite
 * (stores/mirror.test.ts): MirrorStore, Materializer, FolderQueries, ThreadQueries and
 * DeltaReader, with accounts inserted as plain rows.
 */
import { DeltaReader, mailSources } from '../../../src-server/mirror/delta-reader';
import { Materializer } from '../../../src-server/mirror/materialize';
import { MirrorStore } from '../../../src-server/mirror/mirror-store';
import { PushHub } from '../../../src-server/push/push-hub';
import { FolderQueries } from '../../../src-server/reading/folder-queries';
import { ThreadQueries } from '../../../src-server/reading/thread-queries';
import type { SqlStore } from '../../../src-server/store/sql';
import type { TxEntry, TxObject } from '../../../src-server/store/transaction-log';

/**
 * The transaction log on the SqlStore, with store/transaction-log.ts's statements. That file
 * still runs on the SQLite connection (the lead moves it onto the store last); the mirror
 * awaits whichever it is given, so on PostgreSQL the log rows are written by this one,
 * inside the mirror's transaction, as the moved log will.
 */
export class StoreTransactionLog {
  constructor(private readonly store: SqlStore) {}

  async append(accountId: number, changes: readonly { object: TxObject; objectId: number }[]): Promise<number> {
    if (changes.length === 0) return this.latest(accountId);
    const row = await this.store.get<{ latest: number }>('UPDATE accounts SET latest_txn_id = latest_txn_id + ? WHERE id = ? RETURNING latest_txn_id AS latest', [
      changes.length,
      accountId,
    ]);
    if (!row) throw new Error(`No account ${accountId}`);
    let id = row.latest - changes.length;
    for (const change of changes) await this.store.run('INSERT INTO txlog (account_id, id, object, object_id) VALUES (?, ?, ?, ?)', [accountId, ++id, change.object, change.objectId]);
    return row.latest;
  }

  async read(accountId: number, cursor: number, limit: number): Promise<{ entries: TxEntry[]; hasMore: boolean }> {
    const rows = await this.store.all<TxEntry>('SELECT id AS "txnId", object, object_id AS "objectId" FROM txlog WHERE account_id = ? AND id > ? ORDER BY id LIMIT ?', [
      accountId,
      cursor,
      limit + 1,
    ]);
    const hasMore = rows.length > limit;
    return { entries: hasMore ? rows.slice(0, limit) : rows, hasMore };
  }

  async latest(accountId: number): Promise<number> {
    return (await this.store.get<{ latest: number }>('SELECT latest_txn_id AS latest FROM accounts WHERE id = ?', [accountId]))?.latest ?? 0;
  }
}

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
  const txlog = new StoreTransactionLog(store);
  const push = new PushHub();
  const mirror = new MirrorStore({ store, txlog, push });
  const materializer = new Materializer(store);
  const delta = new DeltaReader({ store, txlog, sources: { ...mailSources(materializer), preferences: () => undefined, plan: () => undefined } });
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
