import type { SqlStore } from '../store/sql';
import { SqliteStore } from '../store/sqlite-store';
import { PostgresFtsWriter } from './fts-writer-postgres';
import { SqliteFtsWriter } from './fts-writer-sqlite';

/** Messages indexed per transaction in the background: bounded so a big backlog never blocks the event loop for long. */
export const BACKGROUND_BATCH = 5000;

/** How one engine keeps its full-text index; the queue logic around it is FtsIndexer's. */
export interface FtsWriter {
  /** Most messages of each queue one transaction takes (PostgreSQL binds every id). */
  readonly batch: number;
  /** Takes up to `limit` ids off fts_gone (messages deleted since), for this transaction alone. */
  claimGone(limit: number): Promise<number[]>;
  /** Takes up to `limit` ids off fts_pending (messages new or changed since), for this transaction alone. */
  claimPending(limit: number): Promise<number[]>;
  /** Drops the index entries of these messages (none is fine). */
  drop(ids: readonly number[]): Promise<void>;
  /** Indexes these messages from their rows and body words; an id without a message is skipped. */
  index(ids: readonly number[]): Promise<void>;
}

/**
 * Brings the full-text index up to date with the queues the triggers on `messages` fill
 * (migration "search"): entries of deleted messages are dropped, new and changed messages
 * are (re)indexed from their row and the body words read so far, in bulk per transaction,
 * which is what makes this cheaper than indexing row by row. SQLite keeps FTS5; PostgreSQL
 * a tsvector document (the one place the indexer branches on the engine is here).
 */
export class FtsIndexer {
  private readonly writer: FtsWriter;

  constructor(private readonly store: SqlStore) {
    // The SQLite writer needs the connection itself (its fold function runs inside SQLite), hence the class rather than `dialect`.
    this.writer = store instanceof SqliteStore ? new SqliteFtsWriter(store) : new PostgresFtsWriter(store);
  }

  /** Applies at most `limit` queued messages of each kind; returns how many are still queued. */
  async flush(limit = Number.MAX_SAFE_INTEGER): Promise<number> {
    if ((await this.backlog()) === 0) return 0;
    for (let left = limit; left > 0; ) {
      const take = Math.min(left, this.writer.batch);
      const taken = await this.store.transaction(async () => {
        const gone = await this.writer.claimGone(take);
        await this.writer.drop(gone);
        const pending = await this.writer.claimPending(take);
        // A changed message's old entry goes first; for a new one this finds nothing.
        await this.writer.drop(pending);
        await this.writer.index(pending);
        return Math.max(gone.length, pending.length);
      });
      if (taken < take) break;
      left -= take;
    }
    return this.backlog();
  }

  async backlog(): Promise<number> {
    const row = await this.store.get<{ n: number }>('SELECT (SELECT COUNT(*) FROM fts_pending) + (SELECT COUNT(*) FROM fts_gone) AS n');
    return row?.n ?? 0;
  }
}
