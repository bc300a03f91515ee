import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ZodError } from 'zod';
import { ERROR_CATALOGUE, TernError, type ErrorName } from '../../shared/errors';
import { formatFileSize } from '../../shared/file-size';
import { logRequest } from './request-log';

/** Fastify's own failures (bad JSON, wrong content type) in catalogue terms; a huge body is bodyTooLarge. */
function fromFastify(error: FastifyError): TernError | null {
  const map: Record<string, ErrorName> = {
    FST_ERR_CTP_INVALID_JSON_BODY: 'InvalidRequestData',
    FST_ERR_CTP_EMPTY_JSON_BODY: 'InvalidRequestData',
    FST_ERR_CTP_INVALID_MEDIA_TYPE: 'InvalidRequestData',
    FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'InvalidRequestData',
    FST_ERR_VALIDATION: 'InvalidRequestData',
  };
  const name = error.code ? map[error.code] : undefined;
  return name ? new TernError(name) : null;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The catalogue error a body over the route's limit is (default MessageSizeExceeded): an upload's own (InvalidCsvUpload). */
    bodyTooLarge?: ErrorName;
  }
}

/**
 * A body over the route's limit, said with its size and the limit (the catalogue's bare
 * sentence left a person guessing what to cut). The size is the request's Content-Length:
 * Fastify refuses on it before reading, so it is all the gateway knows.
 */
function bodyTooLarge(request: FastifyRequest): TernError {
  const limitBytes = request.routeOptions.bodyLimit;
  const length = Number(request.headers['content-length']);
  const sizeBytes = Number.isSafeInteger(length) && length > 0 ? length : undefined;
  const own = request.routeOptions.config.bodyTooLarge;
  if (own && own !== 'MessageSizeExceeded') return new TernError(own, { detail: { reason: 'tooLarge', sizeBytes, limitBytes } });
  const base = ERROR_CATALOGUE.MessageSizeExceeded.description.replace(/\.$/, '');
  const sizes = sizeBytes === undefined ? `at most ${formatFileSize(limitBytes)}` : `${formatFileSize(sizeBytes)}, at most ${formatFileSize(limitBytes)}`;
  return new TernError('MessageSizeExceeded', { description: `${base}: ${sizes}.`, detail: { what: 'request body', sizeBytes, limitBytes } });
}

/**
 * Fastify's refusals before any route is found (a malformed %-escape, an over-long path
 * parameter): its own reply echoed the URL, query and all (a `st=` token too), without a
 * request id. Fastify's `frameworkErrors` option.
 */
export function frameworkErrorReply(_error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  void reply.header('X-Request-Id', request.id).code(400).send(new TernError('InvalidRequestData', { requestId: request.id }).toReply());
  logRequest(request, reply);
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
      const code = (error as FastifyError).code;
      tern = code === 'FST_ERR_CTP_BODY_TOO_LARGE' ? bodyTooLarge(request) : (fromFastify(error as FastifyError) ?? new TernError('InternalServerError'));
    }
    // A failure of ours is logged with its stack (the log line carries the requestId the
    // client got); a refusal of the client's request is only its status on the request line.
    if ((tern.status ?? 500) >= 500) request.log.error({ err: error }, `${tern.name}: ${error instanceof Error ? error.message : String(error)}`);
    // A refusal that says when to come back says it in HTTP's words too.
    const retryAfter = (tern.detail as { retryAfterSeconds?: unknown } | undefined)?.retryAfterSeconds;
    if (tern.name === 'TooManyRequests' && typeof retryAfter === 'number') reply.header('Retry-After', String(retryAfter));
    const body = new TernError(tern.name, { description: tern.message, detail: tern.detail, requestId }).toReply();
    return reply.code(tern.status ?? 500).send(body);
  });
}
