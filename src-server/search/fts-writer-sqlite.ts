import { foldForSearch } from '../../shared/search-fold';
import type { SqliteStore } from '../store/sqlite-store';
import type { FtsWriter } from './fts-indexer';

/**
 * SQL name of shared/search-fold.ts: every indexed column goes through it (and ftsTerm folds
 * the query the same way), so "malgorzata" finds "Małgorzata"; unicode61's remove_diacritics
 * alone leaves ł, ø, æ, ß … as they are.
 */
const FOLD = 'tern_search_fold';

/** "name email" words of an address list (JSON as the mirror stores it). */
const people = (column: string) =>
  `(SELECT COALESCE(group_concat(json_extract(a.value, '$.name') || ' ' || json_extract(a.value, '$.email'), ' '), '') FROM json_each(${column}) a)`;

/** Ids travel as one JSON array (json_each): one statement for any number of them. */
const SQL = {
  gone: 'SELECT message_id AS id FROM fts_gone LIMIT ?',
  dropGone: 'DELETE FROM fts_gone WHERE message_id IN (SELECT value FROM json_each(?))',
  pending: 'SELECT message_id AS id FROM fts_pending ORDER BY message_id LIMIT ?',
  dropPending: 'DELETE FROM fts_pending WHERE message_id IN (SELECT value FROM json_each(?))',
  dropIndexed: 'DELETE FROM messages_fts WHERE rowid IN (SELECT value FROM json_each(?))',
  index: `INSERT INTO messages_fts (rowid, subject, sender, recipients, snippet, body)
    SELECT m.id, ${FOLD}(m.subject), ${FOLD}(${people('m.from_json')}),
      ${FOLD}(${people('m.to_json')} || ' ' || ${people('m.cc_json')}),
      ${FOLD}(m.snippet), ${FOLD}(COALESCE(w.words, ''))
    FROM messages m LEFT JOIN message_body_words w ON w.message_id = m.id
    WHERE m.id IN (SELECT value FROM json_each(?))`,
};

/**
 * The FTS5 index (migration "search"): one INSERT … SELECT per batch keeps FTS5 writing in
 * bulk. SQLite has one writer at a time, so taking ids off a queue is reading them and
 * deleting them in the same transaction.
 */
export class SqliteFtsWriter implements FtsWriter {
  readonly batch = Number.MAX_SAFE_INTEGER;

  constructor(private readonly store: SqliteStore) {
    // The fold runs inside SQLite, on the store's own connection.
    store.db.function(FOLD, { deterministic: true }, (text: unknown) => (typeof text === 'string' ? foldForSearch(text) : text));
  }

  async claimGone(limit: number): Promise<number[]> {
    const ids = (await this.store.all<{ id: number }>(SQL.gone, [limit])).map((row) => row.id);
    await this.store.run(SQL.dropGone, [JSON.stringify(ids)]);
    return ids;
  }

  async claimPending(limit: number): Promise<number[]> {
    const ids = (await this.store.all<{ id: number }>(SQL.pending, [limit])).map((row) => row.id);
    await this.store.run(SQL.dropPending, [JSON.stringify(ids)]);
    return ids;
  }

  async drop(ids: readonly number[]): Promise<void> {
    if (ids.length > 0) await this.store.run(SQL.dropIndexed, [JSON.stringify(ids)]);
  }

  async index(ids: readonly number[]): Promise<void> {
    if (ids.length > 0) await this.store.run(SQL.index, [JSON.stringify(ids)]);
  }
}
