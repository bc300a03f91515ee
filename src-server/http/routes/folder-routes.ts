import type { FastifyInstance } from 'fastify';
import {
  createFolderRequestSchema,
  idParamsSchema,
  moveFolderRequestSchema,
  renameFolderRequestSchema,
  trashFolderRequestSchema,
  type FolderListResponse,
  type FolderResponse,
  type TrashFolderResponse,
} from '../../../shared/api/reading';
import type { GatewayContext } from '../../context';

/**
 * GET /api/folders → { folders, separator }
 * POST /api/folders { name, parentId? } → 201 { folder, latestTxnId }
 * PUT /api/folders/:id { name } → { folder, latestTxnId }
 * POST /api/folders/move { folderId, parentId | null } → { folder, latestTxnId }
 * POST /api/folders/trash { folderId } → { deleted, folder | null, latestTxnId }
 * Commands answer once the mirror (and so the transaction log) shows the change.
 */
export function registerFolderRoutes(app: FastifyInstance, ctx: GatewayContext): void {
  const { folders, folderCommands: service } = ctx;

  app.get('/api/folders', async (request, reply): Promise<FolderListResponse> => {
    const { accountId } = request.session;
    reply.header('Cache-Control', 'no-store');
    return folders.list(accountId);
  });

  app.post('/api/folders', async (request, reply): Promise<FolderResponse> => {
    const { accountId } = request.session;
    const body = createFolderRequestSchema.parse(request.body ?? {});
    const folder = await service.create(accountId, { name: body.name, parentId: body.parentId ? Number(body.parentId) : null });
    reply.code(201);
    return { folder, latestTxnId: await ctx.txlog.latest(accountId) };
  });

  app.put('/api/folders/:id', async (request): Promise<FolderResponse> => {
    const { accountId } = request.session;
    const { id } = idParamsSchema.parse(request.params);
    const body = renameFolderRequestSchema.parse(request.body ?? {});
    const folder = await service.rename(accountId, { folderId: Number(id), name: body.name });
    return { folder, latestTxnId: await ctx.txlog.latest(accountId) };
  });

  app.post('/api/folders/move', async (request): Promise<FolderResponse> => {
    const { accountId } = request.session;
    const body = moveFolderRequestSchema.parse(request.body ?? {});
    const folder = await service.move(accountId, { folderId: Number(body.folderId), parentId: body.parentId === null ? null : Number(body.parentId) });
    return { folder, latestTxnId: await ctx.txlog.latest(accountId) };
  });

  app.post('/api/folders/trash', async (request): Promise<TrashFolderResponse> => {
    const { accountId } = request.session;
    const body = trashFolderRequestSchema.parse(request.body ?? {});
    const result = await service.trash(accountId, Number(body.folderId));
    return { ...result, latestTxnId: await ctx.txlog.latest(accountId) };
  });
}
