import Fastify, { type FastifyInstance } from 'fastify';
import { APP_VERSION } from '../../shared/app-info';
import type { GatewayConfig } from '../config';
import { registerStaticShell } from './static-shell';

/** Builds the gateway's HTTP app; listening is the caller's business (tests use inject). */
export async function createApp(config: GatewayConfig): Promise<FastifyInstance> {
  const app = Fastify({ logger: false, bodyLimit: 1024 * 1024 });
  app.get('/api/health', async () => ({ ok: true, version: APP_VERSION }));
  await registerStaticShell(app, config.publicDir);
  return app;
}
