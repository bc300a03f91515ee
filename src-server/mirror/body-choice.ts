/**
 * Which parts of a MIME tree are the message's body, by RFC 2046 and RFC 2183, for any
 * tree: the mirror's BODYSTRUCTURE (snippet.ts, attachments.ts) and the parsed message
 * (reading/body-parser.ts) decide alike, so what is listed as an attachment is never also
 * shown as the body.
 *
 * - A text/plain or text/html leaf is body text unless its disposition is `attachment`.
 * - multipart/alternative: the last HTML alternative is the HTML, the last plain one the
 *   text (later alternatives are the richer ones, §5.1.4); the others are not shown.
 * - multipart/related: its root (the first part, §3.1 of RFC 2387) is the body.
 * - multipart/mixed and every other multipart: the first part that holds body text is the
 *   body; inline text after it is an attachment (a text/html "attachment" after a text/plain
 *   body must not replace the body).
 * - An attached message (message/rfc822) is never descended into.
 */

/** What the choice needs to know of a node, whatever tree it comes from. */
export interface MimeNodeView<N> {
  /** Lowercase type/subtype. */
  readonly type: string;
  /** Lowercase disposition, undefined when there is no Content-Disposition. */
  readonly disposition: string | undefined;
  readonly children: readonly N[];
}

/** The leaves that make the body: the plain text and the HTML (either may be missing). */
export interface BodyChoice<N> {
  readonly text: N | null;
  readonly html: N | null;
}

const NONE = { text: null, html: null };

function isBodyLeaf(view: MimeNodeView<unknown>): boolean {
  return (view.type === 'text/plain' || view.type === 'text/html') && view.disposition !== 'attachment';
}

/** The body parts of `node`, or both null when it holds no body text. */
export function chooseBody<N>(node: N, viewOf: (node: N) => MimeNodeView<N>): BodyChoice<N> {
  const view = viewOf(node);
  if (!view.type.startsWith('multipart/')) {
    if (!isBodyLeaf(view)) return NONE;
    return view.type === 'text/html' ? { text: null, html: node } : { text: node, html: null };
  }
  if (view.type === 'multipart/alternative') {
    let text: N | null = null;
    let html: N | null = null;
    for (const child of view.children) {
      const choice = chooseBody(child, viewOf);
      if (choice.html) html = choice.html;
      if (choice.text && !choice.html) text = choice.text;
    }
    return { text, html };
  }
  if (view.type === 'multipart/related') {
    const root = view.children[0];
    return root === undefined ? NONE : chooseBody(root, viewOf);
  }
  for (const child of view.children) {
    const choice = chooseBody(child, viewOf);
    if (choice.text || choice.html) return choice;
  }
  return NONE;
}
