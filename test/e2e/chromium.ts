import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';

export const CHROMIUM_PATH = '/usr/bin/chromium';

/** Where the e2e tests leave their screenshots for people to look at. */
export const SCREENSHOT_DIR = join(process.cwd(), 'test-results', 'screenshots');

/**
 * Launches Debian's Chromium, never a downloaded browser. The flags keep it off the
 * network (this machine has none) and let it run as root in a container; `extraArgs`
 * adds to them (e.g. a DevTools port to reach the SharedWorker).
 */
export function launchChromium(extraArgs: readonly string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      ...extraArgs,
    ],
  });
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
