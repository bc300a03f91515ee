import type { FetchMessageObject, FetchQueryObject, MessageAddressObject } from 'imapflow';
import type { Address } from '../../shared/api/mail';
import { canonicalFlag } from '../imap/imap-flags';
import { attachmentsOf, type StoredAttachment } from './attachments';
import { bodyPartsOf, type BodyParts } from './body-parts';
import { decodeHeaderValue, hasRawBytes, rawHeaderText, withRawNames } from './header-decode';
import { EARLY_BYTES, EARLY_PART, earlySnippet, snippetSourceOf, type SnippetSource } from './snippet';
import { messageIdsIn } from './threading';
import { parseUnsubscribe, type Unsubscribe } from '../../shared/unsubscribe';

/** One mirrored message as the store writes it (thread and row id are the store's business). */
export interface MessageRecord {
  readonly uid: number;
  readonly messageIdHeader: string | null;
  readonly inReplyTo: string | null;
  readonly references: readonly string[];
  readonly subject: string;
  readonly from: Address[];
  readonly to: Address[];
  readonly cc: Address[];
  readonly replyTo: Address[];
  /** Date header (INTERNALDATE when missing or unreadable), epoch ms. */
  readonly date: number;
  /** INTERNALDATE, epoch ms. */
  readonly receivedAt: number;
  /** Every flag and keyword as IMAP names them (`\Seen`, `$Forwarded` …), without `\Recent`. */
  readonly flags: string[];
  readonly size: number;
  readonly attachments: StoredAttachment[];
  /** Where the body text is, so a reader fetches it alone. */
  readonly bodyParts: BodyParts;
  /** '' for messages without a text part; filled in by the snippet FETCH while `snippetSource` is set. */
  snippet: string;
  /** Where the snippet is still to be fetched from; null once it is known (or there is no text part). Not stored. */
  readonly snippetSource: SnippetSource | null;
  readonly modseq: string | null;
  /** List-Unsubscribe with List-Unsubscribe-Post, read (shared/unsubscribe.ts); null without a usable one. */
  readonly unsubscribe?: Unsubscribe | null;
  /** List-Id, or Precedence: bulk/list/junk: list or bulk mail (the priority inbox pushes it down). */
  readonly bulk?: boolean;
}

/** What the mirror asks per message: everything a list row needs, nothing of the body. */
export const METADATA_QUERY: FetchQueryObject = {
  uid: true,
  flags: true,
  envelope: true,
  bodyStructure: true,
  internalDate: true,
  size: true,
  // ENVELOPE has In-Reply-To but not References, which threading needs. The raw subject and
  // address fields come along for the rare message with 8-bit bytes in them, which imapflow's
  // ENVELOPE decodes twice (header-decode.ts); every other message keeps the envelope's text.
  // List-Unsubscribe(-Post): the Manage senders page's "can unsubscribe" and its one-click POST.
  // List-Id and Precedence: list or bulk mail, a signal of the priority inbox (issue 17 point 4).
  headers: ['references', 'subject', 'from', 'to', 'cc', 'reply-to', 'list-unsubscribe', 'list-unsubscribe-post', 'list-id', 'precedence'],
  // Most messages' snippet: see EARLY_PART.
  bodyParts: [{ key: EARLY_PART, start: 0, maxLength: EARLY_BYTES }],
};

const toAddresses = (list: MessageAddressObject[] | undefined): Address[] =>
  (list ?? []).filter((a) => a.address || a.name).map((a) => ({ name: a.name ?? '', email: a.address ?? '' }));

function epoch(value: Date | string | undefined): number | null {
  if (value === undefined) return null;
  const time = (value instanceof Date ? value : new Date(value)).getTime();
  return Number.isFinite(time) ? time : null;
}

/** Flags as stored: system flags in one spelling (`\seen` → `\Seen`); `\Recent` is session state, not something a client can act on. */
export function storedFlags(flags: Set<string> | undefined): string[] {
  return [...(flags ?? [])].map(canonicalFlag).filter((flag) => flag !== '\\Recent').sort();
}

/** The References header's ids, from the raw `References: …` header block. */
function referencesOf(headers: Buffer | undefined): string[] {
  if (!headers) return [];
  const unfolded = headers.toString('latin1').replace(/\r?\n[ \t]+/g, ' ');
  const line = /^references:(.*)$/im.exec(unfolded);
  return messageIdsIn(line?.[1]);
}

/** The List-Unsubscribe pair of the raw header fields (ASCII by RFC 2369; read as Latin-1 like the rest). */
function unsubscribeOf(fields: ReadonlyMap<string, string> | null): Unsubscribe | null {
  if (!fields) return null;
  return parseUnsubscribe(fields.get('list-unsubscribe'), fields.get('list-unsubscribe-post'));
}

/** List-Id (RFC 2919), or Precedence: bulk, list or junk (RFC 2076 §3.9, what list servers set); of the raw header fields. */
function isBulk(fields: ReadonlyMap<string, string> | null): boolean {
  if (!fields) return false;
  if (fields.has('list-id')) return true;
  return /^\s*(bulk|list|junk)\b/i.test(fields.get('precedence') ?? '');
}

export function toMessageRecord(message: FetchMessageObject): MessageRecord {
  const envelope = message.envelope ?? {};
  const source = snippetSourceOf(message.bodyStructure);
  const early = source ? earlySnippet(message.bodyParts?.get(EARLY_PART), source) : '';
  const receivedAt = epoch(message.internalDate) ?? Date.now();
  // The header block read once into fields: unsubscribe, bulk and (8-bit only) the raw subject and names read them.
  const fields = message.headers ? rawHeaderText(message.headers) : null;
  const eightBit = Boolean(message.headers && hasRawBytes(message.headers));
  const raw = (name: string) => {
    const value = eightBit ? fields?.get(name) : undefined;
    return value === undefined ? undefined : Buffer.from(value, 'latin1');
  };
  const rawSubject = raw('subject');
  return {
    uid: message.uid,
    messageIdHeader: messageIdsIn(envelope.messageId)[0] ?? null,
    inReplyTo: messageIdsIn(envelope.inReplyTo)[0] ?? null,
    references: referencesOf(message.headers),
    subject: rawSubject && hasRawBytes(rawSubject) ? decodeHeaderValue(rawSubject) : (envelope.subject ?? ''),
    from: withRawNames(toAddresses(envelope.from), raw('from')),
    to: withRawNames(toAddresses(envelope.to), raw('to')),
    cc: withRawNames(toAddresses(envelope.cc), raw('cc')),
    replyTo: withRawNames(toAddresses(envelope.replyTo), raw('reply-to')),
    date: epoch(envelope.date) ?? receivedAt,
    receivedAt,
    flags: storedFlags(message.flags),
    size: message.size ?? 0,
    attachments: attachmentsOf(message.bodyStructure),
    bodyParts: bodyPartsOf(message.bodyStructure),
    snippet: early ?? '',
    snippetSource: early === null ? source : null,
    modseq: message.modseq === undefined ? null : message.modseq.toString(),
    unsubscribe: unsubscribeOf(fields),
    bulk: isBulk(fields),
  };
}
