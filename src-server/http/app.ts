import Fastify, { type FastifyInstance } from 'fastify';
import { APP_VERSION } from '../../shared/app-info';
import type { GatewayContext } from '../context';
import { registerErrorReplies } from './errors';
import { registerAuthRoutes } from './routes/auth-routes';
import { registerDeltaRoutes } from './routes/delta-routes';
import { registerPushSocket } from './routes/push-socket';
import { registerStaticShell } from './static-shell';

/** Builds the gateway's HTTP app; listening is the caller's business (tests use inject). */
export async function createApp(ctx: GatewayContext): Promise<FastifyInstance> {
  const app = Fastify({ logger: false, bodyLimit: 1024 * 1024 });
  registerErrorReplies(app);
  app.get('/api/health', async () => ({ ok: true, version: APP_VERSION }));
  registerAuthRoutes(app, ctx);
  registerDeltaRoutes(app, ctx);
  await registerPushSocket(app, ctx);
  // Mirrors run while the gateway does: resumed for accounts with live sessions, logged out on close.
  app.addHook('onReady', async () => ctx.mirrors.startActive());
  app.addHook('onClose', async () => ctx.mirrors.stopAll());
  await registerStaticShell(app, ctx.config.publicDir);
  return app;
}
