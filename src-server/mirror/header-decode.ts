/**
 * Header text from its raw bytes (RFC 2047 encoded words, RFC 6532 raw UTF-8), decoded
 * once. imapflow reads an ENVELOPE string as UTF-8 and then decodes its encoded words, so a
 * raw 8-bit byte inside a word is decoded twice: `=?iso-8859-1?Q?Fr\xF6sche?=` became
 * U+FFFD, then its UTF-8 bytes were read as Latin-1 ("Frï¿½sche"). Here bytes stay bytes
 * until one decision is made per word:
 *
 * - a word without raw 8-bit bytes is decoded in its declared charset (the standard case);
 * - a word with raw 8-bit bytes is UTF-8 when its bytes are valid UTF-8 (what the sender's
 *   software meant, whatever label it wrote), else the declared charset, and Windows-1252
 *   (Latin-1's superset) when the declared charset is UTF-8 that the bytes are not;
 * - adjacent words of one charset are joined before decoding (a character may be split
 *   across them), the whitespace between words is dropped (RFC 2047 §6.2);
 * - raw bytes outside words are UTF-8 when valid, else Windows-1252.
 */
import addressparser, { type Address as ParsedAddress } from 'nodemailer/lib/addressparser';
import type { Address } from '../../shared/api/mail';
import { decodeCharset, normaliseCharset } from './mime-decode';

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

function isValidUtf8(bytes: Uint8Array): boolean {
  try {
    strictUtf8.decode(bytes);
    return true;
  } catch {
    return false;
  }
}

function hasHighBytes(bytes: Uint8Array): boolean {
  for (const byte of bytes) if (byte >= 0x80) return true;
  return false;
}

/** Raw 8-bit text: UTF-8 when it is valid UTF-8, else `fallback`. */
function decodeRaw(bytes: Buffer, fallback: string): string {
  if (!hasHighBytes(bytes)) return bytes.toString('latin1');
  return isValidUtf8(bytes) ? bytes.toString('utf8') : decodeCharset(bytes, fallback);
}

/** charset?encoding?payload; the charset may carry an RFC 2231 language ("utf-8*de"). Works on a Latin-1 view of the bytes. */
const ENCODED_WORD = /=\?([^?\s*]+)(?:\*[^?\s]*)?\?([bq])\?([^?\r\n]*?)\?=/gi;

/** One word's bytes, with the runs of raw 8-bit bytes marked (Q only: base64 has none). */
interface WordBytes {
  readonly charset: string;
  readonly bytes: number[];
  /** Per byte: whether it came raw (not from an =XX escape or base64). */
  readonly raw: boolean[];
}

function wordBytes(charset: string, encoding: string, payload: string): WordBytes {
  const word: WordBytes = { charset, bytes: [], raw: [] };
  if (encoding.toLowerCase() === 'b') {
    for (const byte of Buffer.from(payload.replace(/[^A-Za-z0-9+/]/g, ''), 'base64')) {
      word.bytes.push(byte);
      word.raw.push(false);
    }
    return word;
  }
  for (let i = 0; i < payload.length; i++) {
    const code = payload.charCodeAt(i);
    const escape = code === 0x3d ? /^[0-9a-f]{2}$/i.exec(payload.slice(i + 1, i + 3)) : null;
    if (escape) {
      word.bytes.push(parseInt(escape[0], 16));
      word.raw.push(false);
      i += 2;
    } else {
      word.bytes.push(code === 0x5f /* _ */ ? 0x20 : code);
      word.raw.push(code >= 0x80);
    }
  }
  return word;
}

/** The text of joined words of one charset, each byte decoded once (see the header comment). */
function decodeWord(word: WordBytes): string {
  const bytes = Buffer.from(word.bytes);
  const charset = normaliseCharset(word.charset);
  if (!word.raw.includes(true)) return decodeCharset(bytes, charset);
  if (isValidUtf8(bytes)) return bytes.toString('utf8');
  const rawFallback = charset === 'utf-8' ? 'windows-1252' : charset;
  // Escaped runs in the declared charset, raw runs on their own.
  let text = '';
  let start = 0;
  for (let i = 1; i <= bytes.length; i++) {
    if (i < bytes.length && word.raw[i] === word.raw[start]) continue;
    const run = bytes.subarray(start, i);
    text += word.raw[start] ? decodeRaw(run, rawFallback) : decodeCharset(run, charset);
    start = i;
  }
  return text;
}

/** A header value (unfolded or not) from its raw bytes to text. */
export function decodeHeaderValue(raw: Buffer): string {
  const view = raw.toString('latin1').replace(/\r?\n(?=[ \t])/g, '');
  let out = '';
  let pending: WordBytes | null = null;
  let last = 0;
  const flush = () => {
    if (pending) out += decodeWord(pending);
    pending = null;
  };
  for (const match of view.matchAll(ENCODED_WORD)) {
    const between = view.slice(last, match.index);
    if (!(pending && /^[ \t]*$/.test(between))) {
      flush();
      out += decodeRaw(Buffer.from(between, 'latin1'), 'windows-1252');
    }
    const word = wordBytes(match[1]!, match[2]!, match[3]!);
    const current = pending as WordBytes | null;
    if (current && normaliseCharset(current.charset) === normaliseCharset(word.charset)) {
      current.bytes.push(...word.bytes);
      current.raw.push(...word.raw);
    } else {
      flush();
      pending = word;
    }
    last = match.index + match[0].length;
  }
  flush();
  out += decodeRaw(Buffer.from(view.slice(last), 'latin1'), 'windows-1252');
  return out;
}

/**
 * Fields of a raw header block (e.g. BODY[HEADER.FIELDS (…)]) by lowercase name, values raw
 * (as Latin-1 text: one character per byte) and unfolded; the first of repeated fields.
 */
export function rawHeaderText(block: Buffer): Map<string, string> {
  const fields = new Map<string, string>();
  const text = block.toString('latin1').replace(/\r?\n(?=[ \t])/g, '');
  for (const line of text.split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    if (!fields.has(name)) fields.set(name, line.slice(colon + 1).trim());
  }
  return fields;
}

/** Whether any byte is 8-bit: only then can imapflow's decoding of the ENVELOPE have gone wrong. */
export const hasRawBytes = hasHighBytes;

function mailboxesOf(list: readonly ParsedAddress[], out: { name: string; address: string }[]): void {
  for (const entry of list) {
    if (entry.group) mailboxesOf(entry.group, out);
    else out.push({ name: entry.name, address: entry.address });
  }
}

/** The mailboxes of a raw address field, names decoded; parsed before decoding, so a decoded comma or quote cannot split an address. */
export function decodeAddressField(raw: Buffer): { name: string; address: string }[] {
  const parsed: { name: string; address: string }[] = [];
  mailboxesOf(addressparser(raw.toString('latin1')), parsed);
  return parsed.map((entry) => ({ name: decodeHeaderValue(Buffer.from(entry.name, 'latin1')), address: entry.address }));
}

/**
 * The envelope's addresses with their names decoded from the raw header field (`From: …`
 * value bytes) instead of imapflow's double decoding. Addresses keep the envelope's order
 * and spelling; a name is taken by address, in turn for repeats.
 */
export function withRawNames(addresses: Address[], raw: Buffer | undefined): Address[] {
  if (!raw || !hasHighBytes(raw)) return addresses;
  const decoded = decodeAddressField(raw);
  return addresses.map((address) => {
    const at = decoded.findIndex((entry) => entry.address.toLowerCase() === address.email.toLowerCase());
    return at === -1 ? address : { ...address, name: decoded.splice(at, 1)[0]!.name };
  });
}
