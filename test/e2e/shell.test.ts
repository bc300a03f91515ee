import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchChromium, screenshot } from './chromium';

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

test('the built app loads in Chromium, shows its brand and reaches the shared engine', async () => {
  const page = await browser.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  // React reports render loops on the console, not as page errors.
  page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
  const consoleLines: string[] = [];
  page.on('console', (message) => consoleLines.push(`${message.type()}: ${message.text()}`));
  await page.goto(inject('baseUrl'));
  await expect(page.title()).resolves.toBe('Tern Mail');
  await page.getByRole('heading', { name: 'Tern Mail' }).waitFor();
  // A fresh browser has no account: the first screen is the login (email first).
  await page
    .getByRole('heading', { name: 'Sign in' })
    .waitFor()
    .catch(async (error: unknown) => {
      // What the page showed instead, for the report.
      await screenshot(page, 'shell-FAILED');
      console.log(`shell: ${page.url()}\n${await page.evaluate(() => document.body.innerText)}\n${consoleLines.join('\n')}`);
      throw error;
    });
  await expect(page.url()).toMatch(/\/login$/);
  // The version comes from the SharedWorker's handshake, so this proves the worker bundle runs;
  // it is an attribute for tests and support, never a line the user reads.
  await page.locator('[data-engine-version="5.33.0"]').waitFor({ state: 'attached' });
  await expect(page.locator('body').innerText()).resolves.not.toMatch(/Mail engine|5\.33\.0/);
  await screenshot(page, 'shell');
  expect(errors).toEqual([]);
  await page.close();
});

test('a second tab connects to the same engine instead of starting another', async () => {
  const context = await browser.newContext();
  const tabs = [await context.newPage(), await context.newPage()];
  for (const tab of tabs) {
    await tab.goto(inject('baseUrl'));
    await tab.locator('[data-engine-version]').waitFor({ state: 'attached' });
  }
  const cdp = await browser.newBrowserCDPSession();
  const { targetInfos } = (await cdp.send('Target.getTargets')) as { targetInfos: { type: string; url: string; browserContextId?: string }[] };
  // This context's only: an engine of an earlier test's closed page may still be in its grace period (extendedLifetime).
  const contextId = targetInfos.find((target) => target.type === 'page' && target.url === tabs[0]!.url())?.browserContextId;
  const engines = targetInfos.filter((target) => target.type === 'shared_worker' && target.url.includes('/build/worker-') && target.browserContextId === contextId);
  expect(engines).toHaveLength(1);
  await cdp.detach();
  await context.close();
});
