/**
 * How a person's name reads where space is short: the thread row's senders ("John, me (3)")
 * and a message header's recipients ("to Karen, Siobhán, John"). One rule for both, so the
 * list and the conversation never disagree about what someone is called.
 */
import type { Address } from '../../shared/api/mail';

/** Quotes a header's display name may still carry: "Smith, John", 'John', “John”. */
const QUOTED = /^(["'“‘«])(.*)(["'”’»])$/su;
/** Titles before a name: "Dr. John Smith" is John. */
const HONORIFICS = new Set(['dr', 'mr', 'mrs', 'ms', 'miss', 'mx', 'prof', 'sir', 'dame', 'rev', 'herr', 'frau', 'mme', 'mlle']);
/** What may follow a comma without the name being "Last, First": "John Smith, Jr." is John. */
const SUFFIXES = new Set(['jr', 'sr', 'ii', 'iii', 'iv', 'phd', 'md', 'esq', 'mba', 'dds', 'cpa', 'msc', 'bsc']);
const EMAIL_LIKE = /^[^\s@]+@[^\s@]+$/u;
const WORDY = /[\p{L}\p{N}]/u;
const INITIAL = /^\p{L}\.?$/u;

const bare = (word: string) => word.replace(/\./g, '').toLowerCase();
const localPart = (email: string) => email.split('@')[0] || email;

/** The display name without surrounding quotes, escapes or runs of spaces. */
export function cleanName(name: string): string {
  let text = name.replace(/\s+/gu, ' ').trim();
  for (let match = QUOTED.exec(text); match; match = QUOTED.exec(text)) text = (match[2] ?? '').replace(/\\(.)/gu, '$1').trim();
  return text;
}

/** The full name as headers show it: the cleaned display name, or the address when there is none. */
export const displayName = (address: Address) => cleanName(address.name) || address.email;

/** "Smith, John" → ["John", "Smith"]; "John Smith, Jr." → ["John Smith"]; otherwise the name itself. */
function givenFirst(name: string): string[] {
  const comma = name.indexOf(',');
  if (comma < 0) return [name];
  const before = name.slice(0, comma).trim();
  const after = name.slice(comma + 1).trim();
  const afterWords = after.split(/[\s,]+/u).filter(Boolean);
  if (afterWords.length === 0 || afterWords.every((word) => SUFFIXES.has(bare(word)))) return [before];
  if (!before) return [after];
  return [after.replace(/,.*$/su, '').trim(), before];
}

/** The name in reading order ("Smith, John" → "John Smith"), for initials. */
export const naturalName = (name: string) => givenFirst(cleanName(name)).join(' ');

/**
 * The short name: the first name ("John Smith", "Smith, John", "Dr. John Smith" → "John"),
 * the first word of names written family name first ("Yamada Tarō" → "Yamada"), a name without
 * spaces whole (CJK, emoji), "J. Smith" whole (an initial alone says nothing), and the address's
 * local part when the name is empty or is itself an address.
 */
export function shortName(address: Address): string {
  const name = cleanName(address.name);
  if (!name) return localPart(address.email);
  if (EMAIL_LIKE.test(name)) return localPart(name);
  const [given = ''] = givenFirst(name.replace(/\s*[([][^)\]]*[)\]]\s*/gu, ' ').trim() || name);
  const words = given
    .split(' ')
    .map((word) => word.replace(/^[,;:]+|[,;:]+$/gu, ''))
    .filter((word) => WORDY.test(word));
  while (words.length > 1 && HONORIFICS.has(bare(words[0] ?? ''))) words.shift();
  if (words.length === 0) return name;
  const first = words[0] ?? name;
  if (!INITIAL.test(first) || words.length === 1) return first;
  // "J. Robert Oppenheimer" goes by Robert; "J. Smith" and "J. R. Smith" only by the whole.
  const named = words.findIndex((word) => !INITIAL.test(word));
  return named >= 0 && named < words.length - 1 ? (words[named] ?? first) : words.join(' ');
}

/** Up to two initials, in reading order: "Alice Smith" and "Smith, Alice" → "AS", "bob@x.org" → "B". */
export function initials(address: Address | undefined): string {
  if (!address) return '?';
  const words = naturalName(address.name)
    .replace(/[^\p{L}\p{N}\s]/gu, ' ')
    .trim()
    .split(/\s+/)
    .filter(Boolean);
  if (words.length >= 2) return ((words[0]?.[0] ?? '') + (words.at(-1)?.[0] ?? '')).toUpperCase();
  if (words.length === 1) return (words[0]?.[0] ?? '?').toUpperCase();
  return (address.email[0] ?? '?').toUpperCase();
}
