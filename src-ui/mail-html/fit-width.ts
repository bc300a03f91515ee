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
 *
 * What still does not fit (fixed-width tables) is scaled down as a whole by the frame
 * (frame-fit.ts), after layout, where the pane's width is known.
 */

/** A dimension attribute as plain pixels ("600", "600px"), or null (percentages, junk). */
function pixels(value: string | null): number | null {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(?:px)?\s*$/i.exec(value ?? '');
  const number = match ? Number(match[1]) : NaN;
  return Number.isFinite(number) && number > 0 ? number : null;
}

const SETS_HEIGHT = /(?:^|[;\s])(?:height|aspect-ratio)\s*:/i;

export function fitImagesToWidth(doc: Document): void {
  for (const image of Array.from(doc.querySelectorAll('img[width][height]'))) {
    const width = pixels(image.getAttribute('width'));
    const height = pixels(image.getAttribute('height'));
    if (width === null || height === null) continue;
    const style = image.getAttribute('style') ?? '';
    if (SETS_HEIGHT.test(style)) continue;
    const separator = style.trim() === '' || style.trim().endsWith(';') ? '' : ';';
    image.setAttribute('style', `${style}${separator}height:auto;aspect-ratio:${width} / ${height}`);
  }
}
