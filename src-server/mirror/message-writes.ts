import { hasFlag } from '../imap/imap-flags';
import type { SqlExecutor, SqlValue } from '../store/sql';
import { IN_LIST_CHUNK, inChunks, placeholders } from '../store/sql-lists';
import { encodeBodyParts } from './body-parts';
import type { MessageRecord } from './message-record';

/**
 * The mirror's writes of message rows a fetched batch at a time: a few statements per batch
 * instead of one per message, so that on PostgreSQL a batch costs a few round trips (on
 * SQLite, a few statements fewer to step through). Each runs in the caller's transaction.
 */

/** What a sync step needs of a mirrored message. */
export interface MessageState {
  readonly id: number;
  readonly uid: number;
  readonly thread_id: number;
  readonly flags: string;
  readonly unseen: number;
}

/** A flag change to write: the stored JSON list, its unseen bit and the modseq it came with. */
export interface FlagWrite {
  readonly id: number;
  readonly flags: string;
  readonly unseen: number;
  readonly modseq: string | null;
}

/** Rows per multi-row INSERT (22 values each) or UPDATE (4 each): well under both engines' limits. */
const INSERT_ROWS = 100;
const UPDATE_ROWS = 200;

const COLUMNS = `account_id, folder_id, uid, thread_id, message_id_header, in_reply_to, subject, from_json, to_json,
  cc_json, reply_to_json, date, received_at, flags, size, attachments_json, snippet, modseq, unseen, body_parts, unsubscribe, bulk`;

const SQL = {
  byUid: (count: number) => `SELECT id, uid, thread_id, flags, unseen FROM messages WHERE folder_id = ? AND uid IN (${placeholders(count)})`,
  delete: (count: number) => `DELETE FROM messages WHERE id IN (${placeholders(count)})`,
  // RETURNING names the UID: which rows were inserted (a UID mirrored already is skipped), whatever the order of the rows returned.
  insert: (count: number) =>
    `INSERT INTO messages (${COLUMNS}) VALUES ${Array.from({ length: count }, () => `(${placeholders(22)})`).join(', ')}
     ON CONFLICT (folder_id, uid) DO NOTHING RETURNING id, uid`,
  // Typed in the first row: PostgreSQL gives the other rows' parameters the same types.
  flags: (count: number) => `UPDATE messages SET flags = v.flags, unseen = v.unseen, modseq = v.modseq
    FROM (SELECT CAST(? AS BIGINT) AS id, CAST(? AS TEXT) AS flags, CAST(? AS BIGINT) AS unseen, CAST(? AS TEXT) AS modseq
      ${' UNION ALL SELECT ?, ?, ?, ?'.repeat(count - 1)}) AS v
    WHERE messages.id = v.id`,
} as const;

/** The folder's messages with these UIDs (those it has), by UID. */
export async function messagesByUid(tx: SqlExecutor, folderId: number, uids: readonly number[]): Promise<Map<number, MessageState>> {
  const rows = await inChunks(uids, (chunk) => tx.all<MessageState>(SQL.byUid(chunk.length), [folderId, ...chunk]));
  return new Map(rows.map((row) => [row.uid, row]));
}

export async function deleteMessages(tx: SqlExecutor, ids: readonly number[]): Promise<void> {
  for (let start = 0; start < ids.length; start += IN_LIST_CHUNK) {
    const chunk = ids.slice(start, start + IN_LIST_CHUNK);
    await tx.run(SQL.delete(chunk.length), chunk);
  }
}

export async function writeFlags(tx: SqlExecutor, writes: readonly FlagWrite[]): Promise<void> {
  for (let start = 0; start < writes.length; start += UPDATE_ROWS) {
    const rows = writes.slice(start, start + UPDATE_ROWS);
    await tx.run(
      SQL.flags(rows.length),
      rows.flatMap((write) => [write.id, write.flags, write.unseen, write.modseq]),
    );
  }
}

/** Inserts the records with their threads; returns the ids of the rows inserted, by UID. */
export async function insertMessages(
  tx: SqlExecutor,
  params: { accountId: number; folderId: number; rows: readonly { record: MessageRecord; threadId: number }[] },
): Promise<Map<number, number>> {
  const inserted = new Map<number, number>();
  for (let start = 0; start < params.rows.length; start += INSERT_ROWS) {
    const rows = params.rows.slice(start, start + INSERT_ROWS);
    const values = rows.flatMap(({ record, threadId }) => columnsOf(params.accountId, params.folderId, record, threadId));
    for (const row of await tx.all<{ id: number; uid: number }>(SQL.insert(rows.length), values)) inserted.set(row.uid, row.id);
  }
  return inserted;
}

function columnsOf(accountId: number, folderId: number, record: MessageRecord, threadId: number): SqlValue[] {
  return [
    accountId,
    folderId,
    record.uid,
    threadId,
    record.messageIdHeader,
    record.inReplyTo,
    record.subject,
    JSON.stringify(record.from),
    JSON.stringify(record.to),
    JSON.stringify(record.cc),
    JSON.stringify(record.replyTo),
    record.date,
    record.receivedAt,
    JSON.stringify([...record.flags].sort()),
    record.size,
    JSON.stringify(record.attachments),
    record.snippet,
    record.modseq,
    hasFlag(record.flags, '\\Seen') ? 0 : 1,
    encodeBodyParts(record.bodyParts),
    record.unsubscribe ? JSON.stringify(record.unsubscribe) : null,
    record.bulk ? 1 : 0,
  ];
}
