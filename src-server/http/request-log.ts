import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { LogLevel } from '../config';
import { LogController, type FastifyError, type FastifyReply, type FastifyRequest, type FastifyServerOptions } from 'fastify';

/** Where the gateway's log goes: pino JSON lines, one per request plus one per server-side error. */
export interface RequestLogOptions {
  readonly level: LogLevel;
  /** Default: the process's stdout. Tests pass their own to read the lines. */
  readonly stream?: { write(line: string): unknown };
}

/** A client's id (`X-Request-Id`, e.g. the worker's `w_…`) is kept when it is plainly an id; otherwise one is made. */
const CLIENT_REQUEST_ID = /^[\w.:-]{1,64}$/;

/** The request id of one request: echoed in `X-Request-Id`, every error body and every log line of the request. */
export function requestIdOf(raw: IncomingMessage): string {
  const header = raw.headers['x-request-id'];
  return typeof header === 'string' && CLIENT_REQUEST_ID.test(header) ? header : `g_${randomBytes(6).toString('hex')}`;
}

/**
 * The route pattern (`/api/messages/:id/body`), never the URL: paths carry ids and queries
 * carry search words and `st=` tokens. Null for a request no route matched.
 */
function routeOf(request: FastifyRequest): string | null {
  try {
    return request.routeOptions.url ?? null;
  } catch {
    return null; // a request Fastify refused before routing (frameworkErrors) has no route context at all
  }
}

/** The one line of an answered request (also for refusals Fastify makes before routing, which skip the controller). */
export function logRequest(request: FastifyRequest, reply: FastifyReply, error?: Error | null): void {
  const line = { method: request.method, route: routeOf(request), status: reply.statusCode, ms: Math.round(reply.elapsedTime * 10) / 10 };
  if (error) reply.log.error({ ...line, err: error }, 'request failed');
  else reply.log.info(line, 'request');
}

/**
 * Fastify's request logging cut to one line per request (method, route, status, time) and
 * nothing that can hold a URL: its "incoming request" and "Route … not found" lines would
 * write the raw URL, query included.
 */
class OneLinePerRequest extends LogController {
  override incomingRequest(): void {}

  override routeNotFound(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    logRequest(request, reply, error);
  }
}

/**
 * What may be written for an error: its name, code, message and stack. pino's default
 * would also write every enumerable field, and library errors carry request options,
 * server responses or mail fragments there.
 */
function errorFields(error: FastifyError) {
  return { type: error.name, message: error.message, stack: error.stack ?? '', ...(error.code ? { code: error.code } : {}) };
}

/**
 * The Fastify options of the gateway's log. Without `log` nothing is written (the unit and
 * integration tests build many apps), but request ids are made all the same. Nothing that
 * can hold a password, a token or mail is written: no headers, bodies, queries or URLs;
 * `redact` is a second line of defence for fields someone logs by hand later.
 */
export function requestLogOptions(log: RequestLogOptions | undefined): Pick<FastifyServerOptions, 'logger' | 'logController' | 'genReqId' | 'requestIdHeader'> {
  return {
    genReqId: requestIdOf,
    requestIdHeader: false,
    logController: new OneLinePerRequest({ requestIdLogLabel: 'requestId' }),
    logger: log
      ? {
          level: log.level,
          ...(log.stream ? { stream: log.stream } : {}),
          serializers: {
            req: (request) => ({ method: request.method, route: routeOf(request as unknown as FastifyRequest) }),
            res: (reply) => ({ statusCode: reply.statusCode }),
            err: errorFields,
          },
          redact: {
            paths: ['password', '*.password', 'token', '*.token', 'authorization', '*.authorization', 'cookie', '*.cookie', 'headers', '*.headers', 'body', '*.body'],
            censor: '[redacted]',
          },
        }
      : false,
  };
}
