import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  isAllowedAttachmentName,
  MAX_ATTACHMENT_BYTES,
  MAX_ATTACHMENTS,
  MAX_MESSAGE_BYTES,
  sanitizeFileName,
  uploadIdSchema,
  type UploadResponse,
} from '../../../shared/api/compose';
import { TernError, type ErrorName } from '../../../shared/errors';
import { formatFileSize } from '../../../shared/file-size';
import { parseInput } from '../../actions/request-input';
import type { GatewayContext } from '../../context';
import { toUploadedFile, type UploadRecord } from '../../drafts/upload-store';

const fileParams = z.object({ id: uploadIdSchema });
/** A client's content type is kept only when it looks like one; it never decides anything here. */
const contentTypeOf = (mimetype: string | undefined) => (mimetype && /^[\w.+-]{1,64}\/[\w.+-]{1,128}$/.test(mimetype) ? mimetype.toLowerCase() : 'application/octet-stream');

/**
 * Browsers write `"`, CR and LF in a multipart file name as %22, %0D and %0A (WHATWG
 * multipart/form-data encoding); undone here so the name is sanitised as the person saw it.
 */
const formDataName = (name: string) => name.replace(/%22/g, '"').replace(/%0D/gi, '\r').replace(/%0A/gi, '\n');

/** The multipart plugin's refusals in catalogue terms. */
const MULTIPART_ERRORS: Record<string, ErrorName> = {
  FST_REQ_FILE_TOO_LARGE: 'InvalidFileSize',
  FST_FILES_LIMIT: 'InvalidParameter',
  FST_PARTS_LIMIT: 'InvalidParameter',
  FST_FIELDS_LIMIT: 'InvalidParameter',
  FST_INVALID_MULTIPART_CONTENT_TYPE: 'InvalidRequestData',
};

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
 *   POST /api/files (multipart/form-data, one or more files) → UploadResponse
 *     each file at most 25 MB and all of them together at most 25 MB (InvalidFileSize 403,
 *     also for an empty file); programs (.exe, .js …) FileExtensionNotAllowed 400; names
 *     sanitised (spec §5). All or nothing: a refused file drops the request's others.
 *   DELETE /api/files/:id → 204
 */
export async function registerFilesRoutes(app: FastifyInstance, ctx: GatewayContext): Promise<void> {
  const { uploads } = ctx.mailWrites;
  // Its own scope: the multipart parser applies to these routes only.
  await app.register(async (scope) => {
    await scope.register(multipart, {
      limits: { fileSize: MAX_ATTACHMENT_BYTES, files: MAX_ATTACHMENTS, parts: MAX_ATTACHMENTS + 10, fields: 10, fieldSize: 1024, headerPairs: 50 },
    });

    scope.post('/api/files', async (request, reply): Promise<UploadResponse> => {
      const { accountId } = request.session;
      if (!request.isMultipart()) throw new TernError('InvalidRequestData', { detail: { reason: 'Send the files as multipart/form-data.' } });
      const stored: UploadRecord[] = [];
      let remaining = MAX_MESSAGE_BYTES;
      // The file being read, and the bytes of the files accepted before it (for fileSizeRefusal).
      let current: string | undefined;
      let bytesBefore = 0;
      try {
        for await (const part of request.files()) {
          const filename = sanitizeFileName(formDataName(part.filename ?? ''));
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
        // The rest of the body is not read: this connection cannot carry another request.
        reply.header('Connection', 'close');
        await Promise.all(stored.map((record) => uploads.remove(accountId, record.id)));
        const code = (error as { code?: string }).code;
        const mapped = code ? MULTIPART_ERRORS[code] : undefined;
        const refusal = mapped ? new TernError(mapped) : error;
        if (refusal instanceof TernError && refusal.name === 'InvalidFileSize' && current !== undefined) {
          throw fileSizeRefusal({ filename: current, refusal, requestBytes: Number(request.headers['content-length']), storedBytes: bytesBefore });
        }
        throw refusal;
      }
      if (stored.length === 0) throw new TernError('InvalidParameter', { detail: [{ path: 'file', message: 'No file in the request.' }] });
      return { files: stored.map(toUploadedFile) };
    });

    scope.delete('/api/files/:id', async (request, reply) => {
      const { accountId } = request.session;
      if (!(await uploads.remove(accountId, parseInput(fileParams, request.params).id))) throw new TernError('FileNotFound');
      return reply.code(204).send();
    });
  });
}
