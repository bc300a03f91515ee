import type { SqlStore } from '../store/sql';
import { HIT_COLUMNS, type MessageHit } from './local-search';
import { inChunks, placeholders } from '../store/sql-lists';

/** Mirrored messages found by what the server's search answers: UIDs, Message-IDs, ids. */
export class MessageLookup {
  constructor(private readonly store: SqlStore) {}

  /** The hits for message ids found another way (the server-side search). */
  async hits(accountId: number, ids: readonly number[]): Promise<MessageHit[]> {
    return inChunks(ids, (chunk) => this.store.all<MessageHit>(`SELECT ${HIT_COLUMNS} FROM messages m WHERE m.account_id = ? AND m.id IN (${placeholders(chunk.length)})`, [accountId, ...chunk]));
  }

  /** The folder's mirrored messages among these UIDs. */
  async byUids(folderId: number, uids: readonly number[]): Promise<{ id: number; uid: number }[]> {
    return inChunks(uids, (chunk) => this.store.all<{ id: number; uid: number }>(`SELECT id, uid FROM messages WHERE folder_id = ? AND uid IN (${placeholders(chunk.length)})`, [folderId, ...chunk]));
  }

  /** The account's mirrored copies of a message, by its Message-ID header. */
  async byMessageId(accountId: number, header: string): Promise<number[]> {
    const rows = await this.store.all<{ id: number }>('SELECT id FROM messages WHERE account_id = ? AND message_id_header = ?', [accountId, header]);
    return rows.map((row) => row.id);
  }
}
