import { describe, expect, test } from 'vitest';
import { createRequestIds, REQUEST_ID_PATTERN } from '../../../../src-worker/api/request-id';

describe('client request ids (spec §3)', () => {
  test('w_, UTC day-hour-minute-second, type code, counter, last 3 of the installation id, 4 random', () => {
    // 2026-01-05 23:04:09 UTC, late evening in any western zone: the stamp must be UTC.
    const now = () => Date.UTC(2026, 0, 5, 23, 4, 9);
    const ids = createRequestIds({ installationId: 'local-3f2a9c1e-0000-4000-8000-00000000a7c', now, random: () => 0.5 });
    const first = ids('delta');
    expect(first).toBe('w_05230409DL000a7cssss');
    expect(first).toMatch(REQUEST_ID_PATTERN);
    expect(ids('bulkThreads')).toBe('w_05230409BT001a7cssss');
    // The gateway accepts it as an X-Request-Id and echoes it.
    expect(first).toMatch(/^[\w.:-]{1,64}$/);
  });

  test('the counter wraps at 1000', () => {
    const ids = createRequestIds({ installationId: 'abc', now: () => 0, random: () => 0 });
    const counters = Array.from({ length: 1002 }, () => ids('delta').slice(12, 15));
    expect(counters[0]).toBe('000');
    expect(counters[999]).toBe('999');
    expect(counters[1000]).toBe('000');
    expect(counters[1001]).toBe('001');
  });

  test('random tails differ between ids', () => {
    const ids = createRequestIds({ installationId: 'abc' });
    const tails = new Set(Array.from({ length: 50 }, () => ids('send').slice(-4)));
    expect(tails.size).toBeGreaterThan(40);
  });
});
