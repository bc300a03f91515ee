/**
 * Labels (issue 17 point 1): a name and a colour the person chooses, stored on the mail
 * server as an IMAP keyword so every mail program sees the same state. Names are not
 * keywords — a keyword is an atom with no spaces, quotes or non-ASCII (RFC 9051 §4.3) —
 * so each account keeps a table keyword ↔ name ↔ colour (the spec's EmailLabels); the
 * keywords the system sets for its own meanings (SYSTEM_KEYWORDS, the spec's
 * SystemEmailLabels) are never shown as labels. One rule set for gateway, engine and UI.
 */
import * as z from 'zod';
import { TernError } from './errors';

/** An IMAP keyword (RFC 3501 atom, no backslash): labels travel as keywords. */
export const keywordSchema = z.string().regex(/^[A-Za-z0-9$_.\-]{1,64}$/, 'Letters, digits and $ _ . - only');

export const LABEL_COLORS = ['grey', 'red', 'orange', 'yellow', 'green', 'teal', 'blue', 'purple'] as const;
export type LabelColor = (typeof LABEL_COLORS)[number];
export const labelColorSchema = z.enum(LABEL_COLORS);

export const LABEL_LIMITS = {
  /** Characters of a name (a sidebar line). */
  nameLength: 40,
  /**
   * Labels per account. The harness's Dovecot (Maildir) keeps 26 keywords per folder in the
   * file names (a–z, `dovecot-keywords`); more are held only in its index and are lost when
   * the index is rebuilt (checked: 300 keywords on one message are accepted). 20 leaves room
   * for the server's and other programs' own ($Forwarded, $MDNSent, Junk …).
   */
  perAccount: 20,
  /** Dovecot refuses longer keywords (mail_max_keyword_length, 50). */
  keywordLength: 40,
} as const;

/** A label of an account: `keyword` is what IMAP stores, `name` and `color` what people see. */
export const labelSchema = z.object({
  id: z.string(),
  keyword: z.string(),
  name: z.string(),
  color: labelColorSchema,
});
export type Label = z.infer<typeof labelSchema>;

/**
 * Keywords with a meaning of their own (RFC 5788's registry, Thunderbird's and Dovecot's
 * junk marks): set by servers and programs, never shown as labels, never given to one.
 * `$Important` is the priority inbox's verdict (RFC 8457). Compared case-insensitively.
 */
export const SYSTEM_KEYWORDS: readonly string[] = [
  '$Forwarded', '$MDNSent', '$Junk', '$NotJunk', 'Junk', 'NonJunk', 'NotJunk', '$Phishing', '$Important',
  '$Submitted', '$SubmitPending', '$Answered', '$Seen', '$HasAttachment', '$HasNoAttachment', '$Muted', '$Followed', '$AutoSent', '$Notify', '$CanUnsubscribe', '$Unsubscribed',
];
const SYSTEM = new Set(SYSTEM_KEYWORDS.map((keyword) => keyword.toLowerCase()));

export function isSystemKeyword(keyword: string): boolean {
  return SYSTEM.has(keyword.toLowerCase());
}

/** What a label's name may not be: empty (after trimming), longer than the limit, or another label's (case aside). */
export function labelNameProblem(name: string, others: readonly Pick<Label, 'name'>[]): TernError | null {
  const trimmed = name.trim();
  if (trimmed.length === 0 || [...trimmed].length > LABEL_LIMITS.nameLength || /[\u0000-\u001f\u007f]/.test(trimmed)) {
    return new TernError('LabelNameInvalid', { detail: { max: LABEL_LIMITS.nameLength } });
  }
  const folded = trimmed.toLocaleLowerCase();
  if (others.some((label) => label.name.toLocaleLowerCase() === folded)) return new TernError('LabelAlreadyExists', { detail: { name: trimmed } });
  return null;
}

/**
 * The keyword a new label is stored as: its name in lowercase ASCII with anything else
 * made `_` (as Thunderbird names a tag's keyword, so a tag made there with the same name
 * is the same label), else `label`; a number is added while it is taken or a system one.
 */
export function keywordForName(name: string, taken: readonly string[]): string {
  const base =
    name
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .replace(/[^a-z0-9_-]+/g, '_')
      .replace(/^_+|_+$/g, '')
      .slice(0, LABEL_LIMITS.keywordLength - 4) || 'label';
  const used = new Set(taken.map((keyword) => keyword.toLowerCase()));
  const free = (candidate: string) => !used.has(candidate) && !isSystemKeyword(candidate);
  if (free(base)) return base;
  for (let n = 2; ; n++) if (free(`${base}_${n}`)) return `${base}_${n}`;
}

/** The labels among a message's or thread's keywords, in the account's label order. */
export function labelsOf(keywords: readonly string[] | undefined, labels: readonly Label[]): Label[] {
  if (!keywords || keywords.length === 0) return [];
  const present = new Set(keywords.map((keyword) => keyword.toLowerCase()));
  return labels.filter((label) => present.has(label.keyword.toLowerCase()));
}

/** The account's labels in the order the sidebar and menus show them: by name. */
export function sortLabels<L extends Pick<Label, 'name'>>(labels: readonly L[]): L[] {
  return [...labels].sort((a, b) => a.name.localeCompare(b.name, undefined, { sensitivity: 'base' }));
}

/**
 * A conversation's keywords for its row (ThreadSummary.keywords): every keyword any of its
 * messages has, system ones left out but $Important (the priority inbox's verdict), sorted;
 * absent when none, as on an older gateway.
 * The gateway's summary and the engine's own (with local changes) both use this.
 */
export function threadKeywordsField(messages: readonly { readonly keywords: readonly string[] }[]): { keywords?: string[] } {
  const found = new Set<string>();
  for (const message of messages) {
    for (const keyword of message.keywords) {
      // $Important is kept (in one spelling): the priority inbox's rows and its Important section read it from the thread.
      if (keyword.toLowerCase() === '$important') found.add('$Important');
      else if (!isSystemKeyword(keyword)) found.add(keyword);
    }
  }
  return found.size === 0 ? {} : { keywords: [...found].sort() };
}
