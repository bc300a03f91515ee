/**
 * Pipeline step: remote content. A remote image is a read receipt the sender did not
 * ask for (and a tracking pixel, and an IP leak), so everything that would be fetched
 * from the network stays blocked until the person allows it for this message or sender:
 * `<img src/srcset>`, `<source>`, media `src`/`poster`, `background=` attributes, and
 * `url()`/`image-set()`/`@import` in style attributes and `<style>` elements.
 *
 * A blocked URL is kept in a `data-tern-blocked-*` attribute (sanitising dropped every
 * `data-*` the sender wrote, so these are ours) for the frame's placeholder styling.
 * The frame's CSP is the second wall: without permission it has no `https:` in img-src.
 */
import { rewriteCssReferences, type CssReference } from './css-references';

export const BLOCKED_SRC_ATTR = 'data-tern-blocked-src';
export const BLOCKED_SRCSET_ATTR = 'data-tern-blocked-srcset';
export const BLOCKED_BACKGROUND_ATTR = 'data-tern-blocked-background';

/**
 * - `embedded`: carried by the message itself (`data:`, `cid:`) or made by us (`blob:`);
 * - `remote`: fetched from the network (`https:`, `http:`, `//host`);
 * - `unusable`: relative URLs (a mail has no base; in the frame they would hit our own
 *   origin) and other schemes; dropped whatever the person allows.
 */
export type UrlOrigin = 'embedded' | 'remote' | 'unusable';

export function classifyUrl(raw: string): UrlOrigin {
  // Browsers ignore ASCII whitespace and control characters inside a scheme; so do we.
  const url = raw.replace(/[\u0000-\u0020\u007f]+/g, '');
  if (/^(?:data|cid|blob):/i.test(url)) return 'embedded';
  if (/^(?:https?:|\/\/|\\\\|\/\\|\\\/)/i.test(url)) return 'remote';
  return 'unusable';
}

/** URLs of a `srcset` value (HTML's candidate list: a URL, then descriptors up to a comma). */
export function srcsetUrls(srcset: string): string[] {
  const urls: string[] = [];
  let i = 0;
  while (i < srcset.length) {
    while (i < srcset.length && /[\s,]/.test(srcset[i] as string)) i++;
    let url = '';
    while (i < srcset.length && !/\s/.test(srcset[i] as string)) url += srcset[i++];
    const trailingCommas = /,+$/.exec(url);
    if (trailingCommas) url = url.slice(0, trailingCommas.index);
    else {
      // Skip the descriptors (e.g. "2x", "480w") up to the next comma outside parentheses.
      let depth = 0;
      while (i < srcset.length) {
        const char = srcset[i] as string;
        if (char === '(') depth++;
        else if (char === ')') depth = Math.max(0, depth - 1);
        else if (char === ',' && depth === 0) break;
        i++;
      }
    }
    if (url) urls.push(url);
  }
  return urls;
}

export interface RemoteContentOptions {
  /** The person allowed remote content for this message or its sender. */
  readonly allowRemote: boolean;
}

export interface RemoteContentResult {
  /** Remote references blocked (0 when allowed): what the "Show images" bar counts. */
  readonly blocked: number;
  /** Remote references found, blocked or allowed. */
  readonly remote: number;
}

/** Worst origin among several URLs: one remote candidate makes the whole list remote. */
function worstOrigin(urls: readonly string[]): UrlOrigin {
  const origins = urls.map(classifyUrl);
  if (origins.includes('unusable')) return 'unusable';
  if (origins.includes('remote')) return 'remote';
  return 'embedded';
}

export function blockRemoteContent(doc: Document, options: RemoteContentOptions): RemoteContentResult {
  let blocked = 0;
  let remote = 0;

  /** Handles one URL attribute: keeps it, drops it, or moves it aside and counts it. */
  const handle = (element: Element, name: string, urls: readonly string[], blockedAttr: string | null) => {
    const value = element.getAttribute(name);
    if (value === null) return;
    if (value.trim() === '') {
      element.removeAttribute(name); // an empty src would fetch the frame's own URL
      return;
    }
    const origin = worstOrigin(urls);
    if (origin === 'remote') remote++;
    if (origin === 'embedded' || (origin === 'remote' && options.allowRemote)) return;
    element.removeAttribute(name);
    if (origin === 'remote') {
      blocked++;
      if (blockedAttr) element.setAttribute(blockedAttr, value);
    }
  };

  for (const element of Array.from(doc.querySelectorAll('[src]'))) {
    const src = element.getAttribute('src') ?? '';
    handle(element, 'src', [src], element.localName === 'img' ? BLOCKED_SRC_ATTR : null);
  }
  for (const element of Array.from(doc.querySelectorAll('[srcset]'))) {
    const srcset = element.getAttribute('srcset') ?? '';
    handle(element, 'srcset', srcsetUrls(srcset), BLOCKED_SRCSET_ATTR);
  }
  for (const element of Array.from(doc.querySelectorAll('[poster]'))) {
    handle(element, 'poster', [element.getAttribute('poster') ?? ''], null);
  }
  for (const element of Array.from(doc.querySelectorAll('[background]'))) {
    handle(element, 'background', [element.getAttribute('background') ?? ''], BLOCKED_BACKGROUND_ATTR);
  }

  const decide = (ref: CssReference): string | null => {
    if (ref.kind === 'import') {
      // Remote stylesheets never load (the CSP has no style host); count them while blocking.
      if (!options.allowRemote && worstOrigin(ref.urls) === 'remote') blocked++;
      return '';
    }
    const urls = ref.urls.filter((url) => url.trim() !== '' && !url.trim().startsWith('#'));
    if (urls.length === 0) return null; // url(#gradient) or url(): nothing to fetch
    const origin = worstOrigin(urls);
    if (origin === 'remote') remote++;
    if (origin === 'embedded' || (origin === 'remote' && options.allowRemote)) return null;
    if (origin === 'remote') blocked++;
    return 'none';
  };

  for (const element of Array.from(doc.querySelectorAll('[style]'))) {
    const style = element.getAttribute('style') ?? '';
    const rewritten = rewriteCssReferences(style, decide);
    if (rewritten.replaced > 0) element.setAttribute('style', rewritten.css);
  }
  for (const style of Array.from(doc.querySelectorAll('style'))) {
    const rewritten = rewriteCssReferences(style.textContent ?? '', decide);
    if (rewritten.replaced > 0) style.textContent = rewritten.css;
  }
  return { blocked, remote };
}
