import type { FastifyInstance } from 'fastify';
import * as z from 'zod';
import {
  contactChangesQuerySchema,
  contactIdSchema,
  contactIdsRequestSchema,
  contactInputSchema,
  contactMergeRequestSchema,
  type Contact,
  type ContactChanges,
} from '../../../shared/api/contacts';
import { parseInput } from '../../actions/request-input';
import type { GatewayContext } from '../../context';

/** A card is a few lines; its notes at most 10,000 characters (CONTACT_LIMITS). */
const BODY_LIMIT = 256 * 1024;

const idParamsSchema = z.object({ id: contactIdSchema });

/** The address book's routes: shapes and errors in shared/api/contacts.ts. */
export function registerContactRoutes(app: FastifyInstance, ctx: GatewayContext): void {
  app.get('/api/contacts', async (request, reply): Promise<ContactChanges> => {
    const { since, limit } = parseInput(contactChangesQuerySchema, request.query);
    reply.header('Cache-Control', 'no-store');
    return ctx.contacts.changes(request.session.accountId, since, limit);
  });

  app.get('/api/contacts/:id', async (request, reply): Promise<Contact> => {
    const { id } = parseInput(idParamsSchema, request.params);
    reply.header('Cache-Control', 'no-store');
    return ctx.contacts.get(request.session.accountId, id);
  });

  app.put('/api/contacts/:id', { bodyLimit: BODY_LIMIT }, async (request): Promise<Contact> => {
    const { id } = parseInput(idParamsSchema, request.params);
    const card = parseInput(contactInputSchema, request.body, 'InvalidRequestData');
    return ctx.contacts.put(request.session.accountId, id, card);
  });

  app.delete('/api/contacts/:id', async (request): Promise<{ ok: true }> => {
    const { id } = parseInput(idParamsSchema, request.params);
    await ctx.contacts.delete(request.session.accountId, id);
    return { ok: true };
  });

  app.post('/api/contacts/restore', async (request): Promise<{ restored: number }> => {
    const { ids } = parseInput(contactIdsRequestSchema, request.body, 'InvalidRequestData');
    return { restored: await ctx.contacts.restore(request.session.accountId, ids) };
  });

  app.post('/api/contacts/merge', async (request): Promise<Contact> => {
    const { ids } = parseInput(contactMergeRequestSchema, request.body, 'InvalidRequestData');
    return ctx.contacts.merge(request.session.accountId, ids);
  });
}
