/** What the attachment list shows for a message's parts (spec §5 paperclip and preview rules). */
import type { AttachmentSummary } from '../../shared/api/mail';
import { withoutBidiControls } from '../../shared/bidi-controls';
import { showsPaperclip } from '../../shared/attachment-rules';
import { formatFileSize } from '../../shared/file-size';
import type { Locale } from '../../shared/preferences';
import { format } from '../../shared/strings';
import { previewKind, previewType, type PreviewKind } from '../../shared/preview-rules';

/**
 * The parts listed under a message: those that earn the paperclip (no contentId, or over
 * 12 KB). Small inline parts (logos, spacers) are shown in the body, not listed.
 */
export function listedAttachments(attachments: readonly AttachmentSummary[]): AttachmentSummary[] {
  return attachments.filter(showsPaperclip);
}

export interface AttachmentFacts {
  readonly attachment: AttachmentSummary;
  /** The sender's file name without bidi controls: shown, spoken and saved as stored (shared/bidi-controls.ts). */
  readonly name: string;
  readonly sizeLabel: string;
  /** How the viewer shows it, null when it only downloads. */
  readonly preview: PreviewKind | null;
  /** The MIME type the viewer uses (ours, from the allow-list, never the sender's as-is). */
  readonly previewType: string | null;
  /** Upper-case extension shown on the file tile, e.g. "PDF". */
  readonly badge: string;
}

export function attachmentFacts(attachment: AttachmentSummary, locale: Locale = 'en'): AttachmentFacts {
  const name = withoutBidiControls(attachment.filename).trim() || format(locale, 'attachments.untitled');
  const dot = name.lastIndexOf('.');
  return {
    attachment,
    name,
    sizeLabel: formatFileSize(attachment.size, locale),
    preview: previewKind(attachment),
    previewType: previewType(attachment),
    badge: dot > 0 && name.length - dot <= 6 ? name.slice(dot + 1).toUpperCase() : 'FILE',
  };
}

/** Total size of listed parts, for the "3 attachments · 4.2 MB" line. */
export function attachmentsSummary(attachments: readonly AttachmentSummary[], locale: Locale = 'en'): string {
  const count = attachments.length;
  const total = attachments.reduce((sum, attachment) => sum + attachment.size, 0);
  return `${format(locale, 'attachments.count', { count })} · ${formatFileSize(total, locale)}`;
}
