import type { MessageStructureObject } from 'imapflow';
import type { AttachmentSummary } from '../../shared/api/mail';
import { chooseBody, type MimeNodeView } from './body-choice';

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

/** A BODYSTRUCTURE node as body-choice.ts reads it; an attached message is a leaf. */
export function structureView(node: MessageStructureObject): MimeNodeView<MessageStructureObject> {
  return {
    type: node.type.toLowerCase(),
    disposition: node.disposition?.toLowerCase(),
    children: node.type.toLowerCase() === 'message/rfc822' ? [] : (node.childNodes ?? []),
  };
}

/**
 * Whether a leaf that is not the body is an attachment. Plain and HTML text outside the
 * body (inline text after the body of a multipart/mixed, RFC 2183) is one; an alternative
 * the body did not pick is not shown at all.
 */
function isAttachment(node: MessageStructureObject, inAlternative: boolean): boolean {
  const type = node.type.toLowerCase();
  if (node.disposition?.toLowerCase() === 'attachment') return true;
  if (filenameOf(node)) return true;
  if (type === 'message/rfc822') return true;
  if (type === 'text/plain' || type === 'text/html') return !inAlternative;
  // Inline images and other non-text leaves (cid: images of an HTML body) are attachments too.
  return !type.startsWith('text/') && !type.startsWith('multipart/');
}

function extensionFor(contentType: string): string {
  const sub = contentType.split('/')[1] ?? 'bin';
  return sub === 'rfc822' ? 'eml' : sub.replace(/[^a-z0-9]/gi, '').slice(0, 8) || 'bin';
}

/** Attachments found in a BODYSTRUCTURE, in MIME order, without descending into attached messages. */
export function attachmentsOf(structure: MessageStructureObject | undefined): StoredAttachment[] {
  const found: StoredAttachment[] = [];
  const body = structure ? chooseBody(structure, structureView) : null;
  const walk = (node: MessageStructureObject, inAlternative: boolean): void => {
    if (node.childNodes && node.type !== 'message/rfc822') {
      const alternative = inAlternative || node.type.toLowerCase() === 'multipart/alternative';
      for (const child of node.childNodes) walk(child, alternative);
      return;
    }
    if (node === body?.text || node === body?.html || !isAttachment(node, inAlternative)) return;
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
  if (structure) walk(structure, false);
  return found;
}
