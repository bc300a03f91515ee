import type { FastifyInstance } from 'fastify';
import {
  idParamsSchema,
  threadCountQuerySchema,
  threadListQuerySchema,
  type ThreadCountResponse,
  type ThreadDetailResponse,
  type ThreadListResponse,
} from '../../../shared/api/reading';
import type { GatewayContext } from '../../context';

/**
 * GET /api/threads?folderId=&before=&limit= → { threads, nextBefore }
 * GET /api/threads/count?folderId= → { total, unread }
 * GET /api/threads/:id → { thread, messages }
 * Read from the mirror only: no IMAP round trip on these paths.
 */
export function registerThreadRoutes(app: FastifyInstance, ctx: GatewayContext): void {
  const { threads } = ctx;

  app.get('/api/threads', async (request, reply): Promise<ThreadListResponse> => {
    const { accountId } = request.session;
    const query = threadListQuerySchema.parse(request.query);
    reply.header('Cache-Control', 'no-store');
    return threads.page({ accountId, folderId: Number(query.folderId), before: query.before, limit: query.limit });
  });

  app.get('/api/threads/count', async (request, reply): Promise<ThreadCountResponse> => {
    const { accountId } = request.session;
    const query = threadCountQuerySchema.parse(request.query);
    reply.header('Cache-Control', 'no-store');
    return threads.count(accountId, Number(query.folderId));
  });

  app.get('/api/threads/:id', async (request, reply): Promise<ThreadDetailResponse> => {
    const { accountId } = request.session;
    const { id } = idParamsSchema.parse(request.params);
    reply.header('Cache-Control', 'no-store');
    return threads.detail(accountId, Number(id));
  });
}
