import Fastify, { type FastifyInstance } from 'fastify';
import { APP_VERSION } from '../../shared/app-info';
import type { GatewayConfig } from '../config';
import type { GatewayContext } from '../context';
import { chmodSync, createWriteStream } from 'node:fs';
import { join } from 'node:path';
import { registerApiLog, type ApiLogLine } from './api-log';
import { frameworkErrorReply, registerErrorReplies } from './errors';
import { requestLogOptions, type RequestLogOptions } from './request-log';
import { registerAnalyticsRoutes } from './routes/analytics-routes';
import { registerAuthRoutes } from './routes/auth-routes';
import { registerDeltaRoutes } from './routes/delta-routes';
import { registerDraftRoutes } from './routes/drafts-routes';
import { registerFilesRoutes } from './routes/files-routes';
import { registerFolderRoutes } from './routes/folder-routes';
import { registerMailActionRoutes } from './routes/mail-actions-routes';
import { registerMessageRoutes } from './routes/message-routes';
import { registerPlanRoutes } from './routes/plan-routes';
import { registerPreferenceRoutes } from './routes/preference-routes';
import { registerPushSocket } from './routes/push-socket';
import { registerSearchRoutes } from './routes/search-routes';
import { registerSendRoutes } from './routes/send-routes';
import { registerThreadRoutes } from './routes/thread-routes';
import { registerStaticShell } from './static-shell';

/** TERN_TRUST_PROXY as Fastify takes it (a hop count as the function proxy-addr would make of it). */
function trustProxyOption(setting: GatewayConfig['trustProxy']): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (typeof setting === 'number') return (_address, hop) => hop < setting;
  return setting === false ? false : [...setting];
}

export interface AppOptions {
  /** Takes the API log's lines instead of `<dataDir>/api.log`. */
  readonly apiLog?: (line: ApiLogLine) => void;
  /** The operator's log (one line per request, errors with their stacks); none when absent. */
  readonly log?: RequestLogOptions;
}

/**
 * Builds the gateway's HTTP app; listening is the caller's business (tests use inject).
 * The API log goes to `<dataDir>/api.log` as JSON lines unless `apiLog` takes it.
 */
export async function createApp(ctx: GatewayContext, options: AppOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({ ...requestLogOptions(options.log), frameworkErrors: frameworkErrorReply, trustProxy: trustProxyOption(ctx.config.trustProxy), bodyLimit: 1024 * 1024 });
  registerErrorReplies(app);
  if (options.apiLog) registerApiLog(app, options.apiLog);
  else {
    const path = join(ctx.config.dataDir, 'api.log');
    const file = createWriteStream(path, { flags: 'a', mode: 0o600 });
    // The mode above only applies to a new file; one an older version made stays private too.
    file.once('open', () => chmodSync(path, 0o600));
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
  registerPreferenceRoutes(app, ctx);
  registerPlanRoutes(app, ctx);
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
