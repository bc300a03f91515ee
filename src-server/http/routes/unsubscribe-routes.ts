import type { FastifyInstance } from 'fastify';
import { unsubscribeRequestSchema, type UnsubscribeResult } from '../../../shared/api/unsubscribe';
import { parseInput } from '../../actions/request-input';
import type { GatewayContext } from '../../context';

/**
 *   POST /api/unsubscribe { messageId } → UnsubscribeResult: the list's one-click POST, the
 *     mailto form sent, or the web address to open. UnsubscribeLinkRefused 400 for an address
 *     that is not http(s)/mailto or not public, UnsubscribeNotOffered 404, UnsubscribeFailed 502.
 *   Not gated: the spec's paywall list has no manage senders.
 */
export function registerUnsubscribeRoutes(app: FastifyInstance, ctx: GatewayContext): void {
  app.post('/api/unsubscribe', async (request, reply): Promise<UnsubscribeResult> => {
    const { messageId } = parseInput(unsubscribeRequestSchema, request.body);
    reply.header('Cache-Control', 'no-store');
    return ctx.unsubscribe.unsubscribe(request.session.accountId, Number(messageId));
  });
}
