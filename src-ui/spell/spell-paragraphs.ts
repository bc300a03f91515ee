/**
 * The editor's text as paragraphs to check, each with the text nodes it came from, so a
 * word's offsets become a DOM Range for the highlight (the editor's DOM is never changed:
 * no spans, nothing in the sent HTML). Left out: the quoted mail of a reply or forward, the
 * signature, links, code — what the writer did not type here, or what no dictionary knows.
 */

/** Subtrees never checked (compose-initial.ts builds .tern-quote / .tern-forward; signature-html.ts .tern-signature). */
const SKIPPED = 'blockquote, .tern-quote, .tern-forward, .tern-signature, a, code, pre, style, script, [contenteditable="false"]';
const BLOCK = 'p, div, li, h1, h2, h3, h4, h5, h6, td, th, dd, dt';

export interface SpellParagraph {
  /** The block element the text belongs to (the editor itself for text outside any block). */
  readonly block: Element;
  readonly text: string;
  /** Each text node of the paragraph and where its text starts in `text`. */
  readonly pieces: readonly { readonly node: Text; readonly start: number }[];
}

/** The paragraphs of `root`, in document order. */
export function spellParagraphs(root: HTMLElement): SpellParagraph[] {
  const doc = root.ownerDocument;
  const byBlock = new Map<Element, { text: string; pieces: { node: Text; start: number }[]; boundary: number }>();
  // A line break or a block start between two pieces of one paragraph separates their words.
  let boundary = 0;
  const walker = doc.createTreeWalker(root, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT, {
    acceptNode: (node) => (node.nodeType === Node.ELEMENT_NODE && (node as Element).matches(SKIPPED) ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT),
  });
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (node.nodeType === Node.ELEMENT_NODE) {
      if ((node as Element).matches(`br, ${BLOCK}`)) boundary += 1;
      continue;
    }
    const text = node as Text;
    const found = text.parentElement?.closest(BLOCK);
    const block = found && root.contains(found) && found !== root ? found : root;
    let paragraph = byBlock.get(block);
    if (!paragraph) byBlock.set(block, (paragraph = { text: '', pieces: [], boundary }));
    if (paragraph.text !== '' && paragraph.boundary !== boundary) paragraph.text += '\n';
    paragraph.boundary = boundary;
    paragraph.pieces.push({ node: text, start: paragraph.text.length });
    paragraph.text += text.data;
  }
  return [...byBlock].map(([block, { text, pieces }]) => ({ block, text, pieces }));
}

/** The DOM range of `start`–`end` in a paragraph's text, or null when the nodes changed since. */
export function paragraphRange(paragraph: SpellParagraph, start: number, end: number): Range | null {
  const at = (offset: number, isEnd: boolean) => {
    for (const piece of paragraph.pieces) {
      const length = piece.node.data.length;
      const inside = isEnd ? offset > piece.start && offset <= piece.start + length : offset >= piece.start && offset < piece.start + length;
      if (inside) return { node: piece.node, offset: offset - piece.start };
    }
    return null;
  };
  const from = at(start, false);
  const to = at(end, true);
  if (!from || !to || !from.node.isConnected || !to.node.isConnected) return null;
  const range = paragraph.block.ownerDocument.createRange();
  range.setStart(from.node, from.offset);
  range.setEnd(to.node, to.offset);
  return range;
}
