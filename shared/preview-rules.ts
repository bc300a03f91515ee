/**
 * Which attachments open in the in-page viewer (spec §5 "Preview file types": images
 * but not tiff, mp4 and quicktime video, mp3 and mpeg audio, pdf; "Print": images
 * except tiff, and pdf). Decided by MIME type, with the extension as a fallback for
 * parts sent as application/octet-stream.
 */
import { extensionOf } from './api/compose';

export type PreviewKind = 'image' | 'video' | 'audio' | 'pdf';

/** The MIME type each preview kind is shown as: the viewer never trusts the sender's type beyond this list. */
const PREVIEW_TYPES: Readonly<Record<string, PreviewKind>> = {
  'image/png': 'image',
  'image/jpeg': 'image',
  'image/jpg': 'image',
  'image/pjpeg': 'image',
  'image/gif': 'image',
  'image/webp': 'image',
  'image/bmp': 'image',
  'image/avif': 'image',
  'image/svg+xml': 'image',
  'image/x-icon': 'image',
  'image/vnd.microsoft.icon': 'image',
  'video/mp4': 'video',
  'video/quicktime': 'video',
  'audio/mp3': 'audio',
  'audio/mpeg': 'audio',
  'application/pdf': 'pdf',
};

const EXTENSION_TYPES: Readonly<Record<string, string>> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  bmp: 'image/bmp',
  avif: 'image/avif',
  svg: 'image/svg+xml',
  ico: 'image/x-icon',
  mp4: 'video/mp4',
  m4v: 'video/mp4',
  mov: 'video/quicktime',
  mp3: 'audio/mpeg',
  mpga: 'audio/mpeg',
  pdf: 'application/pdf',
};

export interface PreviewFacts {
  readonly filename: string;
  readonly contentType: string;
}

/**
 * The MIME type to show an attachment as, or null when it has no preview. `image/tiff`
 * is left out on purpose (browsers other than Safari cannot draw it).
 */
export function previewType(attachment: PreviewFacts): string | null {
  const declared = attachment.contentType.split(';')[0]?.trim().toLowerCase() ?? '';
  if (Object.hasOwn(PREVIEW_TYPES, declared)) return declared === 'image/jpg' || declared === 'image/pjpeg' ? 'image/jpeg' : declared;
  if (declared === '' || declared === 'application/octet-stream' || declared === 'binary/octet-stream') {
    const ext = extensionOf(attachment.filename);
    return Object.hasOwn(EXTENSION_TYPES, ext) ? (EXTENSION_TYPES[ext] ?? null) : null;
  }
  return null;
}

/** How the viewer shows an attachment, or null when it only downloads. */
export function previewKind(attachment: PreviewFacts): PreviewKind | null {
  const type = previewType(attachment);
  return type === null ? null : (PREVIEW_TYPES[type] ?? null);
}

/** Print (spec §5): images except tiff, and pdf. */
export function canPrint(attachment: PreviewFacts): boolean {
  const kind = previewKind(attachment);
  return kind === 'image' || kind === 'pdf';
}
