import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ANALYTICS_HEADERS, ANALYTICS_PATHS } from '../../../shared/analytics-events';
import { addEventsBodySchema } from '../../../shared/api/analytics';
import type { GatewayContext } from '../../context';

/** A batch is at most 100 small events; anything near this is not ours. */
const BODY_LIMIT = 512 * 1024;

/** The client description header, kept only when it is a small JSON object. */
function clientOf(request: FastifyRequest): string | null {
  const header = request.headers[ANALYTICS_HEADERS.client];
  if (typeof header !== 'string' || header.length > 2048) return null;
  try {
    const value: unknown = JSON.parse(header);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? JSON.stringify(value) : null;
  } catch {
    return null;
  }
}

/**
 * POST /api/analytics/addEvents (Bearer token: the account's events) and
 * POST /api/analytics/addPreAuthEvents (no token: events before login). Both answer 204;
 * the worker does not read the body (spec §7), only the status.
 */
export function registerAnalyticsRoutes(app: FastifyInstance, ctx: GatewayContext): void {
  const store = ctx.analytics;
  app.post(`/api${ANALYTICS_PATHS.addEvents}`, { bodyLimit: BODY_LIMIT }, async (request, reply) => {
    const { session } = request;
    const body = addEventsBodySchema.parse(request.body);
    await store.save({ accountId: session.accountId, client: clientOf(request), events: body.events });
    return reply.code(204).send();
  });
  app.post(`/api${ANALYTICS_PATHS.addPreAuthEvents}`, { bodyLimit: BODY_LIMIT, config: { auth: 'public' } }, async (request, reply) => {
    const body = addEventsBodySchema.parse(request.body);
    await store.save({ accountId: null, client: clientOf(request), events: body.events });
    return reply.code(204).send();
  });
}
