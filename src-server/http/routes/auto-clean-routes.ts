import type { FastifyInstance } from 'fastify';
import * as z from 'zod';
import { autoCleanInputSchema, type AutoCleanDoc, type AutoCleanPreview, type AutoCleanRun } from '../../../shared/auto-clean';
import { parseInput } from '../../actions/request-input';
import type { GatewayContext } from '../../context';

const idParamsSchema = z.object({ id: z.string().regex(/^[1-9]\d{0,15}$/) });

/**
 * Auto-clean (issue 17 point 3; shapes and checks in shared/auto-clean.ts):
 *   GET    /api/auto-clean                  → AutoCleanDoc (the rules and the log of runs)
 *   POST   /api/auto-clean/preview  input   → AutoCleanPreview: the dry run, nothing saved or moved
 *   POST   /api/auto-clean/rules    input   → AutoCleanDoc (AutoCleanRuleInvalid 400 with detail.fields,
 *          AutoCleanConfirmRequired 409 for an enabled rule that would touch everything, AutoCleanLimitReached 403)
 *   PUT    /api/auto-clean/rules/:id input  → AutoCleanDoc
 *   DELETE /api/auto-clean/rules/:id        → AutoCleanDoc
 *   POST   /api/auto-clean/rules/:id/run    → AutoCleanRun: Run now
 *   POST   /api/auto-clean/runs/:id/undo    → AutoCleanRun (AutoCleanUndoUnavailable 410)
 * Everything but reading is the plan's `autoClean` (FeatureNotInPlan 402).
 */
export function registerAutoCleanRoutes(app: FastifyInstance, ctx: GatewayContext): void {
  const gated = { config: { feature: 'autoClean' as const } };

  app.get('/api/auto-clean', async (request, reply): Promise<AutoCleanDoc> => {
    reply.header('Cache-Control', 'no-store');
    return ctx.autoClean.doc(request.session.accountId);
  });

  app.post('/api/auto-clean/preview', gated, async (request, reply): Promise<AutoCleanPreview> => {
    reply.header('Cache-Control', 'no-store');
    return ctx.autoClean.preview(request.session.accountId, parseInput(autoCleanInputSchema, request.body, 'InvalidRequestData'));
  });

  app.post('/api/auto-clean/rules', gated, async (request): Promise<AutoCleanDoc> => {
    return ctx.autoClean.create(request.session.accountId, parseInput(autoCleanInputSchema, request.body, 'InvalidRequestData'));
  });

  app.put('/api/auto-clean/rules/:id', gated, async (request): Promise<AutoCleanDoc> => {
    const { id } = parseInput(idParamsSchema, request.params);
    return ctx.autoClean.update(request.session.accountId, Number(id), parseInput(autoCleanInputSchema, request.body, 'InvalidRequestData'));
  });

  app.delete('/api/auto-clean/rules/:id', gated, async (request): Promise<AutoCleanDoc> => {
    const { id } = parseInput(idParamsSchema, request.params);
    return ctx.autoClean.remove(request.session.accountId, Number(id));
  });

  app.post('/api/auto-clean/rules/:id/run', gated, async (request): Promise<AutoCleanRun> => {
    const { id } = parseInput(idParamsSchema, request.params);
    return ctx.autoClean.runNow(request.session.accountId, Number(id));
  });

  app.post('/api/auto-clean/runs/:id/undo', gated, async (request): Promise<AutoCleanRun> => {
    const { id } = parseInput(idParamsSchema, request.params);
    return ctx.autoClean.undo(request.session.accountId, Number(id));
  });
}
