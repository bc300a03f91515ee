import { describe, expect, test } from 'vitest';
import { SOCKET_BACKOFF, SYNC_BACKOFF, backoffDelay, type BackoffPolicy } from '../../../../src-worker/net/backoff';
import { retryDelay } from '../../../../src-worker/api/retry';
import { nextDelay } from '../../../../src-worker/outbox/send-follow-up';

const exact: BackoffPolicy = { baseMs: 100, maxMs: 1_000 };
const half: BackoffPolicy = { baseMs: 100, maxMs: 1_000, jitter: 0.5 };

describe('the one backoff', () => {
  test('starts at the base after one failure (and after none) and doubles after each further one', () => {
    expect([0, 1, 2, 3, 4].map((failures) => backoffDelay(failures, exact))).toEqual([100, 100, 200, 400, 800]);
  });

  test('never grows beyond the cap, however many failures', () => {
    expect(backoffDelay(5, exact)).toBe(1_000);
    expect(backoffDelay(60, exact)).toBe(1_000);
    expect(backoffDelay(10_000, half, () => 0.999)).toBeLessThanOrEqual(1_000);
  });

  test('with jitter 0.5 the delay lies between half and all of the doubled delay, as the random number says', () => {
    expect(backoffDelay(3, half, () => 0)).toBe(200);
    expect(backoffDelay(3, half, () => 0.5)).toBe(300);
    expect(backoffDelay(3, half, () => 1)).toBe(400);
    for (let i = 0; i < 200; i++) {
      const delay = backoffDelay(3, half);
      expect(delay).toBeGreaterThanOrEqual(200);
      expect(delay).toBeLessThanOrEqual(400);
    }
  });

  test('the jitter share is the policy\'s own: 0 is exact whatever the random number, 1 may be anything down to 0', () => {
    expect(backoffDelay(2, exact, () => 0.123)).toBe(200);
    expect(backoffDelay(2, { ...exact, jitter: 1 }, () => 0)).toBe(0);
    expect(backoffDelay(2, { ...exact, jitter: 1 }, () => 0.25)).toBe(50);
  });

  test('the sync and socket loops jitter half of each delay (many tabs must not come back in the same millisecond)', () => {
    expect(backoffDelay(1, SYNC_BACKOFF, () => 0)).toBe(500);
    expect(backoffDelay(1, SYNC_BACKOFF, () => 1)).toBe(1_000);
    expect(backoffDelay(99, SYNC_BACKOFF, () => 1)).toBe(60_000);
    expect(backoffDelay(1, SOCKET_BACKOFF, () => 0)).toBe(250);
    expect(backoffDelay(99, SOCKET_BACKOFF, () => 1)).toBe(30_000);
  });

  test('the HTTP retry and the send follow-up are the same curve with their own base and no jitter', () => {
    expect([1, 2, 3].map((attempt) => retryDelay(attempt))).toEqual([50, 100, 200]);
    expect(nextDelay(1)).toBe(2 * nextDelay(0));
    expect(nextDelay(1_000)).toBe(nextDelay(2_000));
  });
});
