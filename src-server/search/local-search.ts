import { TernError } from '../../shared/errors';
import type { SqlStore, SqlValue } from '../store/sql';
import { FtsIndexer } from './fts-indexer';
import { searchSql, type SearchSql } from './fts-sql';
import type { ParsedSearch } from './search-query';
import { placeholders } from '../store/sql-lists';

/** A matching message, as much as ordering and grouping need. */
export interface MessageHit {
  readonly id: number;
  readonly threadId: number;
  readonly folderId: number;
  readonly receivedAt: number;
}

export interface LocalSearchParams {
  readonly accountId: number;
  readonly search: ParsedSearch;
  readonly folderIds: readonly number[];
  /** Most matches to return, newest first. */
  readonly limit: number;
}

/** A MessageHit's columns of the messages row `m`. */
export const HIT_COLUMNS = 'm.id, m.thread_id AS "threadId", m.folder_id AS "folderId", m.received_at AS "receivedAt"';

/**
 * Searches the mirror: the full-text index (migration "search") for words, plain columns
 * for the rest. The SQL is assembled from fixed fragments chosen by which operators are
 * present (the engine's own ones from fts-sql.ts); every value the person typed is a bound
 * parameter, and the full-text expression comes from fts-query.ts, which quotes every word.
 */
export class LocalSearch {
  readonly indexer: FtsIndexer;
  private readonly sql: SearchSql;

  constructor(private readonly store: SqlStore) {
    this.indexer = new FtsIndexer(store);
    this.sql = searchSql(store.dialect);
  }

  /** Matches newest first, at most `limit` (ask one more to learn whether there are more). */
  async run({ accountId, search, folderIds, limit }: LocalSearchParams): Promise<MessageHit[]> {
    if (folderIds.length === 0) return [];
    const match = this.sql.match(search.terms);
    // What was mirrored since the last flush is searchable now, not after the next background pass.
    if (match !== null) await this.indexer.flush();
    const where = ['m.account_id = ?', `m.folder_id IN (${placeholders(folderIds.length)})`];
    const params: SqlValue[] = [accountId, ...folderIds];
    const add = (condition: { sql: string; params: readonly SqlValue[] }) => {
      where.push(condition.sql);
      params.push(...condition.params);
    };
    if (match !== null) add(match);
    if (search.unread !== null) add({ sql: 'm.unseen = ?', params: [search.unread ? 1 : 0] });
    if (search.starred !== null) add(this.sql.starred(search.starred));
    if (search.hasAttachment) add(this.sql.hasAttachment());
    // flags is a JSON list; a keyword holds only [A-Za-z0-9$_.-], so its quoted form is found
    // whole; `_` is escaped for LIKE; IMAP keywords are case-insensitive, so both sides are lowered.
    for (const keyword of search.keywords) add({ sql: `LOWER(m.flags) LIKE ? ESCAPE '\\'`, params: [`%${JSON.stringify(keyword.toLowerCase()).replace(/_/g, '\\_')}%`] });
    if (search.after !== null) add({ sql: 'm.received_at >= ?', params: [search.after] });
    if (search.before !== null) add({ sql: 'm.received_at < ?', params: [search.before] });
    const sql = `SELECT ${HIT_COLUMNS} FROM messages m WHERE ${where.join(' AND ')} ORDER BY m.received_at DESC, m.id DESC LIMIT ?`;
    try {
      return await this.store.all<MessageHit>(sql, [...params, limit]);
    } catch (error) {
      // fts-query.ts writes only quoted words, so this is not expected; still, never a 500 for a query.
      if (error instanceof Error && this.sql.isMatchError(error)) throw new TernError('InvalidParameter', { detail: { field: 'q' } });
      throw error;
    }
  }
}
