/**
 * The search box's language, as the gateway reads it (src-server/search/search-query.ts,
 * fts-query.ts), for answering over the cached mail: words, "quoted phrases", from: to:
 * subject: has:attachment is:unread|read|starred|flagged|unstarred in: label: before: after:,
 * plus Gmail's `-` to exclude. Words are cut as the gateway's FTS5 index (unicode61) cuts
 * them and folded by the same function (shared/search-fold.ts), so the same query finds the same mail.
 */
import { SEARCH_EXCLUDED_BY_DEFAULT as EXCLUDED_BY_DEFAULT, SEARCH_SPECIAL_NAMES as SPECIAL_NAMES } from '../../shared/search-folders';
import type { Folder } from '../../shared/api/mail';
import { foldForSearch } from '../../shared/search-fold';
import { isSearchOperator, parseSearchDay, searchProblemOf } from '../../shared/search-syntax';

export type TermField = 'any' | 'from' | 'to' | 'subject';

export interface SearchTerm {
  readonly field: TermField;
  /** Folded words, in order; never empty. */
  readonly words: readonly string[];
  /** Typed in quotes: whole words only. Otherwise the last word matches as a prefix (search as you type). */
  readonly phrase: boolean;
  /** `-word`: mail matching the term is left out. */
  readonly negated: boolean;
}

export interface ParsedSearch {
  readonly terms: readonly SearchTerm[];
  /** true: has:attachment (the paperclip rule, spec §5); false: -has:attachment; null: either. */
  readonly hasAttachment: boolean | null;
  readonly unread: boolean | null;
  readonly starred: boolean | null;
  /** `in:` values as typed; empty: every folder but Trash and Junk. */
  readonly folders: readonly string[];
  /** `-in:` values: folders left out. */
  readonly notFolders: readonly string[];
  /** `label:` names as typed (mapped to each account's keywords at search time); `negated`: `-label:`. */
  readonly labels: readonly { readonly name: string; readonly negated: boolean }[];
  /** Received on or after (epoch ms, 00:00 UTC of the day). */
  readonly after: number | null;
  /** Received before (epoch ms, 00:00 UTC of the day). */
  readonly before: number | null;
  /** A query the gateway refuses (foo:bar, has:pizza, before:yesterday, an open quote): the answer is empty, the UI says why. */
  readonly impossible: boolean;
}

/** Longest word kept; longer runs (base64, tracking ids) are cut to this in the index and the query alike. */
export const MAX_WORD_LENGTH = 40;

const WORD = /[\p{L}\p{N}\p{Co}]+/gu;
// Most text the index reads is ASCII: nothing to fold, and its letters and digits are the words.
const ASCII = /^[\x00-\x7f]*$/;
const ASCII_WORD = /[a-z0-9]+/g;

/** Text → its words, lowercased and folded (shared/search-fold.ts: "Café-Małgorzata" → cafe, malgorzata). */
export function searchWords(text: string): string[] {
  if (!text) return [];
  const ascii = ASCII.test(text);
  const folded = ascii ? text.toLowerCase() : foldForSearch(text).toLowerCase();
  const words = folded.match(ascii ? ASCII_WORD : WORD) ?? [];
  return words.map((word) => (word.length > MAX_WORD_LENGTH ? word.slice(0, MAX_WORD_LENGTH) : word));
}

const TEXT_OPERATORS: Readonly<Record<string, TermField>> = { from: 'from', to: 'to', subject: 'subject' };
const IS_VALUES: Readonly<Record<string, { unread?: boolean; starred?: boolean }>> = {
  unread: { unread: true },
  read: { unread: false },
  starred: { starred: true },
  flagged: { starred: true },
  unstarred: { starred: false },
};
/** YYYY-MM-DD or YYYY/MM/DD → 00:00 UTC of that day; null when it is not a real day. */
export const parseDay = parseSearchDay;

/**
 * Parses a query. Operators with an empty value are skipped (the person is still typing);
 * what the gateway refuses (shared/search-syntax.ts: an unknown operator, a bad value, an
 * open quote) is `impossible`; text that merely looks like an operator ("re:", "https://…") is words.
 */
export function parseSearch(query: string): ParsedSearch {
  const terms: SearchTerm[] = [];
  const folders: string[] = [];
  const notFolders: string[] = [];
  const labels: { name: string; negated: boolean }[] = [];
  let hasAttachment: boolean | null = null;
  let unread: boolean | null = null;
  let starred: boolean | null = null;
  let after: number | null = null;
  let before: number | null = null;
  let impossible = searchProblemOf(query) !== null;
  const laterOf = (a: number | null, b: number) => (a === null ? b : Math.max(a, b));
  const earlierOf = (a: number | null, b: number) => (a === null ? b : Math.min(a, b));

  const pattern = /(-?)(?:([A-Za-z]+):(?:"([^"]*)"?|(\S*))|"([^"]*)"?|(\S+))/g;
  for (const match of query.matchAll(pattern)) {
    const [whole, minus, operatorRaw, quotedValue, bareValue, phrase, word] = match;
    const negated = minus === '-';
    const operator = operatorRaw?.toLowerCase();
    if (operator === undefined || !isSearchOperator(operator)) {
      const text = operator !== undefined ? whole.slice(minus!.length) : (phrase ?? word ?? '');
      const words = searchWords(text);
      if (words.length > 0) terms.push({ field: 'any', words, phrase: phrase !== undefined, negated });
      continue;
    }
    const value = (quotedValue ?? bareValue ?? '').trim();
    if (!value) continue;
    const field = TEXT_OPERATORS[operator];
    if (field) {
      const words = searchWords(value);
      if (words.length > 0) terms.push({ field, words, phrase: quotedValue !== undefined, negated });
      continue;
    }
    const lower = value.toLowerCase();
    if (operator === 'has') {
      if (lower === 'attachment' || lower === 'attachments') hasAttachment = !negated;
      else impossible = true;
    } else if (operator === 'is') {
      const flags = IS_VALUES[lower];
      if (!flags) impossible = true;
      if (flags?.unread !== undefined) unread = negated ? !flags.unread : flags.unread;
      if (flags?.starred !== undefined) starred = negated ? !flags.starred : flags.starred;
    } else if (operator === 'in') {
      (negated ? notFolders : folders).push(value);
    } else if (operator === 'label') {
      labels.push({ name: value, negated });
    } else {
      const day = parseDay(value);
      if (day === null) impossible = true;
      // -before:d is after:d, and -after:d is before:d.
      else if ((operator === 'after') !== negated) after = laterOf(after, day);
      else before = earlierOf(before, day);
    }
  }
  return { terms, hasAttachment, unread, starred, folders, notFolders, labels, after, before, impossible };
}

/** Whether the query asks for anything at all (an empty box, or only punctuation, finds nothing). */
export function isEmptySearch(search: ParsedSearch): boolean {
  return (
    search.terms.length === 0 &&
    search.hasAttachment === null &&
    search.unread === null &&
    search.starred === null &&
    search.folders.length === 0 &&
    search.notFolders.length === 0 &&
    search.labels.length === 0 &&
    search.after === null &&
    search.before === null &&
    !search.impossible
  );
}


function foldersNamed(folders: readonly Folder[], value: string): Folder[] {
  const wanted = value.toLowerCase();
  if (wanted === 'anywhere') return [...folders];
  const special = SPECIAL_NAMES[wanted];
  const bySpecial = special ? folders.filter((folder) => folder.specialUse === special) : [];
  if (bySpecial.length > 0) return bySpecial;
  return folders.filter((folder) => folder.path.toLowerCase() === wanted || folder.name.toLowerCase() === wanted);
}

/** The folder ids a search looks in: those its `in:` values name (any of them), else all but Trash and Junk; minus `-in:`. */
export function searchFolderIds(folders: readonly Folder[], search: Pick<ParsedSearch, 'folders' | 'notFolders'>): Set<string> {
  const scope =
    search.folders.length > 0
      ? search.folders.flatMap((value) => foldersNamed(folders, value))
      : folders.filter((folder) => !folder.specialUse || !EXCLUDED_BY_DEFAULT.includes(folder.specialUse));
  const ids = new Set(scope.map((folder) => folder.id));
  for (const value of search.notFolders) for (const folder of foldersNamed(folders, value)) ids.delete(folder.id);
  return ids;
}
