import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { MAX_RAW_MESSAGE_BYTES, objectIdSchema, sendRequestSchema, type CancelledSend, type PendingSends, type SendResult } from '../../../shared/api/compose';
import { parseInput } from '../../actions/request-input';
import type { GatewayContext } from '../../context';

const outboxParams = z.object({ id: objectIdSchema });

/**
 *   POST /api/send { idempotencyKey, draftId, draftVersion? } | { idempotencyKey, compose }
 *     → 200 SendResult (sent, or accepted and being filed), 202 SendResult (queued for a retry
 *       or still under way), SendFailed 400 with the server's reason in `detail`.
 *     A send whose outcome is unknown (the gateway lost the connection or stopped after the
 *     final "." and before the server's reply) answers 200 with state `unknown`: it is never
 *     sent again on its own.
 *   GET /api/outbox/:id → SendResult, to follow a 202.
 *   POST /api/outbox/:id/resend → as POST /api/send: an `unknown` message sent again, because the person asked.
 *   POST /api/outbox/:id/dismiss → as POST /api/send: the person says an `unknown` message arrived; it is
 *     filed in Sent. Both refuse any other state with InvalidOperation (detail.state), no body needed.
 *
 * Held and scheduled sends (issue 15): POST /api/send with `holdMs` (the undo window) or
 * `schedule` ({ at, timeZone }) stores the message and answers 202 `queued` with its `sendAt`
 * at once; the gateway sends it then, browser open or not.
 *   POST /api/outbox/:id/undo → CancelledSend: taken back within its hold, its draft open again;
 *     SendAlreadyLeft 410 once it has gone to the mail server.
 *   GET /api/scheduled → PendingSends: the account's held and scheduled sends, soonest first.
 *   POST /api/scheduled/:id/cancel → CancelledSend: back to a draft (in Drafts again).
 *   DELETE /api/scheduled/:id → CancelledSend: cancelled and its draft deleted.
 */
export function registerSendRoutes(app: FastifyInstance, ctx: GatewayContext): void {
  const { send } = ctx.mailWrites;

  app.post('/api/send', { bodyLimit: MAX_RAW_MESSAGE_BYTES }, async (request, reply): Promise<SendResult> => {
    const { accountId } = request.session;
    const { status, result } = await send.send(accountId, parseInput(sendRequestSchema, request.body));
    reply.code(status);
    return result;
  });

  app.get('/api/outbox/:id', async (request, reply): Promise<SendResult> => {
    const { accountId } = request.session;
    reply.header('Cache-Control', 'no-store');
    return send.status(accountId, Number(parseInput(outboxParams, request.params).id));
  });

  app.post('/api/outbox/:id/resend', async (request, reply): Promise<SendResult> => {
    const { accountId } = request.session;
    const { status, result } = await send.resend(accountId, Number(parseInput(outboxParams, request.params).id));
    reply.code(status);
    return result;
  });

  app.post('/api/outbox/:id/dismiss', async (request, reply): Promise<SendResult> => {
    const { accountId } = request.session;
    const { status, result } = await send.dismiss(accountId, Number(parseInput(outboxParams, request.params).id));
    reply.code(status);
    return result;
  });

  const cancel = (backToDrafts: boolean) => async (request: FastifyRequest): Promise<CancelledSend> =>
    send.cancel(request.session.accountId, Number(parseInput(outboxParams, request.params).id), { backToDrafts });
  app.post('/api/outbox/:id/undo', cancel(true));
  app.post('/api/scheduled/:id/cancel', cancel(true));

  app.delete('/api/scheduled/:id', async (request): Promise<CancelledSend> => {
    return send.deleteScheduled(request.session.accountId, Number(parseInput(outboxParams, request.params).id));
  });

  app.get('/api/scheduled', async (request, reply): Promise<PendingSends> => {
    reply.header('Cache-Control', 'no-store');
    return send.waiting(request.session.accountId);
  });
}
