/**
 * Why a message cannot leave yet, checked when Send is pressed: no recipient, an invalid
 * address, an attachment still uploading or failed. Pure, so the rules read in one place.
 */
import type { RecipientChip } from './recipients';
import type { Translate } from '../kit/i18n';
import type { AttachmentItem } from './use-attachment-uploads';

export type SendProblem =
  | { readonly kind: 'noRecipient'; readonly text: string }
  | { readonly kind: 'invalidAddress'; readonly text: string }
  | { readonly kind: 'attachments'; readonly text: string };

/** The first reason the message cannot be sent, or null when it can. */
export function sendProblem(recipients: readonly RecipientChip[], attachments: readonly Pick<AttachmentItem, 'status'>[], t: Translate): SendProblem | null {
  const invalid = recipients.filter((chip) => !chip.valid);
  if (recipients.length === 0) return { kind: 'noRecipient', text: t('composer.problemNoRecipient') };
  if (invalid.length > 0) {
    const addresses = invalid.map((chip) => `“${chip.email}”`).join(', ');
    return { kind: 'invalidAddress', text: t('composer.problemInvalidAddress', { invalid: t('errors.InvalidMail'), addresses }) };
  }
  if (attachments.some((item) => item.status === 'uploading')) return { kind: 'attachments', text: t('composer.problemUploading') };
  if (attachments.some((item) => item.status === 'failed')) return { kind: 'attachments', text: t('composer.problemUploadFailed') };
  return null;
}
