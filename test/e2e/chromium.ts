import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserServer, type Page } from 'playwright-core';

export const CHROMIUM_PATH = '/usr/bin/chromium';

/** Where the e2e tests leave their screenshots for people to look at. */
export const SCREENSHOT_DIR = join(process.cwd(), 'test-results', 'screenshots');

const LAUNCH_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * Launches Debian's Chromium, never a downloaded browser. The flags keep it off the
 * network (this machine has none) and let it run as root in a container; `extraArgs`
 * adds to them (e.g. a DevTools port to reach the SharedWorker).
 *
 * In the e2e run (vitest), a call without `extraArgs` connects to the one Chromium the
 * global setup launched (launchChromiumServer) instead of starting its own: a launch and its
 * close cost each file 1–2 s, several under load. Its contexts are as separate as another
 * browser's (own cookies, storage, service workers, cache), and `close()` on a connected
 * browser closes the contexts it made and disconnects, so a file still ends with nothing left.
 */
export async function launchChromium(extraArgs: readonly string[] = []): Promise<Browser> {
  if (extraArgs.length === 0 && process.env.VITEST) {
    const { inject } = await import('vitest');
    const endpoint = inject('chromiumEndpoint');
    if (endpoint) return chromium.connect(endpoint);
  }
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: [...LAUNCH_ARGS, ...extraArgs] });
}

/** The e2e run's shared Chromium (global-setup.ts), which launchChromium() connects to. */
export function launchChromiumServer(): Promise<BrowserServer> {
  return chromium.launchServer({ executablePath: CHROMIUM_PATH, headless: true, args: LAUNCH_ARGS });
}

/** Saves a full-page screenshot as test-results/screenshots/<name>.png and returns its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  await mkdir(SCREENSHOT_DIR, { recursive: true });
  const path = join(SCREENSHOT_DIR, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}

/** The colour scheme applied and its transitions (buttons fade their background) finished, so a photo shows one theme. */
export async function showScheme(page: Page, scheme: 'light' | 'dark'): Promise<void> {
  await page.emulateMedia({ colorScheme: scheme });
  await page.waitForFunction((wanted) => document.documentElement.dataset.theme === wanted, scheme);
  await page.evaluate(() => Promise.all(document.getAnimations().map((animation) => animation.finished)));
}

/** The screen at 1366×768 and 390×844, light and dark (`<name>-<width>-<scheme>.png`); back to 1366 and light after. */
export async function photographThemes(page: Page, name: string): Promise<void> {
  for (const scheme of ['light', 'dark'] as const) {
    await showScheme(page, scheme);
    await page.setViewportSize({ width: 1366, height: 768 });
    await screenshot(page, `${name}-1366-${scheme}`);
    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot(page, `${name}-390-${scheme}`);
  }
  await page.setViewportSize({ width: 1366, height: 768 });
  await showScheme(page, 'light');
}
