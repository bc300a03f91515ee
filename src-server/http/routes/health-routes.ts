import type { FastifyInstance } from 'fastify';
import { APP_VERSION } from '../../../shared/app-info';

/** GET /api/health → { ok, version }: for a supervisor or a balancer; needs no session. */
export function registerHealthRoutes(app: FastifyInstance): void {
  app.get('/api/health', { config: { auth: 'public' } }, async () => ({ ok: true, version: APP_VERSION }));
}
