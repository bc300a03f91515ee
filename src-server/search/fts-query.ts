import { foldForSearch } from '../../shared/search-fold';
import type { SearchTerm, TermField } from './search-query';

/** The FTS5 columns a field searches (see the messages_fts migration). */
const COLUMNS: Record<Exclude<TermField, 'any'>, string> = { from: 'sender', to: 'recipients', subject: 'subject' };

/**
 * The weight PostgreSQL's document gives a field's column (tern_fts_document in
 * migrations-postgres.ts): a lexeme labelled so matches only words of that column.
 */
const WEIGHTS: Record<Exclude<TermField, 'any'>, string> = { subject: 'A', from: 'B', to: 'C' };

/**
 * Words as SQLite's unicode61 tokenizer cuts them: runs of letters, digits and marks;
 * everything else (spaces, punctuation, `@`, quotes, FTS5 operators) separates them.
 * Folded as the index is (fts-indexer.ts): "Małgorzata" asks for "Malgorzata".
 */
export function ftsTokens(text: string): string[] {
  return foldForSearch(text).match(/[\p{L}\p{N}\p{M}\p{Co}]+/gu) ?? [];
}

/**
 * The same words, lowercased as unicode61 does, for PostgreSQL: its parser would keep
 * "bob@example.com" or "foo-bar" whole where unicode61 cuts them, and its lower() follows
 * the database's locale, so both sides of its index get words cut and lowercased here.
 */
export function tsTokens(text: string): string[] {
  return ftsTokens(text.toLowerCase());
}

/**
 * One term as an FTS5 expression. Every token is put in double quotes, so nothing a
 * person types — `OR`, `NEAR`, `*`, `(`, `"` or a column name — is FTS5 syntax; only
 * this function writes syntax. A bare word matches as a prefix (search as you type);
 * an address or hyphenated word becomes a phrase ("bob@example.com" → "bob example
 * com"*); a quoted phrase matches whole words in order. Null: the term has no words.
 */
export function ftsTerm(term: SearchTerm): string | null {
  const tokens = ftsTokens(term.text);
  if (tokens.length === 0) return null;
  const phrase = `"${tokens.join(' ')}"${term.phrase ? '' : '*'}`;
  return term.field === 'any' ? phrase : `${COLUMNS[term.field]} : ${phrase}`;
}

/** Every term must match (FTS5's implicit AND); null when no term has a word. */
export function ftsMatch(terms: readonly SearchTerm[]): string | null {
  const parts = terms.map(ftsTerm).filter((part): part is string => part !== null);
  return parts.length > 0 ? parts.join(' ') : null;
}

/**
 * One term as a PostgreSQL tsquery, meaning what ftsTerm means on FTS5: words in order
 * (`<->`), the last one a prefix (`:*`) unless the term was quoted, each labelled with its
 * column's weight for from:/to:/subject:. Tokens are letters and digits only, so quoting
 * them is all the escaping there is. Null: the term has no words.
 */
export function tsTerm(term: SearchTerm): string | null {
  const tokens = tsTokens(term.text);
  if (tokens.length === 0) return null;
  const weight = term.field === 'any' ? '' : WEIGHTS[term.field];
  const last = tokens.length - 1;
  const lexemes = tokens.map((token, i) => {
    const label = `${i === last && !term.phrase ? '*' : ''}${weight}`;
    return label ? `'${token}':${label}` : `'${token}'`;
  });
  return lexemes.length === 1 ? lexemes[0]! : `(${lexemes.join(' <-> ')})`;
}

/** Every term must match; null when no term has a word. */
export function tsMatch(terms: readonly SearchTerm[]): string | null {
  const parts = terms.map(tsTerm).filter((part): part is string => part !== null);
  return parts.length > 0 ? parts.join(' & ') : null;
}
