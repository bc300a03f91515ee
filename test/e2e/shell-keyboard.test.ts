/**
 * The shell for the keyboard and the eye, on the demo setup (global-setup.ts): the sidebar's
 * folder tree is one Tab stop with arrow keys inside, search results mark no folder
 * current, unread counts move with an action while the gateway has not answered, an open
 * composer opens again after a reload, and a field's error on the login card moves nothing.
 */
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { findFreePorts } from '../harness/ports';
import { launchChromium, screenshot } from './chromium';
import { accountSection, addAccount, folderLink, logIn, newDemoContext, openFolder, unreadOf, watch, type Watched } from './demo-session';
import type { MailPage } from './mail-page';
import { workerNetwork } from './worker-network';

const baseUrl = inject('baseUrl');
const demo = inject('demo');
const { alice, bob } = demo;

let browser: Browser;
let debuggingPort: number;
beforeAll(async () => {
  [debuggingPort] = (await findFreePorts(1)) as [number];
  // The DevTools port reaches the SharedWorker, to hold its requests to the gateway.
  browser = await launchChromium([`--remote-debugging-port=${debuggingPort}`]);
});
afterAll(async () => {
  await browser?.close();
});

/** What has the focus: its tag, its accessible text and whether it sits in the sidebar. */
const focusedFacts = (page: Page) =>
  page.evaluate(() => {
    const element = document.activeElement as HTMLElement | null;
    return { inSidebar: Boolean(element?.closest('nav[aria-label="Mailboxes"]')), text: (element?.innerText ?? '').replace(/\s+/g, ' ').trim(), current: element?.getAttribute('aria-current') ?? null };
  });

const isFocused = (locator: Locator) => locator.evaluate((element) => element === document.activeElement);

describe('the sidebar with the keyboard', () => {
  let context: BrowserContext;
  let tab: Watched;
  let page: Page;
  let mail: MailPage;

  beforeAll(async () => {
    context = await newDemoContext(browser);
    tab = watch(await context.newPage());
    ({ page, mail } = tab);
    await logIn(page, baseUrl, alice);
    await addAccount(page, bob);
    await folderLink(page, bob.email, 'Inbox').waitFor();
  });
  afterAll(async () => {
    expect(tab?.errors ?? []).toEqual([]);
    await context?.close();
  });

  test('the folder tree is one Tab stop, on the mailbox shown', async () => {
    const allInboxes = mail.sidebar().getByRole('link', { name: /^All inboxes/ });
    await expect(allInboxes.getAttribute('aria-current')).resolves.toBe('page');
    // Tab from the Compose button through the whole sidebar: Compose, the tree, "Add account".
    await mail.sidebar().getByRole('button', { name: /Compose/ }).focus();
    const stops = [await focusedFacts(page)];
    for (let i = 0; i < 30; i++) {
      await page.keyboard.press('Tab');
      const facts = await focusedFacts(page);
      if (!facts.inSidebar) break;
      stops.push(facts);
    }
    console.log(`[shell-keyboard] sidebar Tab stops: ${stops.map((stop) => stop.text).join(' | ')}`);
    expect(stops.map((stop) => stop.text.replace(/\d[\d,]* unread$/, '').trim())).toEqual(['Compose', 'All inboxes', 'Add account']);
    expect(stops[1]!.current).toBe('page');
  });

  test('arrows move between folders, Right and Left close and open, Enter opens', async () => {
    const allInboxes = mail.sidebar().getByRole('link', { name: /^All inboxes/ });
    await allInboxes.focus();
    await page.keyboard.press('ArrowDown'); // Scheduled (every account's sends for later)
    await expect.poll(() => isFocused(mail.sidebar().getByRole('link', { name: /^Scheduled/ }))).toBe(true);
    await page.keyboard.press('ArrowDown'); // Snoozed (every account's snoozed conversations)
    await expect.poll(() => isFocused(mail.sidebar().getByRole('link', { name: /^Snoozed/ }))).toBe(true);
    await page.keyboard.press('ArrowDown'); // Alice's account
    await page.keyboard.press('ArrowDown'); // her Inbox
    await page.keyboard.press('ArrowDown'); // Drafts
    const drafts = folderLink(page, alice.email, 'Drafts');
    await expect.poll(() => isFocused(drafts)).toBe(true);
    await screenshot(page, 'shell-keyboard-sidebar-focus');

    // Left goes up to the account, Left again closes it; Right opens it, Right again goes to its Inbox.
    const aliceToggle = accountSection(page, alice.email).getByRole('button', { name: new RegExp(alice.email) });
    await page.keyboard.press('ArrowLeft');
    await expect.poll(() => isFocused(aliceToggle)).toBe(true);
    await page.keyboard.press('ArrowLeft');
    await expect(aliceToggle.getAttribute('aria-expanded')).resolves.toBe('false');
    await expect(drafts.count()).resolves.toBe(0);
    await page.keyboard.press('ArrowDown'); // straight to Bob's account: Alice's folders are hidden
    await expect.poll(() => isFocused(accountSection(page, bob.email).getByRole('button', { name: new RegExp(bob.email) }))).toBe(true);
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowRight');
    await expect(aliceToggle.getAttribute('aria-expanded')).resolves.toBe('true');
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => isFocused(folderLink(page, alice.email, 'Inbox'))).toBe(true);

    // End is the last folder of the last account; Home the unified inbox.
    await page.keyboard.press('End');
    expect((await focusedFacts(page)).inSidebar).toBe(true);
    await page.keyboard.press('Home');
    await expect.poll(() => isFocused(allInboxes)).toBe(true);

    // Down to Bob's Inbox, Enter opens it: it is the mailbox shown, current and the tab stop.
    const bobInbox = folderLink(page, bob.email, 'Inbox');
    for (let i = 0; i < 40 && !(await isFocused(bobInbox)); i++) await page.keyboard.press('ArrowDown');
    await expect.poll(() => isFocused(bobInbox)).toBe(true);
    await page.keyboard.press('Enter');
    await expect.poll(() => bobInbox.getAttribute('aria-current')).toBe('page');
    await page.getByRole('heading', { level: 1, name: 'Inbox', exact: true }).waitFor();
    await mail.waitForRows();
    await expect(bobInbox.getAttribute('tabindex')).resolves.toBe('0');
    await expect(mail.sidebar().locator('[data-tree-key][tabindex="0"]').count()).resolves.toBe(1);
  });

  test('search results mark no folder current', async () => {
    const bobInbox = folderLink(page, bob.email, 'Inbox');
    await expect.poll(() => bobInbox.getAttribute('aria-current')).toBe('page');
    await mail.searchBox().fill('meeting');
    await page.getByRole('listbox', { name: 'Search results' }).waitFor();
    await expect.poll(() => mail.sidebar().locator('[aria-current]').count()).toBe(0);
    await expect(mail.sidebar().locator('.is-active').count()).resolves.toBe(0);
    // The folder searched in still takes Tab into the tree.
    await expect(bobInbox.getAttribute('tabindex')).resolves.toBe('0');
    await screenshot(page, 'shell-keyboard-search-sidebar');
    await mail.searchBox().focus();
    await page.keyboard.press('Escape');
    await expect.poll(() => bobInbox.getAttribute('aria-current')).toBe('page');
  });
  test('unread counts move with the action, before the gateway has it, and back with mark unread', async () => {
    await openFolder(page, alice.email, 'Inbox');
    await mail.waitForRows();
    const inbox = folderLink(page, alice.email, 'Inbox');
    const allInboxes = mail.sidebar().getByRole('link', { name: /^All inboxes/ });
    const before = { inbox: await unreadOf(inbox), all: await unreadOf(allInboxes) };
    expect(before.inbox).toBeGreaterThan(0);
    // The j/k cursor onto an unread conversation.
    await mail.threadList().focus();
    const cursorName = () =>
      page.evaluate(() => {
        const id = document.getElementById('thread-list')?.getAttribute('aria-activedescendant');
        return id ? (document.getElementById(id)?.getAttribute('aria-label') ?? '') : '';
      });
    for (let i = 0; i < 40 && !(await cursorName()).startsWith('Unread'); i++) await page.keyboard.press('j');
    expect(await cursorName()).toMatch(/^Unread/);

    // The gateway is slow: every request of the engine takes 3 s more.
    const network = await workerNetwork(debuggingPort);
    const LATENCY_MS = 3_000;
    try {
      await network.slowDown(LATENCY_MS);
      const answeredBefore = network.answered('/api/threads/bulk');
      const pressed = Date.now();
      await page.keyboard.press('Shift+I');
      // Before the gateway answered: proven by the answer count, not by a stopwatch (how fast is a bench figure).
      await expect.poll(() => unreadOf(inbox), { timeout: 2 * LATENCY_MS, interval: 16 }).toBe(before.inbox - 1);
      const moved = Date.now() - pressed;
      expect(network.answered('/api/threads/bulk')).toBe(answeredBefore);
      await expect.poll(() => unreadOf(allInboxes), { timeout: 500, interval: 16 }).toBe(before.all - 1);
      console.log(`[shell-keyboard] inbox count moved ${moved} ms after Shift+I, the gateway not answered yet (latency ${LATENCY_MS} ms)`);
      // Confirmed by the gateway: the count stays.
      await expect.poll(() => network.answered('/api/threads/bulk'), { timeout: 15_000 }).toBeGreaterThan(answeredBefore);
      await network.slowDown(0);
      await page.waitForFunction(() => !document.querySelector('#thread-list [aria-label*="Saving changes"]'), null, { timeout: 15_000 });
      expect(await unreadOf(inbox)).toBe(before.inbox - 1);
    } finally {
      await network.slowDown(0).catch(() => undefined);
      network.close();
    }
    // And back: unread again (the demo's state as other files expect it).
    await page.keyboard.press('Shift+U');
    await expect.poll(() => unreadOf(inbox), { timeout: 2_000, interval: 16 }).toBe(before.inbox);
  });
});

describe('an open composer and a reload', () => {
  let context: BrowserContext;
  let tab: Watched;
  let page: Page;
  let mail: MailPage;
  const subject = `Plans for the offsite ${Date.now().toString(36)}`;
  const composer = () => page.getByRole('form').filter({ has: page.getByRole('textbox', { name: 'Message body' }) });

  beforeAll(async () => {
    context = await newDemoContext(browser);
    tab = watch(await context.newPage());
    ({ page, mail } = tab);
    await logIn(page, baseUrl, alice);
  });
  afterAll(async () => {
    expect(tab?.errors ?? []).toEqual([]);
    await context?.close();
  });

  test('the composer being written opens again after a reload, with its recipients and text, minimized if it was', async () => {
    await mail.sidebar().getByRole('button', { name: /Compose/ }).click();
    const box = composer();
    await box.waitFor();
    const to = box.getByRole('combobox', { name: 'To' });
    await to.fill(bob.email);
    await to.press('Enter');
    await box.getByLabel('Subject').fill(subject);
    await box.getByRole('textbox', { name: 'Message body' }).click();
    await page.keyboard.type('First paragraph, saved before the reload.');
    await box.getByText('Saved', { exact: true }).waitFor({ timeout: 10_000 });

    await page.reload();
    const restored = composer();
    await restored.waitFor({ timeout: 15_000 });
    await expect(restored.getByLabel('Subject').inputValue()).resolves.toBe(subject);
    await expect(restored.getByRole('textbox', { name: 'Message body' }).textContent()).resolves.toContain('First paragraph, saved before the reload.');
    await restored.getByRole('button', { name: `Remove ${bob.email}` }).waitFor();
    await screenshot(page, 'shell-keyboard-composer-restored');

    // Typed and reloaded at once, inside the autosave's quiet spell: the text still comes back.
    await restored.getByRole('textbox', { name: 'Message body' }).click();
    await page.keyboard.press('End');
    await page.keyboard.type(' And a last line typed just before reloading.');
    await page.reload();
    const again = composer();
    await again.waitFor({ timeout: 15_000 });
    await expect.poll(() => again.getByRole('textbox', { name: 'Message body' }).textContent(), { timeout: 5_000 }).toContain('And a last line typed just before reloading.');

    // Minimized, it comes back minimized (its text kept), and unfolds.
    await again.getByRole('button', { name: 'Minimize the composer' }).click();
    await page.reload();
    // Folded, its body is out of the accessibility tree: the form is found by its name (the subject).
    const folded = page.getByRole('form', { name: subject });
    const show = folded.getByRole('button', { name: 'Show the composer' });
    await show.waitFor({ timeout: 15_000 });
    await expect(show.getAttribute('aria-expanded')).resolves.toBe('false');
    await expect(folded.getByRole('textbox', { name: 'Message body' }).isVisible()).resolves.toBe(false);
    await screenshot(page, 'shell-keyboard-composer-minimized');
    await show.click();
    await expect.poll(() => folded.getByRole('textbox', { name: 'Message body' }).textContent()).toContain('And a last line typed just before reloading.');

    // Closed: the draft stays in Drafts, and a reload opens no composer.
    await again.getByRole('button', { name: 'Close and keep the draft' }).click();
    await again.waitFor({ state: 'detached' });
    await page.reload();
    await mail.waitForRows();
    await expect(composer().count()).resolves.toBe(0);
  });
});

describe('the login card', () => {
  for (const colorScheme of ['light', 'dark'] as const) {
    test(`an error under a field moves nothing on the card (${colorScheme})`, async () => {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, colorScheme });
      const page = await context.newPage();
      await page.goto(baseUrl);
      await page.getByRole('heading', { name: 'Sign in' }).waitFor();
      const layout = async () => {
        const [card, button] = await Promise.all([page.locator('.login-card').boundingBox(), page.locator('.login-form button[type="submit"]').boundingBox()]);
        return { cardTop: card!.y, cardHeight: card!.height, buttonTop: button!.y };
      };
      // Email step: nothing typed, then Next.
      const emailBefore = await layout();
      await page.getByRole('button', { name: 'Next' }).click();
      await page.getByLabel('Email address').and(page.locator('[aria-invalid="true"]')).waitFor();
      await expect(page.getByLabel('Email address').getAttribute('aria-describedby')).resolves.toBeTruthy();
      expect(await layout()).toEqual(emailBefore);
      await screenshot(page, `shell-keyboard-login-email-error-${colorScheme}`);

      // Password step: the gateway refuses a wrong password; the catalogue's words show under the field.
      await page.getByLabel('Email address').fill(alice.email);
      await page.getByRole('button', { name: 'Next' }).click();
      const password = page.getByLabel('Password', { exact: true });
      await password.waitFor();
      const passwordBefore = await layout();
      await password.fill('not-the-password');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await password.and(page.locator('[aria-invalid="true"]')).waitFor({ timeout: 15_000 });
      expect(await layout()).toEqual(passwordBefore);
      await screenshot(page, `shell-keyboard-login-password-error-${colorScheme}`);
      await context.close();
    });
  }
});
