import { describe, expect, test } from 'vitest';
import { sleepMs } from '../../../../src-server/jobs/job-worker';
import { afterFailure, retryDelayMs, type RetryPolicy } from '../../../../src-server/jobs/retry-policy';

const policy: RetryPolicy = { maxAttempts: 4, firstDelayMs: 1_000, factor: 3, maxDelayMs: 5_000 };

describe('retryDelayMs: exponential backoff with a cap', () => {
  test('grows by the factor after each failure, then stays at the cap', () => {
    expect([1, 2, 3, 4, 10].map((attempt) => retryDelayMs(attempt, policy))).toEqual([1_000, 3_000, 5_000, 5_000, 5_000]);
  });
});

describe('afterFailure', () => {
  test('an attempt before the last is queued again after its backoff', () => {
    expect(afterFailure({ attempt: 2, maxAttempts: 4, permanent: false, now: 100_000, policy })).toEqual({ state: 'queued', runAt: 103_000 });
  });
  test('the last attempt makes the job dead', () => {
    expect(afterFailure({ attempt: 4, maxAttempts: 4, permanent: false, now: 100_000, policy })).toEqual({ state: 'dead' });
  });
  test('a permanent failure makes it dead at once', () => {
    expect(afterFailure({ attempt: 1, maxAttempts: 4, permanent: true, now: 100_000, policy })).toEqual({ state: 'dead' });
  });
});

describe("sleepMs: the worker loop's wait", () => {
  test('until the next job is due, never longer than the idle check', () => {
    expect(sleepMs(10_300, 10_000, 5_000)).toBe(300);
    expect(sleepMs(60_000, 10_000, 5_000)).toBe(5_000);
  });
  test('the idle check when nothing waits, or when what is due is already being claimed (the runs kick it)', () => {
    expect(sleepMs(null, 10_000, 5_000)).toBe(5_000);
    expect(sleepMs(9_000, 10_000, 5_000)).toBe(5_000);
  });
});
