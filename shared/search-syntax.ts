/**
 * The search box's operators, as the gateway answers them (src-server/search/): the one
 * list that the gateway's parser, the worker's local parser, the error a person reads and
 * the operator help in the UI all read. A query that uses an operator we do not have, gives
 * one a value it cannot take, or leaves a quote open is refused with a sentence naming what
 * is wrong, instead of quietly finding nothing.
 */
import { TernError } from './errors';

export interface SearchOperatorInfo {
  /** Typed before the colon, lowercase. */
  readonly name: string;
  /** What it finds, for the help list. */
  readonly description: string;
  /** A query using it, for the help list. */
  readonly example: string;
  /** The values it takes, when they are a fixed set (the first ones are shown; the rest are synonyms). */
  readonly values?: readonly string[];
  /** How many of `values` the help and the error name. */
  readonly shownValues?: number;
  /** Its value is a day. */
  readonly date?: boolean;
}

export const SEARCH_OPERATORS: readonly SearchOperatorInfo[] = [
  { name: 'from', description: 'Sent by a name or address', example: 'from:bob' },
  { name: 'to', description: 'Sent to a name or address (To or Cc)', example: 'to:alice@tern.test' },
  { name: 'subject', description: 'Words in the subject', example: 'subject:"lunch plans"' },
  { name: 'has', description: 'Has files attached', example: 'has:attachment', values: ['attachment', 'attachments'], shownValues: 1 },
  { name: 'is', description: 'Unread, read, starred or not starred', example: 'is:unread', values: ['unread', 'read', 'starred', 'unstarred', 'flagged'], shownValues: 4 },
  { name: 'in', description: 'In a folder: inbox, sent, drafts, archive, spam, trash, anywhere or its name', example: 'in:sent' },
  { name: 'label', description: 'Has a label (its name, in quotes when it has spaces)', example: 'label:"Work stuff"' },
  { name: 'after', description: 'Received on or after a day', example: 'after:2026-01-31', date: true },
  { name: 'before', description: 'Received before a day', example: 'before:2026-01-31', date: true },
];

const BY_NAME: ReadonlyMap<string, SearchOperatorInfo> = new Map(SEARCH_OPERATORS.map((operator) => [operator.name, operator]));

export function isSearchOperator(name: string): boolean {
  return BY_NAME.has(name.toLowerCase());
}

/**
 * Text that looks like `word:value` but is not meant as an operator: the subject prefixes
 * people paste ("Re:Lunch") and addresses with a scheme ("https://…", "mailto:…" is not one).
 */
export function isPlainTextColon(name: string, value: string): boolean {
  return /^(re|fwd?|aw|sv)$/i.test(name) || value.startsWith('//');
}

/** YYYY-MM-DD or YYYY/MM/DD → 00:00 UTC of that day; null when it is not a real day (from 1970). */
export function parseSearchDay(value: string): number | null {
  const match = /^(\d{4})[-/](\d{1,2})[-/](\d{1,2})$/.exec(value);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  // Date.UTC rolls 2026-02-30 over into March: a real day survives the round trip.
  if (year < 1970 || date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  return date.getTime();
}

/** What is wrong with a query, naming the operator. */
export type SearchProblem =
  | { readonly kind: 'unknown-operator'; readonly operator: string; readonly value: string }
  | { readonly kind: 'bad-value'; readonly operator: string; readonly value: string }
  | { readonly kind: 'unclosed-quote'; readonly operator: string | null }
  | { readonly kind: 'unknown-label'; readonly operator: 'label'; readonly value: string };

// `-op:"value"`, `-op:value`, `"phrase"`, `word`; the quote groups tell whether the quote was closed.
// Names may hold `_` here (Gmail's older_than:) so those are refused by name too.
const TOKEN = /(-?)(?:([A-Za-z_]+):(?:"([^"]*)("?)|(\S*))|"([^"]*)("?)|(\S+))/g;

/** A label name as `label:` compares it: trimmed, case aside (names are unique that way, shared/labels.ts). */
export const labelNameKey = (name: string) => name.trim().toLocaleLowerCase();

/**
 * The first problem of a query, or null. An operator with nothing after its colon yet is
 * no problem (the person is still typing it), nor is `in:` with any folder name. With
 * `labelNames` (every label the searched accounts have), a `label:` naming none of them is
 * one; without, any name passes (the caller checks it where the labels are).
 */
export function searchProblemOf(query: string, labelNames?: readonly string[]): SearchProblem | null {
  const labels = labelNames ? new Set(labelNames.map(labelNameKey)) : null;
  for (const match of query.matchAll(TOKEN)) {
    const [, , nameRaw, quotedValue, operatorQuoteClosed, bareValue, phrase, phraseClosed] = match;
    if (phrase !== undefined && !phraseClosed) return { kind: 'unclosed-quote', operator: null };
    if (nameRaw === undefined) continue;
    const name = nameRaw.toLowerCase();
    if (quotedValue !== undefined && !operatorQuoteClosed) {
      if (isSearchOperator(name)) return { kind: 'unclosed-quote', operator: name };
    }
    const value = (quotedValue ?? bareValue ?? '').trim();
    if (!value) continue;
    const operator = BY_NAME.get(name);
    if (!operator) {
      if (isPlainTextColon(name, value)) continue;
      return { kind: 'unknown-operator', operator: name, value };
    }
    if (operator.values && !operator.values.includes(value.toLowerCase())) return { kind: 'bad-value', operator: name, value };
    if (operator.date && parseSearchDay(value) === null) return { kind: 'bad-value', operator: name, value };
    if (name === 'label' && labels && !labels.has(labelNameKey(value))) return { kind: 'unknown-label', operator: 'label', value };
  }
  return null;
}

const listed = (words: readonly string[]) => (words.length < 2 ? words.join('') : `${words.slice(0, -1).join(', ')} or ${words.at(-1)}`);

/** The sentence a person reads for a problem (the catalogue's InvalidSearchQuery, made specific). */
export function describeSearchProblem(problem: SearchProblem): string {
  switch (problem.kind) {
    case 'unknown-operator':
      return `“${problem.operator}:” is not a search operator. Use ${listed(SEARCH_OPERATORS.map((operator) => `${operator.name}:`))}, or put the text in quotes to search for it.`;
    case 'unclosed-quote':
      return problem.operator ? `The quote after “${problem.operator}:” is not closed. Add the closing ".` : 'A quote is not closed. Add the closing ".';
    case 'bad-value': {
      const operator = BY_NAME.get(problem.operator)!;
      const takes = operator.date ? `a date such as ${operator.example.slice(operator.name.length + 1)}` : listed((operator.values ?? []).slice(0, operator.shownValues));
      return `“${problem.operator}:${problem.value}” is not valid: ${problem.operator}: takes ${takes}.`;
    }
    case 'unknown-label':
      return `There is no label named “${problem.value}”. Check its name in Settings → Labels.`;
  }
}

/** The catalogue error for a problem, its description naming the operator. */
export function searchError(problem: SearchProblem): TernError {
  return new TernError('InvalidSearchQuery', {
    description: describeSearchProblem(problem),
    detail: { field: 'q', ...problem, ...(problem.kind === 'bad-value' && BY_NAME.get(problem.operator)?.date ? { expected: 'YYYY-MM-DD' } : {}) },
  });
}
