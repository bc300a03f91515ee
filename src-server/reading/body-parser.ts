import type { Readable } from 'node:stream';
import { MailParser, type AddressObject, type AttachmentStream, type HeaderLines, type Headers, type MessageText } from 'mailparser';
import type { AttachmentSummary, MessageBody } from '../../shared/api/mail';
import type { StoredAttachment } from '../mirror/attachments';
import { chooseBody, type MimeNodeView } from '../mirror/body-choice';
import { decodeAddressField, decodeHeaderValue, hasRawBytes } from '../mirror/header-decode';
import { htmlToText } from '../mirror/html-text';
import { toAttachmentSummary } from '../mirror/materialize';

/** Body text kept for the search index: enough for any real message, bounded for a huge one. */
export const SEARCH_TEXT_MAX = 64 * 1024;

export interface ParsedBody {
  readonly body: MessageBody;
  /** Plain words of the body (the text part, else the HTML's text) for the search index. */
  readonly searchText: string;
}

interface ParsedAttachment {
  readonly contentId: string | null;
  readonly filename: string | null;
  readonly contentType: string;
  readonly size: number;
}

/** Headers a reader or a reply needs; others stay in the original source. */
// The read-receipt fields (shared/read-receipts.ts) decide whether the reader is asked for one.
const RAW_HEADERS = ['list-unsubscribe', 'list-unsubscribe-post', 'list-id', 'disposition-notification-to', 'auto-submitted', 'precedence'] as const;

const addressText = (value: unknown): string | undefined => {
  const list = ([] as AddressObject[]).concat((value as AddressObject | AddressObject[] | undefined) ?? []);
  const text = list.map((entry) => entry.text).filter(Boolean).join(', ');
  return text || undefined;
};

/** A raw header's value, unfolded (for headers mailparser turns into objects, e.g. List-Unsubscribe). */
function rawHeader(lines: HeaderLines, key: string): string | undefined {
  const line = lines.find((entry) => entry.key === key)?.line;
  if (!line) return undefined;
  return line.slice(line.indexOf(':') + 1).replace(/\r?\n[ \t]+/g, ' ').trim();
}

const DECODED_FROM_RAW = new Set(['subject', 'from', 'to', 'cc', 'reply-to']);

/**
 * A field with raw 8-bit bytes, decoded once from them (mirror/header-decode.ts): mailparser,
 * like imapflow, decodes a raw byte inside an encoded word twice ("Frï¿½sche"). Header lines
 * come from mailparser as a Latin-1 view of their bytes. Undefined for other fields.
 */
function rawDecoded(lines: HeaderLines, key: string): string | undefined {
  const value = DECODED_FROM_RAW.has(key) ? rawHeader(lines, key) : undefined;
  const raw = value === undefined ? undefined : Buffer.from(value, 'latin1');
  if (!raw || !hasRawBytes(raw)) return undefined;
  if (key === 'subject') return decodeHeaderValue(raw);
  return decodeAddressField(raw)
    .map((entry) => (entry.name ? `"${entry.name.replace(/["\\]/g, '\\$&')}" <${entry.address}>` : entry.address))
    .join(', ');
}

function headersOf(headers: Headers, lines: HeaderLines): Record<string, string> {
  const out: Record<string, string> = {};
  const put = (key: string, value: string | undefined) => {
    const text = rawDecoded(lines, key) ?? value;
    if (text) out[key] = text;
  };
  for (const key of ['from', 'to', 'cc', 'reply-to']) put(key, addressText(headers.get(key)));
  const date = headers.get('date');
  put('date', date instanceof Date && Number.isFinite(date.getTime()) ? date.toISOString() : undefined);
  for (const key of ['subject', 'message-id', 'in-reply-to']) {
    const value = headers.get(key);
    put(key, typeof value === 'string' ? value : undefined);
  }
  const references = headers.get('references');
  put('references', Array.isArray(references) ? references.join(' ') : typeof references === 'string' ? references : undefined);
  for (const key of RAW_HEADERS) put(key, rawHeader(lines, key));
  return out;
}

/**
 * The attachments as the mirror indexed them (their index is what the download route
 * takes), with the real decoded size where the parsed message has the same part: the
 * mirror only estimates it from the encoded size. Parts are matched by Content-ID, then
 * by name and type, in MIME order.
 */
export function reconcileAttachments(stored: readonly StoredAttachment[], parsed: readonly ParsedAttachment[]): AttachmentSummary[] {
  const unused = [...parsed];
  const take = (match: (candidate: ParsedAttachment) => boolean) => {
    const at = unused.findIndex(match);
    return at === -1 ? undefined : unused.splice(at, 1)[0];
  };
  return stored.map((attachment) => {
    const found =
      (attachment.contentId ? take((candidate) => candidate.contentId === attachment.contentId) : undefined) ??
      take((candidate) => candidate.filename === attachment.filename && candidate.contentType === attachment.contentType) ??
      take((candidate) => candidate.filename === null && candidate.contentType === attachment.contentType);
    return { ...toAttachmentSummary(attachment), size: found?.size ?? attachment.size };
  });
}

/** A node of mailparser's MIME tree (`parser.tree`), as far as the body choice reads it. */
interface ParsedNode {
  readonly contentType?: string;
  readonly disposition?: string;
  readonly textContent?: string;
  readonly children?: readonly ParsedNode[];
}

function parsedView(node: ParsedNode): MimeNodeView<ParsedNode> {
  const type = (node.contentType ?? '').toLowerCase();
  return { type, disposition: node.disposition?.toLowerCase(), children: type === 'message/rfc822' ? [] : (node.children ?? []) };
}

/**
 * The body's text and HTML by RFC 2046/2183 (mirror/body-choice.ts, as the mirror lists
 * attachments). mailparser joins every inline text part into one text and one HTML: a
 * text/html part after a text/plain body would become the HTML shown instead of the body.
 * Undefined when the parser exposes no tree: its own text and HTML stand then.
 */
function bodyTextsOf(tree: ParsedNode | undefined): { text: string | null; html: string | null } | undefined {
  if (!tree || typeof tree !== 'object') return undefined;
  const choice = chooseBody(tree, parsedView);
  return { text: choice.text?.textContent || null, html: choice.html?.textContent || null };
}

/**
 * Counts an attachment's bytes without keeping them, then lets the parser go on. A part
 * that fails to decode still releases the parser (which otherwise waits for it forever)
 * and is simply not measured: the mirror's estimate stands for it.
 */
function measure(attachment: AttachmentStream, parsed: ParsedAttachment[]): Promise<void> {
  return new Promise((resolve) => {
    let size = 0;
    let settled = false;
    const done = (measured: boolean) => {
      if (settled) return;
      settled = true;
      if (measured) parsed.push({ contentId: attachment.cid ?? null, filename: attachment.filename ?? null, contentType: attachment.contentType, size });
      attachment.release();
      resolve();
    };
    attachment.content.on('data', (chunk: Buffer) => (size += chunk.length));
    attachment.content.once('error', () => done(false));
    attachment.content.once('end', () => done(true));
  });
}

/**
 * Parses a message's source with mailparser as it streams: the text and HTML are kept,
 * attachments are only measured (their bytes are served by the attachment route, not
 * held here). `cid:` links stay as they are: the UI resolves them to attachments by
 * `contentId`. No HTML is converted to text by mailparser (slow on big newsletters);
 * the search text comes from the mirror's cheap converter.
 */
export async function parseMessageBody(source: Readable, params: { messageId: string; stored: readonly StoredAttachment[] }): Promise<ParsedBody> {
  const parser = new MailParser({ skipHtmlToText: true, skipTextToHtml: true, skipImageLinks: true, skipTextLinks: true });
  let headers: Headers = new Map();
  let lines: HeaderLines = [];
  // Set from the parser's events: typed wide so the narrowing of `null` does not stick.
  let html = null as string | null;
  let text = null as string | null;
  const parsed: ParsedAttachment[] = [];
  const pending: Promise<void>[] = [];
  parser.on('headers', (value: Headers) => (headers = value));
  parser.on('headerLines', (value: HeaderLines) => (lines = value));
  parser.on('data', (data: AttachmentStream | MessageText) => {
    if (data.type === 'attachment') pending.push(measure(data, parsed));
    else {
      if (typeof data.html === 'string' && data.html) html = data.html;
      if (data.text) text = data.text;
    }
  });
  await new Promise<void>((resolve, reject) => {
    parser.once('end', resolve);
    parser.once('error', reject);
    source.once('error', (error) => parser.destroy(error));
    source.pipe(parser);
  });
  await Promise.all(pending);
  const chosen = bodyTextsOf((parser as unknown as { tree?: ParsedNode }).tree);
  if (chosen) ({ text, html } = chosen);
  const body: MessageBody = {
    messageId: params.messageId,
    html,
    text,
    attachments: reconcileAttachments(params.stored, parsed),
    headers: headersOf(headers, lines),
  };
  const words = text ?? (html ? htmlToText(html) : '');
  return { body, searchText: words.replace(/\s+/g, ' ').trim().slice(0, SEARCH_TEXT_MAX) };
}
