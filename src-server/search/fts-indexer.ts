import { foldForSearch } from '../../shared/search-fold';
import type { Db } from '../store/database';

/**
 * SQL name of shared/search-fold.ts: every indexed column goes through it (and ftsTerm folds
 * the query the same way), so "malgorzata" finds "Małgorzata"; unicode61's remove_diacritics
 * alone leaves ł, ø, æ, ß … as they are.
 */
const FOLD = 'tern_search_fold';

/** "name email" words of an address list (JSON as the mirror stores it). */
const people = (column: string) =>
  `(SELECT COALESCE(group_concat(json_extract(a.value, '$.name') || ' ' || json_extract(a.value, '$.email'), ' '), '') FROM json_each(${column}) a)`;

/** Messages indexed per transaction in the background: bounded so a big backlog never blocks the event loop for long. */
export const BACKGROUND_BATCH = 5000;

/**
 * Brings the full-text index up to date with the queues the triggers on `messages` fill
 * (migration "search"): entries of deleted messages are dropped, new and changed messages
 * are (re)indexed from their row and the body words read so far. One statement per step
 * keeps FTS5 writing in bulk, which is what makes this cheaper than indexing row by row.
 */
export class FtsIndexer {
  private readonly stmt;
  private readonly flushBatch;

  constructor(db: Db) {
    db.function(FOLD, { deterministic: true }, (text: unknown) => (typeof text === 'string' ? foldForSearch(text) : text));
    this.stmt = {
      gone: db.prepare<[number]>('SELECT message_id FROM fts_gone LIMIT ?').pluck(),
      dropIndexed: db.prepare<[string]>('DELETE FROM messages_fts WHERE rowid IN (SELECT value FROM json_each(?))'),
      dropGone: db.prepare<[string]>('DELETE FROM fts_gone WHERE message_id IN (SELECT value FROM json_each(?))'),
      pending: db.prepare<[number]>('SELECT message_id FROM fts_pending ORDER BY message_id LIMIT ?').pluck(),
      index: db.prepare<[string]>(
        `INSERT INTO messages_fts (rowid, subject, sender, recipients, snippet, body)
         SELECT m.id, ${FOLD}(m.subject), ${FOLD}(${people('m.from_json')}),
           ${FOLD}(${people('m.to_json')} || ' ' || ${people('m.cc_json')}),
           ${FOLD}(m.snippet), ${FOLD}(COALESCE(w.words, ''))
         FROM messages m LEFT JOIN message_body_words w ON w.message_id = m.id
         WHERE m.id IN (SELECT value FROM json_each(?))`,
      ),
      dropPending: db.prepare<[string]>('DELETE FROM fts_pending WHERE message_id IN (SELECT value FROM json_each(?))'),
      backlog: db.prepare('SELECT (SELECT COUNT(*) FROM fts_pending) + (SELECT COUNT(*) FROM fts_gone) AS n').pluck(),
    };
    this.flushBatch = db.transaction((limit: number) => {
      const gone = JSON.stringify(this.stmt.gone.all(limit));
      this.stmt.dropIndexed.run(gone);
      this.stmt.dropGone.run(gone);
      const pending = JSON.stringify(this.stmt.pending.all(limit));
      // A changed message's old entry goes first; for a new one this finds nothing.
      this.stmt.dropIndexed.run(pending);
      this.stmt.index.run(pending);
      this.stmt.dropPending.run(pending);
    });
  }

  /** Applies at most `limit` queued messages of each kind; returns how many are still queued. */
  flush(limit = Number.MAX_SAFE_INTEGER): number {
    if (this.backlog() === 0) return 0;
    this.flushBatch(Math.min(limit, Number.MAX_SAFE_INTEGER));
    return this.backlog();
  }

  backlog(): number {
    return this.stmt.backlog.get() as number;
  }
}
