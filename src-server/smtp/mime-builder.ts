import { randomUUID } from 'node:crypto';
import MailComposer from 'nodemailer/lib/mail-composer';
import type { Recipient } from '../../shared/api/compose';
import { crlfLineEnds } from './line-ends';

export interface OutgoingAttachment {
  readonly filename: string;
  readonly contentType: string;
  readonly content: Buffer;
}

/** Everything a message is made of; headers come from these fields, never from raw header text. */
export interface OutgoingMessage {
  readonly from: Recipient;
  /** Where replies should go (the identity's Reply-To), or null. */
  readonly replyTo?: Recipient | null;
  readonly to: readonly Recipient[];
  readonly cc: readonly Recipient[];
  readonly bcc: readonly Recipient[];
  readonly subject: string;
  readonly html: string | null;
  readonly text: string | null;
  readonly inReplyTo: string | null;
  readonly references: readonly string[];
  readonly attachments: readonly OutgoingAttachment[];
  /** Fixed before the first attempt: the same id for every retry, and how Sent is searched. */
  readonly messageIdHeader: string;
  readonly date: Date;
  /** A read receipt is asked for, to this address (RFC 8098 §2.1). */
  readonly dispositionNotificationTo?: string;
}

/** `<uuid@domain-of-the-sender>`: unique, and says whose it is. */
export function newMessageIdHeader(senderEmail: string): string {
  const domain = senderEmail.slice(senderEmail.lastIndexOf('@') + 1) || 'tern.invalid';
  return `<${randomUUID()}@${domain}>`;
}

const address = (recipient: Recipient) => ({ name: recipient.name, address: recipient.email });

/**
 * Raw MIME (RFC 5322) with nodemailer's MailComposer. `keepBcc` keeps the Bcc header: for
 * the Drafts and Sent copies only; what SMTP carries never shows it. File and URL access
 * are off, so no value can make the composer read a local file or fetch a URL.
 * MailComposer copies the line ends of the text and HTML as they come (a textarea's LF,
 * a pasted CR), so the result is brought to CRLF: Cyrus refuses bare line ends.
 */
export async function buildMime(message: OutgoingMessage, options: { keepBcc: boolean }): Promise<Buffer> {
  const composer = new MailComposer({
    from: address(message.from),
    ...(message.replyTo ? { replyTo: address(message.replyTo) } : {}),
    to: message.to.map(address),
    cc: message.cc.map(address),
    bcc: message.bcc.map(address),
    subject: message.subject,
    ...(message.html !== null ? { html: message.html } : {}),
    ...(message.text !== null || message.html === null ? { text: message.text ?? '' } : {}),
    ...(message.inReplyTo ? { inReplyTo: message.inReplyTo } : {}),
    ...(message.references.length > 0 ? { references: [...message.references] } : {}),
    attachments: message.attachments.map((attachment) => ({ filename: attachment.filename, contentType: attachment.contentType, content: attachment.content })),
    messageId: message.messageIdHeader,
    date: message.date,
    ...(message.dispositionNotificationTo ? { headers: { 'Disposition-Notification-To': `<${message.dispositionNotificationTo}>` } } : {}),
    disableFileAccess: true,
    disableUrlAccess: true,
  });
  const node = composer.compile();
  node.keepBcc = options.keepBcc;
  return crlfLineEnds(await node.build());
}
