import { PAPERCLIP_MIN_INLINE_BYTES } from '../../shared/attachment-rules';
import type { Statement } from 'better-sqlite3';
import { TernError } from '../../shared/errors';
import type { Db } from '../store/database';
import { ftsMatch } from './fts-query';
import { FtsIndexer } from './fts-indexer';
import type { ParsedSearch } from './search-query';

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

/**
 * Searches the mirror: the FTS5 index (migration "search") for words, plain columns for
 * the rest. The SQL is assembled from fixed fragments chosen by which operators are
 * present; every value the person typed is a bound parameter, and the FTS expression
 * comes from ftsMatch, which quotes every word. Statements are cached per shape.
 */
export class LocalSearch {
  private readonly statements = new Map<string, Statement>();
  private readonly byIds;
  readonly indexer: FtsIndexer;

  constructor(private readonly db: Db) {
    this.indexer = new FtsIndexer(db);
    this.byIds = db.prepare<[number, string]>(
      'SELECT id, thread_id AS threadId, folder_id AS folderId, received_at AS receivedAt FROM messages WHERE account_id = ? AND id IN (SELECT value FROM json_each(?))',
    );
  }

  /** Matches newest first, at most `limit` (ask one more to learn whether there are more). */
  run({ accountId, search, folderIds, limit }: LocalSearchParams): MessageHit[] {
    const match = ftsMatch(search.terms);
    // What was mirrored since the last flush is searchable now, not after the next background pass.
    if (match !== null) this.indexer.flush();
    const where = ['m.account_id = @account', 'm.folder_id IN (SELECT value FROM json_each(@folders))'];
    const params: Record<string, unknown> = { account: accountId, folders: JSON.stringify(folderIds), limit };
    if (match !== null) {
      where.push('m.id IN (SELECT rowid FROM messages_fts WHERE messages_fts MATCH @match)');
      params.match = match;
    }
    if (search.unread !== null) {
      where.push('m.unseen = @unseen');
      params.unseen = search.unread ? 1 : 0;
    }
    if (search.starred !== null) {
      where.push(`${search.starred ? '' : 'NOT '}EXISTS (SELECT 1 FROM json_each(m.flags) WHERE value = @flagged)`);
      params.flagged = '\\Flagged';
    }
    // has:attachment means what the paperclip means (spec §5): a part with no contentId, or over 12 KB.
    if (search.hasAttachment) {
      where.push(
        "EXISTS (SELECT 1 FROM json_each(m.attachments_json) a WHERE json_extract(a.value, '$.contentId') IS NULL OR json_extract(a.value, '$.size') > @paperclipBytes)",
      );
      params.paperclipBytes = PAPERCLIP_MIN_INLINE_BYTES;
    }
    if (search.after !== null) {
      where.push('m.received_at >= @after');
      params.after = search.after;
    }
    if (search.before !== null) {
      where.push('m.received_at < @before');
      params.before = search.before;
    }
    const sql = `SELECT m.id, m.thread_id AS threadId, m.folder_id AS folderId, m.received_at AS receivedAt FROM messages m
      WHERE ${where.join(' AND ')} ORDER BY m.received_at DESC, m.id DESC LIMIT @limit`;
    try {
      return this.statement(sql).all(params) as MessageHit[];
    } catch (error) {
      // ftsMatch writes only quoted words, so this is not expected; still, never a 500 for a query.
      if (error instanceof Error && /fts5|MATCH/i.test(error.message)) throw new TernError('InvalidParameter', { detail: { field: 'q' } });
      throw error;
    }
  }

  /** The hits for message ids found another way (the server-side search). */
  hitsFor(accountId: number, ids: readonly number[]): MessageHit[] {
    return ids.length === 0 ? [] : (this.byIds.all(accountId, JSON.stringify(ids)) as MessageHit[]);
  }

  private statement(sql: string): Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }
}
