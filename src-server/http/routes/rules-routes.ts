import type { FastifyInstance } from 'fastify';
import { forwardingCheckRequestSchema, type ForwardingCheckResult } from '../../../shared/mail-rules';
import { rulesApplyRequestSchema, rulesPutRequestSchema, type RuleRun, type RulesActivity, type RulesDoc } from '../../../shared/api/rules';
import { parseInput } from '../../actions/request-input';
import type { GatewayContext } from '../../context';

/** 200 filters of 20 long conditions is the most the schema allows; a little over 2 MB of JSON. */
const BODY_LIMIT = 4 * 1024 * 1024;

/** GET /api/rules → RulesDoc; PUT /api/rules { rules, baseRevision } → RulesDoc; POST /api/rules/apply { filter } → 202 { run }; GET /api/rules/activity (shared/api/rules.ts). */
export function registerRulesRoutes(app: FastifyInstance, ctx: GatewayContext): void {
  app.get('/api/rules', async (request, reply): Promise<RulesDoc> => {
    reply.header('Cache-Control', 'no-store');
    return ctx.rules.get(request.session.accountId);
  });

  app.get('/api/rules/activity', async (request, reply): Promise<RulesActivity> => {
    reply.header('Cache-Control', 'no-store');
    return ctx.rules.activity(request.session.accountId);
  });

  app.post('/api/rules/apply', async (request, reply): Promise<{ run: RuleRun }> => {
    const { filter } = parseInput(rulesApplyRequestSchema, request.body, 'InvalidParameter');
    reply.header('Cache-Control', 'no-store');
    const run = await ctx.rules.applyToExisting({ accountId: request.session.accountId, filter });
    // Accepted: the job goes on after the answer; its progress comes through delta.
    reply.code(202);
    return { run };
  });

  // Waits for the test message (up to ~45 s): the engine gives this request a longer timeout.
  app.post('/api/rules/forwarding-check', async (request, reply): Promise<ForwardingCheckResult> => {
    const { address } = parseInput(forwardingCheckRequestSchema, request.body, 'InvalidParameter');
    reply.header('Cache-Control', 'no-store');
    return ctx.rules.checkForwarding({ accountId: request.session.accountId, address });
  });

  app.put('/api/rules', { bodyLimit: BODY_LIMIT }, async (request, reply): Promise<RulesDoc> => {
    const { rules, baseRevision } = parseInput(rulesPutRequestSchema, request.body, 'InvalidParameter');
    reply.header('Cache-Control', 'no-store');
    return ctx.rules.save({ accountId: request.session.accountId, rules, baseRevision });
  });
}
