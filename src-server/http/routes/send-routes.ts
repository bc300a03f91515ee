import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { MAX_RAW_MESSAGE_BYTES, objectIdSchema, sendRequestSchema, type SendResult } from '../../../shared/api/compose';
import { parseInput } from '../../actions/request-input';
import type { GatewayContext } from '../../context';
import { sessionOf } from '../session-auth';

const outboxParams = z.object({ id: objectIdSchema });

/**
 *   POST /api/send { idempotencyKey, draftId, draftVersion? } | { idempotencyKey, compose }
 *     → 200 SendResult (sent, or accepted and being filed), 202 SendResult (queued for a retry
 *       or still under way), SendFailed 400 with the server's reason in `detail`.
 *   GET /api/outbox/:id → SendResult, to follow a 202.
 */
export function registerSendRoutes(app: FastifyInstance, ctx: GatewayContext): void {
  const { send } = ctx.mailWrites;

  app.post('/api/send', { bodyLimit: MAX_RAW_MESSAGE_BYTES }, async (request, reply): Promise<SendResult> => {
    const { accountId } = sessionOf(ctx.sessions, request);
    const { status, result } = await send.send(accountId, parseInput(sendRequestSchema, request.body));
    reply.code(status);
    return result;
  });

  app.get('/api/outbox/:id', async (request, reply): Promise<SendResult> => {
    const { accountId } = sessionOf(ctx.sessions, request);
    reply.header('Cache-Control', 'no-store');
    return send.status(accountId, Number(parseInput(outboxParams, request.params).id));
  });
}
