import type { FastifyInstance } from 'fastify';
import { isLoggedApiPath } from '../../shared/api-log-rules';

/** One line of the API log: what was asked, how it ended, how long it took. No bodies, no tokens. */
export interface ApiLogLine {
  readonly method: string;
  readonly path: string;
  readonly status: number;
  readonly ms: number;
  readonly requestId: string;
}

/**
 * Logs every /api request as one JSON line once it is answered, except the paths of the
 * spec's excluded list. Query strings are dropped: they can carry search words.
 */
export function registerApiLog(app: FastifyInstance, write: (line: ApiLogLine) => void): void {
  app.addHook('onResponse', async (request, reply) => {
    const path = request.url.split('?', 1)[0]!;
    if (!path.startsWith('/api/') || !isLoggedApiPath(path)) return;
    write({
      method: request.method,
      path,
      status: reply.statusCode,
      ms: Math.round(reply.elapsedTime * 10) / 10,
      requestId: String(reply.getHeader('X-Request-Id') ?? ''),
    });
  });
}
