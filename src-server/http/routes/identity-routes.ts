import type { FastifyInstance } from 'fastify';
import * as z from 'zod';
import { identityIdSchema, identityInputSchema, type IdentitiesDoc } from '../../../shared/identities';
import { parseInput } from '../../actions/request-input';
import type { GatewayContext } from '../../context';

/** An identity is a few short fields and a signature of at most MAX_SIGNATURE_CHARS (a zod cap of four times that). */
const BODY_LIMIT = 256 * 1024;

const idParamsSchema = z.object({ id: identityIdSchema });

/** The identities' routes: shapes and errors in shared/identities.ts. */
export function registerIdentityRoutes(app: FastifyInstance, ctx: GatewayContext): void {
  app.get('/api/identities', async (request, reply): Promise<IdentitiesDoc> => {
    reply.header('Cache-Control', 'no-store');
    return ctx.identities.doc(request.session.accountId);
  });

  app.put('/api/identities/:id', { bodyLimit: BODY_LIMIT }, async (request, reply): Promise<IdentitiesDoc> => {
    const { id } = parseInput(idParamsSchema, request.params);
    const identity = parseInput(identityInputSchema, request.body);
    reply.header('Cache-Control', 'no-store');
    return ctx.identities.put(request.session.accountId, id, identity);
  });

  app.delete('/api/identities/:id', async (request, reply): Promise<IdentitiesDoc> => {
    const { id } = parseInput(idParamsSchema, request.params);
    reply.header('Cache-Control', 'no-store');
    return ctx.identities.delete(request.session.accountId, id);
  });
}
