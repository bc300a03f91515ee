import type { FastifyInstance } from 'fastify';
import { searchQuerySchema, type SearchResponse } from '../../../shared/api/reading';
import type { GatewayContext } from '../../context';
import { FolderQueries } from '../../reading/folder-queries';
import { ThreadQueries } from '../../reading/thread-queries';
import { SearchService } from '../../search/search-service';
import { sessionOf } from '../session-auth';

const INDEX_INTERVAL_MS = 1000;

/** GET /api/search?q=&folderId=&limit= → { threads, matchedMessages, truncated, complete, pendingOnServer } */
export function registerSearchRoutes(app: FastifyInstance, ctx: GatewayContext): void {
  const service = new SearchService({
    db: ctx.db,
    folders: new FolderQueries(ctx.db, ctx.materializer),
    threads: new ThreadQueries(ctx.db),
    mirrors: ctx.mirrors,
  });

  // Mirrored mail becomes searchable in the background, so a search rarely has to index first.
  const indexing = setInterval(() => {
    try {
      service.indexSome();
    } catch (error) {
      console.warn(`search index: ${error instanceof Error ? error.message : String(error)}`);
    }
  }, INDEX_INTERVAL_MS);
  indexing.unref();
  app.addHook('onClose', async () => clearInterval(indexing));

  app.get('/api/search', async (request, reply): Promise<SearchResponse> => {
    const { accountId } = sessionOf(ctx.sessions, request);
    const query = searchQuerySchema.parse(request.query);
    const started = performance.now();
    const result = await service.search({ accountId, q: query.q, folderId: query.folderId ? Number(query.folderId) : null, limit: query.limit });
    reply.header('Cache-Control', 'no-store');
    reply.header('Server-Timing', `search;dur=${(performance.now() - started).toFixed(1)}`);
    return result;
  });
}
