import type { MessageStructureObject } from 'imapflow';
import type { StoredAttachment } from '../mirror/attachments';
import { decodeBase64, decodeQuotedPrintable } from '../mirror/mime-decode';

/**
 * Exact decoded sizes of a message's attachments without downloading them. BODYSTRUCTURE
 * gives each part's encoded size, from which the mirror only estimates the decoded one;
 * a reader opening the message should see the real size (as it did when the body was
 * parsed from the whole message). BINARY.SIZE (RFC 3516) would say it, but Dovecot's
 * answer is wrong for small base64 parts (753 for a 1,200-byte file, or a 64-bit
 * underflow), so the size is worked out from the encoded bytes instead:
 *
 * - base64: every line but the last has the length of the first (as every encoder writes
 *   it), so the first line, the last line and its padding — a few bytes from each end of
 *   the part — give the number of base64 characters, hence the bytes;
 * - quoted-printable, up to QP_WHOLE_MAX bytes: the part itself, decoded;
 * - 7bit, 8bit, binary (an attached message too): the encoded size is the size.
 * Anything else keeps the estimate.
 */

/** Bytes read from each end of a base64 part: a line (76 characters, 72 for some encoders) and its break, with room. */
export const SAMPLE_BYTES = 160;
/** Quoted-printable parts up to this size are fetched to be measured; larger ones keep the estimate. */
export const QP_WHOLE_MAX = 64 * 1024;

/** What must be fetched to measure one attachment. */
export type SizeProbe =
  | { readonly kind: 'exact'; readonly size: number }
  | { readonly kind: 'base64'; readonly part: string; readonly encodedSize: number }
  | { readonly kind: 'qp'; readonly part: string }
  | { readonly kind: 'estimate' };

/** How attachment `stored` can be measured, given the BODYSTRUCTURE node of its part. */
export function probeFor(stored: StoredAttachment, node: MessageStructureObject | undefined): SizeProbe {
  if (!node || node.size === undefined) return { kind: 'estimate' };
  const encoding = (node.encoding ?? '7bit').toLowerCase();
  if (encoding === 'base64') return { kind: 'base64', part: stored.part, encodedSize: node.size };
  if (encoding === 'quoted-printable') return node.size <= QP_WHOLE_MAX ? { kind: 'qp', part: stored.part } : { kind: 'estimate' };
  if (encoding === '7bit' || encoding === '8bit' || encoding === 'binary') return { kind: 'exact', size: node.size };
  return { kind: 'estimate' };
}

const isSpace = (byte: number | undefined) => byte === 0x0d || byte === 0x0a || byte === 0x20 || byte === 0x09;

/**
 * Decoded bytes of a base64 part of `encodedSize` bytes from its first and last bytes
 * (`head`, `tail`; the same bytes when the part is that short); null when the lines are
 * not regular enough to tell.
 */
export function base64DecodedSize(encodedSize: number, head: Buffer, tail: Buffer): number | null {
  if (encodedSize <= head.length) return decodeBase64(head).length;
  let end = tail.length;
  while (end > 0 && isSpace(tail[end - 1])) end--;
  const trailing = tail.length - end;
  if (end === 0) return null;
  let padding = 0;
  while (padding < 2 && tail[end - 1 - padding] === 0x3d /* = */) padding++;
  const lastBreak = tail.lastIndexOf(0x0a, end - 1);
  const firstBreak = head.indexOf(0x0a);
  let characters: number;
  if (firstBreak === -1) {
    // One line longer than the sample: the whole part, without its trailing line break.
    if (lastBreak !== -1) return null;
    characters = encodedSize - trailing;
  } else {
    if (lastBreak === -1) return null;
    const lineBreak = head[firstBreak - 1] === 0x0d ? 2 : 1;
    const lineLength = firstBreak + 1 - lineBreak;
    const lastLine = end - lastBreak - 1;
    const fullLines = (encodedSize - trailing - lastLine) / (lineLength + lineBreak);
    if (lineLength <= 0 || lastLine <= 0 || lastLine > lineLength || !Number.isInteger(fullLines)) return null;
    characters = fullLines * lineLength + lastLine;
  }
  if (characters % 4 !== 0) return null;
  return (characters / 4) * 3 - padding;
}

/** Decoded bytes of a quoted-printable part fetched whole. */
export function quotedPrintableSize(bytes: Buffer): number {
  return decodeQuotedPrintable(bytes).length;
}
