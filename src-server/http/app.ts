import Fastify, { type FastifyInstance } from 'fastify';
import type { GatewayConfig } from '../config';
import type { GatewayContext } from '../context';
import { chmodSync, createWriteStream } from 'node:fs';
import { join } from 'node:path';
import { registerApiLog, type ApiLogLine } from './api-log';
import { registerReplyCompression } from './compress-replies';
import { frameworkErrorReply, registerErrorReplies } from './errors';
import { requestLogOptions, type RequestLogOptions } from './request-log';
import { registerRouteGuards } from './route-guards';
import { ROUTES, type RouteModule } from './routes';
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
  /** The route files to serve (default: ROUTES, every route of the gateway). */
  readonly routes?: readonly RouteModule[];
}

/**
 * Builds the gateway's HTTP app; listening is the caller's business (tests use inject).
 * The API log goes to `<dataDir>/api.log` as JSON lines unless `apiLog` takes it.
 */
export async function createApp(ctx: GatewayContext, options: AppOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({ ...requestLogOptions(options.log), frameworkErrors: frameworkErrorReply, trustProxy: trustProxyOption(ctx.config.trustProxy), bodyLimit: 1024 * 1024 });
  registerErrorReplies(app);
  registerReplyCompression(app);
  if (options.apiLog) registerApiLog(app, options.apiLog);
  else {
    const path = join(ctx.config.dataDir, 'api.log');
    const file = createWriteStream(path, { flags: 'a', mode: 0o600 });
    // The mode above only applies to a new file; one an older version made stays private too.
    file.once('open', () => chmodSync(path, 0o600));
    registerApiLog(app, (line) => file.write(`${JSON.stringify({ at: new Date().toISOString(), ...line })}\n`));
    app.addHook('onClose', async () => void file.end());
  }
  // The API in one scope: its guard resolves each request's session and checks the plan as the
  // route's config asks. The static shell and the not-found reply stay outside, needing neither.
  await app.register(async (api) => {
    registerRouteGuards(api, ctx);
    for (const register of options.routes ?? ROUTES) await register(api, ctx);
  });
  // Mirrors run while the gateway does: resumed for accounts with live sessions, logged out on close.
  app.addHook('onReady', async () => ctx.mirrors.startActive());
  app.addHook('onClose', async () => ctx.mirrors.stopAll());
  // Background mail work, and the node's job worker (the outbox's sends among its jobs), run
  // as soon as the gateway is up; a stop hands the claims of jobs still running back.
  app.addHook('onReady', async () => ctx.mailWrites.start());
  app.addHook('onClose', async () => ctx.mailWrites.stop());
  app.addHook('onReady', async () => ctx.jobs.worker.start());
  app.addHook('onClose', async () => ctx.jobs.worker.stop());
  // Mirrored mail becomes searchable in the background, so a search rarely has to index first.
  app.addHook('onReady', async () => ctx.rules.start());
  app.addHook('onClose', async () => ctx.rules.stop());
  app.addHook('onReady', async () => ctx.searchIndexer.start());
  app.addHook('onClose', async () => ctx.searchIndexer.stop());
  await registerStaticShell(app, ctx.config.publicDir);
  return app;
}
