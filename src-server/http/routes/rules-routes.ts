import type { FastifyInstance } from 'fastify';
import { rulesApplyRequestSchema, rulesPutRequestSchema, type RulesDoc } from '../../../shared/api/rules';
import { parseInput } from '../../actions/request-input';
import type { GatewayContext } from '../../context';

/** 200 filters of 20 long conditions is the most the schema allows; a little over 2 MB of JSON. */
const BODY_LIMIT = 4 * 1024 * 1024;

/** GET /api/rules → RulesDoc; PUT /api/rules { rules, baseRevision } → RulesDoc; POST /api/rules/apply { filter } → { matched } (shared/api/rules.ts). */
export function registerRulesRoutes(app: FastifyInstance, ctx: GatewayContext): void {
  app.get('/api/rules', async (request, reply): Promise<RulesDoc> => {
    reply.header('Cache-Control', 'no-store');
    return ctx.rules.get(request.session.accountId);
  });

  app.post('/api/rules/apply', async (request, reply): Promise<{ matched: number }> => {
    const { filter } = parseInput(rulesApplyRequestSchema, request.body, 'InvalidParameter');
    reply.header('Cache-Control', 'no-store');
    return ctx.rules.applyToExisting({ accountId: request.session.accountId, filter });
  });

  app.put('/api/rules', { bodyLimit: BODY_LIMIT }, async (request, reply): Promise<RulesDoc> => {
    const { rules, baseRevision } = parseInput(rulesPutRequestSchema, request.body, 'InvalidParameter');
    reply.header('Cache-Control', 'no-store');
    return ctx.rules.save({ accountId: request.session.accountId, rules, baseRevision });
  });
}
