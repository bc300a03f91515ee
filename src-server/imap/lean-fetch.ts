import type { FetchMessageObject, FetchQueryObject, ImapFlow, MailboxObject } from 'imapflow';
import parseResponse from 'imapflow/lib/handler/imap-parser.js';
import { getStringList, MAX_UINT32_DIGITS, parseBigIntValue, parseUintValue } from 'imapflow/lib/tools.js';
import { readBodystructure, readEnvelope } from './envelope-reader';
import { parseFetchResponse, type ImapAttributeList } from './fetch-parser';

/**
 * The one place that knows imapflow's internals (pinned exactly in package.json for that
 * reason): its response reader `handleResponse(data)`, its fallback parser and its
 * envelope / BODYSTRUCTURE readers. imapflow has no public way to see a response before
 * it parses it, so the fast path below replaces that private method on the instance for
 * the length of one command. Whether the replacement is really on imapflow's path is
 * checked on every fetch and reported (`status`, and once through `onInactive`), so an
 * imapflow that renamed or stopped calling it is noticed rather than silently slower.
 */

/** A response as imapflow's reader hands it on: the line and its literals (imapflow's ImapStreamItem). */
interface StreamItem {
  readonly payload: Buffer;
  readonly literals: Buffer[];
}
type ResponseHandler = (this: ImapFlow, data: StreamItem) => Promise<boolean>;
type ParsedResponse = Awaited<ReturnType<typeof parseResponse>>;
type Attribute = NonNullable<ParsedResponse['attributes']>[number];

/** The item that marks a FETCH response as an answer to the command, not an unsolicited update. */
export type FetchMarker = 'ENVELOPE' | 'BODY';

/** `* <seq> FETCH (`: what an untagged FETCH response line starts with. */
const UNTAGGED_FETCH = /^\* \d+ FETCH \(/i;

/**
 * Whether the fast path serves FETCHes: 'unknown' before the first fetch that returned
 * anything, 'active' once responses went through it, 'inactive' when this imapflow cannot
 * be hooked (every FETCH then goes through imapflow, correct but several times the CPU).
 */
export type LeanFetchMode = 'unknown' | 'active' | 'inactive';

export interface LeanFetchStatus {
  readonly mode: LeanFetchMode;
  /** Messages read by the fast path. */
  readonly served: number;
  /** Messages that came through imapflow's own reader (a response the fast path declined, or all of them when inactive). */
  readonly passedOn: number;
  /** Why the fast path is inactive; null otherwise. */
  readonly reason: string | null;
}

export interface LeanFetchOptions {
  /** Told once, the first time the fast path is found inactive (the gateway's error reporter). */
  readonly onInactive?: (error: Error) => void;
}

/** imapflow's reader method, if this imapflow has one the fast path can stand in for. */
function responseReaderOf(client: ImapFlow): ResponseHandler | null {
  const reader = (client as unknown as { handleResponse?: unknown }).handleResponse;
  return typeof reader === 'function' ? (reader as ResponseHandler) : null;
}

/**
 * A UID FETCH whose untagged responses skip imapflow's response pipeline: the mirror's
 * cold sync reads tens of thousands of messages, and for each one imapflow tokenizes the
 * line character by character (fetch-parser.ts says why that costs) and re-serialises
 * every item name to find out what it is; 2.1.2 also re-serialised the whole response
 * into a log line even with logging off (2.10 no longer does). Here each response is parsed by
 * fetch-parser.ts (imapflow's own parser where that one does not read it) and its items
 * are read by name, ENVELOPE and BODYSTRUCTURE as imapflow reads them (envelope-reader.ts), so a message
 * comes out as `client.fetch` would give it.
 *
 * Only responses with the `marker` item are taken: ENVELOPE or BODY[section], which no
 * server sends unsolicited (a flag change comes as FLAGS alone), so `query` must ask for
 * it; the command itself (sending, completion, errors, retries) is imapflow's `fetch`.
 * Anything not taken — or everything, if this imapflow's reader cannot be hooked —
 * reaches `onMessage` through `client.fetch` as usual. The caller must hold the
 * connection for the duration (the mirror's queue). UIDs in `range`, as for `{ uid: true }`.
 * One instance serves every connection of the gateway (its status is the gateway's).
 */
export class LeanFetch {
  private mode: LeanFetchMode = 'unknown';
  private served = 0;
  private passedOn = 0;
  private reason: string | null = null;

  constructor(private readonly options: LeanFetchOptions = {}) {}

  get status(): LeanFetchStatus {
    return { mode: this.mode, served: this.served, passedOn: this.passedOn, reason: this.reason };
  }

  async fetch(client: ImapFlow, range: string, query: FetchQueryObject, marker: FetchMarker, onMessage: (message: FetchMessageObject) => void): Promise<void> {
    const original = responseReaderOf(client);
    const mailbox = client.mailbox;
    if (!original) this.inactive('this imapflow has no handleResponse method to read FETCH responses through');
    // Thrown inside imapflow's reader, a failure would close the connection: it is kept for the caller instead.
    let failure: unknown = null;
    let calls = 0;
    let served = 0;
    let passedOn = 0;
    const hooked: ResponseHandler | undefined =
      original && mailbox
        ? async function (this: ImapFlow, data: StreamItem): Promise<boolean> {
            calls++;
            if (UNTAGGED_FETCH.test(data.payload.toString('latin1', 0, 24))) {
              // imapflow's parser only for what ours does not read (it consumes the literals it reads: a copy, so a
              // response not taken goes on to imapflow whole).
              const parsed =
                parseFetchResponse(data.payload, data.literals) ?? (await parseResponse(data.payload, { literals: [...data.literals] }).catch(() => null));
              const message = parsed ? fetchedMessage(parsed, mailbox, marker) : null;
              if (message) {
                served++;
                try {
                  onMessage(message);
                } catch (error) {
                  failure ??= error;
                }
                return true;
              }
            }
            return original.call(this, data);
          }
        : undefined;
    const reader = client as unknown as { handleResponse?: ResponseHandler };
    if (hooked) reader.handleResponse = hooked;
    try {
      for await (const message of client.fetch(range, query, { uid: true })) {
        passedOn++;
        onMessage(message);
      }
    } finally {
      if (hooked && reader.handleResponse === hooked) delete reader.handleResponse;
      this.served += served;
      this.passedOn += passedOn;
    }
    // Every response of the command passes through the reader: messages without a single call mean imapflow reads them elsewhere now.
    if (hooked && calls === 0 && passedOn > 0) this.inactive("imapflow did not call handleResponse for the FETCH responses (its reader changed)");
    else if (served > 0 && this.mode === 'unknown') this.mode = 'active';
    if (failure) throw failure;
  }

  private inactive(reason: string): void {
    if (this.mode === 'inactive') return;
    this.mode = 'inactive';
    this.reason = reason;
    this.options.onInactive?.(new Error(`IMAP FETCH fast path inactive, every FETCH goes through imapflow's slower reader: ${reason}`));
  }
}

const isList = (value: Attribute | undefined): value is Extract<Attribute, unknown[]> => Array.isArray(value);

/** A token's bytes: literals come as Buffers, quoted strings as (UTF-8 decoded) strings. */
function bytesOf(value: Attribute | undefined): Buffer | undefined {
  if (!value || isList(value)) return undefined;
  if (Buffer.isBuffer(value.value)) return value.value;
  return typeof value.value === 'string' ? Buffer.from(value.value) : undefined;
}

function textOf(value: Attribute | undefined): string | undefined {
  if (!value || isList(value)) return undefined;
  if (typeof value.value === 'string') return value.value;
  return Buffer.isBuffer(value.value) ? value.value.toString() : undefined;
}

/**
 * The items of one untagged FETCH response, as imapflow's formatMessageResponse (2.10.2)
 * reads them, for the items the mirror asks for; null for a response without the marker
 * item or UID, or with an item this reader does not know how to read (imapflow reads it then).
 * Like imapflow, a UID at or past UIDNEXT and a higher MODSEQ update the mailbox state.
 */
export function fetchedMessage(parsed: ParsedResponse, mailbox: MailboxObject, marker: FetchMarker): FetchMessageObject | null {
  const items = parsed.attributes?.[1];
  if (!isList(items)) return null;
  const message: Partial<FetchMessageObject> = { seq: parseUintValue(parsed.command, MAX_UINT32_DIGITS) || undefined };
  let marked = false;
  for (let i = 0; i + 1 < items.length; i += 2) {
    const name = items[i];
    const value = items[i + 1];
    if (!name || isList(name) || typeof name.value !== 'string') return null;
    const item = name.value.toUpperCase();
    if (item === marker) marked = true;
    switch (item) {
      case 'UID': {
        const uid = parseUintValue(textOf(value), MAX_UINT32_DIGITS);
        if (!uid) return null;
        message.uid = uid;
        if (!mailbox.uidNext || mailbox.uidNext <= uid) mailbox.uidNext = uid + 1;
        break;
      }
      case 'FLAGS':
        message.flags = new Set(getStringList(value));
        break;
      case 'ENVELOPE':
        if (isList(value)) message.envelope = readEnvelope(value as ImapAttributeList);
        break;
      case 'BODYSTRUCTURE':
        if (isList(value)) message.bodyStructure = readBodystructure(value as ImapAttributeList);
        break;
      case 'INTERNALDATE': {
        const text = textOf(value);
        const date = new Date(text ?? '');
        message.internalDate = Number.isNaN(date.getTime()) ? text : date;
        break;
      }
      case 'RFC822.SIZE':
        message.size = parseUintValue(textOf(value)) || 0;
        break;
      case 'MODSEQ': {
        const modseq = parseBigIntValue(getStringList(value)[0]);
        if (modseq === false) break;
        message.modseq = modseq;
        if (!mailbox.highestModseq || mailbox.highestModseq < modseq) mailbox.highestModseq = modseq;
        break;
      }
      case 'BODY': {
        // BODY[HEADER.FIELDS (…)] is `headers`; BODY[1.2]<0> is body part "1.2".
        const section = name.section;
        const first = section?.[0];
        if (!first || isList(first) || typeof first.value !== 'string') return null;
        const key = first.value.toLowerCase();
        if (key === 'header.fields' || key === 'header') {
          message.headers = bytesOf(value);
        } else if (section.length === 1 && /^\d+(\.\d+)*$/.test(key)) {
          const bytes = bytesOf(value);
          if (bytes) (message.bodyParts ??= new Map()).set(key, bytes);
        } else {
          return null;
        }
        break;
      }
      default:
        // EMAILID, THREADID …: items the mirror does not read.
        break;
    }
  }
  return marked && message.uid ? (message as FetchMessageObject) : null;
}
