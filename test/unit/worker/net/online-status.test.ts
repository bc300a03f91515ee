import { describe, expect, test } from 'vitest';
import { createOnlineStatus, type BrowserOnlineSignal } from '../../../../src-worker/net/online-status';
import { manualClock } from '../mail-test-kit';

function setup() {
  const clock = manualClock();
  let reachable = true;
  const probes: RequestInit[] = [];
  const fetch = async (_input: RequestInfo | URL, init: RequestInit = {}) => {
    probes.push(init);
    if (!reachable) throw new TypeError('fetch failed');
    return new Response('png');
  };
  let browserListener: ((online: boolean) => void) | null = null;
  const browser: BrowserOnlineSignal = { onLine: () => true, subscribe: (listener) => ((browserListener = listener), () => (browserListener = null)) };
  const status = createOnlineStatus({ fetch: fetch as typeof globalThis.fetch, statusUrl: 'https://static.test/status.png', clock, browser });
  return { clock, status, probes, setReachable: (value: boolean) => (reachable = value), browser: (online: boolean) => browserListener?.(online) };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('online status (spec §4, §9)', () => {
  test('fetches the status image without cache and keeps the answer for a minute', async () => {
    const { clock, status, probes, setReachable } = setup();
    expect(await status.isOnline()).toBe(true);
    expect(probes).toHaveLength(1);
    expect(probes[0]!.cache).toBe('no-store');
    setReachable(false);
    clock.advance(59_000);
    expect(await status.isOnline()).toBe(true); // cached
    expect(probes).toHaveLength(1);
    clock.advance(1_001);
    expect(await status.isOnline()).toBe(false);
    expect(probes).toHaveLength(2);
  });

  test('concurrent checks share one probe', async () => {
    const { status, probes } = setup();
    await Promise.all([status.isOnline(), status.isOnline({ force: true }), status.isOnline()]);
    expect(probes).toHaveLength(1);
  });

  test('the browser going offline is believed at once and re-checked a minute later', async () => {
    const { clock, status, probes, setReachable, browser } = setup();
    await status.isOnline();
    const changes: boolean[] = [];
    status.subscribe((online) => changes.push(online));
    setReachable(false);
    browser(false);
    expect(status.last).toBe(false);
    expect(changes).toEqual([false]);
    expect(probes).toHaveLength(1);
    setReachable(true);
    clock.advance(59_999);
    expect(probes).toHaveLength(1);
    clock.advance(1);
    await settle();
    expect(probes).toHaveLength(2);
    expect(changes).toEqual([false, true]);
  });

  test('the browser coming back online is checked at once', async () => {
    const { status, probes, setReachable, browser } = setup();
    setReachable(false);
    expect(await status.isOnline()).toBe(false);
    setReachable(true);
    browser(true);
    await settle();
    expect(probes).toHaveLength(2);
    expect(status.last).toBe(true);
  });

  test('a status image that does not answer while the browser says online is looked at again after 5 s, 10 s, 20 s … up to the minute (a restarting gateway)', async () => {
    const { clock, status, probes, setReachable } = setup();
    setReachable(false);
    expect(await status.isOnline()).toBe(false);
    const at = (count: number) => expect(probes).toHaveLength(count);
    for (const [wait, count] of [[4_999, 1], [1, 2], [9_999, 2], [1, 3], [20_000, 4], [40_000, 5], [60_000, 6], [60_000, 7]] as const) {
      clock.advance(wait);
      await settle();
      at(count);
    }
    setReachable(true);
    clock.advance(60_000);
    await settle();
    expect(status.last).toBe(true);
  });
});
