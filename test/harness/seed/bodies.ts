// Body text for seeded mail: conversation replies (with quoting, as real
// clients do), HTML renderings of them, newsletters with remote images and
// links, and spam. Returns plain strings; MIME wrapping happens in mime.ts.

import { HEADLINES, greeting, paragraphs, signoff, type Lang } from './corpus';
import type { Prng } from './prng';

export interface ConvText {
  /** Complete text/plain body (greeting, paragraphs, sign-off, quote). */
  plain: string;
  /** HTML rendering of the same; contains `{{CID}}` where an inline image may go. */
  html: string;
}

export interface ConvInput {
  lang: Lang;
  toFirst: string;
  fromName: string;
  /** "On <date>, <name> wrote:" line and the parent's plain text, for replies. */
  quote?: { attribution: string; text: string };
}

/** Marker replaced by an <img src="cid:..."> tag (or nothing) by the caller. */
export const CID_MARK = '{{CID}}';

const QUOTE_LINES = 24;

/** Greedy word wrap at `width`; CJK runs without spaces are cut hard. */
export function wrap(text: string, width = 72): string {
  if (text.length <= width) return text;
  let out = '';
  let i = 0;
  while (text.length - i > width) {
    let cut = text.lastIndexOf(' ', i + width);
    if (cut <= i) {
      cut = i + width;
      const c = text.charCodeAt(cut - 1);
      if (c >= 0xd800 && c <= 0xdbff) cut--; // don't split a surrogate pair
      out += text.slice(i, cut) + '\n';
      i = cut;
    } else {
      out += text.slice(i, cut) + '\n';
      i = cut + 1;
    }
  }
  return out + text.slice(i);
}

export function escapeHtml(s: string): string {
  if (s.indexOf('&') < 0 && s.indexOf('<') < 0 && s.indexOf('>') < 0 && s.indexOf('"') < 0) return s;
  return s.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');
}

/** First `n` lines of `text` (no regex: this runs for every reply). */
function firstLines(text: string, n: number): string[] {
  const lines: string[] = [];
  let i = 0;
  while (lines.length < n && i < text.length) {
    let j = text.indexOf('\n', i);
    if (j < 0) j = text.length;
    lines.push(text.slice(i, j));
    i = j + 1;
  }
  return lines;
}

/** "> " prefix; already-quoted lines just get one more ">" (">> "), as MUAs do. */
function quoted(line: string): string {
  return line.charCodeAt(0) === 62 ? '>' + line : line ? '> ' + line : '>';
}

export function conversationText(rng: Prng, input: ConvInput): ConvText {
  const hello = greeting(rng, input.lang, input.toFirst);
  const paras = paragraphs(rng, input.lang, 1, 4);
  const bye = signoff(rng, input.lang);
  const withSig = rng.chance(0.3);

  let plain = hello + '\n\n';
  for (const p of paras) plain += wrap(p) + '\n\n';
  plain += bye + '\n' + input.fromName + '\n';
  if (withSig) plain += '\n-- \n' + input.fromName + '\nTern Mail test corp. | +1 555 0100\n';

  let html = '<!DOCTYPE html>\n<html>\n<head><meta charset="utf-8"></head>\n<body>\n<div dir="ltr">\n';
  html += '<p>' + escapeHtml(hello) + '</p>\n';
  for (const p of paras) html += '<p>' + escapeHtml(p) + '</p>\n';
  html += '<p>' + escapeHtml(bye) + '<br>\n' + escapeHtml(input.fromName) + '</p>\n';
  html += CID_MARK;
  html += '</div>\n';

  if (input.quote) {
    const q = firstLines(input.quote.text, QUOTE_LINES);
    plain += '\n' + wrap(input.quote.attribution) + '\n';
    for (const l of q) plain += quoted(l) + '\n';
    html += '<div class="tern_quote">\n<div>' + escapeHtml(input.quote.attribution) + '</div>\n';
    html += '<blockquote style="margin:0 0 0 .8ex;border-left:1px solid #ccc;padding-left:1ex">\n';
    for (const l of q) html += escapeHtml(l) + '<br>\n';
    html += '</blockquote>\n</div>\n';
  }
  html += '</body>\n</html>\n';
  return { plain, html };
}

/** The HTML fragment for an inline image referenced by Content-ID. */
export function cidImg(cid: string): string {
  return '<p><img src="cid:' + cid + '" alt="Company logo" width="40" height="40"></p>\n';
}

export interface NewsletterText {
  plain: string;
  html: string;
}

/** Newsletter: table layout, remote images (incl. a 1x1 tracking pixel), links, unsubscribe. */
export function newsletterText(rng: Prng, senderName: string, domain: string, title: string): NewsletterText {
  const items = rng.sample(HEADLINES, rng.int(3, 5));
  const track = rng.hex(16);
  const base = 'https://' + domain;
  let plain = title + '\n' + '='.repeat(Math.min(title.length, 60)) + '\n\n';
  let html =
    '<!DOCTYPE html>\n<html>\n<head><meta charset="utf-8"><title>' + escapeHtml(title) + '</title></head>\n' +
    '<body style="margin:0;background:#f4f4f7">\n<table role="presentation" width="100%" cellpadding="0" cellspacing="0">\n' +
    '<tr><td align="center"><img src="' + base + '/assets/header-600x120.png" width="600" height="120" alt="' + escapeHtml(senderName) + '"></td></tr>\n';
  items.forEach((h, i) => {
    const slug = 'story-' + (i + 1) + '-' + track.slice(i, i + 6);
    plain += '* ' + h + '\n  ' + base + '/r/' + slug + '\n\n';
    html +=
      '<tr><td style="padding:16px;font-family:Helvetica,Arial,sans-serif">\n' +
      '<img src="' + base + '/img/' + slug + '.jpg" width="560" height="280" alt="">\n' +
      '<h2 style="font-size:20px"><a href="' + base + '/r/' + slug + '?utm_source=newsletter">' + escapeHtml(h) + '</a></h2>\n' +
      '<p>' + escapeHtml(paragraphs(rng, 'en', 1, 1)[0] ?? '') + '</p>\n</td></tr>\n';
  });
  plain += 'Unsubscribe: ' + base + '/unsubscribe?u=' + track + '\n';
  html +=
    '<tr><td style="font-size:12px;color:#888;padding:16px">You are receiving this because you subscribed to ' + escapeHtml(senderName) +
    '. <a href="' + base + '/unsubscribe?u=' + track + '">Unsubscribe</a></td></tr>\n</table>\n' +
    '<img src="https://t.' + domain + '/open/' + track + '.gif" width="1" height="1" alt="">\n</body>\n</html>\n';
  return { plain, html };
}

/** Spam: shouting HTML with a suspicious link and a remote image. */
export function spamHtml(rng: Prng, subject: string): string {
  const id = rng.hex(12);
  return (
    '<html><body style="font-family:Arial">\n<h1 style="color:#d00">' + escapeHtml(subject) + '</h1>\n' +
    '<p><b>Dear valued customer,</b> act now! This offer expires in 24 hours.</p>\n' +
    '<p><a href="http://claim-now.test/c?id=' + id + '"><img src="http://claim-now.test/banner.gif" width="468" height="60" alt="CLICK HERE"></a></p>\n' +
    '<p style="font-size:9px;color:#fff">' + 'free money winner prize '.repeat(8) + '</p>\n</body></html>\n'
  );
}
