import type { InjectOptions, RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ROUTES } from '../../../../src-server/http/routes';
import { startTestApp, type TestApp } from './gateway-app-fixture';

/** Every route the API scope registers, as declared (collected by a route module placed first). */
const declared: RouteOptions[] = [];
let gateway: TestApp;
let token: string;
beforeAll(async () => {
  gateway = await startTestApp({
    routes: [
      (api) => void api.addHook('onRoute', (route) => void declared.push(route)),
      ...ROUTES,
      // A route gated on a feature, as a feature's route file declares one.
      (api) => void api.get('/api/test/labels', { config: { feature: 'labels' } }, async (request) => ({ accountId: request.session.accountId })),
      // A public route that reads the session anyway: a bug the guard makes loud.
      (api) => void api.get('/api/test/public', { config: { auth: 'public' } }, async (request) => ({ accountId: request.session.accountId })),
    ],
  });
  const login = await gateway.app.inject({ method: 'POST', url: '/api/login', payload: { email: 'alice@tern.test', password: 'Alice-pass-1!' } });
  token = (login.json() as { token: string }).token;
});
afterAll(async () => gateway.close());

// As inject's method: light-my-request (pinned to 6.6.0 in package.json) names fewer methods than fastify's routes may, none of which the gateway declares.
const methodsOf = (route: RouteOptions) => (Array.isArray(route.method) ? route.method : [route.method]).filter((method) => method !== 'HEAD') as NonNullable<InjectOptions['method']>[];
/** A concrete URL for a route pattern (any id: the guard answers before the handler looks). */
const urlOf = (pattern: string) => pattern.replace(/:(\w+)/g, (_, name: string) => (name === 'index' ? '0' : '1'));
const ours = (route: RouteOptions) => !route.url.startsWith('/api/test/');

describe('the session guard', () => {
  test('only login, health, pre-login analytics, a signed preview, a signed proxied image and the push socket are public', () => {
    const open = declared.filter((route) => ours(route) && route.config?.auth === 'public').map((route) => route.url);
    expect(new Set(open)).toEqual(new Set(['/api/health', '/api/login', '/api/login/check', '/api/analytics/addPreAuthEvents', '/api/attachment-preview/:token', '/api/proxy/image', '/ae/ws/create']));
  });

  test('every other route refuses a request without a token: API routes TokenParamMissing 400, downloads UNAUTHENTICATED 401', async () => {
    const guarded = declared.filter((route) => ours(route) && route.config?.auth !== 'public');
    expect(guarded.length).toBeGreaterThan(30);
    const downloads: string[] = [];
    for (const route of guarded) {
      for (const method of methodsOf(route)) {
        const response = await gateway.app.inject({ method, url: urlOf(route.url) });
        const expected = route.config?.auth === 'download' ? [401, 'UNAUTHENTICATED'] : [400, 'TokenParamMissing'];
        expect([method, route.url, response.statusCode, (response.json() as { error: string }).error]).toEqual([method, route.url, ...expected]);
        if (route.config?.auth === 'download') downloads.push(route.url);
      }
    }
    expect(downloads.sort()).toEqual(['/api/messages/:id/attachments/:index', '/api/messages/:id/original']);
  });

  test('a made-up token is InvalidToken 401 on API and download routes alike', async () => {
    for (const url of ['/api/folders', '/api/preferences', '/api/messages/1/original']) {
      const response = await gateway.app.inject({ url, headers: { authorization: 'Bearer not-a-session' } });
      expect([url, response.statusCode, (response.json() as { error: string }).error]).toEqual([url, 401, 'InvalidToken']);
    }
  });

  test('a live token reaches the handler as request.session', async () => {
    const response = await gateway.app.inject({ url: '/api/test/labels', headers: { authorization: `Bearer ${token}` } });
    expect(response.json()).toEqual({ accountId: (await gateway.ctx.sessions.verify(token)).accountId });
  });

  test('a public route that reads request.session fails as a bug (500), never as some session', async () => {
    const response = await gateway.app.inject({ url: '/api/test/public', headers: { authorization: `Bearer ${token}` } });
    expect([response.statusCode, (response.json() as { error: string }).error]).toEqual([500, 'InternalServerError']);
  });
});

describe('the feature guard (config.feature)', () => {
  test('free: FeatureNotInPlan 402 naming the feature; paid: through', async () => {
    const headers = { authorization: `Bearer ${token}` };
    const accountId = (await gateway.ctx.sessions.verify(token)).accountId;
    await gateway.ctx.plans.setPlan(accountId, 'free');
    const refused = await gateway.app.inject({ url: '/api/test/labels', headers });
    expect(refused.statusCode).toBe(402);
    expect(refused.json()).toMatchObject({ error: 'FeatureNotInPlan', detail: { feature: 'labels' } });
    await gateway.ctx.plans.setPlan(accountId, 'paid');
    expect((await gateway.app.inject({ url: '/api/test/labels', headers })).statusCode).toBe(200);
  });

  test('no token on a gated route is still TokenParamMissing: the session is checked before the plan', async () => {
    const response = await gateway.app.inject({ url: '/api/test/labels' });
    expect([response.statusCode, (response.json() as { error: string }).error]).toEqual([400, 'TokenParamMissing']);
  });
});
