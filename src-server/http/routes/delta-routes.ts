import type { FastifyInstance } from 'fastify';
import { deltaQuerySchema, type DeltaResponse } from '../../../shared/api/delta';
import type { GatewayContext } from '../../context';

/**
 * GET /api/delta?cursor=N&limit=M → DeltaResponse: the account's changes after its cursor,
 * one page at a time (DESIGN §3). A cursor ahead of the log answers ClearClientCache.
 */
export function registerDeltaRoutes(app: FastifyInstance, ctx: GatewayContext): void {
  app.get('/api/delta', async (request, reply): Promise<DeltaResponse> => {
    const { session } = request;
    const query = deltaQuerySchema.parse(request.query);
    reply.header('Cache-Control', 'no-store');
    return ctx.delta.read({ accountId: session.accountId, cursor: query.cursor, limit: query.limit });
  });
}
