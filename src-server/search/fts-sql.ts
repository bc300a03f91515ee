import { PAPERCLIP_MIN_INLINE_BYTES } from '../../shared/attachment-rules';
import type { SqlDialect, SqlValue } from '../store/sql';
import { ftsMatch, tsMatch } from './fts-query';
import type { SearchTerm } from './search-query';

/** A condition on the messages row `m`, and the values of its `?`s in order. */
export interface SqlCondition {
  readonly sql: string;
  readonly params: readonly SqlValue[];
}

/**
 * The parts of a search that each engine writes its own way: the full-text match (FTS5's
 * MATCH on SQLite, a tsquery over the tsvector document on PostgreSQL) and the tests on
 * the JSON columns (json_each on SQLite, jsonb on PostgreSQL). Everything else local-search
 * asks is SQL both accept. The one place search branches on the dialect for its queries.
 */
export interface SearchSql {
  /** Messages whose indexed words match every term; null when no term has a word. */
  match(terms: readonly SearchTerm[]): SqlCondition | null;
  /** Messages with (or without) the \Flagged flag. */
  starred(starred: boolean): SqlCondition;
  /** has:attachment means what the paperclip means (spec §5): a part with no contentId, or over 12 KB. */
  hasAttachment(): SqlCondition;
  /** Whether an error of a search statement comes from the match expression (never expected: see fts-query.ts). */
  isMatchError(error: Error): boolean;
}

const FLAGGED = '\\Flagged';

const SQLITE: SearchSql = {
  match(terms) {
    const match = ftsMatch(terms);
    return match === null ? null : { sql: 'm.id IN (SELECT rowid FROM messages_fts WHERE messages_fts MATCH ?)', params: [match] };
  },
  starred: (starred) => ({ sql: `${starred ? '' : 'NOT '}EXISTS (SELECT 1 FROM json_each(m.flags) WHERE value = ?)`, params: [FLAGGED] }),
  hasAttachment: () => ({
    sql: "EXISTS (SELECT 1 FROM json_each(m.attachments_json) a WHERE json_extract(a.value, '$.contentId') IS NULL OR json_extract(a.value, '$.size') > ?)",
    params: [PAPERCLIP_MIN_INLINE_BYTES],
  }),
  isMatchError: (error) => /fts5|MATCH/i.test(error.message),
};

const POSTGRES: SearchSql = {
  match(terms) {
    const match = tsMatch(terms);
    return match === null ? null : { sql: "m.id IN (SELECT message_id FROM messages_fts WHERE document @@ to_tsquery('simple', ?))", params: [match] };
  },
  // jsonb containment compares the flag exactly, as json_each's `=` does.
  starred: (starred) => ({ sql: `${starred ? '' : 'NOT '}(m.flags::jsonb @> ?::jsonb)`, params: [JSON.stringify([FLAGGED])] }),
  hasAttachment: () => ({
    sql: "EXISTS (SELECT 1 FROM jsonb_array_elements(m.attachments_json::jsonb) a WHERE a->>'contentId' IS NULL OR (a->>'size')::numeric > ?)",
    params: [PAPERCLIP_MIN_INLINE_BYTES],
  }),
  isMatchError: (error) => /tsquery/i.test(error.message),
};

export function searchSql(dialect: SqlDialect): SearchSql {
  return dialect === 'postgres' ? POSTGRES : SQLITE;
}
