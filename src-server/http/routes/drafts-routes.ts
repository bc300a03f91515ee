import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { draftSaveSchema, MAX_RAW_MESSAGE_BYTES, objectIdSchema, type DraftSaved, type DraftView } from '../../../shared/api/compose';
import { parseInput } from '../../actions/request-input';
import type { GatewayContext } from '../../context';

const draftParams = z.object({ id: objectIdSchema });

/**
 * Drafts, stored in the account's Drafts folder with a version in SQLite:
 *   POST /api/drafts { version: 0, …fields } → 201 DraftSaved
 *   PUT /api/drafts/:id { version, …fields } → DraftSaved (InvalidDraftVersion 409, DraftAlreadySent 410, DraftDoesNotExist 404)
 *   GET /api/drafts/:id → DraftView;  DELETE /api/drafts/:id → { latestTxnId }
 *   GET /api/drafts/of-message/:id → DraftView of the draft a Drafts message is (MessageMeta.id),
 *     adopting one another mail program saved (MessageNotFound 404, DraftDoesNotExist 404, DraftAlreadySent 410)
 * A body may hold a large HTML message: its own limit, past which MessageSizeExceeded.
 */
export function registerDraftRoutes(app: FastifyInstance, ctx: GatewayContext): void {
  const { drafts } = ctx.mailWrites;
  const bodyLimit = MAX_RAW_MESSAGE_BYTES;

  app.post('/api/drafts', { bodyLimit }, async (request, reply): Promise<DraftSaved> => {
    const { accountId } = request.session;
    const saved = await drafts.create(accountId, parseInput(draftSaveSchema, request.body));
    reply.code(201);
    return saved;
  });

  app.put('/api/drafts/:id', { bodyLimit }, async (request): Promise<DraftSaved> => {
    const { accountId } = request.session;
    const { id } = parseInput(draftParams, request.params);
    return drafts.update(accountId, Number(id), parseInput(draftSaveSchema, request.body));
  });

  app.get('/api/drafts/:id', async (request, reply): Promise<DraftView> => {
    const { accountId } = request.session;
    reply.header('Cache-Control', 'no-store');
    return drafts.view(accountId, Number(parseInput(draftParams, request.params).id));
  });

  app.get('/api/drafts/of-message/:id', async (request, reply): Promise<DraftView> => {
    const { accountId } = request.session;
    reply.header('Cache-Control', 'no-store');
    return drafts.viewOfMessage(accountId, Number(parseInput(draftParams, request.params).id));
  });

  app.delete('/api/drafts/:id', async (request) => {
    const { accountId } = request.session;
    return drafts.remove(accountId, Number(parseInput(draftParams, request.params).id));
  });
}
