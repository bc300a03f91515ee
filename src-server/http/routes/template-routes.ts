import type { FastifyInstance } from 'fastify';
import * as z from 'zod';
import { templateChangesQuerySchema, templateIdSchema, templateInputSchema, type Template, type TemplateChanges } from '../../../shared/templates';
import { parseInput } from '../../actions/request-input';
import type { GatewayContext } from '../../context';

/** A template is at most MAX_TEMPLATE_CHARS of HTML (a zod cap of four times that, so the service can say TemplateTooLarge). */
const BODY_LIMIT = 512 * 1024;

const idParamsSchema = z.object({ id: templateIdSchema });

/** The templates' routes: shapes and errors in shared/templates.ts. */
export function registerTemplateRoutes(app: FastifyInstance, ctx: GatewayContext): void {
  app.get('/api/templates', async (request, reply): Promise<TemplateChanges> => {
    const { since, limit } = parseInput(templateChangesQuerySchema, request.query);
    reply.header('Cache-Control', 'no-store');
    return ctx.templates.changes(request.session.accountId, since, limit);
  });

  app.put('/api/templates/:id', { bodyLimit: BODY_LIMIT }, async (request): Promise<Template> => {
    const { id } = parseInput(idParamsSchema, request.params);
    const template = parseInput(templateInputSchema, request.body);
    return ctx.templates.put(request.session.accountId, id, template);
  });

  app.delete('/api/templates/:id', async (request): Promise<{ ok: true }> => {
    const { id } = parseInput(idParamsSchema, request.params);
    await ctx.templates.delete(request.session.accountId, id);
    return { ok: true };
  });
}
