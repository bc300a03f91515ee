/**
 * Headers of every file the gateway hands out from a message (attachments, the original
 * source). Mail content is hostile (DESIGN §5): it downloads as a file, is never sniffed
 * into something executable, and a browser that opens it anyway renders it sandboxed
 * with nothing allowed.
 */

/** Characters a file name never keeps: spec §5's illegal file-name characters, controls, and bidi overrides that disguise extensions. */
const UNSAFE_FILENAME = /[\\/:|?*<>"#\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
const MAX_FILENAME_CHARS = 180;

/** A file name fit for a download: unsafe characters replaced, no leading dots, bounded, never empty. */
export function safeFilename(name: string, fallback = 'attachment'): string {
  let clean = name.normalize('NFC').replace(UNSAFE_FILENAME, '_').trim().replace(/^\.+/, '');
  const chars = [...clean];
  if (chars.length > MAX_FILENAME_CHARS) {
    // Keep the extension: it is what the person's system opens the file with.
    const dot = clean.lastIndexOf('.');
    const extension = dot > 0 && clean.length - dot <= 10 ? clean.slice(dot) : '';
    clean = chars.slice(0, MAX_FILENAME_CHARS - [...extension].length).join('') + extension;
  }
  return clean || fallback;
}

/** RFC 8187 `attr-char`: everything else is percent-encoded (encodeURIComponent leaves ' ( ) * unescaped, which the RFC does not allow). */
function encodeRfc8187(value: string): string {
  return [...Buffer.from(value, 'utf8')]
    .map((byte) => {
      const char = String.fromCharCode(byte);
      return /[A-Za-z0-9!#$&+\-.^_`|~]/.test(char) ? char : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
    })
    .join('');
}

/**
 * `attachment; filename="<ASCII fallback>"; filename*=UTF-8''<percent-encoded>` (RFC 6266):
 * current browsers use the UTF-8 form, the quoted one is for the rest. Neither can break
 * out of the header: quotes, backslashes and controls never survive `safeFilename`.
 */
export function contentDisposition(filename: string): string {
  const safe = safeFilename(filename);
  const ascii = safe.replace(/[^\x20-\x7e]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeRfc8187(safe)}`;
}

/** A MIME type as a header may carry it (`type/subtype`, lowercase, no parameters), else octet-stream. */
export function safeContentType(contentType: string | undefined): string {
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  return /^[a-z0-9][a-z0-9!#$&^_.+-]{0,63}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}$/.test(type) ? type : 'application/octet-stream';
}

/** The safety headers of a download (with its Content-Type and Content-Disposition). */
export function downloadHeaders(params: { filename: string; contentType: string | undefined; size: number }): Record<string, string> {
  return {
    'Content-Type': safeContentType(params.contentType),
    'Content-Disposition': contentDisposition(params.filename),
    'Content-Length': String(params.size),
    'X-Content-Type-Options': 'nosniff',
    'Content-Security-Policy': "default-src 'none'; sandbox",
    'Cache-Control': 'private',
    'Referrer-Policy': 'no-referrer',
  };
}

/**
 * The policy of a preview (issue point 12): `sandbox` gives the document an opaque origin
 * with no script, so an SVG opened in a new tab cannot reach the app's storage; nothing
 * loads but the file itself (an image document's own inline style, a media element's
 * source). Chromium's PDF viewer still renders under it (checked with Debian's Chromium).
 */
export const PREVIEW_CSP = "sandbox; default-src 'none'; img-src 'self' data:; media-src 'self'; style-src 'unsafe-inline'";

/** Headers of a preview: shown inline, as a type from the preview allow-list only (shared/preview-rules.ts). */
export function previewHeaders(params: { filename: string; previewType: string; size: number }): Record<string, string> {
  return {
    ...downloadHeaders({ filename: params.filename, contentType: params.previewType, size: params.size }),
    'Content-Disposition': contentDisposition(params.filename).replace(/^attachment;/, 'inline;'),
    'Content-Security-Policy': PREVIEW_CSP,
    // No Cross-Origin-Resource-Policy: the app may sit on another origin than the account's
    // API base (spec §3 clusterApi), and its <img> must still load; the link is the key.
    // Private: its link is the only key, so no shared cache keeps it (the link's 5 minutes).
    'Cache-Control': 'private, max-age=300',
  };
}
