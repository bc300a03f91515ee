import { isSearchOperator, parseSearchDay, searchError, searchProblemOf } from '../../shared/search-syntax';

/** Where a text term must match. `any`: subject, people, snippet and indexed body words. */
export type TermField = 'any' | 'from' | 'to' | 'subject';

export interface SearchTerm {
  readonly field: TermField;
  readonly text: string;
  /** Typed in quotes: the words in this order, whole words only. */
  readonly phrase: boolean;
}

/** A search box query, parsed (Gmail's operators, the subset the mirror can answer). */
export interface ParsedSearch {
  readonly terms: readonly SearchTerm[];
  readonly hasAttachment: boolean;
  /** true: is:unread, false: is:read, null: either. */
  readonly unread: boolean | null;
  /** true: is:starred, false: is:unstarred, null: either. */
  readonly starred: boolean | null;
  /** `in:` values as typed (folder names, paths or special names); empty: the default scope. */
  readonly folders: readonly string[];
  /** Received on or after this day (epoch ms of 00:00 UTC), from `after:`. */
  readonly after: number | null;
  /** Received before this day (epoch ms of 00:00 UTC), from `before:`. */
  readonly before: number | null;
  /** `label:` names as typed; the search service maps them to the account's keywords (every one must be present). */
  readonly labels: readonly string[];
  /** The IMAP keywords those labels are stored as (search-service.ts fills these; empty from parseSearch). */
  readonly keywords: readonly string[];
}

const TEXT_OPERATORS: Record<string, TermField> = { from: 'from', to: 'to', subject: 'subject' };
const IS_VALUES: Record<string, { unread?: boolean; starred?: boolean }> = {
  unread: { unread: true },
  read: { unread: false },
  starred: { starred: true },
  flagged: { starred: true },
  unstarred: { starred: false },
};

/** One whitespace-separated piece of the query: `word`, `"a phrase"`, `op:value` or `op:"a value"`. */
interface Token {
  readonly operator: string | null;
  readonly value: string;
  readonly quoted: boolean;
}

/** Splits the query; an unclosed quote runs to the end (parseSearch refuses one first). */
export function tokenize(query: string): Token[] {
  const tokens: Token[] = [];
  const pattern = /([A-Za-z]+):(?:"([^"]*)"?|(\S*))|"([^"]*)"?|(\S+)/g;
  for (const match of query.matchAll(pattern)) {
    const [, operator, quotedValue, bareValue, phrase, word] = match;
    if (operator !== undefined && isSearchOperator(operator)) {
      tokens.push({ operator: operator.toLowerCase(), value: (quotedValue ?? bareValue ?? '').trim(), quoted: quotedValue !== undefined });
    } else if (operator !== undefined) {
      // Text that merely looks like an operator ("re:", "https://…"; parseSearch refuses the rest): plain words.
      tokens.push({ operator: null, value: match[0].replace(/"/g, ' ').trim(), quoted: false });
    } else if (phrase !== undefined) {
      tokens.push({ operator: null, value: phrase.trim(), quoted: true });
    } else if (word !== undefined) {
      tokens.push({ operator: null, value: word, quoted: false });
    }
  }
  return tokens;
}

/** YYYY-MM-DD (or YYYY/MM/DD, as Gmail writes it) → 00:00 UTC of that day; InvalidSearchQuery naming the operator otherwise. */
export function parseDay(value: string, operator: string): number {
  const day = parseSearchDay(value);
  if (day === null) throw searchError({ kind: 'bad-value', operator, value });
  return day;
}

/**
 * Parses what a person typed in the search box. Operators with an empty value are
 * skipped (the person is still typing); an operator we do not have (`foo:bar`), a value
 * that cannot mean anything (`has:pizza`, `before:yesterday`) or an open quote is
 * InvalidSearchQuery, its description naming the operator (shared/search-syntax.ts).
 */
export function parseSearch(query: string): ParsedSearch {
  const terms: SearchTerm[] = [];
  const folders: string[] = [];
  const labels: string[] = [];
  let hasAttachment = false;
  let unread: boolean | null = null;
  let starred: boolean | null = null;
  let after: number | null = null;
  let before: number | null = null;
  const problem = searchProblemOf(query);
  if (problem) throw searchError(problem);
  const invalid = (operator: string, value: string) => searchError({ kind: 'bad-value', operator, value });

  for (const { operator, value, quoted } of tokenize(query)) {
    if (!value) continue;
    if (operator === null) {
      terms.push({ field: 'any', text: value, phrase: quoted });
      continue;
    }
    const field = TEXT_OPERATORS[operator];
    if (field) {
      terms.push({ field, text: value, phrase: quoted });
      continue;
    }
    const lower = value.toLowerCase();
    switch (operator) {
      case 'has':
        if (lower !== 'attachment' && lower !== 'attachments') throw invalid(operator, value);
        hasAttachment = true;
        break;
      case 'is': {
        const flags = IS_VALUES[lower];
        if (!flags) throw invalid(operator, value);
        if (flags.unread !== undefined) unread = flags.unread;
        if (flags.starred !== undefined) starred = flags.starred;
        break;
      }
      case 'in':
        folders.push(value);
        break;
      case 'label':
        labels.push(value);
        break;
      case 'after': {
        const day = parseDay(value, operator);
        after = after === null ? day : Math.max(after, day);
        break;
      }
      case 'before': {
        const day = parseDay(value, operator);
        before = before === null ? day : Math.min(before, day);
        break;
      }
    }
  }
  return { terms, hasAttachment, unread, starred, folders, after, before, labels, keywords: [] };
}

/** Whether the query asks for anything at all (a query of punctuation does not). */
export function isEmptySearch(search: ParsedSearch): boolean {
  return (
    search.terms.length === 0 &&
    !search.hasAttachment &&
    search.unread === null &&
    search.starred === null &&
    search.folders.length === 0 &&
    search.labels.length === 0 &&
    search.after === null &&
    search.before === null
  );
}
