import { expect, test } from 'vitest';
import { WORKER_API_VERSION, type WorkerApi } from '../../../shared/worker-api';
import { createEngine } from '../../../src-worker/engine';
import { tabChannels } from './tab-channels';

const connectTab = tabChannels();

test('tabs of the same version share one engine and are counted', async () => {
  const engine = createEngine();
  const first = await connectTab(engine).session.handshake({ apiVersion: WORKER_API_VERSION, tabId: 'a' });
  const second = connectTab(engine);
  const result = await second.session.handshake({ apiVersion: WORKER_API_VERSION, tabId: 'b' });
  expect(first).toMatchObject({ ok: true, connectedTabs: 1 });
  expect(result).toEqual({ ok: true, engineVersion: '5.33.0', connectedTabs: 2 });
  await second.session.goodbye({ tabId: 'b' });
  const third = await connectTab(engine).session.handshake({ apiVersion: WORKER_API_VERSION, tabId: 'c' });
  expect(third).toMatchObject({ connectedTabs: 2 });
});

test('a tab built for another contract version is told to reload', async () => {
  const tab = connectTab(createEngine());
  const result = await tab.session.handshake({ apiVersion: WORKER_API_VERSION + 1, tabId: 'old' });
  expect(result).toEqual({ ok: false, reason: 'version-mismatch', workerApiVersion: WORKER_API_VERSION });
});

test('the engine ends itself once its last tab has been gone for the grace period, not when a tab comes back', async () => {
  const { createSessionService } = await import('../../../src-worker/session-service');
  const timers: { run: () => void; ms: number; cleared: boolean }[] = [];
  let idle = 0;
  const session = createSessionService({
    onIdle: () => idle++,
    idleMs: 30_000,
    setTimer: (run, ms) => timers[timers.push({ run, ms, cleared: false }) - 1],
    clearTimer: (timer) => void ((timer as { cleared: boolean }).cleared = true),
  });
  await session.handshake({ apiVersion: WORKER_API_VERSION, tabId: 'a' });
  await session.handshake({ apiVersion: WORKER_API_VERSION, tabId: 'b' });
  await session.goodbye({ tabId: 'a' });
  expect(timers).toHaveLength(0); // b is still there
  // The only tab reloads: goodbye, then the new page's handshake within the grace period.
  await session.goodbye({ tabId: 'b' });
  expect(timers.map((timer) => timer.ms)).toEqual([30_000]);
  await session.handshake({ apiVersion: WORKER_API_VERSION, tabId: 'c' });
  expect(timers[0]!.cleared).toBe(true);
  // The last tab closes for good.
  await session.goodbye({ tabId: 'c' });
  timers[1]!.run();
  expect(idle).toBe(1);
});
