/**
 * Step 1 of the pipeline: hostile HTML in, a sanitised, inert Document out.
 *
 * DOMPurify parses with DOMParser, so the Document it returns has no browsing context:
 * nothing in it loads (no image requests, no style fetches) while the next steps edit
 * it. Every later step works on this tree with DOM methods; none edits HTML text
 * (Roundcube CVE-2024-42009 came from string edits after sanitising).
 */
import type { DOMPurify } from 'dompurify';
import { MAIL_PURIFY_CONFIG, mailPurifier } from './purify-config';

export function sanitizeMailHtml(html: string, purifier: DOMPurify = mailPurifier()): Document {
  const root = purifier.sanitize(html, { ...MAIL_PURIFY_CONFIG, WHOLE_DOCUMENT: true, RETURN_DOM: true });
  const doc = root.ownerDocument;
  if (!doc) throw new Error('DOMPurify returned a node outside any document.');
  // A document always gets a head and a body from the parser; guard anyway so later steps can rely on them.
  if (!doc.head) doc.documentElement.prepend(doc.createElement('head'));
  if (!doc.body) doc.documentElement.append(doc.createElement('body'));
  return doc;
}
