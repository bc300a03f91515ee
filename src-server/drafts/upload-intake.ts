import type { Readable } from 'node:stream';
import { isAllowedAttachmentName, MAX_ATTACHMENT_BYTES, MAX_MESSAGE_BYTES, sanitizeFileName, type UploadResponse } from '../../shared/api/compose';
import { TernError } from '../../shared/errors';
import { formatFileSize } from '../../shared/file-size';
import { toUploadedFile, type UploadRecord, type UploadStore } from './upload-store';

/** One file of an upload request, as the client named and typed it (nothing of it is trusted). */
export interface UploadPart {
  readonly filename: string;
  readonly mimetype: string | undefined;
  readonly file: Readable;
}

export interface UploadIntakeParams {
  readonly accountId: number;
  /** The request's files in order; an error thrown while iterating refuses the request. */
  readonly parts: AsyncIterable<UploadPart>;
  /** The request's Content-Length (to say about how large a file cut off unread was). */
  readonly requestBytes: number;
  /** The transport's own refusals (the multipart parser's limits) in catalogue terms; others pass as they are. */
  readonly translate?: (error: unknown) => unknown;
  /** Called when a refusal leaves the rest of the request unread (the transport closes the connection). */
  readonly onUnreadBody?: () => void;
}

/** A client's content type is kept only when it looks like one; it never decides anything here. */
const contentTypeOf = (mimetype: string | undefined) => (mimetype && /^[\w.+-]{1,64}\/[\w.+-]{1,128}$/.test(mimetype) ? mimetype.toLowerCase() : 'application/octet-stream');

/**
 * InvalidFileSize said with the file's name, its size and the limit. A file over the limit
 * is cut off unread, so its size is estimated from the request's Content-Length less the
 * files accepted before it ("about": the multipart framing and any later files are in it).
 */
function fileSizeRefusal(params: { filename: string; refusal: TernError; requestBytes: number; storedBytes: number }): TernError {
  const { filename } = params;
  const detail = (params.refusal.detail ?? {}) as { reason?: string; limitBytes?: number };
  if (detail.reason === 'empty') return new TernError('InvalidFileSize', { description: `“${filename}” is empty.`, detail: { filename, reason: 'empty', sizeBytes: 0 } });
  const limitBytes = detail.limitBytes ?? MAX_ATTACHMENT_BYTES;
  const sizeBytes = Number.isSafeInteger(params.requestBytes) && params.requestBytes > params.storedBytes ? params.requestBytes - params.storedBytes : undefined;
  // Under the per-file limit but over what the request had left: the files together are too large.
  const together = limitBytes < MAX_ATTACHMENT_BYTES;
  const size = sizeBytes === undefined ? `more than ${formatFileSize(limitBytes)}` : `about ${formatFileSize(sizeBytes)}`;
  const description = together
    ? `“${filename}” does not fit: the attachments together can be at most ${formatFileSize(MAX_MESSAGE_BYTES)}.`
    : `“${filename}” is too large to attach (${size}); a file can be at most ${formatFileSize(limitBytes)}.`;
  return new TernError('InvalidFileSize', { description, detail: { filename, limitBytes, sizeBytes, approximate: true } });
}

/**
 * Takes the files of one upload request (spec §5): each at most 25 MB and all of them
 * together at most 25 MB (InvalidFileSize, also for an empty file), programs refused
 * (FileExtensionNotAllowed), names sanitised. All or nothing: a refused file removes the
 * request's others.
 */
export class UploadIntake {
  constructor(private readonly deps: { uploads: UploadStore }) {}

  async receive({ accountId, parts, requestBytes, translate = (error) => error, onUnreadBody }: UploadIntakeParams): Promise<UploadResponse> {
    const { uploads } = this.deps;
    const stored: UploadRecord[] = [];
    let remaining = MAX_MESSAGE_BYTES;
    // The file being read, and the bytes of the files accepted before it (for fileSizeRefusal).
    let current: string | undefined;
    let bytesBefore = 0;
    try {
      for await (const part of parts) {
        const filename = sanitizeFileName(part.filename);
        current = filename;
        bytesBefore = MAX_MESSAGE_BYTES - remaining;
        if (!isAllowedAttachmentName(filename)) {
          part.file.resume(); // let the rest of the request flow past
          throw new TernError('FileExtensionNotAllowed', { detail: { filename } });
        }
        const record = await uploads.receive({ accountId, filename, contentType: contentTypeOf(part.mimetype), stream: part.file, remaining });
        remaining -= record.size;
        stored.push(record);
      }
    } catch (error) {
      onUnreadBody?.();
      await Promise.all(stored.map((record) => uploads.remove(accountId, record.id)));
      const refusal = translate(error);
      if (refusal instanceof TernError && refusal.name === 'InvalidFileSize' && current !== undefined) {
        throw fileSizeRefusal({ filename: current, refusal, requestBytes, storedBytes: bytesBefore });
      }
      throw refusal;
    }
    if (stored.length === 0) throw new TernError('InvalidParameter', { detail: [{ path: 'file', message: 'No file in the request.' }] });
    return { files: stored.map(toUploadedFile) };
  }

  /** Removes an upload of the account; FileNotFound when there is none (gone, or another's). */
  async remove(accountId: number, uploadId: string): Promise<void> {
    if (!(await this.deps.uploads.remove(accountId, uploadId))) throw new TernError('FileNotFound');
  }
}
