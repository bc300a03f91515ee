import type { FastifyInstance } from 'fastify';
import type { GatewayContext } from '../context';
import { registerAnalyticsRoutes } from './routes/analytics-routes';
import { registerAutoCleanRoutes } from './routes/auto-clean-routes';
import { registerAuthRoutes } from './routes/auth-routes';
import { registerContactImportRoutes } from './routes/contact-import-routes';
import { registerContactListRoutes } from './routes/contact-list-routes';
import { registerContactRoutes } from './routes/contact-routes';
import { registerDeltaRoutes } from './routes/delta-routes';
import { registerDraftRoutes } from './routes/drafts-routes';
import { registerFilesRoutes } from './routes/files-routes';
import { registerFolderRoutes } from './routes/folder-routes';
import { registerHealthRoutes } from './routes/health-routes';
import { registerImageProxyRoutes } from './routes/image-proxy-routes';
import { registerIdentityRoutes } from './routes/identity-routes';
import { registerTemplateRoutes } from './routes/template-routes';
import { registerLabelRoutes } from './routes/label-routes';
import { registerUnsubscribeRoutes } from './routes/unsubscribe-routes';
import { registerMailActionRoutes } from './routes/mail-actions-routes';
import { registerMessageRoutes } from './routes/message-routes';
import { registerPlanRoutes } from './routes/plan-routes';
import { registerPreferenceRoutes } from './routes/preference-routes';
import { registerPushSocket } from './routes/push-socket';
import { registerRulesRoutes } from './routes/rules-routes';
import { registerSearchRoutes } from './routes/search-routes';
import { registerSecurityRoutes } from './routes/security-routes';
import { registerSendRoutes } from './routes/send-routes';
import { registerThreadRoutes } from './routes/thread-routes';
import { registerTimerRoutes } from './routes/timer-routes';

/**
 * A route file: registers its routes on the API scope, calling the services of the context.
 * Each route says what it needs in `config` (route-guards.ts: `auth`, `feature`); the
 * session is then `request.session`.
 */
export type RouteModule = (app: FastifyInstance, ctx: GatewayContext) => void | Promise<void>;

/** Every route file of the gateway, registered in this order. A new feature adds its file here. */
export const ROUTES: readonly RouteModule[] = [
  registerHealthRoutes,
  registerAuthRoutes,
  registerAnalyticsRoutes,
  registerDeltaRoutes,
  registerFolderRoutes,
  registerThreadRoutes,
  registerMessageRoutes,
  registerSearchRoutes,
  registerMailActionRoutes,
  registerDraftRoutes,
  registerSendRoutes,
  registerTimerRoutes,
  registerPreferenceRoutes,
  registerPlanRoutes,
  registerContactRoutes,
  registerContactImportRoutes,
  registerContactListRoutes,
  registerIdentityRoutes,
  registerTemplateRoutes,
  registerRulesRoutes,
  registerLabelRoutes,
  registerUnsubscribeRoutes,
  registerAutoCleanRoutes,
  registerSecurityRoutes,
  registerFilesRoutes,
  registerImageProxyRoutes,
  (app, ctx) => registerPushSocket(app, ctx),
];
