/**
 * Why a message cannot leave yet, checked when Send is pressed: no recipient, an invalid
 * address, an attachment still uploading or failed. Pure, so the rules read in one place.
 */
import { INVALID_ADDRESS_MESSAGE, type RecipientChip } from './recipients';
import type { AttachmentItem } from './use-attachment-uploads';

export type SendProblem =
  | { readonly kind: 'noRecipient'; readonly text: string }
  | { readonly kind: 'invalidAddress'; readonly text: string }
  | { readonly kind: 'attachments'; readonly text: string };

/** The first reason the message cannot be sent, or null when it can. */
export function sendProblem(recipients: readonly RecipientChip[], attachments: readonly Pick<AttachmentItem, 'status'>[]): SendProblem | null {
  const invalid = recipients.filter((chip) => !chip.valid);
  if (recipients.length === 0) return { kind: 'noRecipient', text: 'Add at least one recipient.' };
  if (invalid.length > 0) return { kind: 'invalidAddress', text: `${INVALID_ADDRESS_MESSAGE} Fix or remove ${invalid.map((chip) => `“${chip.email}”`).join(', ')}.` };
  if (attachments.some((item) => item.status === 'uploading')) return { kind: 'attachments', text: 'Wait until the attachments have finished uploading.' };
  if (attachments.some((item) => item.status === 'failed')) return { kind: 'attachments', text: 'Some attachments did not upload. Retry or remove them first.' };
  return null;
}
