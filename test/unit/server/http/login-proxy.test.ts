import { afterEach, describe, expect, test } from 'vitest';
import { startTestApp, type TestApp } from './gateway-app-fixture';

let gateway: TestApp | undefined;
afterEach(async () => {
  await gateway?.close();
  gateway = undefined;
});

/** A login as the proxy forwards it: inject's socket is 127.0.0.1, the proxy; the client is in X-Forwarded-For. */
async function login(app: TestApp['app'], params: { email: string; password: string; client: string }) {
  const response = await app.inject({
    method: 'POST',
    url: '/api/login',
    headers: { 'x-forwarded-for': params.client },
    payload: { email: params.email, password: params.password },
  });
  const error = (response.json() as { error?: string }).error;
  // A 429 says when to come back, in its body and in Retry-After.
  if (response.statusCode === 429) expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
  return { status: response.statusCode, error };
}

/** 30 wrong passwords over 30 addresses from one client, then one more (the slow lane's). */
async function spray(app: TestApp['app'], client: string) {
  for (let i = 0; i < 31; i++) expect(await login(app, { email: `user${i}@tern.test`, password: 'Summer-2026!', client })).toEqual({ status: 401, error: 'AuthenticationError' });
}

describe('logins behind a reverse proxy', () => {
  test('TERN_TRUST_PROXY: 30+ failures from one client leave another client’s right password through the same proxy accepted, and the attacker is still throttled', async () => {
    gateway = await startTestApp({ env: { TERN_TRUST_PROXY: '127.0.0.1' } });
    await spray(gateway.app, '203.0.113.9');
    expect(await login(gateway.app, { email: 'user31@tern.test', password: 'Summer-2026!', client: '203.0.113.9' })).toEqual({ status: 429, error: 'TooManyRequests' });
    expect(await login(gateway.app, { email: 'bob@tern.test', password: 'Bob-pass-2!', client: '198.51.100.7' })).toEqual({ status: 200, error: undefined });
    // Another client's own wrong password is an ordinary 401, not a lock-out caused by the attacker.
    expect(await login(gateway.app, { email: 'alice@tern.test', password: 'Mistyped-1!', client: '198.51.100.8' })).toEqual({ status: 401, error: 'AuthenticationError' });
  });

  test('TERN_TRUST_PROXY with a hop count trusts the nearest hop only', async () => {
    gateway = await startTestApp({ env: { TERN_TRUST_PROXY: '1' } });
    // A client forging a first entry: the proxy appends the address it saw; that one is used.
    await spray(gateway.app, '10.9.9.9, 203.0.113.9');
    expect(await login(gateway.app, { email: 'bob@tern.test', password: 'Bob-pass-2!', client: '10.9.9.9, 198.51.100.7' })).toEqual({ status: 200, error: undefined });
    expect(await login(gateway.app, { email: 'user40@tern.test', password: 'Summer-2026!', client: '198.51.100.7, 203.0.113.9' })).toEqual({ status: 429, error: 'TooManyRequests' });
  });

  test('without TERN_TRUST_PROXY the header is ignored: every request is the socket’s address', async () => {
    gateway = await startTestApp();
    await spray(gateway.app, '203.0.113.9');
    // A made-up X-Forwarded-For does not get the attacker a fresh allowance.
    expect(await login(gateway.app, { email: 'user31@tern.test', password: 'Summer-2026!', client: '198.51.100.99' })).toEqual({ status: 429, error: 'TooManyRequests' });
  });
});
