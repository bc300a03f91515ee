import { describe, expect, test } from 'vitest';
import { FAILURE_WINDOW_MS, IP_SLOW_LANE_MS, ipKeyOf, MemoryLoginThrottle, SlidingWindow, throttleKeyOf } from '../../../src-server/auth/rate-limit';
import { TernError } from '../../../shared/errors';

function clock(start = 1_000_000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

/** Runs `n` failed attempts (wrong password) from one place. */
function fail(throttle: MemoryLoginThrottle, n: number, who: { email: string; ip: string }) {
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

describe('MemoryLoginThrottle', () => {
  const who = { email: 'alice@tern.test', ip: '198.51.100.7' };

  test('the 11th failure for an address is refused with TooManyRequests (429), until the window passes', () => {
    const time = clock();
    const throttle = new MemoryLoginThrottle({ now: time.now });
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
    const throttle = new MemoryLoginThrottle({ now: clock().now });
    expect(throttleKeyOf('Alice+News@Tern.test')).toBe('alice@tern.test');
    fail(throttle, 10, { email: 'alice+1@tern.test', ip: '198.51.100.1' });
    expect(() => throttle.begin({ email: 'ALICE@tern.test', ip: '198.51.100.2' })).toThrow(/Too many attempts/);
  });

  test('per IP: past 30 failures that IP goes one attempt per 30 s; other IPs are not slowed', () => {
    const time = clock();
    const throttle = new MemoryLoginThrottle({ now: time.now });
    const sprayer = '198.51.100.9';
    for (let i = 0; i < 30; i++) fail(throttle, 1, { email: `user${i}@tern.test`, ip: sprayer });
    fail(throttle, 1, { email: 'user30@tern.test', ip: sprayer }); // the slow lane's one attempt
    const refused = refusal(() => throttle.begin({ email: 'user31@tern.test', ip: sprayer }));
    expect([refused.name, refused.detail]).toEqual(['TooManyRequests', { retryAfterSeconds: IP_SLOW_LANE_MS / 1000 }]);
    expect(() => throttle.begin({ email: 'user31@tern.test', ip: '198.51.100.10' })).not.toThrow();
    time.advance(IP_SLOW_LANE_MS);
    fail(throttle, 1, { email: 'user31@tern.test', ip: sprayer });
    expect(() => throttle.begin({ email: 'user32@tern.test', ip: sprayer })).toThrow(/Too many attempts/);
  });

  test('behind one NAT, a guesser’s 30+ failures do not refuse a colleague’s right password', () => {
    const time = clock();
    const throttle = new MemoryLoginThrottle({ now: time.now });
    const office = '192.0.2.50';
    throttle.succeeded(throttle.begin({ email: 'bob@tern.test', ip: office })); // Bob logged in from the office before
    for (let i = 0; i < 30; i++) fail(throttle, 1, { email: `user${i}@tern.test`, ip: office });
    // Dave never logged in from here: his attempt takes the slow lane's slot, and being right gives it back.
    throttle.succeeded(throttle.begin({ email: 'dave@tern.test', ip: office }));
    // The guesser keeps going: one attempt, then refused until the lane frees.
    fail(throttle, 1, { email: 'user30@tern.test', ip: office });
    expect(() => throttle.begin({ email: 'user31@tern.test', ip: office })).toThrow(/Too many attempts/);
    // Bob is not slowed at all, nor Dave now that this IP knows him.
    for (const email of ['bob@tern.test', 'dave@tern.test']) throttle.succeeded(throttle.begin({ email, ip: office }));
  });

  test('per address from many IPs: past 10 failures only IPs that logged into it before may try it', () => {
    const throttle = new MemoryLoginThrottle({ now: clock().now });
    const home = '198.51.100.77';
    throttle.succeeded(throttle.begin({ email: 'alice@tern.test', ip: home }));
    for (let i = 0; i < 10; i++) fail(throttle, 1, { email: 'alice@tern.test', ip: `203.0.113.${i}` });
    expect(refusal(() => throttle.begin({ email: 'alice@tern.test', ip: '203.0.113.200' })).name).toBe('TooManyRequests');
    expect(() => throttle.succeeded(throttle.begin({ email: 'alice@tern.test', ip: home }))).not.toThrow();
  });

  test('per (IP, address): 10 failures stop that IP trying that address, even one it logged into before', () => {
    const throttle = new MemoryLoginThrottle({ now: clock().now });
    throttle.succeeded(throttle.begin(who));
    fail(throttle, 10, who);
    expect(refusal(() => throttle.begin(who)).name).toBe('TooManyRequests');
    expect(() => throttle.begin({ email: 'bob@tern.test', ip: who.ip })).not.toThrow();
  });

  test('IPv6: one /64 is one client (its addresses rotate freely); an IPv4-mapped address is its IPv4', () => {
    expect(ipKeyOf('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(ipKeyOf('2001:0DB8:0001:0002:ffff:1:2:3')).toBe('2001:db8:1:2::/64');
    expect(ipKeyOf('2001:db8::7')).toBe('2001:db8:0:0::/64');
    expect(ipKeyOf('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(ipKeyOf('::1')).toBe('0:0:0:0::/64');
    expect(ipKeyOf('::ffff:198.51.100.7')).toBe('198.51.100.7');
    expect(ipKeyOf('64:ff9b::198.51.100.7')).toBe('64:ff9b:0:0::/64');
    expect(ipKeyOf('198.51.100.7')).toBe('198.51.100.7');

    const throttle = new MemoryLoginThrottle({ now: clock().now });
    for (let i = 0; i < 31; i++) fail(throttle, 1, { email: `user${i}@tern.test`, ip: `2001:db8:1:2::${(i + 1).toString(16)}` });
    expect(() => throttle.begin({ email: 'user99@tern.test', ip: '2001:db8:1:2:ffff:ffff:ffff:fffe' })).toThrow(/Too many attempts/);
    expect(() => throttle.begin({ email: 'user99@tern.test', ip: '2001:db8:1:3::1' })).not.toThrow();
    const pairs = new MemoryLoginThrottle({ now: clock().now, pairLimit: 3, addressLimit: 100 });
    fail(pairs, 3, { email: 'alice@tern.test', ip: '::ffff:203.0.113.5' });
    expect(() => pairs.begin({ email: 'alice@tern.test', ip: '203.0.113.5' })).toThrow(/Too many attempts/);
    expect(() => pairs.begin({ email: 'alice@tern.test', ip: '203.0.113.6' })).not.toThrow();
  });

  test('successful logins do not count and clear the address', () => {
    const throttle = new MemoryLoginThrottle({ now: clock().now });
    for (let i = 0; i < 50; i++) throttle.succeeded(throttle.begin(who));
    fail(throttle, 9, who);
    throttle.succeeded(throttle.begin(who));
    fail(throttle, 10, who);
    expect(() => throttle.begin(who)).toThrow(/Too many attempts/);
  });

  test('failures that are not about the password cost the IP, not the address', () => {
    const throttle = new MemoryLoginThrottle({ now: clock().now, ipLimit: 100 });
    for (let i = 0; i < 20; i++) throttle.failed(throttle.begin(who), { countsForAddress: false });
    expect(() => throttle.begin(who)).not.toThrow();
  });

  test('attempts in flight count: a parallel burst is limited like a sequence', () => {
    const throttle = new MemoryLoginThrottle({ now: clock().now });
    const started = [];
    for (let i = 0; i < 10; i++) started.push(throttle.begin(who));
    expect(() => throttle.begin(who)).toThrow(/Too many attempts/);
  });
});

describe('address checks (the email step)', () => {
  test('one IP may check only so many addresses per window; others are not affected, and the window slides', () => {
    const time = clock();
    const throttle = new MemoryLoginThrottle({ now: time.now, lookupLimit: 3 });
    for (let i = 0; i < 3; i++) throttle.lookup({ ip: '203.0.113.7' });
    const error = refusal(() => throttle.lookup({ ip: '203.0.113.7' }));
    expect(error.name).toBe('TooManyRequests');
    expect(error.detail).toEqual({ retryAfterSeconds: FAILURE_WINDOW_MS / 1000 });
    expect(() => throttle.lookup({ ip: '198.51.100.1' })).not.toThrow();
    time.advance(FAILURE_WINDOW_MS);
    expect(() => throttle.lookup({ ip: '203.0.113.7' })).not.toThrow();
  });

  test('address checks and login failures are counted apart', () => {
    const throttle = new MemoryLoginThrottle({ now: clock().now, lookupLimit: 2 });
    throttle.lookup({ ip: '203.0.113.7' });
    throttle.lookup({ ip: '203.0.113.7' });
    expect(() => throttle.begin({ email: 'alice@tern.test', ip: '203.0.113.7' })).not.toThrow();
  });
});
