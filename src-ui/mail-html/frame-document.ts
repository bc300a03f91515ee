/**
 * Pipeline step: the frame's document. Adds, with DOM methods, what the frame needs
 * before the mail's own markup: a Content-Security-Policy (the second wall after the
 * sanitiser: no scripts, nothing remote unless allowed), a no-referrer policy (allowed
 * images must not learn which mail app the reader uses), and the base stylesheet. Then
 * serialises the tree once for `srcdoc`.
 */

import { PLAIN_COLOURS_CLASS } from './own-colours';

/** The class on the frame's body; the mail's styles are scoped to it (scope-styles.ts). */
export const MAIL_ROOT_CLASS = 'tern-mail-root';

/**
 * `imageProxy`: the gateway's image proxy path (`https://mail.example.com/api/proxy/image`)
 * when the person allowed remote images; the only non-embedded place images may come from.
 */
export function frameCsp(imageProxy: string | null): string {
  return [
    "default-src 'none'",
    `img-src data: blob:${imageProxy ? ` ${imageProxy}` : ''}`,
    "style-src 'unsafe-inline'",
    'font-src data:',
    "form-action 'none'",
    "base-uri 'none'",
  ].join('; ');
}

/** The CSP source of the proxy addresses (all share the gateway's origin and path), or null. */
export function imageProxySource(proxied: Readonly<Record<string, string>> | null): string | null {
  const first = proxied ? Object.values(proxied)[0] : undefined;
  if (!first || !URL.canParse(first)) return null;
  const url = new URL(first);
  return `${url.origin}${url.pathname}`;
}

/** Defaults for mail, in the frame; the mail's own (scoped) rules come later and win. */
export const FRAME_BASE_CSS = `
html { color-scheme: light; overflow-x: auto; overflow-y: hidden; }
html, body { margin: 0; padding: 0; }
body { font: 14px/1.5 system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif; color: #1f2328; background: #fff; overflow-wrap: break-word; }
body > :first-child { margin-top: 0; }
img { max-width: 100%; }
/* Media without a source left (remote, blocked; the CSP has no media-src anyway) would be an empty player. */
video:not([src]):not(:has(source[src])), audio:not([src]):not(:has(source[src])) { display: none; }
pre { white-space: pre-wrap; }
a { color: #0b57d0; }
blockquote[type=cite], .gmail_quote { margin: 0 0 0 .6em; padding-left: .8em; border-left: 2px solid #d0d7de; color: #57606a; }
img[data-tern-blocked-src], img[data-tern-missing-cid], img[data-tern-broken-src], img:not([src]) {
  display: inline-block; min-width: 18px; min-height: 18px; vertical-align: middle;
  background: #eef1f4 url("data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24' width='18' height='18' fill='none' stroke='%238b95a1' stroke-width='1.6'%3E%3Crect x='3' y='4' width='18' height='16' rx='2'/%3E%3Ccircle cx='9' cy='10' r='2'/%3E%3Cpath d='m4 18 5-5 4 4 3-3 4 4'/%3E%3C/svg%3E") center / 18px no-repeat;
  outline: 1px dashed #c3cad2; outline-offset: -1px; color: transparent;
}
/* The app's dark theme (MailFrame sets data-tern-theme on the root), for a mail with no colours
   of its own only (own-colours.ts): it reads in the app's colours instead of glaring white. */
html.tern-mail-plain[data-tern-theme=dark] { color-scheme: dark; }
html.tern-mail-plain[data-tern-theme=dark] body { color: #e7eaef; background: transparent; }
html.tern-mail-plain[data-tern-theme=dark] a { color: #8ab4f8; }
html.tern-mail-plain[data-tern-theme=dark] :is(blockquote[type=cite], .gmail_quote) { border-left-color: #4a5361; color: #aab4c1; }
html.tern-mail-plain[data-tern-theme=dark] :is(hr, table, td, th) { border-color: #363e4a; }
`;

/** Raw-text elements are serialised verbatim; text that could close one early would re-parse as markup. */
function dropUnsafeRawText(doc: Document): void {
  for (const style of Array.from(doc.querySelectorAll('style'))) {
    if (/<\/style/i.test(style.textContent ?? '')) style.remove();
  }
}

export interface FrameDocumentOptions {
  /** The image proxy's CSP source (imageProxySource) when remote images are allowed. */
  readonly imageProxy?: string | null;
  /** The mail sets no colours of its own: it may take the app's dark colours (own-colours.ts). */
  readonly plainColours?: boolean;
}

export function buildFrameDocument(doc: Document, options: FrameDocumentOptions): string {
  dropUnsafeRawText(doc);
  const head = doc.head;
  const csp = doc.createElement('meta');
  csp.setAttribute('http-equiv', 'Content-Security-Policy');
  csp.setAttribute('content', frameCsp(options.imageProxy ?? null));
  const referrer = doc.createElement('meta');
  referrer.setAttribute('name', 'referrer');
  referrer.setAttribute('content', 'no-referrer');
  const base = doc.createElement('style');
  base.textContent = FRAME_BASE_CSS;
  // The policy must come first: it only governs what is parsed after it.
  head.prepend(csp, referrer, base);
  // Mail styles from the body move to the head, after the base sheet, in their order.
  for (const style of Array.from(doc.body.querySelectorAll('style'))) head.append(style);
  doc.body.classList.add(MAIL_ROOT_CLASS);
  if (options.plainColours) doc.documentElement.classList.add(PLAIN_COLOURS_CLASS);
  return `<!DOCTYPE html>${doc.documentElement.outerHTML}`;
}
