import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { bulkActionSchema, type BulkActionResult, type EmptyFolderResult } from '../../../shared/api/actions';
import { objectIdSchema } from '../../../shared/api/compose';
import { parseInput } from '../../actions/request-input';
import type { GatewayContext } from '../../context';

const folderParams = z.object({ id: objectIdSchema });

/**
 * Changing mail (DESIGN §3: the reply's latestTxnId is where the change is in the log):
 *   POST /api/messages/bulk, POST /api/threads/bulk  { ids, action, folderId? } → BulkActionResult
 *   POST /api/folders/:id/empty, POST /api/empty/trash, POST /api/empty/spam  → EmptyFolderResult
 */
export function registerMailActionRoutes(app: FastifyInstance, ctx: GatewayContext): void {
  const { actions } = ctx.mailWrites;

  app.post('/api/messages/bulk', async (request): Promise<BulkActionResult> => {
    const { accountId } = request.session;
    return actions.apply(accountId, 'messages', parseInput(bulkActionSchema, request.body));
  });

  app.post('/api/threads/bulk', async (request): Promise<BulkActionResult> => {
    const { accountId } = request.session;
    return actions.apply(accountId, 'threads', parseInput(bulkActionSchema, request.body));
  });

  app.post('/api/folders/:id/empty', async (request): Promise<EmptyFolderResult> => {
    const { accountId } = request.session;
    return actions.emptyFolder(accountId, Number(parseInput(folderParams, request.params).id));
  });

  app.post('/api/empty/trash', async (request): Promise<EmptyFolderResult> => actions.emptyRole(request.session.accountId, 'trash'));
  app.post('/api/empty/spam', async (request): Promise<EmptyFolderResult> => actions.emptyRole(request.session.accountId, 'junk'));
}
