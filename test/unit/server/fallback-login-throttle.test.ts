import { describe, expect, test } from 'vitest';
import { FallbackLoginThrottle } from '../../../src-server/auth/fallback-login-throttle';
import { MemoryLoginThrottle, type LoginThrottle } from '../../../src-server/auth/rate-limit';

const who = { email: 'alice@tern.test', ip: '198.51.100.7' };

/** A shared throttle whose store is gone: every call fails as a lost connection does. */
const broken: LoginThrottle = {
  lookup: () => Promise.reject(new Error('Connection is closed.')),
  begin: () => Promise.reject(new Error('Connection is closed.')),
  succeeded: () => Promise.reject(new Error('Connection is closed.')),
  failed: () => Promise.reject(new Error('Connection is closed.')),
};

function setUp(params: { shared: LoginThrottle; available?: boolean }) {
  const errors: unknown[] = [];
  const fallback = new MemoryLoginThrottle();
  const state = { available: params.available ?? true };
  const throttle = new FallbackLoginThrottle({ shared: params.shared, fallback, available: () => state.available, onError: (error) => errors.push(error) });
  return { throttle, fallback, errors, state };
}

async function failTimes(throttle: LoginThrottle, n: number) {
  for (let i = 0; i < n; i++) await throttle.failed(await throttle.begin(who), { countsForAddress: true });
}

describe('FallbackLoginThrottle', () => {
  test('while the shared throttle answers, it alone counts and refuses', async () => {
    const shared = new MemoryLoginThrottle();
    const { throttle, fallback } = setUp({ shared });
    await failTimes(throttle, 10);
    await expect(throttle.begin(who)).rejects.toMatchObject({ name: 'TooManyRequests' });
    expect(() => fallback.begin(who)).not.toThrow(); // nothing was counted there
  });

  test('when the shared throttle is away, this node counts with the same limits, without waiting for it', async () => {
    let asked = 0;
    const shared: LoginThrottle = { ...broken, begin: () => (asked++, broken.begin(who)) };
    const { throttle, errors } = setUp({ shared, available: false });
    await failTimes(throttle, 10);
    await expect(throttle.begin(who)).rejects.toMatchObject({ name: 'TooManyRequests' });
    await expect(throttle.lookup({ ip: who.ip })).resolves.toBeUndefined();
    expect(asked).toBe(0);
    expect(errors).toEqual([]); // the outage is told by the connection, not by every login
  });

  test('a shared throttle that fails despite its connection is reported, and the fallback counts', async () => {
    const { throttle, errors } = setUp({ shared: broken });
    await failTimes(throttle, 10);
    await expect(throttle.begin(who)).rejects.toMatchObject({ name: 'TooManyRequests' });
    expect(errors.length).toBeGreaterThan(0);
  });

  test('an attempt is settled where it was counted, and a failed settling does not fail the login', async () => {
    const settledOn: string[] = [];
    /** A memory throttle that notes which attempts it is told the outcome of. */
    const noting = (name: string): LoginThrottle => {
      const inner = new MemoryLoginThrottle();
      return {
        lookup: (params) => inner.lookup(params),
        begin: (params) => inner.begin(params),
        succeeded: (attempt) => {
          settledOn.push(`${name} succeeded`);
          inner.succeeded(attempt);
        },
        failed: (attempt, params) => {
          settledOn.push(`${name} failed`);
          inner.failed(attempt, params);
        },
      };
    };
    const errors: unknown[] = [];
    const state = { available: true };
    const throttle = new FallbackLoginThrottle({ shared: noting('shared'), fallback: noting('fallback'), available: () => state.available, onError: (error) => errors.push(error) });
    const onShared = await throttle.begin(who);
    state.available = false;
    const onFallback = await throttle.begin(who);
    state.available = true; // back before the attempts end
    await throttle.succeeded(onFallback);
    await throttle.failed(onShared, { countsForAddress: false });
    expect(settledOn).toEqual(['fallback succeeded', 'shared failed']);

    const settlesBroken = new FallbackLoginThrottle({ shared: { ...broken, begin: (params) => new MemoryLoginThrottle().begin(params) }, fallback: new MemoryLoginThrottle(), available: () => true, onError: (error) => errors.push(error) });
    await expect(settlesBroken.succeeded(await settlesBroken.begin(who))).resolves.toBeUndefined();
    expect(String(errors.at(-1))).toMatch(/Connection is closed/);
  });
});
