/**
 * The service worker's install waits for the accounts' syncs (offline/syncs-settled.ts): not
 * while an account is still pulling its first pages, nor before any account signed in, nor
 * while the gateway is out of reach; once every account caught up (or is signed out), and the
 * watch is given back.
 */
import { expect, test, vi } from 'vitest';
import type { SyncStatus } from '../../../../shared/worker-mail-api';
import { syncsSettled, type SyncWatch } from '../../../../src-ui/offline/syncs-settled';

const status = (accountId: string, phase: SyncStatus['phase'], appliedTransactionId: number, latestTxnId: number): SyncStatus => ({ accountId, phase, appliedTransactionId, latestTxnId, online: true, error: null });

function fakeEngine() {
  let push: (status: SyncStatus) => void = () => {};
  const unwatched: string[] = [];
  const engine: SyncWatch = {
    watchSync: async (onStatus) => {
      push = onStatus;
      return { subscriptionId: 'sub-1' };
    },
    unwatchSync: async ({ subscriptionId }) => void unwatched.push(subscriptionId),
  };
  return { engine, push: (next: SyncStatus) => push(next), unwatched };
}

test('settles once every account has caught up, not while one still pulls or before any account syncs', async () => {
  const { engine, push, unwatched } = fakeEngine();
  let settled = false;
  const done = syncsSettled(engine).then(() => (settled = true));
  await Promise.resolve();
  const turn = () => new Promise((resolve) => setTimeout(resolve, 0));

  push(status('a', 'pulling', 0, 0)); // a sign-in's first page on its way
  push(status('b', 'idle', 40, 40));
  await turn();
  expect(settled).toBe(false);
  push(status('a', 'idle', 300, 2000)); // the first pull ended short of what the gateway announced
  await turn();
  expect(settled).toBe(false);
  push(status('a', 'idle', 2000, 2000));
  await done;
  expect(settled).toBe(true);
  await turn();
  expect(unwatched).toEqual(['sub-1']);
});

test('a signed-out account does not hold the install back; an offline one does, until the gateway answers again', async () => {
  const { engine, push } = fakeEngine();
  let settled = false;
  const done = syncsSettled(engine).then(() => (settled = true));
  await Promise.resolve();
  const turn = () => new Promise((resolve) => setTimeout(resolve, 0));
  // The gateway went away: a registration now could only fail (an error on the page's console).
  push(status('a', 'offline', 10, 12));
  push(status('b', 'signed-out', 0, 0));
  await turn();
  expect(settled).toBe(false);
  push({ ...status('a', 'backoff', 10, 12), online: false });
  await turn();
  expect(settled).toBe(false);
  push(status('a', 'idle', 12, 12));
  await done;
  expect(settled).toBe(true);
});

test('a mailbox that never stops changing installs at the latest after the cap, but not while offline', async () => {
  vi.useFakeTimers();
  try {
    const { engine, push } = fakeEngine();
    let settled = false;
    void syncsSettled(engine, 60_000).then(() => (settled = true));
    await vi.advanceTimersByTimeAsync(0);
    push(status('a', 'pulling', 10, 500));
    push(status('b', 'offline', 40, 40));
    await vi.advanceTimersByTimeAsync(60_000);
    expect(settled).toBe(false);
    push(status('b', 'idle', 40, 40));
    await vi.advanceTimersByTimeAsync(0);
    expect(settled).toBe(true);
  } finally {
    vi.useRealTimers();
  }
});
