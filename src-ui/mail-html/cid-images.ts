/**
 * Pipeline step: inline images. `<img src="cid:logo@x">` names a part of the same
 * message; the worker hands the parts over as object or data URLs in
 * `BodyView.inlineImages` (cid → URL). Only `blob:` and `data:image/…` URLs are accepted
 * from the map. An `<img>` naming no part (or an unsafe URL) becomes a transparent picture
 * marked MISSING_CID_ATTR, which the frame's base sheet draws as the neutral placeholder:
 * an `<img>` with no src and an alt text gets Chrome's broken-image icon, a picture does not.
 * A `background=` naming no part is dropped.
 */

import { TRANSPARENT_PIXEL } from './fit-width';

/** Set on an `<img>` whose cid: part is missing (the frame's placeholder styling). */
export const MISSING_CID_ATTR = 'data-tern-missing-cid';

/** The content id a `cid:` URL names, as the map keys it (no angle brackets, URL-decoded). */
export function contentIdOf(url: string): string | null {
  const match = /^\s*cid:(.*)$/is.exec(url);
  if (!match) return null;
  let id = (match[1] ?? '').trim();
  try {
    id = decodeURIComponent(id);
  } catch {
    // a stray % stays as written
  }
  return stripBrackets(id);
}

function stripBrackets(id: string): string {
  return id.trim().replace(/^<\s*/, '').replace(/\s*>$/, '');
}

/** Looks an id up as written, then without brackets and case-insensitively (Content-IDs are compared loosely in the wild). */
export function lookupInlineImage(inlineImages: Readonly<Record<string, string>>, id: string): string | null {
  const candidates = [id, `<${id}>`];
  for (const key of candidates) if (Object.hasOwn(inlineImages, key)) return inlineImages[key] ?? null;
  const lower = stripBrackets(id).toLowerCase();
  for (const [key, url] of Object.entries(inlineImages)) {
    if (stripBrackets(key).toLowerCase() === lower) return url;
  }
  return null;
}

const SAFE_INLINE_URL = /^(?:blob:|data:image\/)/i;

export interface CidResult {
  /** Content ids the HTML names that the message does not carry. */
  readonly missing: readonly string[];
}

export function inlineCidImages(doc: Document, inlineImages: Readonly<Record<string, string>>): CidResult {
  const missing: string[] = [];
  const places: readonly (readonly [selector: string, attribute: string])[] = [
    ['img[src]', 'src'],
    ['[background]', 'background'],
  ];
  for (const [selector, name] of places) {
    for (const element of Array.from(doc.querySelectorAll(selector))) {
      const id = contentIdOf(element.getAttribute(name) ?? '');
      if (id === null) continue;
      const url = lookupInlineImage(inlineImages, id);
      if (url !== null && SAFE_INLINE_URL.test(url)) {
        element.setAttribute(name, url);
      } else if (element.localName === 'img') {
        element.setAttribute('src', TRANSPARENT_PIXEL);
        element.setAttribute(MISSING_CID_ATTR, '');
        missing.push(id);
      } else {
        element.removeAttribute(name);
        missing.push(id);
      }
    }
  }
  return { missing };
}
