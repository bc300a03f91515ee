import type { FastifyInstance, FastifyRequest } from 'fastify';
import { loginRequestSchema } from '../../../shared/api/account';
import type { GatewayContext } from '../../context';

/** A login body is two short strings; anything near this size is not a login. */
const LOGIN_BODY_LIMIT = 16 * 1024;

const HOST_HEADER = /^[a-z0-9.-]+(?::\d{1,5})?$|^\[[0-9a-f:.]+\](?::\d{1,5})?$/i;

/** The first value of a header a chain of proxies may have appended to. */
const firstValue = (header: string | string[] | undefined) => String(header ?? '').split(',')[0]?.trim() ?? '';

/**
 * The API base a client should use for the account: the origin it reached us on plus
 * `/api`. A TLS-terminating proxy tells us the public origin with X-Forwarded-Proto and
 * X-Forwarded-Host; without them it is the connection's own scheme and Host. (The value
 * only goes back to the same client, so a forged header fools nobody else.) Malformed
 * values are skipped; with no usable host the gateway's own address is used.
 */
export function apiBaseUrl(request: FastifyRequest, fallbackHost: string): string {
  const proto = firstValue(request.headers['x-forwarded-proto']).toLowerCase();
  const scheme = proto === 'https' || proto === 'http' ? proto : request.protocol;
  const host = [firstValue(request.headers['x-forwarded-host']), request.headers.host ?? ''].find((name) => HOST_HEADER.test(name));
  return `${scheme}://${host ?? fallbackHost}/api`;
}

/** POST /api/login, POST /api/login/check, POST /api/logout, GET /api/session. */
export function registerAuthRoutes(app: FastifyInstance, ctx: GatewayContext): void {
  const { login } = ctx;
  const fallbackHost = `${ctx.config.host}:${ctx.config.port}`;

  app.post('/api/login', { bodyLimit: LOGIN_BODY_LIMIT, config: { auth: 'public' } }, async (request, reply) => {
    // The reply carries the session token: no cache (browser, proxy, CDN) may keep it. Set
    // first, so a refusal is not cached either.
    reply.header('Cache-Control', 'no-store');
    const { email, password, ...answer } = loginRequestSchema.parse(request.body ?? {});
    return login.login({ email, password, answer, userAgent: request.headers['user-agent'], ip: request.ip, baseUrl: apiBaseUrl(request, fallbackHost) });
  });

  // The email step: whether the address's domain can be served, before the password is asked for.
  app.post('/api/login/check', { bodyLimit: LOGIN_BODY_LIMIT, config: { auth: 'public' } }, async (request, reply) => {
    reply.header('Cache-Control', 'no-store');
    return login.checkAddress({ email: (request.body as { email?: unknown } | null)?.email, ip: request.ip });
  });

  // Ends this token's session only: the same browser's other accounts stay logged in.
  app.post('/api/logout', { config: { passwordCheck: false } }, async (request, reply) => {
    await ctx.sessions.end(request.session);
    return reply.code(204).send();
  });

  // Lets the worker check a stored token without a full sync.
  app.get('/api/session', async (request, reply) => {
    reply.header('Cache-Control', 'no-store');
    return login.sessionAccount(request.session.accountId);
  });
}
