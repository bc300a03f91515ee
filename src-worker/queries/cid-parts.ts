/**
 * Which parts of a message travel with its body as `cid:` images. The rule is "what the
 * HTML shows", not the attachment rule of spec §5: a 43-byte spacer GIF or a 300-byte logo
 * is below the 512-byte inline-image bound (and is not listed as an attachment), but the
 * HTML draws it, so the frame needs its bytes. Only size limits of the body itself apply
 * (a body is one message across the worker boundary).
 */
import type { AttachmentSummary } from '../../shared/api/mail';

/** One image larger than this stays out of the body (the frame shows the placeholder). */
export const MAX_EMBEDDED_IMAGE_BYTES = 2 * 1024 * 1024;
/** All of a body's embedded images together. */
export const MAX_EMBEDDED_TOTAL_BYTES = 8 * 1024 * 1024;

/** A Content-ID as compared: no surrounding angle brackets or spaces, lower case (senders and clients disagree on both). */
export function normalContentId(contentId: string): string {
  return contentId.trim().replace(/^<\s*/, '').replace(/\s*>$/, '').toLowerCase();
}

/** The content ids an HTML body names in `cid:` URLs (src, background, CSS url()), normalised. */
export function cidReferences(html: string): Set<string> {
  const found = new Set<string>();
  // A cid: URL runs to the closing quote, bracket or whitespace of the attribute or url() holding it.
  for (const match of html.matchAll(/cid:([^"'\s)>]+(?:>)?)/gi)) {
    // Markup may spell the brackets as entities: cid:&lt;logo@x&gt;
    let id = (match[1] ?? '').replace(/&lt;/gi, '<').replace(/&gt;/gi, '>').replace(/&amp;/gi, '&');
    try {
      id = decodeURIComponent(id);
    } catch {
      // a stray % stays as written
    }
    found.add(normalContentId(id));
  }
  return found;
}

/** Image types a frame may be handed (never SVG: it is a document, not a picture). */
const EMBEDDABLE_TYPE = /^image\/(?:png|gif|jpe?g|pjpeg|bmp|webp|x-icon|vnd\.microsoft\.icon|avif)$/i;
const EMBEDDABLE_EXTENSION = /\.(png|gif|jpe?g|bmp|webp|ico|avif)$/i;
const EXTENSION_TYPES: Readonly<Record<string, string>> = { jpg: 'jpeg', ico: 'x-icon' };

/**
 * The picture type a part is embedded as, or null when it is no picture a frame shows.
 * Some senders label every part application/octet-stream; the file name tells then.
 */
export function embeddedTypeOf(part: Pick<AttachmentSummary, 'contentType' | 'filename'>): string | null {
  const type = (part.contentType.split(';')[0] ?? '').trim().toLowerCase();
  if (EMBEDDABLE_TYPE.test(type)) return type;
  if (type !== 'application/octet-stream' && type !== '') return null;
  const extension = EMBEDDABLE_EXTENSION.exec(part.filename)?.[1]?.toLowerCase();
  if (!extension) return null;
  return `image/${EXTENSION_TYPES[extension] ?? extension}`;
}

/**
 * The parts to embed for `html`: images with a Content-ID the HTML references, whatever
 * their size down to 0 bytes, in MIME order until the body's budget is spent. A part the
 * HTML does not name (a photo a phone marked inline) is not fetched.
 */
export function partsToEmbed(parts: readonly AttachmentSummary[], html: string | null): AttachmentSummary[] {
  if (!html) return [];
  const referenced = cidReferences(html);
  if (referenced.size === 0) return [];
  let budget = MAX_EMBEDDED_TOTAL_BYTES;
  const chosen: AttachmentSummary[] = [];
  const seen = new Set<string>();
  for (const part of parts) {
    if (part.contentId === null) continue;
    const id = normalContentId(part.contentId);
    if (!referenced.has(id) || seen.has(id) || embeddedTypeOf(part) === null) continue;
    if (part.size > MAX_EMBEDDED_IMAGE_BYTES || part.size > budget) continue;
    seen.add(id);
    budget -= part.size;
    chosen.push(part);
  }
  return chosen;
}
