/**
 * What every LoginThrottle does, whichever holds its counters (MemoryLoginThrottle in this
 * process, RedisLoginThrottle in Redis): the same limits, windows and refusals. Run by
 * unit/server/rate-limit.test.ts on the memory one and integration/redis-login-throttle on
 * a real Redis; `make` gives a throttle with no counts yet and the given limits and clock.
 */
import { describe, expect, test } from 'vitest';
import { FAILURE_WINDOW_MS, IP_SLOW_LANE_MS, type LoginThrottle, type ThrottleParams } from '../../../src-server/auth/rate-limit';
import { TernError } from '../../../shared/errors';

export function clock(start = 1_000_000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

/** Runs `n` failed attempts (wrong password) from one place. */
async function fail(throttle: LoginThrottle, n: number, who: { email: string; ip: string }) {
  for (let i = 0; i < n; i++) await throttle.failed(await throttle.begin(who), { countsForAddress: true });
}

/** A call of either implementation as a promise (the memory one throws synchronously). */
const settle = async <T>(run: () => T | Promise<T>): Promise<T> => run();

const refusal = async (run: () => unknown) => {
  try {
    await run();
  } catch (error) {
    return error as TernError;
  }
  throw new Error('expected a refusal');
};

export function loginThrottleContract(name: string, make: (params: ThrottleParams) => LoginThrottle | Promise<LoginThrottle>): void {
  describe(`${name}`, () => {
    const who = { email: 'alice@tern.test', ip: '198.51.100.7' };

    test('the 11th failure for an address is refused with TooManyRequests (429), until the window passes', async () => {
      const time = clock();
      const throttle = await make({ now: time.now });
      await fail(throttle, 10, who);
      const error = await refusal(() => throttle.begin(who));
      expect(error).toBeInstanceOf(TernError);
      expect(error.name).toBe('TooManyRequests');
      expect(error.status).toBe(429);
      expect(error.detail).toEqual({ retryAfterSeconds: FAILURE_WINDOW_MS / 1000 });
      // Another address from another IP is not affected.
      await settle(() => throttle.begin({ email: 'bob@tern.test', ip: '203.0.113.1' }));
      time.advance(FAILURE_WINDOW_MS + 1);
      await settle(() => throttle.begin(who));
    });

    test('one address with +suffix and other case shares the allowance', async () => {
      const throttle = await make({ now: clock().now });
      await fail(throttle, 10, { email: 'alice+1@tern.test', ip: '198.51.100.1' });
      await expect(settle(() => throttle.begin({ email: 'ALICE@tern.test', ip: '198.51.100.2' }))).rejects.toThrow(/Too many attempts/);
    });

    test('per IP: past 30 failures that IP goes one attempt per 30 s; other IPs are not slowed', async () => {
      const time = clock();
      const throttle = await make({ now: time.now });
      const sprayer = '198.51.100.9';
      for (let i = 0; i < 30; i++) await fail(throttle, 1, { email: `user${i}@tern.test`, ip: sprayer });
      await fail(throttle, 1, { email: 'user30@tern.test', ip: sprayer }); // the slow lane's one attempt
      const refused = await refusal(() => throttle.begin({ email: 'user31@tern.test', ip: sprayer }));
      expect([refused.name, refused.detail]).toEqual(['TooManyRequests', { retryAfterSeconds: IP_SLOW_LANE_MS / 1000 }]);
      await settle(() => throttle.begin({ email: 'user31@tern.test', ip: '198.51.100.10' }));
      time.advance(IP_SLOW_LANE_MS);
      await fail(throttle, 1, { email: 'user31@tern.test', ip: sprayer });
      await expect(settle(() => throttle.begin({ email: 'user32@tern.test', ip: sprayer }))).rejects.toThrow(/Too many attempts/);
    });

    test('behind one NAT, a guesser’s 30+ failures do not refuse a colleague’s right password', async () => {
      const time = clock();
      const throttle = await make({ now: time.now });
      const office = '192.0.2.50';
      await throttle.succeeded(await throttle.begin({ email: 'bob@tern.test', ip: office })); // Bob logged in from the office before
      for (let i = 0; i < 30; i++) await fail(throttle, 1, { email: `user${i}@tern.test`, ip: office });
      // Dave never logged in from here: his attempt takes the slow lane's slot, and being right gives it back.
      await throttle.succeeded(await throttle.begin({ email: 'dave@tern.test', ip: office }));
      // The guesser keeps going: one attempt, then refused until the lane frees.
      await fail(throttle, 1, { email: 'user30@tern.test', ip: office });
      await expect(settle(() => throttle.begin({ email: 'user31@tern.test', ip: office }))).rejects.toThrow(/Too many attempts/);
      // Bob is not slowed at all, nor Dave now that this IP knows him.
      for (const email of ['bob@tern.test', 'dave@tern.test']) await throttle.succeeded(await throttle.begin({ email, ip: office }));
    });

    test('per address from many IPs: past 10 failures only IPs that logged into it before may try it', async () => {
      const throttle = await make({ now: clock().now });
      const home = '198.51.100.77';
      await throttle.succeeded(await throttle.begin({ email: 'alice@tern.test', ip: home }));
      for (let i = 0; i < 10; i++) await fail(throttle, 1, { email: 'alice@tern.test', ip: `203.0.113.${i}` });
      expect((await refusal(() => throttle.begin({ email: 'alice@tern.test', ip: '203.0.113.200' }))).name).toBe('TooManyRequests');
      await throttle.succeeded(await throttle.begin({ email: 'alice@tern.test', ip: home }));
    });

    test('per (IP, address): 10 failures stop that IP trying that address, even one it logged into before', async () => {
      const throttle = await make({ now: clock().now });
      await throttle.succeeded(await throttle.begin(who));
      await fail(throttle, 10, who);
      expect((await refusal(() => throttle.begin(who))).name).toBe('TooManyRequests');
      await settle(() => throttle.begin({ email: 'bob@tern.test', ip: who.ip }));
    });

    test('IPv6: one /64 is one client (its addresses rotate freely); an IPv4-mapped address is its IPv4', async () => {
      const throttle = await make({ now: clock().now });
      for (let i = 0; i < 31; i++) await fail(throttle, 1, { email: `user${i}@tern.test`, ip: `2001:db8:1:2::${(i + 1).toString(16)}` });
      await expect(settle(() => throttle.begin({ email: 'user99@tern.test', ip: '2001:db8:1:2:ffff:ffff:ffff:fffe' }))).rejects.toThrow(/Too many attempts/);
      await settle(() => throttle.begin({ email: 'user99@tern.test', ip: '2001:db8:1:3::1' }));
      const pairs = await make({ now: clock().now, pairLimit: 3, addressLimit: 100 });
      await fail(pairs, 3, { email: 'alice@tern.test', ip: '::ffff:203.0.113.5' });
      await expect(settle(() => pairs.begin({ email: 'alice@tern.test', ip: '203.0.113.5' }))).rejects.toThrow(/Too many attempts/);
      await settle(() => pairs.begin({ email: 'alice@tern.test', ip: '203.0.113.6' }));
    });

    test('successful logins do not count and clear the address', async () => {
      const throttle = await make({ now: clock().now });
      for (let i = 0; i < 50; i++) await throttle.succeeded(await throttle.begin(who));
      await fail(throttle, 9, who);
      await throttle.succeeded(await throttle.begin(who));
      await fail(throttle, 10, who);
      await expect(settle(() => throttle.begin(who))).rejects.toThrow(/Too many attempts/);
    });

    test('failures that are not about the password cost the IP, not the address', async () => {
      const throttle = await make({ now: clock().now, ipLimit: 100 });
      for (let i = 0; i < 20; i++) await throttle.failed(await throttle.begin(who), { countsForAddress: false });
      await settle(() => throttle.begin(who));
    });

    test('attempts in flight count: a parallel burst is limited like a sequence', async () => {
      const throttle = await make({ now: clock().now });
      const started = [];
      for (let i = 0; i < 10; i++) started.push(await throttle.begin(who));
      await expect(settle(() => throttle.begin(who))).rejects.toThrow(/Too many attempts/);
    });
  });

  describe(`${name}: address checks (the email step)`, () => {
    test('one IP may check only so many addresses per window; others are not affected, and the window slides', async () => {
      const time = clock();
      const throttle = await make({ now: time.now, lookupLimit: 3 });
      for (let i = 0; i < 3; i++) await throttle.lookup({ ip: '203.0.113.7' });
      const error = await refusal(() => throttle.lookup({ ip: '203.0.113.7' }));
      expect(error.name).toBe('TooManyRequests');
      expect(error.detail).toEqual({ retryAfterSeconds: FAILURE_WINDOW_MS / 1000 });
      await settle(() => throttle.lookup({ ip: '198.51.100.1' }));
      time.advance(FAILURE_WINDOW_MS);
      await settle(() => throttle.lookup({ ip: '203.0.113.7' }));
    });

    test('address checks and login failures are counted apart', async () => {
      const throttle = await make({ now: clock().now, lookupLimit: 2 });
      await throttle.lookup({ ip: '203.0.113.7' });
      await throttle.lookup({ ip: '203.0.113.7' });
      await settle(() => throttle.begin({ email: 'alice@tern.test', ip: '203.0.113.7' }));
    });
  });

  test(`${name}: parallel attempts are limited exactly like a sequence`, async () => {
    const throttle = await make({ now: clock().now });
    const who = { email: 'carol@tern.test', ip: '198.51.100.8' };
    const outcomes = await Promise.allSettled(Array.from({ length: 25 }, () => settle(() => throttle.begin(who))));
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(10);
  });
}
