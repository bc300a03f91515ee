/**
 * A body's read-receipt request as of now (issue 14 point 4; shared/read-receipts.ts): the
 * request's header fields are kept with the body (MessageBody `receipt_headers`), while
 * whether it may still be answered reads the message as it is now — its keywords ($MDNSent
 * comes from any device through sync) and its folder's role.
 */
import { receiptAddress, receiptGoesElsewhere, receiptRefusal, type ReceiptHeaders } from '../../shared/read-receipts';
import type { ReceiptAsk } from '../../shared/worker-mail-views';
import type { MailTable } from '../db/mail-schema';
import type { ReadTransaction } from '../db/store';
import { messageFromRow } from '../mail-store/mail-rows';

/** The header fields the decision reads, kept only for a message that asks (most do not). */
export function receiptHeadersOf(headers: Readonly<Record<string, string>>): ReceiptHeaders | undefined {
  if (!headers['disposition-notification-to']) return undefined;
  const keep = ['disposition-notification-to', 'auto-submitted', 'list-id', 'precedence', 'from'] as const;
  return Object.fromEntries(keep.flatMap((key) => (headers[key] ? [[key, headers[key]]] : [])));
}

const ROLES: Readonly<Record<string, string>> = { sent: 'sent', drafts: 'drafts', trash: 'trash', junk: 'junk' };

export async function receiptAsk(tx: ReadTransaction<MailTable>, messageId: string, headers: ReceiptHeaders): Promise<ReceiptAsk> {
  const row = await tx.get('Message', messageId);
  const meta = row ? messageFromRow(row).meta : null;
  const folder = meta ? await tx.get('Category', meta.folderId) : undefined;
  const specialUse = typeof folder?.special_use === 'string' ? folder.special_use : null;
  const address = receiptAddress(headers);
  const sender = meta?.from[0]?.email;
  return {
    address,
    elsewhere: address !== null && receiptGoesElsewhere(address, sender),
    refusal: receiptRefusal({ headers, flags: meta?.keywords ?? [], folderRole: specialUse ? (ROLES[specialUse] ?? null) : null }),
  };
}
