import Fastify, { type FastifyInstance } from 'fastify';
import { APP_VERSION } from '../../shared/app-info';
import type { GatewayContext } from '../context';
import { createWriteStream } from 'node:fs';
import { join } from 'node:path';
import { registerApiLog, type ApiLogLine } from './api-log';
import { registerErrorReplies } from './errors';
import { registerAnalyticsRoutes } from './routes/analytics-routes';
import { registerAuthRoutes } from './routes/auth-routes';
import { registerDeltaRoutes } from './routes/delta-routes';
import { registerDraftRoutes } from './routes/drafts-routes';
import { registerFilesRoutes } from './routes/files-routes';
import { registerFolderRoutes } from './routes/folder-routes';
import { registerMailActionRoutes } from './routes/mail-actions-routes';
import { registerMessageRoutes } from './routes/message-routes';
import { registerPushSocket } from './routes/push-socket';
import { registerSearchRoutes } from './routes/search-routes';
import { registerSendRoutes } from './routes/send-routes';
import { registerThreadRoutes } from './routes/thread-routes';
import { registerStaticShell } from './static-shell';

/**
 * Builds the gateway's HTTP app; listening is the caller's business (tests use inject).
 * The API log goes to `<dataDir>/api.log` as JSON lines unless `apiLog` takes it.
 */
export async function createApp(ctx: GatewayContext, options: { apiLog?: (line: ApiLogLine) => void } = {}): Promise<FastifyInstance> {
  const app = Fastify({ logger: false, bodyLimit: 1024 * 1024 });
  registerErrorReplies(app);
  if (options.apiLog) registerApiLog(app, options.apiLog);
  else {
    const file = createWriteStream(join(ctx.config.dataDir, 'api.log'), { flags: 'a', mode: 0o600 });
    registerApiLog(app, (line) => file.write(`${JSON.stringify({ at: new Date().toISOString(), ...line })}\n`));
    app.addHook('onClose', async () => void file.end());
  }
  app.get('/api/health', async () => ({ ok: true, version: APP_VERSION }));
  registerAuthRoutes(app, ctx);
  registerAnalyticsRoutes(app, ctx);
  registerDeltaRoutes(app, ctx);
  registerFolderRoutes(app, ctx);
  registerThreadRoutes(app, ctx);
  registerMessageRoutes(app, ctx);
  registerSearchRoutes(app, ctx);
  registerMailActionRoutes(app, ctx);
  registerDraftRoutes(app, ctx);
  registerSendRoutes(app, ctx);
  await registerFilesRoutes(app, ctx);
  await registerPushSocket(app, ctx);
  // Mirrors run while the gateway does: resumed for accounts with live sessions, logged out on close.
  app.addHook('onReady', async () => ctx.mirrors.startActive());
  app.addHook('onClose', async () => ctx.mirrors.stopAll());
  // The outbox sends what a previous run left as soon as the gateway is up.
  app.addHook('onReady', async () => ctx.mailWrites.start());
  app.addHook('onClose', async () => ctx.mailWrites.stop());
  await registerStaticShell(app, ctx.config.publicDir);
  return app;
}
