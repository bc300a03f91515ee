/**
 * Read receipts (issue 14 point 4; RFC 8098 message disposition notifications). One set of
 * rules for the gateway (which refuses) and the reading view (which shows the bar only when
 * a receipt may be sent):
 *
 *   POST /api/messages/:id/receipt { send } → { sent }: `send: true` sends the receipt
 *        (multipart/report; report-type=disposition-notification) through the account's SMTP
 *        server; either way the message gets `$MDNSent` (RFC 3503), so no other device asks
 *        again. ReceiptNotAllowed (detail.reason) for mail that may never be answered with one;
 *        ReceiptAddressInvalid when its Disposition-Notification-To is not an address.
 *
 * Asking for one is `requestReceipt` on a send (shared/api/compose.ts): the message carries
 * Disposition-Notification-To with the From address.
 */
import * as z from 'zod';

/** The keyword a message gets once its receipt was sent or declined. */
export const MDN_SENT_KEYWORD = '$MDNSent';

/** What the reader may do about receipts (Settings → Read receipts): there is no "always" (a forgery vector). */
export const RECEIPT_POLICIES = ['ask', 'never'] as const;
export type ReceiptPolicy = (typeof RECEIPT_POLICIES)[number];

export const receiptRequestSchema = z.object({ send: z.boolean() });
export const receiptResultSchema = z.object({ sent: z.boolean() });
export type ReceiptResult = z.infer<typeof receiptResultSchema>;

/** Why a message may not be answered with a receipt. */
export type ReceiptRefusal = 'automatic' | 'list' | 'folder' | 'already' | 'none';

/** The headers a decision reads, by lowercase name (MessageBody.headers). */
export type ReceiptHeaders = Readonly<Record<string, string | undefined>>;

/** The folders whose mail never answers (RFC 8098 §2.1: the person has not "displayed" it as received mail). */
const SILENT_FOLDERS = new Set(['sent', 'drafts', 'trash', 'junk']);

/** The single address in a Disposition-Notification-To ("Name <a@b>" or "a@b"), or null when it is not one address. */
export function receiptAddress(headers: ReceiptHeaders): string | null {
  const value = headers['disposition-notification-to']?.trim();
  if (!value) return null;
  const angle = /<([^<>\s]+)>\s*$/.exec(value);
  const address = (angle ? angle[1]! : value).trim();
  return /^[^\s@<>",;]+@[^\s@<>",;]+\.[^\s@<>",;]+$/.test(address) ? address.toLowerCase() : null;
}

/**
 * Why no receipt may be sent for this message, or null when one may (the person decides):
 * none asked for; already sent or declined ($MDNSent); automatic mail (Auto-Submitted other
 * than "no", RFC 3834); a list (List-Id, Precedence bulk/list/junk); a message in Sent,
 * Drafts, Trash or Spam.
 */
export function receiptRefusal(params: { readonly headers: ReceiptHeaders; readonly flags: readonly string[]; readonly folderRole: string | null }): ReceiptRefusal | null {
  const { headers } = params;
  if (!headers['disposition-notification-to']?.trim()) return 'none';
  if (params.flags.some((flag) => flag.toLowerCase() === MDN_SENT_KEYWORD.toLowerCase())) return 'already';
  if (params.folderRole && SILENT_FOLDERS.has(params.folderRole)) return 'folder';
  const autoSubmitted = headers['auto-submitted']?.trim().toLowerCase();
  if (autoSubmitted && !autoSubmitted.startsWith('no')) return 'automatic';
  if (headers['list-id']?.trim() || /^(bulk|list|junk)\b/i.test(headers.precedence?.trim() ?? '')) return 'list';
  return null;
}

/** Whether a message is a receipt (it carries a message/disposition-notification part): shown as a line, not as mail. */
export function isReceiptMessage(message: { readonly attachments: readonly { readonly contentType: string }[] }): boolean {
  return message.attachments.some((attachment) => attachment.contentType.toLowerCase() === 'message/disposition-notification');
}

/** Whether the receipt would go elsewhere than to the sender (the reader is warned: a way to learn who reads what). */
export function receiptGoesElsewhere(receipt: string, senderEmail: string | undefined): boolean {
  return !senderEmail || receipt.toLowerCase() !== senderEmail.trim().toLowerCase();
}
