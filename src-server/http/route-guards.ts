import type { FastifyInstance, FastifyRequest } from 'fastify';
import { TernError } from '../../shared/errors';
import type { Feature } from '../../shared/plans';
import type { Session, SessionStore } from '../accounts/session-store';
import type { PlanService } from '../plans/plan-service';

/**
 * What a route needs before its handler runs (`config: { auth }`; 'session' when unsaid):
 *   'session'  — an API call: `Authorization: Bearer <token>`; none is TokenParamMissing 400
 *                (a client that forgot a parameter), a dead one InvalidToken 401.
 *   'download' — a file the browser may open itself (a link, a new tab, a download manager),
 *                which sends no token: none is UNAUTHENTICATED 401, as HTTP means it.
 *   'public'   — no session (login, health, a signed preview link, the push socket, which
 *                reads its token from `?st=` and refuses with a close code).
 */
export type RouteAuth = 'session' | 'download' | 'public';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** What the route needs before its handler runs (route-guards.ts); 'session' when unsaid. */
    auth?: RouteAuth;
    /** The plan feature the route is gated on: without it, FeatureNotInPlan 402 (detail.feature). */
    feature?: Feature;
    /** false: answered even when the mail server refuses the stored password (logout must still work). */
    passwordCheck?: false;
  }
  interface FastifyRequest {
    /** The caller's session, resolved once by the guard; reading it on a 'public' route is a bug. */
    readonly session: Session;
    /** Where the guard keeps it (use `session`). */
    resolvedSession: Session | null;
  }
}

/** The token of `Authorization: Bearer <token>`, if any. */
function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  return typeof header === 'string' && header.startsWith('Bearer ') ? header.slice(7).trim() : undefined;
}

async function resolveSession(sessions: SessionStore, request: FastifyRequest, auth: Exclude<RouteAuth, 'public'>): Promise<Session> {
  try {
    return await sessions.verify(bearerToken(request));
  } catch (error) {
    if (auth === 'download' && error instanceof TernError && error.name === 'TokenParamMissing') throw new TernError('UNAUTHENTICATED');
    throw error;
  }
}

/**
 * Resolves the session once per request and checks the plan's feature, as each route's
 * config asks, for every route registered in `app` (an encapsulated scope: the static
 * shell and the not-found reply outside it need neither). Runs as preHandler, after the
 * body is parsed, so a malformed body is refused as before the guard existed.
 */
export function registerRouteGuards(
  app: FastifyInstance,
  deps: {
    sessions: SessionStore;
    plans: PlanService;
    /** The account's mirror on this node, whose state says whether the mail server still takes the stored password. */
    mirrors?: { get(accountId: number): { readonly state: string } | undefined };
  },
): void {
  app.decorateRequest('resolvedSession', null);
  app.decorateRequest('session', {
    getter(this: FastifyRequest): Session {
      if (!this.resolvedSession) throw new Error(`${this.routeOptions.url} reads request.session but is not a session route`);
      return this.resolvedSession;
    },
  });
  app.addHook('preHandler', async (request) => {
    const { auth = 'session', feature } = request.routeOptions.config;
    if (auth === 'public') return;
    request.resolvedSession = await resolveSession(deps.sessions, request, auth);
    // The password was changed at the provider: the mirror's login is refused, so every answer
    // would be stale. The spec's PasswordChanged 403 ("please relogin"): the client signs in again
    // with the new password, which the login checks, seals and hands to the mirror (it wakes).
    if (request.routeOptions.config.passwordCheck !== false && deps.mirrors?.get(request.resolvedSession.accountId)?.state === 'auth-failed') {
      throw new TernError('PasswordChanged');
    }
    if (feature) await deps.plans.require(request.resolvedSession.accountId, feature);
  });
}
