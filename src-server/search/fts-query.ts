import { foldForSearch } from '../../shared/search-fold';
import type { SearchTerm, TermField } from './search-query';

/** The FTS5 columns a field searches (see the messages_fts migration). */
const COLUMNS: Record<Exclude<TermField, 'any'>, string> = { from: 'sender', to: 'recipients', subject: 'subject' };

/**
 * Words as SQLite's unicode61 tokenizer cuts them: runs of letters, digits and marks;
 * everything else (spaces, punctuation, `@`, quotes, FTS5 operators) separates them.
 * Folded as the index is (fts-indexer.ts): "Małgorzata" asks for "Malgorzata".
 */
export function ftsTokens(text: string): string[] {
  return foldForSearch(text).match(/[\p{L}\p{N}\p{M}\p{Co}]+/gu) ?? [];
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
