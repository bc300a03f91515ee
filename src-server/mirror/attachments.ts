import type { MessageStructureObject } from 'imapflow';
import type { AttachmentSummary } from '../../shared/api/mail';

/**
 * An attachment as the mirror stores it: the shared summary plus where it lives in the
 * message, so a download route can fetch `BODY[part]` and decode it without re-reading
 * the structure.
 */
export interface StoredAttachment extends AttachmentSummary {
  /** IMAP section of the part, e.g. "2" or "1.2". */
  readonly part: string;
  /** Content-Transfer-Encoding of the part ("base64", "quoted-printable", …). */
  readonly encoding: string;
}

function filenameOf(node: MessageStructureObject): string | undefined {
  return node.dispositionParameters?.filename ?? node.parameters?.name;
}

/** Decoded size from the encoded one: base64 carries 57 bytes per 78-byte line. */
function decodedSize(node: MessageStructureObject): number {
  const size = node.size ?? 0;
  return node.encoding?.toLowerCase() === 'base64' ? Math.floor((size * 57) / 78) : size;
}

function isAttachment(node: MessageStructureObject): boolean {
  if (node.disposition?.toLowerCase() === 'attachment') return true;
  if (filenameOf(node)) return true;
  if (node.type === 'message/rfc822') return true;
  // Inline images and other non-text leaves (cid: images of an HTML body) are attachments too;
  // plain and HTML text without a name are the body itself.
  return !node.type.startsWith('text/') && !node.type.startsWith('multipart/');
}

function extensionFor(contentType: string): string {
  const sub = contentType.split('/')[1] ?? 'bin';
  return sub === 'rfc822' ? 'eml' : sub.replace(/[^a-z0-9]/gi, '').slice(0, 8) || 'bin';
}

/** Attachments found in a BODYSTRUCTURE, in MIME order, without descending into attached messages. */
export function attachmentsOf(structure: MessageStructureObject | undefined): StoredAttachment[] {
  const found: StoredAttachment[] = [];
  const walk = (node: MessageStructureObject): void => {
    if (node.childNodes && node.type !== 'message/rfc822') {
      for (const child of node.childNodes) walk(child);
      return;
    }
    if (!isAttachment(node)) return;
    const index = found.length;
    const attachedSubject = node.type === 'message/rfc822' ? node.envelope?.subject : undefined;
    found.push({
      index,
      filename: filenameOf(node) ?? (attachedSubject ? `${attachedSubject}.eml` : `attachment-${index + 1}.${extensionFor(node.type)}`),
      size: decodedSize(node),
      contentType: node.type,
      contentId: node.id ? node.id.replace(/^<|>$/g, '') : null,
      part: node.part ?? '1',
      encoding: (node.encoding ?? '7bit').toLowerCase(),
    });
  };
  if (structure) walk(structure);
  return found;
}
