/**
 * Pipeline step: links. Every web link opens in a new tab without handing the mail
 * frame to the page it opens (`noopener`) and without telling it where it came from
 * (`noreferrer`). Its real address becomes the tooltip, so "yourbank.com" written over
 * a link to somewhere else shows where it really goes.
 *
 * Links to a place inside the message (`#section`) stay in the frame. Links the frame
 * could not follow (relative paths: a mail has no base; other schemes) lose their href
 * and read as plain text.
 */

export const LINK_REL = 'noopener noreferrer';

export type LinkKind = 'web' | 'mailto' | 'tel' | 'fragment' | 'unusable';

export function linkKind(href: string): LinkKind {
  const url = href.replace(/[\u0000-\u0020\u007f]+/g, '');
  if (/^https?:\/\//i.test(url)) return 'web';
  if (/^mailto:/i.test(url)) return 'mailto';
  if (/^tel:/i.test(url)) return 'tel';
  if (url.startsWith('#') && url.length > 1) return 'fragment';
  return 'unusable';
}

export function rewriteLinks(doc: Document): void {
  for (const link of Array.from(doc.querySelectorAll('a, area'))) {
    const href = link.getAttribute('href');
    link.removeAttribute('target');
    if (href === null) continue;
    const kind = linkKind(href);
    if (kind === 'unusable') {
      link.removeAttribute('href');
      link.removeAttribute('rel');
      continue;
    }
    if (kind === 'fragment') {
      link.removeAttribute('rel');
      continue;
    }
    link.setAttribute('target', '_blank');
    link.setAttribute('rel', LINK_REL);
    link.setAttribute('title', kind === 'web' ? href.trim() : href.trim().replace(/^(mailto|tel):/i, ''));
  }
}
