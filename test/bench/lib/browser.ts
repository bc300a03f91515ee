/**
 * Debian's Chromium (never a downloaded browser) with the e2e suite's launch flags, and
 * pages whose CPU can be throttled through the DevTools protocol — the low-end laptop of
 * the design card is `Emulation.setCPUThrottlingRate` 4×.
 */
import type { Browser, BrowserContext, CDPSession, Page } from 'playwright-core';
import { launchChromium } from '../../e2e/chromium';

/** A browser figure is taken at each of these CPU slow-down rates (1 = the machine as it is). */
export const CPU_RATES = [1, 4] as const;
export type CpuRate = (typeof CPU_RATES)[number];

let shared: Promise<Browser> | null = null;

/** One Chromium for the whole run, launched on first use. */
export function browser(): Promise<Browser> {
  shared ??= launchChromium();
  return shared;
}

/** "Chromium <version>" if the run launched it, else null. */
export async function launchedVersion(): Promise<string | null> {
  return shared ? `Chromium ${(await shared).version()}` : lastVersion;
}

let lastVersion: string | null = null;

export async function closeBrowser(): Promise<void> {
  if (!shared) return;
  const pending = shared;
  shared = null;
  const launched = await pending.catch(() => null);
  if (!launched) return;
  lastVersion = `Chromium ${launched.version()}`;
  await launched.close().catch(() => undefined);
}

export interface ThrottledPage {
  readonly context: BrowserContext;
  readonly page: Page;
  readonly cdp: CDPSession;
  /** Everything the page and its workers printed to the console, and page errors. */
  readonly console: string[];
  close(): Promise<void>;
}

/** A fresh profile (empty IndexedDB, no SharedWorker yet) with one page throttled `rate`×. */
export async function newThrottledPage(rate: CpuRate): Promise<ThrottledPage> {
  const context = await (await browser()).newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate });
  const lines: string[] = [];
  page.on('console', (message) => lines.push(`[${message.type()}] ${message.text()}`));
  page.on('pageerror', (error) => lines.push(`[pageerror] ${error.message}`));
  return {
    context,
    page,
    cdp,
    console: lines,
    close: () => context.close().catch(() => undefined),
  };
}

/** A DevTools session on the page's SharedWorker (the engine), for heap and timing reads. */
export interface WorkerSession {
  call<T = unknown>(method: string, params?: object): Promise<T>;
  /** DevTools events of the worker (e.g. Network.webSocketFrameReceived). */
  on(method: string, listener: (params: Record<string, unknown>) => void): void;
  detach(): Promise<void>;
}

/**
 * Attaches to the SharedWorker target of `origin` through the browser-level DevTools
 * session (playwright does not list shared workers). Non-flat attach: commands go through
 * Target.sendMessageToTarget and come back as Target.receivedMessageFromTarget.
 */
export async function attachSharedWorker(origin: string): Promise<WorkerSession | null> {
  const cdp = await (await browser()).newBrowserCDPSession();
  const { targetInfos } = (await cdp.send('Target.getTargets')) as { targetInfos: { targetId: string; type: string; url: string }[] };
  const target = targetInfos.find((info) => info.type === 'shared_worker' && info.url.startsWith(origin));
  if (!target) {
    await cdp.detach().catch(() => undefined);
    return null;
  }
  const { sessionId } = (await cdp.send('Target.attachToTarget', { targetId: target.targetId, flatten: false })) as { sessionId: string };
  const waiting = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  const listeners = new Map<string, ((params: Record<string, unknown>) => void)[]>();
  cdp.on('Target.receivedMessageFromTarget', (event: { sessionId: string; message: string }) => {
    if (event.sessionId !== sessionId) return;
    const message = JSON.parse(event.message) as { id?: number; method?: string; params?: Record<string, unknown>; result?: unknown; error?: { message: string } };
    if (message.id === undefined) {
      for (const listener of listeners.get(message.method ?? '') ?? []) listener(message.params ?? {});
      return;
    }
    const waiter = waiting.get(message.id);
    waiting.delete(message.id);
    if (message.error) waiter?.reject(new Error(message.error.message));
    else waiter?.resolve(message.result);
  });
  let nextId = 0;
  return {
    call: <T>(method: string, params: object = {}) =>
      new Promise<T>((resolve, reject) => {
        const id = ++nextId;
        waiting.set(id, { resolve: resolve as (value: unknown) => void, reject });
        cdp.send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id, method, params }) }).catch(reject);
      }),
    on: (method, listener) => listeners.set(method, [...(listeners.get(method) ?? []), listener]),
    detach: () => cdp.detach().catch(() => undefined),
  };
}

const BUSY_LOOP = '(() => { const t = performance.now(); let x = 0; for (let i = 0; i < 2e7; i++) x += i % 7; return performance.now() - t + (x < 0 ? 1 : 0); })()';

/**
 * How much slower a fixed busy loop runs in the page and in its SharedWorker than it did
 * unthrottled: DevTools refuses `Emulation.setCPUThrottlingRate` on worker targets ("only
 * supported for pages"), so the engine is only slowed as far as its process is.
 */
export async function busyLoopMs(page: Page, origin: string): Promise<{ pageMs: number; workerMs: number | null }> {
  const pageRuns: number[] = [];
  for (let i = 0; i < 3; i++) pageRuns.push((await page.evaluate(BUSY_LOOP)) as number);
  const worker = await attachSharedWorker(origin);
  const workerRuns: number[] = [];
  if (worker) {
    try {
      for (let i = 0; i < 3; i++) {
        const reply = await worker.call<{ result: { value: number } }>('Runtime.evaluate', { expression: BUSY_LOOP, returnByValue: true });
        workerRuns.push(reply.result.value);
      }
    } finally {
      await worker.detach();
    }
  }
  const mid = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  return { pageMs: mid(pageRuns), workerMs: workerRuns.length > 0 ? mid(workerRuns) : null };
}
