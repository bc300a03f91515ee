/**
 * Tern on a 390×844 phone (issue 20 point 1), on the in-memory engine: every screen fits
 * the width (no sideways scrolling: `scrollWidth <= clientWidth`), one pane at a time —
 * folders → list → conversation — with Back in the app and in the browser, the composer
 * full-screen, Settings and search usable, a swipe archiving with Undo; and at 1366×768
 * the same screens stay side by side as before. Screenshots light and dark.
 */
import { expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { launchChromium, screenshot } from './chromium';
import { openFakeApp, useFakeAppBrowser, type FakePageOptions } from './fake-app';
import { BUILT_SETTINGS_PAGES } from '../../src-ui/settings/pages';

const held = useFakeAppBrowser(launchChromium);

async function open(path: string, viewport: { width: number; height: number }, options: FakePageOptions = {}): Promise<{ page: Page; errors: string[] }> {
  const page = await held.browser.newPage({ viewport, colorScheme: 'light', hasTouch: viewport.width < 700 });
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await openFakeApp(page, held.bundle, path, options);
  return { page, errors };
}

const PHONE = { width: 390, height: 844 };
const LAPTOP = { width: 1366, height: 768 };

/** Nothing is wider than the window: the page never scrolls sideways. */
async function expectNoSidewaysScroll(page: Page, screen: string) {
  const { scrollWidth, clientWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, clientWidth: document.documentElement.clientWidth }));
  expect(scrollWidth, `${screen}: ${scrollWidth} px wide in a ${clientWidth} px window`).toBeLessThanOrEqual(clientWidth);
}

/** The list's first conversation (rows are placed absolutely: the first in the document may be another). */
const firstRow = (page: Page) => page.locator('.thread-row[aria-posinset="1"]:not(.is-placeholder)');

const visible = (page: Page, selector: string) => page.locator(selector).first().isVisible();

/** Which of the three panes show. */
async function panes(page: Page) {
  return { folders: await visible(page, 'nav.sidebar'), list: await visible(page, '#thread-list'), conversation: await visible(page, '.reading-pane') };
}

/** A touch swipe across a row, as pointer events (Playwright's touchscreen only taps). */
async function swipeRow(page: Page, index: number, dx: number) {
  await page.evaluate(
    `(async () => {
      const row = document.querySelectorAll('.thread-row')[${index}];
      const box = row.getBoundingClientRect();
      const y = box.top + box.height / 2, x0 = box.left + box.width / 2;
      const fire = (type, x) => row.dispatchEvent(new PointerEvent(type, { bubbles: true, pointerType: 'touch', pointerId: 11, isPrimary: true, clientX: x, clientY: y }));
      fire('pointerdown', x0);
      for (let step = 1; step <= 6; step++) { fire('pointermove', x0 + (${dx} * step) / 6); await new Promise(requestAnimationFrame); }
      fire('pointerup', x0 + ${dx});
    })()`,
  );
}

/**
 * The screen as it is now, in the light theme and then the dark one (the system's choice
 * switched in place: one page load serves both): it fits the width and passes `check` in
 * each, with a screenshot of each. Ends in the light theme.
 */
async function inBothThemes(page: Page, screen: string, check: () => Promise<void> = async () => undefined) {
  for (const theme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: theme });
    await page.waitForFunction((wanted) => document.documentElement.dataset.theme === wanted, theme);
    await expectNoSidewaysScroll(page, `${screen} (${theme})`);
    await check();
    await screenshot(page, `phone-${screen}-${theme}`);
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.waitForFunction(() => document.documentElement.dataset.theme === 'light');
}

test('390×844: login, list, folders, conversation, composer and search fit; one pane at a time; Back walks the panes', async () => {
  const login = await open('/login', PHONE, { loggedIn: [] });
  await login.page.getByRole('heading', { name: 'Sign in' }).waitFor();
  await inBothThemes(login.page, 'login');
  expect(login.errors).toEqual([]);
  await login.page.close();

  const { page, errors } = await open('/mail/unified/inbox', PHONE);
  await firstRow(page).waitFor();
  await inBothThemes(page, 'list', async () => expect(await panes(page)).toEqual({ folders: false, list: true, conversation: false }));

  // The folders: a pane of their own, opened from the bar; a folder chosen shows its list.
  await page.getByRole('button', { name: 'Folders' }).click();
  await page.locator('nav.sidebar').waitFor();
  await inBothThemes(page, 'folders', async () => {
    expect(await panes(page)).toEqual({ folders: true, list: false, conversation: false });
    const folderItem = await page.locator('nav.sidebar .nav-item').first().boundingBox();
    expect(folderItem!.height).toBeGreaterThanOrEqual(44);
  });
  await page.locator('nav.sidebar').getByRole('link', { name: /^Archive/ }).first().click();
  await page.waitForURL(/\/mail\/[^/]+\/[^/?]+$/);
  expect(await panes(page)).toEqual({ folders: false, list: true, conversation: false });
  // The browser's Back returns to the folders, and again to the list it came from.
  await page.goBack();
  await page.locator('nav.sidebar').waitFor();
  expect(await panes(page)).toEqual({ folders: true, list: false, conversation: false });
  await page.goBack();
  await page.locator('#thread-list').waitFor();
  expect(await panes(page)).toEqual({ folders: false, list: true, conversation: false });

  // A conversation replaces the list; the app's Back and the browser's both return to it.
  await firstRow(page).click();
  await page.locator('.reading-pane .tern-conversation').waitFor();
  const back = page.getByRole('button', { name: 'Back to the list' });
  await inBothThemes(page, 'conversation', async () => {
    expect(await panes(page)).toEqual({ folders: false, list: false, conversation: true });
    expect((await back.boundingBox())!.width).toBeGreaterThanOrEqual(44);
  });
  await back.click();
  await page.locator('#thread-list').waitFor();
  expect(await panes(page)).toEqual({ folders: false, list: true, conversation: false });
  await firstRow(page).click();
  await page.locator('.reading-pane .tern-conversation').waitFor();
  await page.goBack();
  await page.locator('#thread-list').waitFor();
  expect(await panes(page)).toEqual({ folders: false, list: true, conversation: false });

  // Compose floats over the list; the composer takes the whole screen.
  await page.getByRole('button', { name: 'Compose' }).click();
  const composer = page.locator('.composer-dock form');
  await composer.waitFor();
  await inBothThemes(page, 'composer', async () => {
    const box = (await composer.boundingBox())!;
    expect(box.x).toBe(0);
    expect(Math.round(box.width)).toBe(PHONE.width);
    expect(box.height).toBeGreaterThan(PHONE.height - 2);
  });
  await page.getByRole('button', { name: /^Close|^Discard/ }).first().click();

  // Search: the results list fits too.
  await page.getByRole('searchbox').fill('security');
  await page.getByRole('searchbox').press('Enter');
  await page.waitForURL(/q=security/);
  await firstRow(page).waitFor();
  await inBothThemes(page, 'search');
  expect(errors).toEqual([]);
  await page.close();
});

test('390×844: every Settings page fits, list and page one at a time', async () => {
  const { page, errors } = await open('/settings', PHONE);
  await page.locator('.settings-nav').waitFor();
  await inBothThemes(page, 'settings');
  // Each page from the list, in the app (one page load for all): the page alone, then its way back to the list.
  for (const settingsPage of BUILT_SETTINGS_PAGES) {
    await page.locator(`.settings-nav a[href$="/settings/${settingsPage.id}"]`).click();
    await page.waitForURL(new RegExp(`/settings/${settingsPage.id}$`));
    await page.locator(`section[aria-labelledby="settings-page-${settingsPage.id}"] .settings-sections`).first().waitFor();
    await inBothThemes(page, `settings-${settingsPage.id}`, async () => expect(await visible(page, '.settings-nav')).toBe(false));
    await page.locator('.settings-page-back').click();
    await page.locator('.settings-nav').waitFor();
  }
  expect(errors).toEqual([]);
  await page.close();
});

test('390×844: a row swiped right is archived, with Undo; swiped left it is deleted; a short swipe does nothing', async () => {
  const { page, errors } = await open('/mail/unified/inbox', PHONE);
  await firstRow(page).waitFor();
  const name = (index: number) => page.locator('.thread-row').nth(index).getAttribute('aria-label');
  const first = await name(0);
  await swipeRow(page, 0, 60);
  expect(await name(0)).toBe(first);
  expect(page.url()).not.toContain('thread=');

  await swipeRow(page, 0, 260);
  await page.getByText('Conversation archived.').waitFor();
  await expect.poll(() => name(0)).not.toBe(first);
  await page.getByRole('button', { name: 'Undo', exact: true }).click();
  await expect.poll(() => name(0)).toBe(first);
  expect(page.url()).not.toContain('thread=');

  await swipeRow(page, 0, -260);
  await page.getByText(/moved to Trash/i).waitFor();
  await expect.poll(() => name(0)).not.toBe(first);
  // Undone too: the row is another file's mail (the newest of the inbox), which later files open.
  await page.getByRole('button', { name: 'Undo', exact: true }).click();
  await expect.poll(() => name(0)).toBe(first);
  expect(errors).toEqual([]);
  await page.close();
});

test('1366×768: folders, list and conversation side by side as before; no phone controls', async () => {
  const { page, errors } = await open('/mail/unified/inbox', LAPTOP);
  await firstRow(page).click();
  await page.locator('.reading-pane .tern-conversation').waitFor();
  expect(await panes(page)).toEqual({ folders: true, list: true, conversation: true });
  expect(await visible(page, '.compose-fab')).toBe(false);
  expect(await visible(page, '.topbar-folders')).toBe(false);
  await expectNoSidewaysScroll(page, 'laptop mail');
  const list = (await page.locator('.mailbox-list').boundingBox())!;
  const pane = (await page.locator('.reading-pane').boundingBox())!;
  expect(pane.x).toBeGreaterThanOrEqual(list.x + list.width - 1);
  await screenshot(page, 'phone-laptop-conversation-1366-light');
  expect(errors).toEqual([]);
  await page.close();
});
