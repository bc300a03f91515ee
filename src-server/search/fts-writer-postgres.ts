import type { SqlStore, SqlValue } from '../store/sql';
import type { FtsWriter } from './fts-indexer';
import { tsTokens } from './fts-query';
import { placeholders } from '../store/sql-lists';

/** One address as the mirror stores it in from_json, to_json, cc_json. */
interface StoredAddress {
  readonly name?: string | null;
  readonly email?: string | null;
}

interface MessageText {
  readonly id: number;
  readonly subject: string;
  readonly fromJson: string;
  readonly toJson: string;
  readonly ccJson: string;
  readonly snippet: string;
  readonly words: string;
}

/** Columns bound per message in the INSERT. */
const COLUMNS = 6;

/**
 * SKIP LOCKED: a queue row another transaction holds is left for a later pass. The
 * queueing triggers lock the row they touch (migration 6), so a message changed while a
 * node indexes it is either skipped now or queued again once that node commits — never
 * indexed from a row older than its last change.
 */
const claim = (queue: string) =>
  `DELETE FROM ${queue} WHERE message_id IN (SELECT message_id FROM ${queue} ORDER BY message_id LIMIT ? FOR UPDATE SKIP LOCKED) RETURNING message_id AS id`;

/**
 * The PostgreSQL index (migrations-postgres.ts, "search"): messages_fts keeps each message's
 * folded words per column, and their tsvector `document`, built by tern_fts_document with one
 * weight per column so from:/to:/subject: can ask for theirs. The words are cut, folded
 * and lowercased here exactly as the query's are (fts-query.ts tsTokens), so both sides of
 * the index agree whatever PostgreSQL's parser and locale would have made of them.
 */
export class PostgresFtsWriter implements FtsWriter {
  /** Every id is a bound parameter, COLUMNS of them per message in index(). */
  readonly batch = 500;

  constructor(private readonly store: SqlStore) {}

  async claimGone(limit: number): Promise<number[]> {
    return (await this.store.all<{ id: number }>(claim('fts_gone'), [limit])).map((row) => row.id);
  }

  async claimPending(limit: number): Promise<number[]> {
    return (await this.store.all<{ id: number }>(claim('fts_pending'), [limit])).map((row) => row.id);
  }

  async drop(ids: readonly number[]): Promise<void> {
    if (ids.length > 0) await this.store.run(`DELETE FROM messages_fts WHERE message_id IN (${placeholders(ids.length)})`, ids);
  }

  async index(ids: readonly number[]): Promise<void> {
    if (ids.length === 0) return;
    const rows = await this.store.all<MessageText>(
      `SELECT m.id, m.subject, m.from_json AS "fromJson", m.to_json AS "toJson", m.cc_json AS "ccJson", m.snippet, COALESCE(w.words, '') AS words
       FROM messages m LEFT JOIN message_body_words w ON w.message_id = m.id WHERE m.id IN (${placeholders(ids.length)})`,
      ids,
    );
    if (rows.length === 0) return;
    const values: SqlValue[] = [];
    for (const row of rows) {
      values.push(row.id, words(row.subject), words(people(row.fromJson)), words(`${people(row.toJson)} ${people(row.ccJson)}`), words(row.snippet), words(row.words));
    }
    const tuples = rows.map((_, i) => `(${i === 0 ? '?::bigint' : '?'}, ${placeholders(COLUMNS - 1)})`).join(', ');
    await this.store.run(
      `INSERT INTO messages_fts (message_id, subject, sender, recipients, snippet, body, document)
       SELECT v.id, v.subject, v.sender, v.recipients, v.snippet, v.body, tern_fts_document(v.subject, v.sender, v.recipients, v.snippet, v.body)
       FROM (VALUES ${tuples}) AS v (id, subject, sender, recipients, snippet, body)`,
      values,
    );
  }
}

/** The text's words as the index keeps them: cut, folded, lowercased, one space apart. */
function words(text: string): string {
  return tsTokens(text).join(' ');
}

/**
 * "name email" of each address, as SQLite's index writes them (fts-writer-sqlite.ts):
 * there an address without a name or an email drops out of the list (NULL || …), so here too.
 */
function people(json: string): string {
  let list: unknown;
  try {
    list = JSON.parse(json);
  } catch {
    return '';
  }
  if (!Array.isArray(list)) return '';
  return (list as StoredAddress[])
    .filter((address) => address !== null && typeof address === 'object' && address.name != null && address.email != null)
    .map((address) => `${address.name} ${address.email}`)
    .join(' ');
}
