/**
 * A body bounded for the first showing (issue point 14): a 20 MB HTML mail would freeze
 * the reader's tab for seconds (sanitising, then the frame's layout), and a 20 MB text
 * (a log, or the plain alternative of that HTML) would cost as much to send, store and
 * linkify; so the body route sends the first MAX_SHOWN_HTML_CHARS of each and says how
 * large the whole is; the reader asks for the whole on demand.
 */
import { MAX_SHOWN_HTML_CHARS, type MessageBody } from '../../shared/api/mail';

/**
 * The body with its HTML cut after the last complete tag before `limit` characters (a
 * half tag or attribute would only be dropped by the parser) and its text after the last
 * whole line, or as it is when both fit.
 */
export function boundBody(body: MessageBody, limit = MAX_SHOWN_HTML_CHARS): MessageBody {
  const { html, text } = body;
  const cutHtml = html !== null && html.length > limit;
  const cutText = text !== null && text.length > limit;
  if (!cutHtml && !cutText) return body;
  return {
    ...body,
    // HTML after its last whole tag; text after its last whole line.
    html: cutHtml ? cutAfter(html, '>', limit) : html,
    text: cutText ? cutAfter(text, '\n', limit) : text,
    truncated: {
      ...(cutHtml ? { htmlBytes: Buffer.byteLength(html, 'utf8') } : {}),
      ...(cutText ? { textBytes: Buffer.byteLength(text, 'utf8') } : {}),
    },
  };
}

/** The first `limit` characters of `value`, ended after the last `boundary` in them (if it is in their second half). */
function cutAfter(value: string, boundary: string, limit: number): string {
  const last = value.lastIndexOf(boundary, limit - 1);
  // A run with no boundary for half the limit is cut where it stands.
  let end = last > limit / 2 ? last + 1 : limit;
  // Never between the two halves of a surrogate pair.
  if (/[\uD800-\uDBFF]/.test(value[end - 1] ?? '')) end--;
  return value.slice(0, end);
}
