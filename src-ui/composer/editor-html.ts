/**
 * HTML in and out of the composer's editor, through the same DOMPurify rules as the
 * reading view (purify-config.ts).
 *
 * In: a draft or a quote may carry a hostile mail, and the editor is part of the app's
 * own page (contentEditable, not a sandboxed frame), so the body is sanitised, its styles
 * are confined to the editor (scope-styles.ts), and remote images are parked in
 * `data-tern-blocked-*` so that writing a reply does not tell the original's sender
 * when it was read. Inline `cid:` images, which name parts of another message, become
 * their alt text (quote-images.ts).
 *
 * Out: parked images get their addresses back (the recipient sees the quote whole),
 * then the result is sanitised once more, last, and wrapped in the element the scoped
 * styles name, so they still apply in the recipient's mail program.
 */
import type { DOMPurify } from 'dompurify';
import { MAIL_PURIFY_CONFIG, mailPurifier } from '../mail-html/purify-config';
import { BLOCKED_BACKGROUND_ATTR, BLOCKED_SRC_ATTR, BLOCKED_SRCSET_ATTR, blockRemoteContent } from '../mail-html/remote-content';
import { scopeMailStyles } from '../mail-html/scope-styles';
import { replaceCidImages } from './quote-images';

/** The class of the editor and of the outgoing body's wrapper: styles in a message are scoped to it. */
export const BODY_CLASS = 'tern-body';

function sanitizeToBody(html: string, purifier: DOMPurify): HTMLElement {
  const body = purifier.sanitize(html, { ...MAIL_PURIFY_CONFIG, RETURN_DOM: true });
  return body as HTMLElement;
}

/** A body saved by us is one wrapper div; the editor holds what is inside it. */
function unwrap(body: HTMLElement): void {
  const only = body.children.length === 1 ? body.firstElementChild : null;
  const onlyNode = Array.from(body.childNodes).filter((node) => node.nodeType !== 3 || (node.textContent ?? '').trim() !== '');
  if (only && onlyNode.length === 1 && only.localName === 'div' && only.classList.contains(BODY_CLASS)) {
    only.replaceWith(...Array.from(only.childNodes));
  }
}

/** Untrusted HTML (draft, quote, paste) → what the editor may hold. */
export function prepareEditorHtml(html: string, purifier: DOMPurify = mailPurifier()): string {
  if (html.trim() === '') return '';
  const body = sanitizeToBody(html, purifier);
  unwrap(body);
  const doc = body.ownerDocument;
  replaceCidImages(doc);
  scopeMailStyles(doc, { scope: `.${BODY_CLASS}` });
  blockRemoteContent(doc, { proxied: null });
  return body.innerHTML;
}

/** The editor's HTML → the body a draft saves and a message sends. */
export function prepareOutgoingHtml(editorHtml: string, purifier: DOMPurify = mailPurifier()): string {
  // An inert document: restoring image addresses here loads nothing.
  const parsed = new DOMParser().parseFromString(editorHtml, 'text/html');
  const restore: [string, string][] = [
    [BLOCKED_SRC_ATTR, 'src'],
    [BLOCKED_SRCSET_ATTR, 'srcset'],
    [BLOCKED_BACKGROUND_ATTR, 'background'],
  ];
  for (const [parked, attribute] of restore) {
    for (const element of Array.from(parsed.querySelectorAll(`[${parked}]`))) {
      element.setAttribute(attribute, element.getAttribute(parked) ?? '');
      element.removeAttribute(parked);
    }
  }
  const body = sanitizeToBody(parsed.body.innerHTML, purifier);
  if (isBlank(body)) return '';
  const wrapper = body.ownerDocument.createElement('div');
  wrapper.className = BODY_CLASS;
  wrapper.append(...Array.from(body.childNodes));
  return wrapper.outerHTML;
}

/** No text and no image: an untouched editor. */
export function isBlank(root: Element): boolean {
  return (root.textContent ?? '').trim() === '' && root.querySelector('img, hr, table') === null;
}

/** Whether editor HTML holds anything a person wrote or quoted. */
export function isBlankHtml(html: string): boolean {
  return isBlank(new DOMParser().parseFromString(html, 'text/html').body);
}
