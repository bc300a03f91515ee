import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { MAX_ATTACHMENT_BYTES, MAX_ATTACHMENTS, uploadIdSchema, type UploadResponse } from '../../../shared/api/compose';
import { TernError, type ErrorName } from '../../../shared/errors';
import { parseInput } from '../../actions/request-input';
import type { GatewayContext } from '../../context';
import type { UploadPart } from '../../drafts/upload-intake';

const fileParams = z.object({ id: uploadIdSchema });

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

function multipartRefusal(error: unknown): unknown {
  const code = (error as { code?: string }).code;
  const mapped = code ? MULTIPART_ERRORS[code] : undefined;
  return mapped ? new TernError(mapped) : error;
}

/** The request's files as the intake takes them: each name as the person saw it. */
async function* partsOf(files: AsyncIterable<{ filename?: string; mimetype?: string; file: UploadPart['file'] }>): AsyncIterable<UploadPart> {
  for await (const part of files) yield { filename: formDataName(part.filename ?? ''), mimetype: part.mimetype, file: part.file };
}

/**
 *   POST /api/files (multipart/form-data, one or more files) → UploadResponse
 *     each file at most 25 MB and all of them together at most 25 MB (InvalidFileSize 403,
 *     also for an empty file); programs (.exe, .js …) FileExtensionNotAllowed 400; names
 *     sanitised (spec §5). All or nothing: a refused file drops the request's others.
 *   DELETE /api/files/:id → 204
 */
export async function registerFilesRoutes(app: FastifyInstance, ctx: GatewayContext): Promise<void> {
  // Its own scope: the multipart parser applies to these routes only.
  await app.register(async (scope) => {
    await scope.register(multipart, {
      limits: { fileSize: MAX_ATTACHMENT_BYTES, files: MAX_ATTACHMENTS, parts: MAX_ATTACHMENTS + 10, fields: 10, fieldSize: 1024, headerPairs: 50 },
    });

    scope.post('/api/files', async (request, reply): Promise<UploadResponse> => {
      const { accountId } = request.session;
      if (!request.isMultipart()) throw new TernError('InvalidRequestData', { detail: { reason: 'Send the files as multipart/form-data.' } });
      return ctx.uploadIntake.receive({
        accountId,
        parts: partsOf(request.files()),
        requestBytes: Number(request.headers['content-length']),
        translate: multipartRefusal,
        // The rest of the body is not read: this connection cannot carry another request.
        onUnreadBody: () => void reply.header('Connection', 'close'),
      });
    });

    scope.delete('/api/files/:id', async (request, reply) => {
      const { accountId } = request.session;
      await ctx.uploadIntake.remove(accountId, parseInput(fileParams, request.params).id);
      return reply.code(204).send();
    });
  });
}
