import type { FastifyInstance } from 'fastify';
import { searchQuerySchema, type SearchResponse } from '../../../shared/api/reading';
import type { GatewayContext } from '../../context';

/** GET /api/search?q=&folderId=&limit= → { threads, matchedMessages, truncated, complete, pendingOnServer } */
export function registerSearchRoutes(app: FastifyInstance, ctx: GatewayContext): void {
  app.get('/api/search', async (request, reply): Promise<SearchResponse> => {
    const { accountId } = request.session;
    const query = searchQuerySchema.parse(request.query);
    const started = performance.now();
    const result = await ctx.search.search({ accountId, q: query.q, folderId: query.folderId ? Number(query.folderId) : null, limit: query.limit });
    reply.header('Cache-Control', 'no-store');
    reply.header('Server-Timing', `search;dur=${(performance.now() - started).toFixed(1)}`);
    return result;
  });
}
