import { randomBytes } from 'node:crypto';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ZodError } from 'zod';
import { TernError, type ErrorName } from '../../shared/errors';

/** A client's request id (`X-Request-Id`, e.g. the worker's `w_…`) is echoed; otherwise one is made. */
function requestIdOf(request: FastifyRequest): string {
  const header = request.headers['x-request-id'];
  return typeof header === 'string' && /^[\w.:-]{1,64}$/.test(header) ? header : `g_${randomBytes(6).toString('hex')}`;
}

/** Fastify's own failures (bad JSON, huge body, wrong content type) in catalogue terms. */
function fromFastify(error: FastifyError): TernError | null {
  const map: Record<string, ErrorName> = {
    FST_ERR_CTP_INVALID_JSON_BODY: 'InvalidRequestData',
    FST_ERR_CTP_EMPTY_JSON_BODY: 'InvalidRequestData',
    FST_ERR_CTP_INVALID_MEDIA_TYPE: 'InvalidRequestData',
    FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'InvalidRequestData',
    FST_ERR_CTP_BODY_TOO_LARGE: 'MessageSizeExceeded',
    FST_ERR_VALIDATION: 'InvalidRequestData',
  };
  const name = error.code ? map[error.code] : undefined;
  return name ? new TernError(name) : null;
}

/**
 * Every failure leaves the gateway as `{ error, description, requestId, detail? }` with the
 * catalogue's status. No stack trace or internal message ever reaches a client.
 */
export function registerErrorReplies(app: FastifyInstance): void {
  app.addHook('onRequest', async (request, reply) => {
    reply.header('X-Request-Id', requestIdOf(request));
  });
  app.setErrorHandler((error: unknown, request: FastifyRequest, reply: FastifyReply) => {
    const requestId = String(reply.getHeader('X-Request-Id') ?? requestIdOf(request));
    let tern: TernError;
    if (error instanceof TernError) tern = error;
    else if (error instanceof ZodError) {
      const detail = error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message }));
      tern = new TernError('InvalidRequestData', { detail });
    } else {
      tern = fromFastify(error as FastifyError) ?? new TernError('InternalServerError');
      if (tern.name === 'InternalServerError') request.log.error({ err: error, requestId }, 'unhandled error');
    }
    const body = new TernError(tern.name, { description: tern.message, detail: tern.detail, requestId }).toReply();
    return reply.code(tern.status ?? 500).send(body);
  });
}
