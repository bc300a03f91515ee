/**
 * Pipeline step: remote content. A remote image is a read receipt the sender did not
 * ask for (and a tracking pixel, and an IP leak), so everything that would be fetched
 * from the network stays blocked until the person allows it for this message or sender:
 * `<img src/srcset>`, `<source>`, media `src`/`poster`, `background=` attributes, and
 * `url()`/`image-set()`/`@import` in style attributes and `<style>` elements.
 *
 * Allowed, remote images still never load from the sender's server into the reader's
 * browser: each URL is replaced by the gateway's image proxy address for it (issue 19), so the
 * sender sees the gateway, never the reader's IP. A URL the gateway did not sign stays blocked.
 *
 * A blocked URL is kept in a `data-tern-blocked-*` attribute (sanitising dropped every
 * `data-*` the sender wrote, so these are ours) for the frame's placeholder styling.
 * The frame's CSP is the second wall: its img-src names the proxy's path and nothing remote.
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

/** One image candidate of a `srcset`: its URL and its descriptors (`2x`, `480w`), as written. */
interface SrcsetCandidate {
  readonly url: string;
  readonly descriptors: string;
}

/** URLs of a `srcset` value (HTML's candidate list: a URL, then descriptors up to a comma). */
export function srcsetUrls(srcset: string): string[] {
  return srcsetCandidates(srcset).map((candidate) => candidate.url);
}

function srcsetCandidates(srcset: string): SrcsetCandidate[] {
  const candidates: SrcsetCandidate[] = [];
  let i = 0;
  while (i < srcset.length) {
    while (i < srcset.length && /[\s,]/.test(srcset[i] as string)) i++;
    let url = '';
    while (i < srcset.length && !/\s/.test(srcset[i] as string)) url += srcset[i++];
    const trailingCommas = /,+$/.exec(url);
    const descriptorsFrom = i;
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
    if (url) candidates.push({ url, descriptors: srcset.slice(descriptorsFrom, i).trim() });
  }
  return candidates;
}

export interface RemoteContentOptions {
  /**
   * null: remote content is blocked. Else the person allowed it for this message or its
   * sender, and this maps each remote URL to the gateway address that loads it (a URL not
   * in it stays blocked).
   */
  readonly proxied: Readonly<Record<string, string>> | null;
}

export interface RemoteContentResult {
  /** Remote references blocked (0 when allowed): what the "Show images" bar counts. */
  readonly blocked: number;
  /** Remote references found, blocked or allowed. */
  readonly remote: number;
  /** Every remote URL found, once each, in document order: what the gateway is asked to sign. */
  readonly remoteUrls: readonly string[];
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
  const remoteUrls = new Set<string>();
  const { proxied } = options;
  /** The proxy address of a remote URL; undefined while blocked or when the gateway did not sign it. */
  const proxyOf = (url: string): string | undefined => (proxied && classifyUrl(url) === 'remote' ? proxied[url.trim()] : undefined);
  /** Notes the remote URLs of one reference; true when every one of them has a proxy address. */
  const allProxied = (urls: readonly string[]): boolean => {
    const remotes = urls.filter((url) => classifyUrl(url) === 'remote');
    for (const url of remotes) remoteUrls.add(url.trim());
    return remotes.every((url) => proxyOf(url) !== undefined);
  };

  /** Handles one URL attribute: keeps it, points it at the proxy, or moves it aside and counts it. */
  const handle = (element: Element, name: string, urls: readonly string[], blockedAttr: string | null, proxiedValue: () => string) => {
    const value = element.getAttribute(name);
    if (value === null) return;
    if (value.trim() === '') {
      element.removeAttribute(name); // an empty src would fetch the frame's own URL
      return;
    }
    const origin = worstOrigin(urls);
    if (origin === 'embedded') return;
    if (origin === 'remote') {
      remote++;
      if (allProxied(urls) && proxied) return void element.setAttribute(name, proxiedValue());
    }
    element.removeAttribute(name);
    if (origin === 'remote' && !proxied) {
      blocked++;
      if (blockedAttr) element.setAttribute(blockedAttr, value);
    }
  };
  const single = (value: string) => () => proxyOf(value) ?? value;

  for (const element of Array.from(doc.querySelectorAll('[src]'))) {
    const src = element.getAttribute('src') ?? '';
    handle(element, 'src', [src], element.localName === 'img' ? BLOCKED_SRC_ATTR : null, single(src));
  }
  for (const element of Array.from(doc.querySelectorAll('[srcset]'))) {
    const srcset = element.getAttribute('srcset') ?? '';
    const candidates = srcsetCandidates(srcset);
    const rewritten = () => candidates.map(({ url, descriptors }) => [proxyOf(url) ?? url, descriptors].filter(Boolean).join(' ')).join(', ');
    handle(element, 'srcset', candidates.map((candidate) => candidate.url), BLOCKED_SRCSET_ATTR, rewritten);
  }
  for (const element of Array.from(doc.querySelectorAll('[poster]'))) {
    const poster = element.getAttribute('poster') ?? '';
    handle(element, 'poster', [poster], null, single(poster));
  }
  for (const element of Array.from(doc.querySelectorAll('[background]'))) {
    const background = element.getAttribute('background') ?? '';
    handle(element, 'background', [background], BLOCKED_BACKGROUND_ATTR, single(background));
  }

  const decide = (ref: CssReference): string | null => {
    if (ref.kind === 'import') {
      // Remote stylesheets never load (the CSP has no style host); count them while blocking.
      if (!proxied && worstOrigin(ref.urls) === 'remote') blocked++;
      return '';
    }
    const urls = ref.urls.filter((url) => url.trim() !== '' && !url.trim().startsWith('#'));
    if (urls.length === 0) return null; // url(#gradient) or url(): nothing to fetch
    const origin = worstOrigin(urls);
    if (origin === 'embedded') return null;
    if (origin === 'remote') {
      remote++;
      // An image-set() becomes one url() of its first candidate: the proxy serves one image.
      if (allProxied(urls) && proxied) return `url("${proxyOf(urls.find((url) => classifyUrl(url) === 'remote')!)}")`;
      if (!proxied) blocked++;
    }
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
  return { blocked, remote, remoteUrls: [...remoteUrls] };
}
