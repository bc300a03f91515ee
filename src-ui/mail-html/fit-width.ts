/**
 * Pipeline step: let wide mail shrink to the reading pane. Newsletters are laid out for a
 * 600-700 px desktop column with fixed sizes; the base sheet caps images at the frame's
 * width (`max-width: 100%`), and this step keeps their shape when it does:
 *
 *   - an image with both `width` and `height` attributes gets `height: auto` and an
 *     explicit `aspect-ratio` from those attributes. Without it, a 640×240 banner capped
 *     to 466 px stays 240 px tall (squashed). The ratio comes from the attributes, not the
 *     picture: a 1×1 spacer stretched to 600×20 must stay a 20 px strip, not become a square.
 *     An image whose own inline style sets its height or ratio is left as the sender wrote it.
 *     A blocked remote image gets that shape as a transparent picture over the placeholder,
 *     a missing inline one as a box that can shrink too.
 *   - a long unbroken run of text (a tracking URL, 40 characters or more without a space)
 *     may break anywhere. In a table cell it would otherwise set the cell's smallest
 *     width, and the table's, past the pane. Only those runs: ordinary words in a data
 *     table keep wrapping at spaces, not mid-word.
 *
 * What still does not fit (fixed-width tables) is scaled down as a whole by the frame
 * (frame-fit.ts), after layout, where the pane's width is known.
 */

import { BLOCKED_SRC_ATTR } from './remote-content';

/** A dimension attribute as plain pixels ("600", "600px"), or null (percentages, junk). */
export function pixels(value: string | null): number | null {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(?:px)?\s*$/i.exec(value ?? '');
  const number = match ? Number(match[1]) : NaN;
  return Number.isFinite(number) && number > 0 ? number : null;
}

const SETS_HEIGHT = /(?:^|[;\s])(?:height|aspect-ratio)\s*:/i;

/** A 1×1 transparent GIF (also the picture of a missing cid: image, cid-images.ts). */
export const TRANSPARENT_PIXEL = 'data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7';

export function fitImagesToWidth(doc: Document): void {
  for (const image of Array.from(doc.querySelectorAll('img[width][height]'))) {
    const width = pixels(image.getAttribute('width'));
    const height = pixels(image.getAttribute('height'));
    if (width === null || height === null) continue;
    const style = image.getAttribute('style') ?? '';
    if (SETS_HEIGHT.test(style)) continue;
    const separator = style.trim() === '' || style.trim().endsWith(';') ? '' : ';';
    // A blocked remote image of known size shows as a transparent picture of that shape (the
    // base sheet draws the placeholder behind it): a picture can shrink in a table cell, and
    // Chrome draws no broken-image icon beside its alt text. Never a network request: data: only.
    if (image.hasAttribute(BLOCKED_SRC_ATTR) && !image.hasAttribute('src')) image.setAttribute('src', TRANSPARENT_PIXEL);
    // A missing inline image has no src: it is laid out as a box, not a picture, and a box
    // 600 px wide in a table cell would hold the whole table at 600 px. A width with a
    // percentage in it does not count towards the cell's smallest width; a picture's cap does.
    const box = image.hasAttribute('src') ? '' : `width:min(100%, ${width}px);`;
    image.setAttribute('style', `${style}${separator}${box}height:auto;aspect-ratio:${width} / ${height}`);
  }
}

/** A run of text this long without a space is a URL or a token, not a word. */
const LONG_RUN = /\S{40,}/g;

export function breakLongRuns(doc: Document): void {
  const walker = doc.createTreeWalker(doc.body, 4 /* NodeFilter.SHOW_TEXT */);
  const texts: Text[] = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node as Text;
    if (text.parentElement?.closest('style') || !/\S{40,}/.test(text.data)) continue;
    texts.push(text);
  }
  for (const text of texts) {
    const pieces: (string | Node)[] = [];
    let last = 0;
    for (const match of text.data.matchAll(LONG_RUN)) {
      if (match.index > last) pieces.push(text.data.slice(last, match.index));
      const run = doc.createElement('span');
      run.setAttribute('style', 'overflow-wrap:anywhere');
      run.textContent = match[0];
      pieces.push(run);
      last = match.index + match[0].length;
    }
    if (last < text.data.length) pieces.push(text.data.slice(last));
    text.replaceWith(...pieces);
  }
}
