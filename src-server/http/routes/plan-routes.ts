import type { FastifyInstance } from 'fastify';
import type { PlanResponse } from '../../../shared/api/preferences';
import type { GatewayContext } from '../../context';

/** GET /api/plan → PlanResponse: the account's plan and the features it includes. */
export function registerPlanRoutes(app: FastifyInstance, ctx: GatewayContext): void {
  app.get('/api/plan', async (request, reply): Promise<PlanResponse> => {
    const { accountId } = request.session;
    reply.header('Cache-Control', 'no-store');
    return ctx.plans.planOf(accountId);
  });
}
