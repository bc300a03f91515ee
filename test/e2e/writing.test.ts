/**
 * Writing tools on the demo (issue 14 points 3–6), one page load: Settings → Templates writes
 * a template with a {{first_name}} field; the composer's Templates menu (Ctrl+Shift+Y) inserts
 * it filled from the recipient's name, its subject into the empty subject; the emoji button
 * loads the picker from the app's own data (no request leaves for a CDN), searches and inserts
 * at the caret. Screens at 1366×768 and 390×844, light and dark. The template is deleted in
 * afterAll (other files write as Alice and would see it in their menus).
 */
import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { screenshot } from './chromium';
import { startLoggedIn, type Watched } from './demo-session';
import { composerForm } from './mail-page';

const baseUrl = inject('baseUrl');
const { alice, bob } = inject('demo');
const TEMPLATE = 'Kite lesson follow-up';

let browser: Browser;
let tab: Watched;
let page: Page;
/** Every URL the page asked for that is not the gateway's own. */
const foreign: string[] = [];

beforeAll(async () => {
  ({ browser, tab, page } = await startLoggedIn(baseUrl, alice, { viewport: { width: 1366, height: 768 } }));
  page.on('request', (request) => {
    const url = request.url();
    if (!url.startsWith(baseUrl) && !url.startsWith('data:') && !url.startsWith('blob:')) foreign.push(url);
  });
});
afterAll(async () => {
  try {
    // Leave Alice as she was: no template.
    await page.keyboard.press('Escape').catch(() => undefined);
    await page.setViewportSize({ width: 1366, height: 768 });
    await page.goto(`${baseUrl}/settings/templates`);
    await page.getByRole('heading', { name: 'Templates', level: 2 }).waitFor();
    const remove = page.getByRole('button', { name: `Delete: ${TEMPLATE}`, exact: true });
    if (await remove.count()) {
      await remove.click();
      await remove.waitFor({ state: 'detached' });
    }
  } finally {
    await browser?.close();
  }
});

async function photograph(name: string) {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.setViewportSize({ width: 1366, height: 768 });
    await screenshot(page, `${name}-1366-${scheme}`);
    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot(page, `${name}-390-${scheme}`);
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1366, height: 768 });
}

test('a template written under Settings → Templates, an empty name refused in place', async () => {
  await page.goto(`${baseUrl}/settings/templates`);
  await page.getByRole('button', { name: 'New template' }).first().click();
  const form = page.getByRole('form', { name: 'New template', exact: true });
  await form.getByLabel('Subject', { exact: true }).fill('Your lesson, {{first_name}}');
  await form.getByRole('textbox', { name: 'Template text', exact: true }).click();
  await page.keyboard.type('Dear {{first_name}}, thanks for flying with us.');
  await form.getByRole('button', { name: 'Save', exact: true }).click();
  await form.getByRole('alert').filter({ hasText: 'A template needs a name.' }).waitFor();
  expect(await form.getByRole('textbox', { name: 'Template text', exact: true }).innerText()).toContain('thanks for flying');
  await form.getByLabel('Name', { exact: true }).fill(TEMPLATE);
  await form.getByRole('button', { name: 'Save', exact: true }).click();
  await page.getByRole('button', { name: `Edit: ${TEMPLATE}`, exact: true }).waitFor();
  await photograph('templates');
  expect(tab.errors).toEqual([]);
});

test('the composer: Ctrl+Shift+Y inserts the template filled from the recipient; an emoji from the picker goes in at the caret', async () => {
  await page.goto(`${baseUrl}/mail/unified/inbox`);
  await page.getByRole('button', { name: 'Compose', exact: true }).click();
  const box = composerForm(page);
  await box.waitFor();
  await box.getByRole('combobox', { name: 'To' }).fill(`Bob Kite <${bob.email}>`);
  await page.keyboard.press('Enter');
  const body = box.getByRole('textbox', { name: 'Message body' });
  await body.click();
  await page.keyboard.press('Control+Shift+Y');
  await page.getByRole('menuitem', { name: TEMPLATE }).click();
  await body.getByText('Dear Bob, thanks for flying with us.').waitFor();
  expect(await box.getByRole('textbox', { name: 'Subject' }).inputValue()).toBe('Your lesson, Bob');

  // Emoji: lazy, from /build/emoji/en.json; type to search, then pick.
  await page.keyboard.press('End');
  await box.getByRole('button', { name: 'Insert emoji', exact: true }).click();
  const picker = page.getByRole('dialog', { name: 'Emoji' });
  const search = picker.getByRole('combobox');
  await search.waitFor();
  await search.fill('grinning face');
  await picker.getByRole('option', { name: /^😀/ }).first().waitFor();
  await photograph('composer-emoji');
  await picker.getByRole('option', { name: /^😀/ }).first().click();
  await picker.waitFor({ state: 'detached' });
  await body.getByText('Dear Bob, thanks for flying with us.😀').waitFor();
  await photograph('composer-template');
  expect(foreign).toEqual([]);
  // Closed, the draft kept: Discard it (the shared Drafts stay as they were).
  await box.getByRole('button', { name: 'Discard draft', exact: true }).click();
  expect(tab.errors).toEqual([]);
});
