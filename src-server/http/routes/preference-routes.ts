import type { FastifyInstance } from 'fastify';
import { preferencesPatchRequestSchema, type PreferencesDoc } from '../../../shared/api/preferences';
import { parseInput } from '../../actions/request-input';
import type { GatewayContext } from '../../context';

/** A patch names a few short choices; anything near this is not one. */
const BODY_LIMIT = 16 * 1024;

/**
 * GET /api/preferences → PreferencesDoc (defaults at revision 0 before the first change)
 * PATCH /api/preferences { values } → PreferencesDoc; a bad patch InvalidRequestData 400, a key
 *   whose feature the plan lacks FeatureNotInPlan 402 (shared/api/preferences.ts).
 */
export function registerPreferenceRoutes(app: FastifyInstance, ctx: GatewayContext): void {
  app.get('/api/preferences', async (request, reply): Promise<PreferencesDoc> => {
    const { accountId } = request.session;
    reply.header('Cache-Control', 'no-store');
    return ctx.preferences.get(accountId);
  });

  app.patch('/api/preferences', { bodyLimit: BODY_LIMIT }, async (request, reply): Promise<PreferencesDoc> => {
    const { accountId } = request.session;
    const { values } = parseInput(preferencesPatchRequestSchema, request.body, 'InvalidRequestData');
    reply.header('Cache-Control', 'no-store');
    return ctx.preferences.patch({ accountId, patch: values });
  });
}
