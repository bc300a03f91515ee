import type { MessageBody } from '../../shared/api/mail';
import type { Db } from '../store/database';

export interface BodyCacheOptions {
  /** Bodies kept per account; the least recently fetched go first. */
  readonly maxEntriesPerAccount: number;
  /** A body whose JSON is larger is served but not kept (a few huge newsletters must not crowd out the rest). */
  readonly maxBodyBytes: number;
}

export const DEFAULT_BODY_CACHE: BodyCacheOptions = { maxEntriesPerAccount: 5000, maxBodyBytes: 512 * 1024 };

/** Trim the cache every this many writes rather than on each one. */
const PRUNE_EVERY = 64;

/**
 * Parsed bodies in SQLite (migration "search"), so a second open of a message costs one
 * row read instead of an IMAP fetch and a parse. A message row's content never changes
 * (a new UID is a new row), so entries need no invalidation; they go with their message
 * (ON DELETE CASCADE) or when the account's cache is over its size. Storing a body also
 * keeps its words (beyond the cache's pruning) and queues the message for re-indexing,
 * which is how "body words where mirrored" grows.
 */
export class BodyCache {
  private readonly stmt;
  private writes = 0;

  constructor(
    private readonly db: Db,
    private readonly options: BodyCacheOptions = DEFAULT_BODY_CACHE,
  ) {
    this.stmt = {
      get: db.prepare<[number, number]>('SELECT body_json AS json FROM message_bodies WHERE account_id = ? AND message_id = ?'),
      put: db.prepare<[number, number, string, number]>(
        `INSERT INTO message_bodies (message_id, account_id, body_json, cached_at) VALUES (?, ?, ?, ?)
         ON CONFLICT (message_id) DO UPDATE SET body_json = excluded.body_json, cached_at = excluded.cached_at`,
      ),
      exists: db.prepare<[number, number]>('SELECT 1 FROM messages WHERE account_id = ? AND id = ?'),
      words: db.prepare<[number, string]>(
        'INSERT INTO message_body_words (message_id, words) VALUES (?, ?) ON CONFLICT (message_id) DO UPDATE SET words = excluded.words',
      ),
      reindex: db.prepare<[number]>('INSERT OR IGNORE INTO fts_pending (message_id) VALUES (?)'),
      prune: db.prepare<[number, number, number]>(
        `DELETE FROM message_bodies WHERE account_id = ? AND message_id IN (
           SELECT message_id FROM message_bodies WHERE account_id = ? ORDER BY cached_at DESC LIMIT -1 OFFSET ?)`,
      ),
    };
  }

  get(accountId: number, messageId: number): MessageBody | null {
    const row = this.stmt.get.get(accountId, messageId) as { json: string } | undefined;
    return row ? (JSON.parse(row.json) as MessageBody) : null;
  }

  /** Keeps the body (if small enough) and indexes its words; a message deleted meanwhile is skipped. */
  put(params: { accountId: number; messageId: number; body: MessageBody; searchText: string }): void {
    const { accountId, messageId } = params;
    const json = JSON.stringify(params.body);
    this.db.transaction(() => {
      if (!this.stmt.exists.get(accountId, messageId)) return;
      // The search index picks the words up at its next flush (search/fts-indexer.ts).
      this.stmt.words.run(messageId, params.searchText);
      this.stmt.reindex.run(messageId);
      if (Buffer.byteLength(json) <= this.options.maxBodyBytes) this.stmt.put.run(messageId, accountId, json, Date.now());
    })();
    if (++this.writes % PRUNE_EVERY === 0) this.stmt.prune.run(accountId, accountId, this.options.maxEntriesPerAccount);
  }
}
