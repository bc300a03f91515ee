/**
 * What may be attached (spec §5 illegal file-name characters; the gateway's limits in
 * shared/api/compose.ts), checked before a byte is uploaded, with sentences in the
 * spec's size units (§9).
 */
import { ILLEGAL_FILE_NAME_CHARS, isAllowedAttachmentName, MAX_ATTACHMENT_BYTES, MAX_ATTACHMENTS, MAX_MESSAGE_BYTES, sanitizeFileName } from '../../shared/api/compose';
import { ERROR_CATALOGUE } from '../../shared/errors';
import { formatFileSize } from '../../shared/file-size';

export type UploadCheck =
  | { readonly ok: true; readonly fileName: string; /** Set when the name had to change. */ readonly note?: string }
  | { readonly ok: false; readonly message: string };

const ILLEGAL_LIST = ILLEGAL_FILE_NAME_CHARS.join(' ');

export function hasIllegalFileNameChars(name: string): boolean {
  return ILLEGAL_FILE_NAME_CHARS.some((char) => name.includes(char));
}

export interface UploadCheckParams {
  readonly name: string;
  readonly size: number;
  /** Attachments already on the message (uploaded or uploading). */
  readonly attachedCount: number;
  /** Their total size in bytes. */
  readonly attachedBytes: number;
}

/**
 * A file with one of the spec's illegal characters is attached under a cleaned name
 * (`_` instead), and the person is told: the rule holds, and nobody has to go rename a
 * file on disk. Too-big, empty and blocked files are refused with the catalogue's sentence
 * (what the gateway would answer) and the limit that was passed, in the spec's units.
 */
export function checkUpload(params: UploadCheckParams): UploadCheck {
  const shown = params.name || 'This file';
  const named = `“${shown}” (${formatFileSize(Math.max(0, params.size))})`;
  if (params.size > MAX_ATTACHMENT_BYTES) {
    return { ok: false, message: `${named}: ${ERROR_CATALOGUE.InvalidFileSize.description} Attachments can be at most ${formatFileSize(MAX_ATTACHMENT_BYTES)} each.` };
  }
  if (params.size <= 0) return { ok: false, message: `${named}: ${ERROR_CATALOGUE.InvalidFileSize.description} It is empty.` };
  if (params.attachedCount >= MAX_ATTACHMENTS) return { ok: false, message: `${named}: ${ERROR_CATALOGUE.InvalidParameter.description} A message can carry at most ${MAX_ATTACHMENTS} attachments.` };
  if (params.attachedBytes + params.size > MAX_MESSAGE_BYTES) {
    return {
      ok: false,
      message: `${named}: ${ERROR_CATALOGUE.MessageSizeExceeded.description} Attachments can add up to ${formatFileSize(MAX_MESSAGE_BYTES)} per message (${formatFileSize(MAX_MESSAGE_BYTES - params.attachedBytes)} left).`,
    };
  }
  const fileName = sanitizeFileName(params.name);
  if (!isAllowedAttachmentName(fileName)) return { ok: false, message: `“${shown}”: ${ERROR_CATALOGUE.FileExtensionNotAllowed.description}` };
  if (fileName !== params.name && hasIllegalFileNameChars(params.name)) {
    return { ok: true, fileName, note: `Attached as “${fileName}”: file names can’t contain ${ILLEGAL_LIST}` };
  }
  return { ok: true, fileName };
}
