/**
 * A message disposition notification (RFC 8098 §3): multipart/report with
 * report-type=disposition-notification — a sentence for people, then the machine-readable
 * message/disposition-notification part naming the original by its Message-ID. Built as raw
 * MIME (nodemailer's composer has no report type); every header value that comes from the
 * original is encoded (RFC 2047) or checked, so none can add a header line.
 */
import { randomBytes } from 'node:crypto';
import { crlfLineEnds } from '../smtp/line-ends';
import { newMessageIdHeader } from '../smtp/mime-builder';

export interface MdnParams {
  /** The reader: who sends the receipt. */
  readonly from: { readonly name: string; readonly email: string };
  /** The Disposition-Notification-To address. */
  readonly to: string;
  readonly original: { readonly messageIdHeader: string | null; readonly subject: string; readonly date: Date | null };
  readonly now: Date;
}

/** RFC 2047 for anything that is not plain printable ASCII; ASCII as it is, without line breaks. */
function encodeWord(text: string): string {
  const oneLine = text.replace(/[\r\n\t]+/g, ' ');
  return /^[\x20-\x7e]*$/.test(oneLine) ? oneLine : `=?UTF-8?B?${Buffer.from(oneLine, 'utf8').toString('base64')}?=`;
}

/** A Message-ID as the report may repeat it: `<…>` with no spaces or brackets inside, else none. */
const safeMessageId = (id: string | null) => (id && /^<[^<>\s]{1,250}>$/.test(id) ? id : null);

const mailbox = (who: { name: string; email: string }) => (who.name ? `${encodeWord(`"${who.name.replace(/["\\]/g, '')}"`)} <${who.email}>` : `<${who.email}>`);

/** The MDN's bytes (CRLF line ends) and its Message-ID. */
export function buildMdn(params: MdnParams): { raw: Buffer; messageIdHeader: string } {
  const boundary = `tern-mdn-${randomBytes(12).toString('hex')}`;
  const messageIdHeader = newMessageIdHeader(params.from.email);
  const originalId = safeMessageId(params.original.messageIdHeader);
  const sentOn = params.original.date ? params.original.date.toUTCString() : 'an unknown date';
  const human =
    `This is a read receipt for the message sent on ${sentOn} to ${params.from.email}` +
    `${params.original.subject ? ` with the subject "${params.original.subject.replace(/[\r\n]+/g, ' ')}"` : ''}.\n` +
    `It was displayed on ${params.now.toUTCString()}. This does not guarantee that the message was read or understood.\n`;
  const lines = [
    `From: ${mailbox(params.from)}`,
    `To: <${params.to}>`,
    `Subject: ${encodeWord(`Read: ${params.original.subject}`)}`,
    `Date: ${params.now.toUTCString().replace('GMT', '+0000')}`,
    `Message-ID: ${messageIdHeader}`,
    ...(originalId ? [`In-Reply-To: ${originalId}`, `References: ${originalId}`] : []),
    // Sent by a person's choice, but no answer should answer it (RFC 3834).
    'Auto-Submitted: auto-replied',
    'MIME-Version: 1.0',
    `Content-Type: multipart/report; report-type=disposition-notification; boundary="${boundary}"`,
    '',
    `--${boundary}`,
    'Content-Type: text/plain; charset=utf-8',
    'Content-Transfer-Encoding: base64',
    '',
    ...(Buffer.from(human, 'utf8').toString('base64').match(/.{1,76}/g) ?? []),
    '',
    `--${boundary}`,
    'Content-Type: message/disposition-notification',
    '',
    'Reporting-UA: Tern Mail',
    `Final-Recipient: rfc822;${params.from.email}`,
    ...(originalId ? [`Original-Message-ID: ${originalId}`] : []),
    'Disposition: manual-action/MDN-sent-manually; displayed',
    '',
    `--${boundary}--`,
    '',
  ];
  return { raw: crlfLineEnds(Buffer.from(lines.join('\n'), 'utf8')), messageIdHeader };
}

/** What a received report says (incoming receipts): who read what, when; null for anything else. */
export function readMdn(raw: string): { finalRecipient: string; originalMessageId: string | null; disposition: string } | null {
  if (!/report-type\s*=\s*"?disposition-notification/i.test(raw)) return null;
  const field = (name: string) => new RegExp(`^${name}:\\s*(.+)$`, 'im').exec(raw)?.[1]?.trim() ?? null;
  const finalRecipient = field('Final-Recipient')?.replace(/^rfc822\s*;\s*/i, '') ?? null;
  const disposition = field('Disposition');
  if (!finalRecipient || !disposition) return null;
  return { finalRecipient, originalMessageId: field('Original-Message-ID'), disposition };
}
