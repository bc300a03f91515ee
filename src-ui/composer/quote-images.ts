/**
 * A quoted or forwarded original (or a draft another mail program saved) may show inline
 * images by `cid:`, a part of that message. In the composer such a reference names
 * nothing: the editor is the app's own page, whose CSP refuses `cid:` (a console error),
 * and the outgoing message does not carry those parts, so the recipient would get a broken
 * image too. Each such image becomes its alt text in brackets ("[Company logo]"), or goes
 * when it has none; `cid:` backgrounds, in attributes or CSS, go.
 */
import { rewriteCssReferences, type CssReference } from '../mail-html/css-references';
import { contentIdOf } from '../mail-html/cid-images';

const isCid = (url: string) => contentIdOf(url) !== null;

/** Whether a `srcset` names a `cid:` candidate ("cid:a 1x, cid:b 2x"). */
const srcsetHasCid = (srcset: string) => srcset.split(',').some((candidate) => isCid(candidate.trim().split(/\s+/)[0] ?? ''));

/** Replaces the `cid:` images of `doc` (see above); returns how many images went. */
export function replaceCidImages(doc: Document): number {
  let replaced = 0;
  for (const image of Array.from(doc.querySelectorAll('img'))) {
    if (!isCid(image.getAttribute('src') ?? '') && !srcsetHasCid(image.getAttribute('srcset') ?? '')) continue;
    const alt = (image.getAttribute('alt') ?? '').replace(/\s+/g, ' ').trim();
    if (alt) image.replaceWith(doc.createTextNode(`[${alt}]`));
    else image.remove();
    replaced++;
  }
  for (const element of Array.from(doc.querySelectorAll('[background]'))) {
    if (isCid(element.getAttribute('background') ?? '')) element.removeAttribute('background');
  }
  const decide = (ref: CssReference) => (ref.kind !== 'import' && ref.urls.some(isCid) ? 'none' : null);
  for (const element of Array.from(doc.querySelectorAll('[style]'))) {
    const rewritten = rewriteCssReferences(element.getAttribute('style') ?? '', decide);
    if (rewritten.replaced > 0) element.setAttribute('style', rewritten.css);
  }
  for (const style of Array.from(doc.querySelectorAll('style'))) {
    const rewritten = rewriteCssReferences(style.textContent ?? '', decide);
    if (rewritten.replaced > 0) style.textContent = rewritten.css;
  }
  return replaced;
}
