/**
 * A body's HTML bounded for the first showing (issue point 14): a 20 MB HTML mail would
 * freeze the reader's tab for seconds (sanitising, then the frame's layout), so the body
 * route sends the first MAX_SHOWN_HTML_CHARS and says how large the whole is; the reader
 * asks for the whole on demand.
 */
import { MAX_SHOWN_HTML_CHARS, type MessageBody } from '../../shared/api/mail';

/**
 * The body with its HTML cut after the last complete tag before `limit` characters (a
 * half tag or attribute would only be dropped by the parser), or as it is when it fits.
 */
export function boundBody(body: MessageBody, limit = MAX_SHOWN_HTML_CHARS): MessageBody {
  const { html } = body;
  if (html === null || html.length <= limit) return body;
  const lastTagEnd = html.lastIndexOf('>', limit - 1);
  // A run of text with no tag for a whole megabyte is cut where it stands.
  let end = lastTagEnd > limit / 2 ? lastTagEnd + 1 : limit;
  // Never between the two halves of a surrogate pair.
  if (/[\uD800-\uDBFF]/.test(html[end - 1] ?? '')) end--;
  return { ...body, html: html.slice(0, end), truncated: { htmlBytes: Buffer.byteLength(html, 'utf8') } };
}
