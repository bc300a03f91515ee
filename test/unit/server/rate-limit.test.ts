import { describe, expect, test } from 'vitest';
import { FAILURE_WINDOW_MS, LoginThrottle, SlidingWindow, throttleKeyOf } from '../../../src-server/auth/rate-limit';
import { TernError } from '../../../shared/errors';

function clock(start = 1_000_000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

/** Runs `n` failed attempts (wrong password) from one place. */
function fail(throttle: LoginThrottle, n: number, who: { email: string; ip: string }) {
  for (let i = 0; i < n; i++) throttle.failed(throttle.begin(who), { countsForAddress: true });
}

const refusal = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    return error as TernError;
  }
  throw new Error('expected a refusal');
};

describe('SlidingWindow', () => {
  test('counts only the events inside the window, sliding with time', () => {
    const time = clock();
    const window = new SlidingWindow({ limit: 3, windowMs: 1000, now: time.now });
    window.add('k');
    time.advance(600);
    window.add('k');
    expect(window.count('k')).toBe(2);
    time.advance(500); // the first event is now 1100 ms old
    expect(window.count('k')).toBe(1);
    window.add('k');
    window.add('k');
    expect(window.retryAfterMs('k')).toBe(500); // the oldest live one (t=600) leaves at 1600
    time.advance(500);
    expect(window.retryAfterMs('k')).toBe(0);
  });

  test('remove takes back exactly one event', () => {
    const time = clock();
    const window = new SlidingWindow({ limit: 5, windowMs: 1000, now: time.now });
    const stamp = window.add('k');
    window.add('k');
    window.remove('k', stamp);
    expect(window.count('k')).toBe(1);
    expect(window.count('other')).toBe(0);
  });
});

describe('LoginThrottle', () => {
  const who = { email: 'alice@tern.test', ip: '198.51.100.7' };

  test('the 11th failure for an address is refused with TooManyRequests (429), until the window passes', () => {
    const time = clock();
    const throttle = new LoginThrottle({ now: time.now });
    fail(throttle, 10, who);
    const error = refusal(() => throttle.begin(who));
    expect(error).toBeInstanceOf(TernError);
    expect(error.name).toBe('TooManyRequests');
    expect(error.status).toBe(429);
    expect(error.detail).toEqual({ retryAfterSeconds: FAILURE_WINDOW_MS / 1000 });
    // Another address from another IP is not affected.
    expect(() => throttle.begin({ email: 'bob@tern.test', ip: '203.0.113.1' })).not.toThrow();
    time.advance(FAILURE_WINDOW_MS + 1);
    expect(() => throttle.begin(who)).not.toThrow();
  });

  test('one address with +suffix and other case shares the allowance', () => {
    const throttle = new LoginThrottle({ now: clock().now });
    expect(throttleKeyOf('Alice+News@Tern.test')).toBe('alice@tern.test');
    fail(throttle, 10, { email: 'alice+1@tern.test', ip: '198.51.100.1' });
    expect(() => throttle.begin({ email: 'ALICE@tern.test', ip: '198.51.100.2' })).toThrow(/Too many attempts/);
  });

  test('per IP: 30 failures over many addresses block that IP only', () => {
    const throttle = new LoginThrottle({ now: clock().now });
    for (let i = 0; i < 30; i++) fail(throttle, 1, { email: `user${i}@tern.test`, ip: '198.51.100.9' });
    expect(refusal(() => throttle.begin({ email: 'fresh@tern.test', ip: '198.51.100.9' })).name).toBe('TooManyRequests');
    expect(() => throttle.begin({ email: 'fresh@tern.test', ip: '198.51.100.10' })).not.toThrow();
  });

  test('successful logins do not count and clear the address', () => {
    const throttle = new LoginThrottle({ now: clock().now });
    for (let i = 0; i < 50; i++) throttle.succeeded(throttle.begin(who));
    fail(throttle, 9, who);
    throttle.succeeded(throttle.begin(who));
    fail(throttle, 10, who);
    expect(() => throttle.begin(who)).toThrow(/Too many attempts/);
  });

  test('failures that are not about the password cost the IP, not the address', () => {
    const throttle = new LoginThrottle({ now: clock().now, ipLimit: 100 });
    for (let i = 0; i < 20; i++) throttle.failed(throttle.begin(who), { countsForAddress: false });
    expect(() => throttle.begin(who)).not.toThrow();
  });

  test('attempts in flight count: a parallel burst is limited like a sequence', () => {
    const throttle = new LoginThrottle({ now: clock().now });
    const started = [];
    for (let i = 0; i < 10; i++) started.push(throttle.begin(who));
    expect(() => throttle.begin(who)).toThrow(/Too many attempts/);
  });
});
