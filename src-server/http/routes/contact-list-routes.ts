import type { FastifyInstance } from 'fastify';
import * as z from 'zod';
import { contactListInputSchema, type ContactList, type ContactListChanges } from '../../../shared/api/contact-lists';
import type { Address } from '../../../shared/api/mail';
import { contactIdSchema } from '../../../shared/contacts';
import { parseInput } from '../../actions/request-input';
import type { GatewayContext } from '../../context';

const idParamsSchema = z.object({ id: contactIdSchema });
const changesQuerySchema = z.object({ since: z.string().max(100).default(''), limit: z.coerce.number().int().min(1).max(1000).default(500) });
/** Every route is gated on the plan's contact groups (FeatureNotInPlan 402). */
const gated = { config: { feature: 'contactGroups' as const } };

/** Contact lists (the spec's contact groups): shapes and errors in shared/api/contact-lists.ts. */
export function registerContactListRoutes(app: FastifyInstance, ctx: GatewayContext): void {
  app.get('/api/contact-lists', gated, async (request, reply): Promise<ContactListChanges> => {
    const { since, limit } = parseInput(changesQuerySchema, request.query);
    reply.header('Cache-Control', 'no-store');
    return ctx.contactLists.changes(request.session.accountId, since, limit);
  });

  app.put('/api/contact-lists/:id', gated, async (request): Promise<ContactList> => {
    const { id } = parseInput(idParamsSchema, request.params);
    const input = parseInput(contactListInputSchema, request.body, 'InvalidRequestData');
    return ctx.contactLists.put(request.session.accountId, id, input);
  });

  app.delete('/api/contact-lists/:id', gated, async (request): Promise<{ ok: true }> => {
    const { id } = parseInput(idParamsSchema, request.params);
    await ctx.contactLists.delete(request.session.accountId, id);
    return { ok: true };
  });

  app.get('/api/contact-lists/:id/recipients', gated, async (request, reply): Promise<{ recipients: Address[] }> => {
    const { id } = parseInput(idParamsSchema, request.params);
    reply.header('Cache-Control', 'no-store');
    return { recipients: await ctx.contactLists.recipients(request.session.accountId, id) };
  });
}
