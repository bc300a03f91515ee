// RFC 5322 / MIME message building for the seeder.
//
// Output is 7-bit clean with LF line ends (how Dovecot's LDA stores Maildir
// files): non-ASCII header text becomes RFC 2047 UTF-8 encoded-words, bodies
// with non-ASCII become quoted-printable, binaries become base64. Everything
// here runs once or more per message, so it avoids regexes and reuses buffers.

import type { Asset } from './assets';

export interface Addr {
  name: string;
  email: string;
}

/** A MIME entity: `head` is complete header lines ("Name: value\n"...), `body` ends in "\n". */
export interface Entity {
  head: string;
  body: string;
}

export interface MessageHead {
  messageId: string;
  /** Unix seconds. */
  date: number;
  /** Sender's UTC offset in minutes, for the Date header. */
  tz: number;
  from: Addr;
  to: readonly Addr[];
  cc?: readonly Addr[];
  subject: string;
  inReplyTo?: string;
  references?: readonly string[];
  /** Extra pre-rendered header lines placed before MIME-Version (List-Id, X-Spam-Flag...). */
  extra?: string;
  /** Adds Return-Path / Delivered-To like Dovecot's LDA does on delivery. */
  deliveredTo?: string;
}

const MAX_LINE = 78;
const HEX = '0123456789ABCDEF';

export function isAscii(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) > 127) return false;
  return true;
}

// ---------------------------------------------------------------- headers

/** Bytes that may appear literally in a Q-encoded word in any header context (RFC 2047 5(3)). */
const Q_SAFE = new Uint8Array(256);
for (let c = 0; c < 256; c++) {
  const ch = String.fromCharCode(c);
  if ((ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || '!*+-/'.includes(ch)) Q_SAFE[c] = 1;
}

/**
 * RFC 2047 encoded-words for non-ASCII text. Q for mostly-Latin text (readable),
 * B otherwise. Words are kept <= 68 chars so "Subject: " + word fits in 78, and
 * never split a UTF-8 sequence (each word must decode to whole characters).
 */
export function encodeWords(text: string): string[] {
  const buf = Buffer.from(text, 'utf8');
  let high = 0;
  for (let i = 0; i < buf.length; i++) if ((buf[i] as number) >= 0x80) high++;
  const words: string[] = [];
  if (high * 5 < buf.length * 2) {
    let cur = '';
    let i = 0;
    while (i < buf.length) {
      let j = i + 1;
      while (j < buf.length && ((buf[j] as number) & 0xc0) === 0x80) j++;
      let enc = '';
      for (let k = i; k < j; k++) {
        const c = buf[k] as number;
        enc += c === 32 ? '_' : Q_SAFE[c] ? String.fromCharCode(c) : '=' + HEX[c >> 4] + HEX[c & 15];
      }
      if (cur.length + enc.length > 56) {
        words.push('=?UTF-8?Q?' + cur + '?=');
        cur = '';
      }
      cur += enc;
      i = j;
    }
    if (cur) words.push('=?UTF-8?Q?' + cur + '?=');
  } else {
    let start = 0;
    while (start < buf.length) {
      let end = Math.min(start + 42, buf.length);
      while (end < buf.length && ((buf[end] as number) & 0xc0) === 0x80) end--;
      words.push('=?UTF-8?B?' + buf.toString('base64', start, end) + '?=');
      start = end;
    }
  }
  return words;
}

/** Fold "Name: tok tok tok" at token boundaries so lines stay <= 78 chars where possible. */
export function fold(name: string, tokens: readonly string[]): string {
  let out = '';
  let line = name + ':';
  let fresh = true; // nothing after "Name:" yet: never fold there
  for (const t of tokens) {
    if (!fresh && line.length + 1 + t.length > MAX_LINE) {
      out += line + '\n';
      line = ' ' + t;
    } else {
      line += ' ' + t;
    }
    fresh = false;
  }
  return out + line + '\n';
}

/** Tokens of free text (Subject): plain words if ASCII, encoded-words otherwise. */
function textTokens(text: string): string[] {
  return isAscii(text) ? text.split(' ') : encodeWords(text);
}

const SPECIALS = '()<>[]:;@\\,."';
function needsQuoting(name: string): boolean {
  for (let i = 0; i < name.length; i++) if (SPECIALS.includes(name[i] as string)) return true;
  return false;
}

const addrCache = new Map<string, string[]>();
/** Tokens of one mailbox ("Name <email>"), cached: the same people recur constantly. */
function addrTokens(a: Addr): string[] {
  const key = a.name + '\u0000' + a.email;
  let t = addrCache.get(key);
  if (t) return t;
  if (!a.name) t = [a.email];
  else if (!isAscii(a.name)) t = [...encodeWords(a.name), '<' + a.email + '>'];
  else if (needsQuoting(a.name)) t = ['"' + a.name.replaceAll('\\', '\\\\').replaceAll('"', '\\"') + '"', '<' + a.email + '>'];
  else t = [...a.name.split(' '), '<' + a.email + '>'];
  addrCache.set(key, t);
  return t;
}

export function addressHeader(name: string, list: readonly Addr[]): string {
  const tokens: string[] = [];
  list.forEach((a, i) => {
    const t = addrTokens(a);
    for (let k = 0; k < t.length; k++) tokens.push(k === t.length - 1 && i < list.length - 1 ? t[k] + ',' : (t[k] as string));
  });
  return fold(name, tokens);
}

const subjectCache = new Map<string, string>();
export function subjectHeader(subject: string): string {
  let h = subjectCache.get(subject);
  if (h === undefined) {
    h = fold('Subject', textTokens(subject));
    if (subjectCache.size < 50_000) subjectCache.set(subject, h);
  }
  return h;
}

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const pad2 = (n: number): string => (n < 10 ? '0' + n : String(n));

/** RFC 5322 date-time in the sender's zone, e.g. "Tue, 3 Mar 2026 14:05:09 +0100". */
export function formatDate(unixSec: number, tzMin: number): string {
  const d = new Date((unixSec + tzMin * 60) * 1000);
  const abs = Math.abs(tzMin);
  return (
    DAYS[d.getUTCDay()] + ', ' + d.getUTCDate() + ' ' + MONTHS[d.getUTCMonth()] + ' ' + d.getUTCFullYear() + ' ' +
    pad2(d.getUTCHours()) + ':' + pad2(d.getUTCMinutes()) + ':' + pad2(d.getUTCSeconds()) + ' ' +
    (tzMin < 0 ? '-' : '+') + pad2(Math.floor(abs / 60)) + pad2(abs % 60)
  );
}

// ---------------------------------------------------------------- bodies

let qpIn = Buffer.allocUnsafe(64 * 1024);
let qpOut = Buffer.allocUnsafe(256 * 1024);

/** Quoted-printable (RFC 2045 6.7): "=XX" escapes, soft breaks keep lines <= 76, LF line ends. */
export function quotedPrintable(s: string): string {
  if (qpIn.length < s.length * 3) qpIn = Buffer.allocUnsafe(s.length * 3 + 1024);
  const n = qpIn.write(s, 0, 'utf8');
  const need = n * 3 + Math.ceil(n / 24) * 2 + 16;
  if (qpOut.length < need) qpOut = Buffer.allocUnsafe(need + 1024);
  const inp = qpIn;
  const out = qpOut;
  let o = 0;
  let col = 0;
  for (let i = 0; i < n; i++) {
    const c = inp[i] as number;
    if (c === 10) {
      out[o++] = 10;
      col = 0;
      continue;
    }
    const enc = c === 32 || c === 9 ? i + 1 === n || inp[i + 1] === 10 : c < 33 || c > 126 || c === 61;
    const len = enc ? 3 : 1;
    if (col + len > 75) {
      out[o++] = 61; // '=' soft line break
      out[o++] = 10;
      col = 0;
    }
    if (enc) {
      out[o++] = 61;
      out[o++] = HEX.charCodeAt(c >> 4);
      out[o++] = HEX.charCodeAt(c & 15);
    } else out[o++] = c;
    col += len;
  }
  if (o === 0 || out[o - 1] !== 10) out[o++] = 10;
  return out.toString('latin1', 0, o);
}

/** text/plain: 7bit when ASCII (lines are pre-wrapped), else quoted-printable UTF-8. */
export function plainEntity(text: string): Entity {
  if (isAscii(text)) return { head: 'Content-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: 7bit\n', body: text.endsWith('\n') ? text : text + '\n' };
  return { head: 'Content-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: quoted-printable\n', body: quotedPrintable(text) };
}

/** text/html is always quoted-printable, as most MUAs send it (long lines, "=" in attributes). */
export function htmlEntity(html: string): Entity {
  return { head: 'Content-Type: text/html; charset=utf-8\nContent-Transfer-Encoding: quoted-printable\n', body: quotedPrintable(html) };
}

/** Filename parameters: plain quoted when ASCII, else RFC 2231 `filename*=` (+ RFC 2047 `name=` as Outlook/Gmail do). */
function fileParams(filename: string): { name: string; filename: string } {
  if (isAscii(filename)) return { name: ';\n name="' + filename + '"', filename: ';\n filename="' + filename + '"' };
  const bytes = Buffer.from(filename, 'utf8');
  let pct = '';
  for (const c of bytes) pct += Q_SAFE[c] || c === 46 ? String.fromCharCode(c) : '%' + HEX[c >> 4] + HEX[c & 15];
  return { name: ';\n name="' + encodeWords(filename).join(' ') + '"', filename: ";\n filename*=utf-8''" + pct };
}

/** A base64 attachment (or, with `cid`, an inline part referenced from HTML as cid:...). */
export function assetEntity(asset: Asset, opts: { filename?: string; cid?: string } = {}): Entity {
  const fp = fileParams(opts.filename ?? asset.filename);
  let head = 'Content-Type: ' + asset.mime + fp.name + '\n';
  if (opts.cid) head += 'Content-ID: <' + opts.cid + '>\nContent-Disposition: inline' + fp.filename + '\n';
  else head += 'Content-Disposition: attachment' + fp.filename + '\n';
  return { head: head + 'Content-Transfer-Encoding: base64\n', body: asset.b64 };
}

/** multipart/<subtype>; `boundary` must not occur in any part ("=_" never appears in QP or base64). */
export function multipartEntity(subtype: string, boundary: string, parts: readonly Entity[], typeParam?: string): Entity {
  let body = '';
  for (const p of parts) body += '--' + boundary + '\n' + p.head + '\n' + p.body;
  body += '--' + boundary + '--\n';
  const t = typeParam ? '; type="' + typeParam + '"' : '';
  return { head: 'Content-Type: multipart/' + subtype + ';\n boundary="' + boundary + '"' + t + '\n', body };
}

// ---------------------------------------------------------------- message

/** Full message text: header block, blank line, body. */
export function buildMessage(h: MessageHead, body: Entity): string {
  let s = '';
  if (h.deliveredTo) s += 'Return-Path: <' + h.from.email + '>\nDelivered-To: ' + h.deliveredTo + '\n';
  s += 'Message-ID: <' + h.messageId + '>\nDate: ' + formatDate(h.date, h.tz) + '\n';
  s += addressHeader('From', [h.from]);
  if (h.to.length) s += addressHeader('To', h.to);
  if (h.cc && h.cc.length) s += addressHeader('Cc', h.cc);
  s += subjectHeader(h.subject);
  if (h.inReplyTo) s += 'In-Reply-To: <' + h.inReplyTo + '>\n';
  if (h.references && h.references.length) s += fold('References', h.references.map((r) => '<' + r + '>'));
  if (h.extra) s += h.extra;
  return s + 'MIME-Version: 1.0\n' + body.head + '\n' + body.body;
}
