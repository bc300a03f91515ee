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

export async function closeBrowser(): Promise<void> {
  if (!shared) return;
  const pending = shared;
  shared = null;
  await (await pending).close().catch(() => undefined);
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
