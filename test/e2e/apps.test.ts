/**
 * mailto: links and the app page (issue 20 points 4 and 5), on the in-memory engine: the
 * handler's address (/compose?uri=mailto:…) opens a filled composer over the inbox as a
 * page load of its own (Tern closed before), on a laptop and full-screen on a phone; the
 * account menu's "Get the app" opens the app page with the install steps; its default mail
 * app dialog says plainly when the browser cannot take email links (this origin is not
 * HTTPS). Screenshots light and dark, 1366×768 and 390×844.
 */
import { expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { launchChromium, screenshot } from './chromium';
import { openFakeApp, useFakeAppBrowser, type FakePageOptions } from './fake-app';

const held = useFakeAppBrowser(launchChromium);

async function open(path: string, width: number, height: number, dark = false, options: FakePageOptions = {}): Promise<{ page: Page; errors: string[] }> {
  const page = await held.browser.newPage({ viewport: { width, height }, colorScheme: dark ? 'dark' : 'light' });
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await openFakeApp(page, held.bundle, path, options);
  return { page, errors };
}

// What a browser hands the handler: the whole mailto: URI, escaped, in place of %s.
const MAILTO = 'mailto:ann@example.com,bob@example.com?cc=carol@example.com&bcc=dan@example.com&subject=Caf%C3%A9%20%2B%20cake&body=Line%201%0D%0ALine%202';
const HANDLER = `/compose?uri=${encodeURIComponent(MAILTO)}`;

test('the mailto: handler address opens a filled composer over the inbox (laptop and phone)', async () => {
  for (const [width, height, dark] of [[1366, 768, false], [390, 844, true]] as const) {
    const { page, errors } = await open(HANDLER, width, height, dark);
    const composer = page.getByRole('form').filter({ has: page.getByRole('textbox', { name: 'Message body' }) });
    await composer.waitFor();
    await page.waitForURL(/\/mail\/unified\/inbox$/);
    const chips = (list: string) => composer.getByRole('list', { name: `${list} recipients`, exact: true }).getByRole('listitem').allTextContents().then((items) => items.filter((item) => item.includes('@')));
    await expect(chips('To')).resolves.toEqual([expect.stringContaining('ann@example.com'), expect.stringContaining('bob@example.com')]);
    await expect(chips('Cc')).resolves.toEqual([expect.stringContaining('carol@example.com')]);
    await expect(chips('Bcc')).resolves.toEqual([expect.stringContaining('dan@example.com')]);
    await expect(composer.getByLabel('Subject').inputValue()).resolves.toBe('Café + cake');
    await expect(composer.getByRole('textbox', { name: 'Message body' }).innerText()).resolves.toMatch(/^Line 1\n+Line 2/);
    if (width < 700) expect(Math.round((await composer.boundingBox())!.width)).toBe(width);
    await screenshot(page, `apps-mailto-composer-${width}-${dark ? 'dark' : 'light'}`);
    expect(errors).toEqual([]);
    // Back leaves Tern, as from the page that had the link: /compose is not in the history.
    await page.goBack();
    expect(page.url()).toBe('about:blank');
    await page.close();
  }
});

test('a mailto: link opened while nobody is logged in keeps its composer through the login', async () => {
  const { page, errors } = await open(HANDLER, 1366, 768, false, { loggedIn: [] });
  await page.getByRole('heading', { name: 'Sign in' }).waitFor();
  // The link's query rides along on the login screen's address, and nothing opened yet.
  expect(new URL(page.url()).searchParams.get('compose')).toBe(`uri=${encodeURIComponent(MAILTO)}`);
  await expect(page.getByRole('textbox', { name: 'Message body' }).count()).resolves.toBe(0);
  await page.getByLabel('Email address').fill('alice@tern.test');
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByLabel('Password').fill('Tern-demo-1!');
  await page.getByRole('button', { name: 'Sign in' }).click();
  const composer = page.getByRole('form').filter({ has: page.getByRole('textbox', { name: 'Message body' }) });
  await composer.waitFor();
  await page.waitForURL(/\/mail\/unified\/inbox$/);
  await expect(composer.getByLabel('Subject').inputValue()).resolves.toBe('Café + cake');
  await expect(composer.getByRole('list', { name: 'To recipients', exact: true }).getByRole('listitem').allTextContents()).resolves.toEqual(
    expect.arrayContaining([expect.stringContaining('ann@example.com'), expect.stringContaining('bob@example.com')]),
  );
  await screenshot(page, 'apps-mailto-after-login');
  expect(errors).toEqual([]);
  await page.close();
});

test('account menu → Get the app: install steps, and the default-mail dialog says where the browser cannot', async () => {
  for (const [width, height, dark] of [[1366, 768, false], [390, 844, true]] as const) {
    const { page, errors } = await open('/mail/unified/inbox', width, height, dark);
    await page.getByRole('button', { name: /^Account/ }).click();
    await page.getByRole('menuitem', { name: 'Get the app' }).click();
    await page.waitForURL(/\/settings\/apps$/);
    await page.getByRole('heading', { name: 'Install Tern Mail' }).waitFor();
    // Headless Chromium offers no install prompt: the steps for each browser show.
    await page.getByRole('heading', { name: 'iPhone or iPad' }).waitFor();
    await expect(page.getByRole('button', { name: 'Install Tern Mail' }).count()).resolves.toBe(0);
    const { scrollWidth, clientWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, clientWidth: document.documentElement.clientWidth }));
    expect(scrollWidth).toBeLessThanOrEqual(clientWidth);
    await screenshot(page, `apps-page-${width}-${dark ? 'dark' : 'light'}`);

    await page.getByRole('button', { name: 'Use Tern Mail for email links…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Open email links in Tern Mail' });
    await dialog.waitFor();
    // http://tern.fake is not a secure context: no button that would do nothing, an honest sentence.
    await dialog.getByText('This browser does not let a website handle email links').waitFor();
    await expect(dialog.getByRole('button', { name: 'Use Tern Mail for email links' }).count()).resolves.toBe(0);
    await screenshot(page, `apps-default-mail-${width}-${dark ? 'dark' : 'light'}`);
    await dialog.getByRole('button', { name: 'Close', exact: true }).first().click();
    await expect(dialog.count()).resolves.toBe(0);
    expect(errors).toEqual([]);
    await page.close();
  }
});
