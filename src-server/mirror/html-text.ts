/**
 * HTML to plain text with a real HTML parser (html-to-text on htmlparser2), never regular
 * expressions: an attribute holding ">" (`<p title="a>b">`), single-quoted attributes and
 * every named entity are the parser's business. Nothing here is ever rendered as HTML, so
 * nothing is sanitised. Two converters share the rules below:
 *
 * - `htmlToText`: the words of a mail for its snippet and the search index. Link addresses
 *   and images are left out; blocks still end lines, which callers collapse as they need.
 *   Works on a truncated document (a snippet reads the first bytes): an unfinished tag at
 *   the end is dropped. Hidden preheader text is kept on purpose: senders write it to be
 *   the inbox preview.
 * - `htmlToPlainText`: the text/plain alternative of a message Tern sends (see
 *   smtp/plain-alternative.ts): paragraphs apart by one blank line, `<br>` and `<div>`
 *   lines by one newline, links as "text <url>" (as Thunderbird writes them), lists with
 *   "- ", quotes with "> ", no wrapping (long lines are the transfer encoding's business).
 */
import { compile, type FormatCallback, type SelectorDefinition } from 'html-to-text';

/** Elements that start a line box of their own, as a browser lays them out. */
const BLOCKS = new Set([
  'address', 'article', 'aside', 'blockquote', 'body', 'dd', 'div', 'dl', 'dt', 'figure', 'footer', 'form',
  'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'li', 'main', 'nav', 'p', 'section', 'td', 'th',
]);

/** The parser's node, as far as these rules look at it (domhandler's Node). */
interface DomNode {
  readonly type: string;
  readonly name?: string;
  readonly data?: string;
  readonly next: DomNode | null;
  readonly prev: DomNode | null;
  readonly parent: DomNode | null;
}

/** Whether a node shows nothing: whitespace, a comment. */
function isBlank(node: DomNode): boolean {
  if (node.type === 'comment') return true;
  return node.type === 'text' && !/[^ \t\r\n\f]/.test(node.data ?? '');
}

function nothingAfter(node: DomNode): boolean {
  for (let next = node.next; next; next = next.next) if (!isBlank(next)) return false;
  return true;
}

function nothingBefore(node: DomNode): boolean {
  for (let prev = node.prev; prev; prev = prev.prev) if (!isBlank(prev)) return false;
  return true;
}

/**
 * A `<br>` as a browser draws it. One that ends its block draws no line: `<p>x<br></p>` is
 * one line, and a contenteditable (Tern's composer, Gmail's) ends lines that way. One that
 * is all its block holds keeps the block one line high: `<div><br></div>` is the empty line
 * of Enter Enter. A space stands for that line (trailing spaces are trimmed at the end).
 */
const browserLineBreak: FormatCallback = (elem, _walk, builder) => {
  const node = elem as unknown as DomNode;
  const parentIsBlock = node.parent === null || BLOCKS.has(node.parent.name ?? '') || node.parent.type === 'root';
  if (!parentIsBlock || !nothingAfter(node)) {
    builder.addLineBreak();
    return;
  }
  if (nothingBefore(node)) builder.addLiteral(' ');
};

/** Rules both converters share. */
const COMMON: SelectorDefinition[] = [
  { selector: 'br', format: 'browserLineBreak' },
  { selector: 'img', format: 'skip' },
  // Table cells side by side are words apart, not glued together; each row is a line.
  { selector: 'tr', format: 'block', options: { leadingLineBreaks: 1, trailingLineBreaks: 1 } },
  { selector: 'td', format: 'inlineSurround', options: { suffix: ' ' } },
  { selector: 'th', format: 'inlineSurround', options: { suffix: ' ' } },
  // Headings keep the sender's case.
  ...(['h1', 'h2', 'h3', 'h4', 'h5', 'h6'] as const).map((tag) => ({ selector: tag, options: { uppercase: false } })),
];

const toSearchText = compile({
  wordwrap: false,
  formatters: { browserLineBreak },
  selectors: [
    ...COMMON,
    { selector: 'a', options: { ignoreHref: true } },
    { selector: 'blockquote', format: 'block' },
    { selector: 'ul', options: { itemPrefix: ' ' } },
    { selector: 'hr', format: 'block' },
  ],
});

/** Only web and mail addresses are worth a reader's copying; `javascript:`, `cid:` … are not. */
const SHOWN_LINK = /^(?:https?:|mailto:)/i;

const toPlainText = compile({
  wordwrap: false,
  formatters: { browserLineBreak },
  selectors: [
    ...COMMON,
    {
      selector: 'a',
      options: {
        linkBrackets: ['<', '>'],
        hideLinkHrefIfSameAsText: true,
        pathRewrite: (href: string) => (SHOWN_LINK.test(href.trim()) ? href.trim() : ''),
      },
    },
    { selector: 'ul', options: { itemPrefix: '- ' } },
    { selector: 'hr', options: { length: 20 } },
    // Tern's composer makes a <p> per Enter (defaultParagraphSeparator 'p') inside its
    // `div.tern-body` wrapper (composer/editor-html.ts): there a paragraph is a line, as
    // the writer pressed it, and Enter Enter is one blank line, not three.
    { selector: 'div.tern-body > p', format: 'block', options: { leadingLineBreaks: 1, trailingLineBreaks: 1 } },
    // So are the lines of its signature (composer/signature-html.ts), under the "-- " line.
    { selector: 'div.tern-signature > p', format: 'block', options: { leadingLineBreaks: 1, trailingLineBreaks: 1 } },
  ],
});

/** The words of an HTML mail (or its first bytes), blocks on lines of their own. */
export function htmlToText(html: string): string {
  return toSearchText(html);
}

/** Stands for a signature's "-- " while html-to-text collapses spaces (a word it keeps as it is). */
const SIGNATURE_SEPARATOR = 'ternsignatureseparator';

/**
 * Readable plain text of an HTML body: what Tern sends as the text/plain alternative. The
 * composer's signature block (composer/signature-html.ts) keeps its "-- " separator, trailing
 * space included (RFC 3676 §4.3): mail programs know the signature by it.
 */
export function htmlToPlainText(html: string): string {
  const marked = html.replace(/(<div class="tern-signature"><div>)-- (<\/div>)/, `$1${SIGNATURE_SEPARATOR}$2`);
  // A no-break space is HTML's way to keep spaces; in plain text a space does that already.
  const text = toPlainText(marked).replace(/\u00a0/g, ' ').replace(/[ \t]+$/gm, '').trim();
  return text.replace(new RegExp(`^${SIGNATURE_SEPARATOR}$`, 'm'), '-- ');
}
