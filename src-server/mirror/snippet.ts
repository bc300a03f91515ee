import type { MessageStructureObject } from 'imapflow';
import { structureView } from './attachments';
import { chooseBody } from './body-choice';
import { htmlToText } from './html-text';
import { decodeCharset, decodeTransfer } from './mime-decode';

/** Characters of text a snippet keeps. */
export const SNIPPET_LENGTH = 200;

/** Which body part a snippet is read from, and how to decode it. */
export interface SnippetSource {
  /** IMAP section, e.g. "1", "1.1", "2.1.1". */
  readonly part: string;
  readonly html: boolean;
  readonly encoding: string | undefined;
  readonly charset: string | undefined;
  /** Bytes to fetch: enough for ~200 characters after QP/base64 overhead (and, for HTML, a <head>). */
  readonly maxBytes: number;
}

const PLAIN_BYTES = 1024;
const HTML_BYTES = 4096;

/**
 * The metadata FETCH brings the first bytes of section 1 along (BODY.PEEK[1]<0.1024>): for
 * most mail — a single text part, an alternative or a mixed whose first part is the text —
 * that is the snippet's part, so the snippet needs no second FETCH (see `earlySnippet`).
 */
export const EARLY_PART = '1';
export const EARLY_BYTES = PLAIN_BYTES;
/**
 * Characters of text past the snippet that make an early HTML snippet final: what a cut at
 * the end of the early bytes can garble (a half entity, a half tag dropped) stays beyond them.
 */
const EARLY_MARGIN = 16;

/** The body's plain text part, else its HTML (body-choice.ts); null for a message without body text. */
export function snippetSourceOf(structure: MessageStructureObject | undefined): SnippetSource | null {
  if (!structure) return null;
  const body = chooseBody(structure, structureView);
  const node = body.text ?? body.html;
  if (!node) return null;
  const html = node.type.toLowerCase() === 'text/html';
  return {
    // A single-part message has no part number; its body is section 1.
    part: node.part ?? '1',
    html,
    encoding: node.encoding,
    charset: node.parameters?.charset,
    maxBytes: html ? HTML_BYTES : PLAIN_BYTES,
  };
}

/** Quoted lines ("> …") are what the reader already saw; the snippet shows what is new. */
function withoutQuotes(text: string): string {
  if (!text.includes('>')) return text;
  return text
    .split(/\r?\n/)
    .filter((line) => !/^\s*>/.test(line))
    .join('\n');
}

/** The part's first bytes as text: decoded, quoted lines (plain) or markup (HTML) left out, whitespace collapsed. */
function snippetText(bytes: Buffer, source: Pick<SnippetSource, 'html' | 'encoding' | 'charset'>): string {
  const text = decodeCharset(decodeTransfer(bytes, source.encoding), source.charset);
  const plain = source.html ? htmlToText(text) : withoutQuotes(text);
  return plain.replace(/[\s\u00a0\u200b\u200c\u200d\ufeff]+/g, ' ').trim();
}

/** At most SNIPPET_LENGTH characters (code points: a cut never splits a surrogate pair). */
function cut(text: string): string {
  let end = 0;
  for (let count = 0; count < SNIPPET_LENGTH && end < text.length; count++) end += isPairAt(text, end) ? 2 : 1;
  return text.slice(0, end).trimEnd();
}

/** Whether a surrogate pair (one code point in two UTF-16 units) starts at `index`. */
function isPairAt(text: string, index: number): boolean {
  const high = text.charCodeAt(index);
  if (high < 0xd800 || high > 0xdbff) return false;
  const low = text.charCodeAt(index + 1);
  return low >= 0xdc00 && low <= 0xdfff;
}

/** Decodes the fetched first bytes of the part and makes the ~200-character, whitespace-collapsed snippet. */
export function snippetFrom(bytes: Buffer, source: Pick<SnippetSource, 'html' | 'encoding' | 'charset'>): string {
  return cut(snippetText(bytes, source));
}

/**
 * The snippet from the early bytes of section 1, when they make the same snippet the part's
 * own partial FETCH would: the source is section 1 and either the early bytes are all the
 * source asks for (plain text), or the part ended within them, or (HTML, which asks for more
 * to get past a <head>) they already hold the snippet and a margin of text. Null otherwise:
 * the snippet then comes from a FETCH of its part.
 */
export function earlySnippet(bytes: Buffer | undefined, source: SnippetSource): string | null {
  if (!bytes || source.part !== EARLY_PART) return null;
  const text = snippetText(bytes, source);
  if (source.maxBytes <= EARLY_BYTES || bytes.length < EARLY_BYTES) return cut(text);
  let units = 0;
  for (let count = 0; count < SNIPPET_LENGTH + EARLY_MARGIN; count++) {
    if (units >= text.length) return null;
    units += isPairAt(text, units) ? 2 : 1;
  }
  return cut(text);
}
