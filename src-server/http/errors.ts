import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ZodError } from 'zod';
import { TernError, type ErrorName } from '../../shared/errors';

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
  // request.id is the request id (request-log.ts): the client's X-Request-Id or one made here.
  app.addHook('onRequest', async (request, reply) => {
    reply.header('X-Request-Id', request.id);
  });
  app.setErrorHandler((error: unknown, request: FastifyRequest, reply: FastifyReply) => {
    const requestId = request.id;
    let tern: TernError;
    if (error instanceof TernError) tern = error;
    else if (error instanceof ZodError) {
      const detail = error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message }));
      tern = new TernError('InvalidRequestData', { detail });
    } else {
      tern = fromFastify(error as FastifyError) ?? new TernError('InternalServerError');
    }
    // A failure of ours is logged with its stack (the log line carries the requestId the
    // client got); a refusal of the client's request is only its status on the request line.
    if ((tern.status ?? 500) >= 500) request.log.error({ err: error }, `${tern.name}: ${error instanceof Error ? error.message : String(error)}`);
    const body = new TernError(tern.name, { description: tern.message, detail: tern.detail, requestId }).toReply();
    return reply.code(tern.status ?? 500).send(body);
  });
}
