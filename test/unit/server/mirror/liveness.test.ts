import type { ImapFlow } from 'imapflow';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { proveAlive, withinDeadline } from '../../../../src-server/mirror/liveness';

// A connection that died without FIN or RST answers nothing: the deadline closes it so the mirror reconnects (issue point 19).
beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

function fakeClient(noop: () => Promise<void>) {
  const close = vi.fn();
  return { client: { close, noop } as unknown as ImapFlow, close };
}

describe('liveness', () => {
  test('a NOOP without an answer closes the connection after the timeout and fails as ImapConnectionLost', async () => {
    const { client, close } = fakeClient(() => new Promise(() => undefined));
    const proved = proveAlive(client, 1000);
    const outcome = expect(proved).rejects.toMatchObject({ name: 'ImapConnectionLost' });
    await vi.advanceTimersByTimeAsync(999);
    expect(close).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    await outcome;
    expect(close).toHaveBeenCalledTimes(1);
  });

  test('an answer in time leaves the connection alone; a failure is the command’s own', async () => {
    const { client, close } = fakeClient(async () => undefined);
    await proveAlive(client, 1000);
    await expect(withinDeadline(client, Promise.reject(new Error('NO [NONEXISTENT]')), 1000)).rejects.toThrow('NO [NONEXISTENT]');
    await vi.advanceTimersByTimeAsync(5000);
    expect(close).not.toHaveBeenCalled();
  });
});
