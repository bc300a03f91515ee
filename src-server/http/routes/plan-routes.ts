import type { FastifyInstance } from 'fastify';
import type { PlanResponse } from '../../../shared/api/preferences';
import type { GatewayContext } from '../../context';
import { sessionOf } from '../session-auth';

/** GET /api/plan → PlanResponse: the account's plan and the features it includes. */
export function registerPlanRoutes(app: FastifyInstance, ctx: GatewayContext): void {
  app.get('/api/plan', async (request, reply): Promise<PlanResponse> => {
    const { accountId } = sessionOf(ctx.sessions, request);
    reply.header('Cache-Control', 'no-store');
    return ctx.plans.planOf(accountId);
  });
}
