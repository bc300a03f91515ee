/**
 * Settings end to end on the demo (issue 21 points 1-3): preferences changed in one browser
 * profile show in another profile of the same account without a reload (theme and language,
 * through the gateway, its transaction log and the second engine's delta); a `free` account
 * meets the paywall on the spell checker page and the gateway refuses the change with 402
 * FeatureNotInPlan; and the Settings screens photographed at 1366×768 and 390×844, light and
 * dark, in English and German.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchChromium, screenshot } from './chromium';
import { eventually, logIn, watch, type Watched } from './demo-session';

const baseUrl = inject('baseUrl');
const { alice, bob } = inject('demo');
const gatewayDataDir = inject('gatewayDataDir');

let browser: Browser;
const contexts: BrowserContext[] = [];

async function profile(): Promise<Watched> {
  const context = await browser.newContext({ viewport: { width: 1366, height: 768 }, colorScheme: 'light', locale: 'en-US' });
  contexts.push(context);
  return watch(await context.newPage());
}

const setPlan = (email: string, plan: 'paid' | 'free') =>
  promisify(execFile)('npx', ['tsx', 'src-server/cli/plan-command.ts', '--email', email, '--plan', plan, '--data-dir', gatewayDataDir], { cwd: process.cwd() });

const themeOf = (page: Page) => page.evaluate(() => document.documentElement.dataset.theme);

/** Opens a Settings page by its address (deep link) and waits for its heading. */
async function openSettings(page: Page, path: string, heading: string | RegExp) {
  await page.goto(`${baseUrl}${path}`);
  await page.getByRole('heading', { name: heading, level: 2 }).waitFor();
  await page.locator('.settings-sections').first().waitFor();
}

beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await setPlan(bob.email, 'paid').catch(() => undefined);
});

describe('preferences roam', () => {
  let first: Watched;
  let second: Watched;

  beforeAll(async () => {
    // Two browser profiles (contexts): two engines, two IndexedDBs, one account.
    [first, second] = await Promise.all([profile(), profile()]);
    await logIn(first.page, baseUrl, alice);
    await logIn(second.page, baseUrl, alice);
  });

  afterAll(async () => {
    // Back to the defaults other files' screenshots expect.
    await openSettings(first.page, '/settings/general', /General|Allgemein/);
    await first.page.getByRole('combobox').selectOption('auto');
    await first.page.getByRole('heading', { name: 'General', level: 2 }).waitFor();
    await first.page.getByLabel('System').check();
    await eventually(async () => (await themeOf(second.page)) === 'light', 15_000, 'the second profile back on the system theme');
  });

  test('1. a theme and a language chosen in one profile show in the other without a reload', async () => {
    await openSettings(first.page, '/settings/general', 'General');
    await first.page.getByLabel('Dark').check();
    expect(await themeOf(first.page)).toBe('dark');
    // The second profile is on its inbox; nobody reloads it.
    await second.page.evaluate(() => ((window as unknown as { __notReloaded: number }).__notReloaded = 1));
    await eventually(async () => (await themeOf(second.page)) === 'dark', 15_000, 'the dark theme in the second profile');

    await first.page.getByRole('combobox', { name: 'Language' }).selectOption('de');
    await first.page.getByRole('heading', { name: 'Allgemein', level: 2 }).waitFor();
    await eventually(async () => (await second.page.evaluate(() => document.documentElement.lang)) === 'de', 15_000, 'German in the second profile');
    // Both arrived in the page that was open all along (a reload would have lost the mark).
    expect(await second.page.evaluate(() => (window as unknown as { __notReloaded?: number }).__notReloaded)).toBe(1);
    await second.page.goto(`${baseUrl}/settings/general`);
    await second.page.getByRole('heading', { name: 'Allgemein', level: 2 }).waitFor();
    expect(first.errors).toEqual([]);
    expect(second.errors).toEqual([]);
  });

  test('3. the Settings screens at 1366×768 and 390×844, light and dark, German and English', async () => {
    const page = first.page;
    await page.getByLabel('System').check(); // the colour scheme of the browser decides from here
    for (const language of ['de', 'en'] as const) {
      await openSettings(page, '/settings/general', /^(General|Allgemein)$/);
      await page.getByRole('combobox').selectOption(language);
      await page.getByRole('heading', { name: language === 'de' ? 'Allgemein' : 'General', level: 2 }).waitFor();
      for (const scheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: scheme });
        await eventually(async () => (await themeOf(page)) === scheme, 5_000, `the ${scheme} theme`);
        await page.setViewportSize({ width: 1366, height: 768 });
        for (const [path, name] of [
          ['/settings/general', language === 'de' ? 'Allgemein' : 'General'],
          ['/settings/identity', language === 'de' ? 'Identität' : 'Identity'],
          ['/settings/plan', language === 'de' ? 'Tarif' : 'Plan'],
        ] as const) {
          await openSettings(page, path, name);
          await screenshot(page, `settings-${path.split('/').at(-1)}-1366-${scheme}-${language}`);
        }
        await page.setViewportSize({ width: 390, height: 844 });
        await page.goto(`${baseUrl}/settings`);
        await page.getByRole('navigation', { name: language === 'de' ? 'Einstellungsseiten' : 'Settings pages' }).waitFor();
        await screenshot(page, `settings-list-390-${scheme}-${language}`);
        // Keyboard on the phone layout: the list, Enter opens a page, its heading takes the focus.
        await page.getByRole('link', { name: language === 'de' ? 'Allgemein' : 'General' }).focus();
        await page.keyboard.press('Enter');
        await page.getByRole('heading', { name: language === 'de' ? 'Allgemein' : 'General', level: 2 }).waitFor();
        await page.locator('.settings-sections').first().waitFor();
        expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('H2');
        await screenshot(page, `settings-general-390-${scheme}-${language}`);
      }
    }
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize({ width: 1366, height: 768 });
    expect(first.errors).toEqual([]);
  });
});

describe('plans and gates', () => {
  test('2. a free account sees the paywall on the spell checker page; the gateway refuses the change with 402 FeatureNotInPlan', async () => {
    const tab = await profile();
    await logIn(tab.page, baseUrl, bob);
    await openSettings(tab.page, '/settings/plan', 'Plan');
    await tab.page.getByText('Plan: Paid').waitFor();
    // The operator's command line writes the plan to the transaction log; the command line has
    // no push hub, so the open tab hears of it with its next delta — here the one its own
    // preference change brings (Dark, then back to System).
    await setPlan(bob.email, 'free');
    await openSettings(tab.page, '/settings/general', 'General');
    await tab.page.getByLabel('Dark').check();
    await tab.page.getByLabel('System').check();
    await openSettings(tab.page, '/settings/plan', 'Plan');
    await tab.page.getByText('Plan: Free').waitFor();
    await openSettings(tab.page, '/settings/spell-checker', 'Spell checker');
    await tab.page.getByRole('switch', { name: /Check spelling as I type/ }).click();
    const paywall = tab.page.getByRole('dialog', { name: 'Spell checker' });
    await paywall.getByText('Spell checker is not included in your plan.').waitFor();
    for (const scheme of ['light', 'dark'] as const) {
      await tab.page.emulateMedia({ colorScheme: scheme });
      for (const [width, height] of [[1366, 768], [390, 844]] as const) {
        await tab.page.setViewportSize({ width, height });
        await screenshot(tab.page, `settings-paywall-${width}-${scheme}`);
      }
    }
    await tab.page.emulateMedia({ colorScheme: 'light' });
    // Off, as the composer is without the feature; the click changed nothing.
    expect(await tab.page.getByRole('switch', { name: /Check spelling as I type/ }).isChecked()).toBe(false);
    await paywall.getByRole('link', { name: 'See your plan' }).click();
    await tab.page.getByRole('heading', { name: 'Plan', level: 2 }).waitFor();
    expect(tab.errors).toEqual([]);

    // The gateway itself refuses it, whatever a client does.
    const login = await fetch(`${baseUrl}/api/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: bob.email, password: bob.password }) });
    const { token } = (await login.json()) as { token: string };
    const patch = await fetch(`${baseUrl}/api/preferences`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ values: { spellCheck: false } }),
    });
    expect(patch.status).toBe(402);
    expect(await patch.json()).toMatchObject({ error: 'FeatureNotInPlan', detail: { feature: 'spellChecker' } });
  });
});
