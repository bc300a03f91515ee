import type { MessageBody } from '../../shared/api/mail';
import type { SqlStore } from '../store/sql';

export interface BodyCacheOptions {
  /** Bodies kept per account; the least recently fetched go first. */
  readonly maxEntriesPerAccount: number;
  /** A body whose JSON is larger is served but not kept (a few huge newsletters must not crowd out the rest). */
  readonly maxBodyBytes: number;
}

export const DEFAULT_BODY_CACHE: BodyCacheOptions = { maxEntriesPerAccount: 5000, maxBodyBytes: 512 * 1024 };

/** Trim the cache every this many writes rather than on each one. */
const PRUNE_EVERY = 64;

const GET = 'SELECT body_json AS json FROM message_bodies WHERE account_id = ? AND message_id = ?';
const PUT = `INSERT INTO message_bodies (message_id, account_id, body_json, cached_at) VALUES (?, ?, ?, ?)
  ON CONFLICT (message_id) DO UPDATE SET body_json = excluded.body_json, cached_at = excluded.cached_at`;
const EXISTS = 'SELECT 1 AS found FROM messages WHERE account_id = ? AND id = ?';
const WORDS = 'INSERT INTO message_body_words (message_id, words) VALUES (?, ?) ON CONFLICT (message_id) DO UPDATE SET words = excluded.words';
const REINDEX = 'INSERT INTO fts_pending (message_id) VALUES (?) ON CONFLICT (message_id) DO NOTHING';
/** All but the account's newest entries (newest by when they were cached; the higher id first among equals). */
const PRUNE = `DELETE FROM message_bodies WHERE account_id = ? AND message_id NOT IN (
  SELECT message_id FROM message_bodies WHERE account_id = ? ORDER BY cached_at DESC, message_id DESC LIMIT ?)`;

/**
 * Parsed bodies in the database (migration "search"), so a second open of a message costs one
 * row read instead of an IMAP fetch and a parse. A message row's content never changes
 * (a new UID is a new row), so entries need no invalidation; they go with their message
 * (ON DELETE CASCADE) or when the account's cache is over its size. Storing a body also
 * keeps its words (beyond the cache's pruning) and queues the message for re-indexing,
 * which is how "body words where mirrored" grows.
 */
export class BodyCache {
  private writes = 0;

  constructor(
    private readonly store: SqlStore,
    private readonly options: BodyCacheOptions = DEFAULT_BODY_CACHE,
  ) {}

  async get(accountId: number, messageId: number): Promise<MessageBody | null> {
    const row = await this.store.get<{ json: string }>(GET, [accountId, messageId]);
    return row ? (JSON.parse(row.json) as MessageBody) : null;
  }

  /** Keeps the body (if small enough) and indexes its words; a message deleted meanwhile is skipped. */
  async put(params: { accountId: number; messageId: number; body: MessageBody; searchText: string }): Promise<void> {
    const { accountId, messageId } = params;
    const json = JSON.stringify(params.body);
    await this.store.transaction(async (tx) => {
      if (!(await tx.get(EXISTS, [accountId, messageId]))) return;
      // The search index picks the words up at its next flush (search/fts-indexer.ts).
      await tx.run(WORDS, [messageId, params.searchText]);
      await tx.run(REINDEX, [messageId]);
      if (Buffer.byteLength(json) <= this.options.maxBodyBytes) await tx.run(PUT, [messageId, accountId, json, Date.now()]);
    });
    if (++this.writes % PRUNE_EVERY === 0) await this.store.run(PRUNE, [accountId, accountId, this.options.maxEntriesPerAccount]);
  }
}
