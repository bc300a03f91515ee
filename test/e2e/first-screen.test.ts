/**
 * The first screen of a new browser on the demo setup (global-setup.ts): with no account,
 * opening the app shows the login screen (or the neutral boot screen) first — never the
 * mailbox with its loading rows on the way there. Logging out of the last account goes
 * straight to the login screen, without an empty mailbox in between.
 *
 * A recorder installed before the page's own scripts (addInitScript) logs every state of
 * the DOM a MutationObserver sees from navigation on: mailbox (thread list, sidebar,
 * "Loading conversation" rows) or login form, with the address at that moment.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { launchChromium, screenshot } from './chromium';
import { logIn, newDemoContext, watch } from './demo-session';
import { MailPage } from './mail-page';

const baseUrl = inject('baseUrl');
const { alice } = inject('demo');

interface Seen {
  readonly what: 'mailbox' | 'loading rows' | 'login';
  readonly path: string;
  /** The sidebar still names an account. */
  readonly accounts: boolean;
  readonly ms: number;
}

/** A plain script (no helpers a transpiler could add): records what the page shows, from its first node on. */
const RECORDER = `(() => {
  const seen = (window.__screens = []);
  const start = performance.now();
  let last = '';
  const look = () => {
    const found = [];
    if (document.querySelector('#thread-list, [role="grid"], nav[aria-label="Mailboxes"]')) found.push('mailbox');
    if (document.querySelector('[aria-label="Loading conversation"]') || /Loading conversation/.test(document.body ? document.body.textContent : '')) found.push('loading rows');
    if (document.querySelector('input[name="email"]')) found.push('login');
    const accounts = !!document.querySelector('nav[aria-label="Mailboxes"] section.account-section');
    for (const what of found) {
      const key = what + location.pathname + accounts;
      if (key === last) continue;
      last = key;
      seen.push({ what, path: location.pathname, accounts, ms: Math.round(performance.now() - start) });
    }
  };
  new MutationObserver(look).observe(document, { childList: true, subtree: true, characterData: true });
})()`;

const screens = (page: Page): Promise<Seen[]> => page.evaluate(() => (window as unknown as { __screens: Seen[] }).__screens);

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

describe('a new browser, nobody logged in', () => {
  let context: BrowserContext;
  beforeAll(async () => {
    context = await newDemoContext(browser);
    await context.addInitScript({ content: RECORDER });
  });
  afterAll(async () => {
    await context?.close();
  });

  // `/` first (the engine starts cold), then the unified inbox's and a folder's addresses
  // (the engine of the first visit may still run: a quick answer must not show a mailbox either).
  for (const path of ['/', '/mail/unified/inbox', '/mail/1/INBOX']) {
    test(`opening ${path} paints the login screen, never a mailbox before it`, async () => {
      const tab = watch(await context.newPage());
      await tab.page.goto(`${baseUrl}${path}`);
      await tab.page.getByRole('heading', { name: 'Sign in' }).waitFor();
      await tab.page.getByLabel('Email address').waitFor();
      expect(new URL(tab.page.url()).pathname).toBe('/login');
      const seen = await screens(tab.page);
      expect(seen.map((entry) => entry.what)).toContain('login');
      expect(seen.filter((entry) => entry.what !== 'login')).toEqual([]);
      if (path === '/') await screenshot(tab.page, 'first-screen-new-browser');
      expect(tab.errors).toEqual([]);
      await tab.page.close();
    });
  }
});

describe('logging out of the last account', () => {
  let context: BrowserContext;
  afterAll(async () => {
    await context?.close();
  });

  test('goes straight to the login screen: no empty mailbox on the way, nothing back to a mailbox after', async () => {
    context = await newDemoContext(browser);
    const tab = watch(await context.newPage());
    const mail = new MailPage(tab.page);
    await logIn(tab.page, baseUrl, alice);
    await tab.page.evaluate(RECORDER);
    await tab.page.getByRole('button', { name: `Account: ${alice.email}` }).click();
    await tab.page.getByRole('menuitem', { name: `Log out of ${alice.email}` }).click();
    await tab.page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await tab.page.getByRole('status').filter({ hasText: 'You have logged out of all accounts.' }).waitFor();
    await tab.page.waitForTimeout(500); // a late navigation back to a mailbox would show by now
    expect(new URL(tab.page.url()).pathname).toBe('/login');
    expect(await mail.threadList().count()).toBe(0);
    const seen = await screens(tab.page);
    expect(seen.map((entry) => entry.what)).toContain('login');
    // The mailbox may stay while alice is still named (the log out is on its way); never without her, nor at /login.
    const emptyMailbox = seen.filter((entry) => entry.what !== 'login' && (!entry.accounts || entry.path === '/login'));
    expect(emptyMailbox).toEqual([]);
    await screenshot(tab.page, 'first-screen-after-last-logout');
    expect(tab.errors).toEqual([]);
  });
});
