/**
 * What may be attached (spec §5 illegal file-name characters; the gateway's limits in
 * shared/api/compose.ts), checked before a byte is uploaded, with sentences in the
 * spec's size units (§9).
 */
import { ILLEGAL_FILE_NAME_CHARS, isAllowedAttachmentName, MAX_ATTACHMENT_BYTES, MAX_ATTACHMENTS, MAX_MESSAGE_BYTES, sanitizeFileName } from '../../shared/api/compose';
import { formatFileSize } from '../../shared/file-size';
import type { Locale } from '../../shared/locales';
import { format, type MessageId, type MessageValues } from '../../shared/strings';

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
  /** The UI's language for the sentences (English when not given). */
  readonly locale?: Locale;
}

/**
 * A file with one of the spec's illegal characters is attached under a cleaned name
 * (`_` instead), and the person is told: the rule holds, and nobody has to go rename a
 * file on disk. Too-big, empty and blocked files are refused with the catalogue's sentence
 * (what the gateway would answer) and the limit that was passed, in the spec's units.
 */
export function checkUpload(params: UploadCheckParams): UploadCheck {
  const locale = params.locale ?? 'en';
  const say = (id: MessageId, values?: MessageValues) => format(locale, id, values);
  const size = (bytes: number) => formatFileSize(bytes, locale);
  const shown = params.name || say('composer.thisFile');
  const named = `“${shown}” (${size(Math.max(0, params.size))})`;
  if (params.size > MAX_ATTACHMENT_BYTES) {
    return { ok: false, message: `${named}: ${say('errors.InvalidFileSize')} ${say('composer.maxEach', { size: size(MAX_ATTACHMENT_BYTES) })}` };
  }
  if (params.size <= 0) return { ok: false, message: `${named}: ${say('errors.InvalidFileSize')} ${say('composer.fileEmpty')}` };
  if (params.attachedCount >= MAX_ATTACHMENTS) return { ok: false, message: `${named}: ${say('errors.InvalidParameter')} ${say('composer.maxCount', { count: MAX_ATTACHMENTS })}` };
  if (params.attachedBytes + params.size > MAX_MESSAGE_BYTES) {
    return {
      ok: false,
      message: `${named}: ${say('errors.MessageSizeExceeded')} ${say('composer.maxTotal', { size: size(MAX_MESSAGE_BYTES), left: size(MAX_MESSAGE_BYTES - params.attachedBytes) })}`,
    };
  }
  const fileName = sanitizeFileName(params.name);
  if (!isAllowedAttachmentName(fileName)) return { ok: false, message: `“${shown}”: ${say('errors.FileExtensionNotAllowed')}` };
  if (fileName !== params.name && hasIllegalFileNameChars(params.name)) {
    return { ok: true, fileName, note: say('composer.attachedAs', { name: fileName, chars: ILLEGAL_LIST }) };
  }
  return { ok: true, fileName };
}
