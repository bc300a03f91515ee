import type { FastifyInstance } from 'fastify';
import * as z from 'zod';
import { labelIdSchema, labelInputSchema, labelPatchSchema, type LabelsDoc } from '../../../shared/api/labels';
import { parseInput } from '../../actions/request-input';
import type { GatewayContext } from '../../context';

const idParamsSchema = z.object({ id: labelIdSchema });

/** The label table's routes (shapes and errors in shared/api/labels.ts); changes need the plan's `labels`. */
export function registerLabelRoutes(app: FastifyInstance, ctx: GatewayContext): void {
  app.get('/api/labels', async (request, reply): Promise<LabelsDoc> => {
    reply.header('Cache-Control', 'no-store');
    return ctx.labels.get(request.session.accountId);
  });

  app.post('/api/labels', { config: { feature: 'labels' } }, async (request): Promise<LabelsDoc> => {
    return ctx.labels.create(request.session.accountId, parseInput(labelInputSchema, request.body));
  });

  app.patch('/api/labels/:id', { config: { feature: 'labels' } }, async (request): Promise<LabelsDoc> => {
    const { id } = parseInput(idParamsSchema, request.params);
    return ctx.labels.update(request.session.accountId, Number(id), parseInput(labelPatchSchema, request.body));
  });

  app.delete('/api/labels/:id', { config: { feature: 'labels' } }, async (request): Promise<LabelsDoc> => {
    const { id } = parseInput(idParamsSchema, request.params);
    return ctx.labels.delete(request.session.accountId, Number(id));
  });
}
