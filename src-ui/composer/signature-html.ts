/**
 * The signature in the composer's body (issue 14 point 2): one block of class
 * SIGNATURE_CLASS, "-- " on a line of its own first (RFC 3676 §4.3: the text/plain
 * alternative keeps it, and mail programs fold what follows), then the identity's rich text.
 * A new message gets it under an empty line to write on; a reply or forward under the
 * written part and above the quote — never inside the quoted HTML. Pure DOM work on inert
 * documents; the editor sanitises what it is given (editor-html.ts).
 */
import type { ComposeMode } from './compose-initial';
import { BODY_CLASS, prepareOutgoingHtml } from './editor-html';

export const SIGNATURE_CLASS = 'tern-signature';

/** The block for a signature's HTML ('' for none). */
export function signatureBlock(signatureHtml: string): string {
  return signatureHtml.trim() === '' ? '' : `<div class="${SIGNATURE_CLASS}"><div>-- </div>${signatureHtml}</div>`;
}

/** Whether a message of this mode gets the identity's signature. */
export function wantsSignature(mode: ComposeMode, signatureOnReplies: boolean): boolean {
  return mode === 'new' || signatureOnReplies;
}

/**
 * The opening body with the signature: a new message's empty line then the block; a
 * reply's or forward's block right after its first line (the empty one the builders put
 * above the quote, compose-initial.ts), so it sits above the quote at the top level.
 */
export function withSignature(bodyHtml: string, signatureHtml: string): string {
  const block = signatureBlock(signatureHtml);
  if (!block) return bodyHtml;
  const doc = new DOMParser().parseFromString(`<body>${bodyHtml}</body>`, 'text/html');
  const body = doc.body;
  if (body.querySelector(`.${SIGNATURE_CLASS}`)) return bodyHtml;
  const first = body.firstElementChild;
  const written = first && first.localName === 'p' ? first : null;
  const holder = doc.createElement('div');
  holder.innerHTML = block;
  const node = holder.firstElementChild!;
  if (written) written.after(node);
  else {
    const line = doc.createElement('p');
    line.append(doc.createElement('br'));
    body.prepend(line, node);
  }
  return body.innerHTML;
}

/**
 * The From changed: the old identity's signature gives way to the new one's, unless the
 * person edited it (its HTML is no longer what was put in). Returns what the editor's
 * signature is now, for the next change. `inserted` is the block's HTML as the editor
 * holds it (null: none was put in, or it was removed).
 */
export function swapSignature(root: HTMLElement, inserted: string | null, nextSignatureHtml: string, prepare: (html: string) => string): string | null {
  const current = root.querySelector<HTMLElement>(`.${SIGNATURE_CLASS}`);
  if (current && inserted !== null && current.outerHTML !== inserted) return null; // edited: the person's now
  const block = signatureBlock(nextSignatureHtml);
  if (!block) {
    current?.remove();
    return null;
  }
  if (!current && inserted !== null) return null; // put in once and removed by the person: not again
  // Only the block is sanitised (prepare): the rest of the body stays as the editor holds it.
  const holder = root.ownerDocument.createElement('div');
  holder.innerHTML = prepare(block);
  const node = holder.firstElementChild;
  if (!node) return null;
  if (current) current.replaceWith(node);
  else {
    const first = root.firstElementChild;
    if (first && first.localName === 'p') first.after(node);
    else {
      // Nothing written yet: a line to write on above it, as a new message opens with.
      const line = root.ownerDocument.createElement('p');
      line.append(root.ownerDocument.createElement('br'));
      root.prepend(line, node);
    }
  }
  return node.outerHTML;
}

/** A signature as written in the editor (Settings → Signatures) → what the identity keeps: sanitised like a body, without its wrapper. */
export function prepareSignatureHtml(editorHtml: string): string {
  const body = prepareOutgoingHtml(editorHtml);
  if (!body) return '';
  const doc = new DOMParser().parseFromString(body, 'text/html');
  const wrapper = doc.body.firstElementChild;
  return wrapper?.classList.contains(BODY_CLASS) ? wrapper.innerHTML : body;
}
