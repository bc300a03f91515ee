/**
 * In the frame, after the fact: an allowed remote image that fails to load (its server
 * gone, an http-only host the frame upgrades to https, an address that no longer exists)
 * becomes the placeholder a blocked image shows, at the shape its attributes give.
 *
 * Why: Chrome lays a broken image out as a box holding its alt text, not as a picture, and
 * such a box at its `width` attribute (a 560 px banner) cannot shrink in a table cell the
 * way a picture capped at `max-width: 100%` does. One broken banner held a fluid newsletter
 * at 592 px in a 456 px pane, so the mail was cut off, or (fitted) zoomed out to 11 px
 * text. As a transparent `data:` picture it is a picture again and shrinks with the pane;
 * the base sheet draws the placeholder behind it (frame-document.ts). `data:` only: never
 * a second request. The alt text stays on the element for screen readers.
 */
import { pixels, TRANSPARENT_PIXEL } from './fit-width';

/** Marks an image this module replaced; holds the address that failed. */
export const BROKEN_SRC_ATTR = 'data-tern-broken-src';

const SETS_SIZE = /(?:^|[;\s])(?:width|height|aspect-ratio)\s*:/i;

/** Smallest placeholder side (the base sheet's min-width/min-height). */
const PLACEHOLDER_SIDE = 18;

/**
 * Replaces a failed image by the placeholder; returns true if it did. Images already
 * replaced and images of our own (`data:`/`blob:`) are left alone, so the transparent
 * picture failing (it cannot) could never loop.
 */
export function replaceBrokenImage(target: EventTarget | null): boolean {
  const image = target as Element | null;
  if (!image || image.localName !== 'img' || image.hasAttribute(BROKEN_SRC_ATTR)) return false;
  const src = image.getAttribute('src') ?? '';
  if (/^\s*(?:data|blob):/i.test(src)) return false;
  image.setAttribute(BROKEN_SRC_ATTR, src);
  // A srcset (or a <picture>'s sources) would be chosen over the new src.
  image.removeAttribute('srcset');
  if (image.parentElement?.localName === 'picture') {
    for (const source of Array.from(image.parentElement.querySelectorAll('source'))) source.remove();
  }
  // Both attributes: fit-width.ts already gave the image their shape (height:auto and an
  // aspect-ratio). Otherwise a 1×1 picture would take a square of its one known side.
  const style = image.getAttribute('style') ?? '';
  const width = pixels(image.getAttribute('width'));
  const height = pixels(image.getAttribute('height'));
  if ((width === null || height === null) && !SETS_SIZE.test(style)) {
    const separator = style.trim() === '' || style.trim().endsWith(';') ? '' : ';';
    image.setAttribute('style', `${style}${separator}width:${width ?? PLACEHOLDER_SIDE}px;height:${height ?? PLACEHOLDER_SIDE}px`);
  }
  image.setAttribute('src', TRANSPARENT_PIXEL);
  return true;
}
