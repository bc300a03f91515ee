import { describe, expect, test } from 'vitest';
import { ipKeyOf, MemoryLoginThrottle, SlidingWindow, throttleKeyOf } from '../../../src-server/auth/rate-limit';
import { clock, loginThrottleContract } from './login-throttle-contract';

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

describe('who counts as one', () => {
  test('one address with +suffix and other case is one key', () => {
    expect(throttleKeyOf('Alice+News@Tern.test')).toBe('alice@tern.test');
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
  });
});

loginThrottleContract('MemoryLoginThrottle', (params) => new MemoryLoginThrottle(params));
