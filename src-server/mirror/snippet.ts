import type { MessageStructureObject } from 'imapflow';
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

function isBodyText(node: MessageStructureObject): boolean {
  if (node.disposition?.toLowerCase() === 'attachment') return false;
  if (node.dispositionParameters?.filename || node.parameters?.name) return false;
  return node.type === 'text/plain' || node.type === 'text/html';
}

/** Text parts in MIME order, not descending into attached messages. */
function bodyTexts(node: MessageStructureObject, out: MessageStructureObject[]): void {
  if (node.childNodes) {
    for (const child of node.childNodes) bodyTexts(child, out);
  } else if (isBodyText(node)) {
    out.push(node);
  }
}

/** The first text/plain body part, else the first text/html one; null for a message without text. */
export function snippetSourceOf(structure: MessageStructureObject | undefined): SnippetSource | null {
  if (!structure) return null;
  const texts: MessageStructureObject[] = [];
  bodyTexts(structure, texts);
  const node = texts.find((t) => t.type === 'text/plain') ?? texts[0];
  if (!node) return null;
  const html = node.type === 'text/html';
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
  return text
    .split(/\r?\n/)
    .filter((line) => !/^\s*>/.test(line))
    .join('\n');
}

/** Decodes the fetched first bytes of the part and makes the ~200-character, whitespace-collapsed snippet. */
export function snippetFrom(bytes: Buffer, source: Pick<SnippetSource, 'html' | 'encoding' | 'charset'>): string {
  const text = decodeCharset(decodeTransfer(bytes, source.encoding), source.charset);
  const plain = source.html ? htmlToText(text) : withoutQuotes(text);
  const collapsed = plain.replace(/[\s\u00a0\u200b\u200c\u200d\ufeff]+/g, ' ').trim();
  return [...collapsed].slice(0, SNIPPET_LENGTH).join('').trimEnd();
}
