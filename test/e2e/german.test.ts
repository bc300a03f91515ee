/**
 * Issue 21 point 4 in a real Chromium: a browser whose language is German gets the UI in
 * German (the preference 'auto' follows navigator.languages), at 1366×768 and 390×844.
 * Screenshots: test-results/screenshots/german-*.png.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchChromium, screenshot } from './chromium';
import { buildFakeApp, openFakeApp, type FakeAppBuild } from './fake-app';

let browser: Browser;
let bundle: FakeAppBuild;
beforeAll(async () => {
  [browser, bundle] = await Promise.all([launchChromium(), buildFakeApp()]);
});
afterAll(async () => {
  await browser?.close();
  await bundle?.dispose();
});

test('a German browser shows the mailbox and the login screen in German', async () => {
  for (const [width, height] of [
    [1366, 768],
    [390, 844],
  ] as const) {
    const context = await browser.newContext({ locale: 'de-DE', viewport: { width, height } });
    const page = await context.newPage();
    await openFakeApp(page, bundle, '/mail/unified/inbox');
    // includeHidden: on a phone the toolbar shows no action until a conversation is chosen (app/phone.css).
    await page.getByRole('button', { name: 'Archivieren', includeHidden: true }).first().waitFor({ state: 'attached' });
    await expect(page.locator('html').getAttribute('lang')).resolves.toBe('de');
    await screenshot(page, `german-mailbox-${width}`);
    await page.close();

    const login = await context.newPage();
    await openFakeApp(login, bundle, '/login', { loggedIn: [] });
    await login.getByRole('heading', { name: 'Anmelden' }).waitFor();
    await screenshot(login, `german-login-${width}`);
    await context.close();
  }
});
