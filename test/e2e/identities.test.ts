/**
 * Identities and signatures on the demo (issue 14 points 1–2): Settings → Email alias adds
 * the alias the harness's Postfix lets Alice send as; Settings → Signatures gives it a
 * signature written in the composer's editor; a new message from Alice's own address has
 * none, and choosing the alias as From puts its signature in ("-- " first) and choosing her
 * own address again takes it out. The pages and the composer photographed at 1366×768 and
 * 390×844, light and dark. The alias is removed again in afterAll (other files write as Alice).
 */
import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { screenshot } from './chromium';
import { startLoggedIn, type Watched } from './demo-session';
import { composerForm } from './mail-page';

const baseUrl = inject('baseUrl');
const { alice } = inject('demo');
const ALIAS = 'alice.work@tern.test';

let browser: Browser;
let tab: Watched;
let page: Page;

beforeAll(async () => {
  ({ browser, tab, page } = await startLoggedIn(baseUrl, alice, { viewport: { width: 1366, height: 768 } }));
});
afterAll(async () => {
  try {
    // Leave Alice as she was: no alias (its signature goes with it).
    await page.setViewportSize({ width: 1366, height: 768 });
    await page.goto(`${baseUrl}/settings/email-alias`);
    const alias = page.getByRole('form', { name: `Alias ${ALIAS}`, exact: true });
    await page.getByRole('heading', { name: 'Email alias', level: 2 }).waitFor();
    if (await alias.count()) {
      await alias.getByRole('button', { name: 'Remove', exact: true }).click();
      await alias.waitFor({ state: 'detached' });
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

test('an alias added under Email alias, a bad address refused in place; its signature written under Signatures', async () => {
  await page.goto(`${baseUrl}/settings/identity`);
  await page.getByRole('form', { name: `Sending from ${alice.email}`, exact: true }).waitFor();
  await photograph('identity');

  await page.goto(`${baseUrl}/settings/email-alias`);
  await page.getByRole('button', { name: 'Add an alias' }).first().click();
  const form = page.getByRole('form', { name: 'New alias', exact: true });
  await form.getByLabel('Address', { exact: true }).fill('alice.work@');
  await form.getByLabel('From name', { exact: true }).fill('Alice at Work');
  await form.getByRole('button', { name: 'Save', exact: true }).click();
  await form.getByRole('alert').filter({ hasText: 'Enter a valid email address.' }).waitFor();
  expect(await form.getByLabel('From name', { exact: true }).inputValue()).toBe('Alice at Work');
  await form.getByLabel('Address', { exact: true }).fill(ALIAS);
  await form.getByRole('button', { name: 'Save', exact: true }).click();
  const saved = page.getByRole('form', { name: `Alias ${ALIAS}`, exact: true });
  await saved.waitFor();
  expect(await saved.getByLabel('From name', { exact: true }).inputValue()).toBe('Alice at Work');
  await photograph('email-alias');

  await page.goto(`${baseUrl}/settings/signatures`);
  const signature = page.getByRole('region', { name: `Signature for ${ALIAS}`, exact: true });
  const editor = signature.getByRole('textbox', { name: `Signature for ${ALIAS}`, exact: true });
  await editor.click();
  await page.keyboard.type('Alice Tern');
  await page.keyboard.press('Enter');
  await page.keyboard.type('Head of kites, Tern Ltd');
  await signature.getByText(/of 10,000 characters/).waitFor();
  await signature.getByRole('button', { name: 'Save', exact: true }).click();
  await page.getByRole('status').filter({ hasText: 'Signature saved.' }).waitFor();
  await photograph('signatures');
  expect(tab.errors).toEqual([]);
});

test('the composer: no signature from the own address; the alias as From puts its signature in, the own address again takes it out', async () => {
  await page.goto(`${baseUrl}/mail/unified/inbox`);
  await page.getByRole('button', { name: 'Compose', exact: true }).click();
  const box = composerForm(page);
  await box.waitFor();
  const body = box.getByRole('textbox', { name: 'Message body' });
  const from = box.getByRole('combobox', { name: 'From' });
  expect(await body.locator('.tern-signature').count()).toBe(0);
  // By address: Alice's sender name is another file's to set.
  const option = async (email: string) => (await from.locator('option', { hasText: `<${email}>` }).getAttribute('value')) ?? '';
  await from.selectOption(await option(ALIAS));
  const block = body.locator('.tern-signature');
  await block.waitFor();
  expect(await block.innerText()).toMatch(/^--\s*\nAlice Tern\n+Head of kites, Tern Ltd$/);
  await photograph('composer-signature');
  await from.selectOption(await option(alice.email));
  await block.waitFor({ state: 'detached' });
  await page.keyboard.press('Escape');
  expect(tab.errors).toEqual([]);
});
