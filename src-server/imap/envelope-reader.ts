import type { MessageAddressObject, MessageEnvelopeObject, MessageStructureObject } from 'imapflow';
import { decodeText, getStructuredParams, isUnsafeKey, parseEnvelope, processName } from 'imapflow/lib/tools.js';
import type { ImapAttribute, ImapAttributeList } from './fetch-parser';

/**
 * ENVELOPE and BODYSTRUCTURE, read from the parsed response exactly as imapflow 2.10.2's
 * parseEnvelope and parseBodystructure read them (lib/tools.js; a unit test holds the two
 * side by side on recorded and odd responses), but without their cost where nothing is
 * encoded: imapflow runs every subject, name and parameter value through libmime's
 * decodeWords, five regular-expression passes each, most of the envelope and structure time
 * of a cold mirror. Here a text without `=?` (no encoded word can start) and without NUL
 * (libmime's own join marker) is taken as it is — what decodeWords returns for it — and
 * anything else goes to imapflow's own decoding, so the results are the same.
 */

type Node = ImapAttribute | undefined;
const isList = (value: Node): value is ImapAttributeList => Array.isArray(value);

/** Whether libmime's decodeWords returns `text` unchanged: it only rewrites encoded words and its NUL join marker. */
const isPlain = (text: string) => !text.includes('=?') && !text.includes('\0');

/** imapflow's getStrValue: false for NIL, the text of a string or literal. */
function strValue(node: Node): string | false {
  if (!node || isList(node)) return false;
  if (typeof node.value === 'string') return node.value;
  if (Buffer.isBuffer(node.value)) return node.value.toString();
  return node.value as unknown as string;
}

/** decodeText of imapflow: encoded words decoded, then the quotes some servers leave around a name. */
function nameText(value: string | false): string {
  const text = (value || '').toString();
  return isPlain(text) ? processName(text) : decodeText(text);
}

function addresses(list: ImapAttributeList): MessageAddressObject[] {
  const out: MessageAddressObject[] = [];
  for (const addr of list) {
    if (!isList(addr)) continue; // a NIL entry (imapflow skips it)
    const name = nameText(strValue(addr[0]));
    const mailbox = strValue(addr[2]) || '';
    const host = strValue(addr[3]) || '';
    // NIL host: RFC 5322 group syntax; the group's name, no address (imapflow's rule).
    const entry = host ? { name, address: `${mailbox}@${host}` } : { name: name || (mailbox && nameText(mailbox)), address: '' };
    if (entry.name || entry.address) out.push(entry);
  }
  return out;
}

/** A parsed ENVELOPE list, as imapflow's parseEnvelope gives it. */
export function readEnvelope(entry: ImapAttributeList): MessageEnvelopeObject {
  const envelope: MessageEnvelopeObject = {};
  const at = (index: number) => entry[index] as Node;
  const date = at(0);
  if (date && !isList(date) && date.value) {
    const text = strValue(date) as string;
    const parsed = new Date(text);
    // imapflow asks `toString() === 'Invalid Date'`, which formats the date (a time zone lookup): the same test, without.
    envelope.date = Number.isNaN(parsed.getTime()) ? (text as unknown as Date) : parsed;
  }
  const subject = at(1);
  if (subject && !isList(subject) && subject.value) {
    const text = (strValue(subject) || '').toString();
    envelope.subject = isPlain(text) ? text : (parseEnvelope([null, subject]).subject ?? '');
  }
  const fields = [
    [2, 'from'],
    [3, 'sender'],
    [4, 'replyTo'],
    [5, 'to'],
    [6, 'cc'],
    [7, 'bcc'],
  ] as const;
  for (const [index, key] of fields) {
    const list = at(index);
    if (isList(list) && list.length) envelope[key] = addresses(list);
  }
  const inReplyTo = at(8);
  if (inReplyTo && !isList(inReplyTo) && inReplyTo.value) envelope.inReplyTo = (strValue(inReplyTo) || '').toString().trim();
  const messageId = at(9);
  if (messageId && !isList(messageId) && messageId.value) envelope.messageId = (strValue(messageId) || '').toString().trim();
  return envelope;
}

/** A parameter name imapflow reads as an RFC 2231 continuation or charset-tagged value (`name*`, `name*0`, `name*0*`). */
const CONTINUATION = /\*((\d+)\*?)?$/;
/** A plain `filename` that looks RFC 2231-encoded (imapflow then decodes it). */
const ENCODED_FILENAME = /^[a-z\-_0-9]+'[a-z]*'[^'\x00-\x08\x0b\x0c\x0e-\x1f\u0080-\uffff]+/;

/** Text of a token as imapflow's structure reader takes it: `((node && node.value) || '').toString()`. */
const textOf = (node: Node) => ((node && !isList(node) && node.value) || '').toString();
/** A number as imapflow's structure reader takes it: `Number(node.value || 0) || 0` (0 for a list). */
const numberOf = (node: Node) => Number((node && !isList(node) && node.value) || 0) || 0;

/** A parameter list; imapflow's getStructuredParams for any list with something to decode or join. */
function structuredParams(node: ImapAttribute): Record<string, string> {
  const list: Node[] = isList(node) ? node : [node];
  const params: Record<string, string> = {};
  let key = '';
  for (let j = 0; j < list.length; j++) {
    const text = textOf(list[j]);
    if (j % 2 === 0) {
      key = text.toLowerCase();
      continue;
    }
    if (!isPlain(text) || CONTINUATION.test(key)) return getStructuredParams(node as ImapAttributeList);
    if (!isUnsafeKey(key)) params[key] = text;
  }
  if (params.filename && !params['filename*'] && ENCODED_FILENAME.test(params.filename)) return getStructuredParams(node as ImapAttributeList);
  return params;
}

/** A parsed BODYSTRUCTURE list, as imapflow's parseBodystructure gives it (its walk, step for step). */
export function readBodystructure(entry: ImapAttributeList): MessageStructureObject {
  return walk(entry, []);
}

function walk(node: ImapAttributeList, path: number[]): MessageStructureObject {
  const current: Partial<MessageStructureObject> & Record<string, unknown> = {};
  let i = 0;
  let part = 0;
  if (path.length) current.part = path.join('.');
  if (isList(node[0])) {
    const children: MessageStructureObject[] = [];
    current.childNodes = children;
    while (isList(node[i])) {
      children.push(walk(node[i] as ImapAttributeList, path.concat(++part)));
      i++;
    }
    current.type = 'multipart/' + textOf(node[i++]).toLowerCase();
    if (i < node.length) {
      if (node[i]) current.parameters = structuredParams(node[i]!);
      i++;
    }
  } else {
    current.type = [textOf(node[i++]).toLowerCase(), textOf(node[i++]).toLowerCase()].join('/');
    if (node[i]) current.parameters = structuredParams(node[i]!);
    i++;
    if (node[i]) current.id = textOf(node[i]);
    i++;
    if (node[i]) current.description = textOf(node[i]);
    i++;
    if (node[i]) current.encoding = textOf(node[i]).toLowerCase();
    i++;
    if (node[i]) current.size = numberOf(node[i]);
    i++;
    if (current.type === 'message/rfc822') {
      // The encapsulated message's envelope, structure (same part number) and line count.
      const envelope = node[i];
      if (envelope) current.envelope = readEnvelope(isList(envelope) ? [...envelope] : [envelope]);
      i++;
      const inner = node[i];
      // A token where the structure should be reads as an empty one (imapflow walks it as such).
      if (inner) current.childNodes = [walk(isList(inner) ? inner : [], path)];
      i++;
      if (node[i]) current.lineCount = numberOf(node[i]);
      i++;
    }
    if (/^text\//.test(current.type)) {
      // Some servers leave out a text part's line count: then the disposition sits where it would be.
      if (!(node.length === 11 && isList(node[i + 1]) && !isList(node[i + 2]))) {
        if (node[i]) current.lineCount = numberOf(node[i]);
        i++;
      }
    }
    if (i < node.length) {
      if (node[i]) current.md5 = textOf(node[i]).toLowerCase();
      i++;
    }
  }
  if (i < node.length) {
    const disposition = node[i];
    if (isList(disposition) && disposition.length) {
      current.disposition = textOf(disposition[0]).toLowerCase();
      if (isList(disposition[1])) current.dispositionParameters = structuredParams(disposition[1]);
    }
    i++;
  }
  if (i < node.length) {
    const language = node[i];
    if (language) current.language = (isList(language) ? language : [language]).map((value) => textOf(value).toLowerCase());
    i++;
  }
  if (i < node.length) {
    if (node[i]) current.location = textOf(node[i]);
  }
  return current as MessageStructureObject;
}
