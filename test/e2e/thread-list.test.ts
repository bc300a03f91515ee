/**
 * The thread list and its selection on the demo setup (global-setup.ts), from a new
 * user's walkthrough: the first login never says "Your inbox is empty" while the mail is
 * still on its way; the j/k cursor shows without the list's focus; `v` moves the cursor
 * row with nothing checked; "Select all N conversations in <folder>" archives threads the
 * UI never loaded, checked over IMAP. The folders used here are this file's own, filled
 * over IMAP before the login.
 */
import { ImapFlow } from 'imapflow';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { launchChromium, screenshot } from './chromium';
import { eventually, folderLink, imapSubjects, literal, newDemoContext, openFolder, rowWith, watch, type Watched } from './demo-session';
import { MailPage } from './mail-page';

const baseUrl = inject('baseUrl');
const demo = inject('demo');
const { alice } = demo;
const stamp = Date.now().toString(36).slice(-6);
/** More threads than the first window (64 rows) and than a first batch of the engine (100). */
const BULK_COUNT = 150;
const BULK = `Bulk ${stamp}`;
const QUIET = `Quiet ${stamp}`;
/** A folder for Undo after "select all": more threads than the first window. */
const UNDO = `Undo all ${stamp}`;
const UNDO_COUNT = 80;
const undoSubject = (i: number) => `Undo-all probe ${String(i).padStart(3, '0')} ${stamp}`;
const bulkSubject = (i: number) => `Bulk probe ${String(i).padStart(3, '0')} ${stamp}`;
/** A long-enough sender name: the one-line views must show it whole. */
const LONG_SENDER = 'Alexandra Example';

let browser: Browser;
let context: BrowserContext;
let tab: Watched;
let page: Page;
let mail: MailPage;

async function withImap<T>(run: (client: ImapFlow) => Promise<T>): Promise<T> {
  const client = new ImapFlow({ host: demo.mail.host, port: demo.mail.imap, secure: false, auth: { user: alice.email, pass: alice.password }, logger: false });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.logout().catch(() => undefined);
  }
}

const subjectsIn = (folder: string) => imapSubjects(demo.mail.host, demo.mail.imap, alice, folder);
const notifications = () => page.getByRole('region', { name: 'Notifications' }).getByRole('status');

beforeAll(async () => {
  await withImap(async (client) => {
    await client.mailboxCreate(BULK);
    await client.mailboxCreate(QUIET);
    const now = Date.now();
    for (let i = 0; i < BULK_COUNT; i++) {
      const from = i === BULK_COUNT - 1 ? `${LONG_SENDER} <alexandra@example.org>` : `Sender ${i} <sender${i}@example.org>`;
      const date = new Date(now - (BULK_COUNT - i) * 60_000);
      const raw = [
        `From: ${from}`,
        `To: Alice <${alice.email}>`,
        `Subject: ${bulkSubject(i)}`,
        `Date: ${date.toUTCString()}`,
        `Message-ID: <bulk-${i}-${stamp}@example.org>`,
        'Content-Type: text/plain; charset=utf-8',
        '',
        `Message ${i} of the select-all flow.`,
        '',
      ].join('\r\n');
      await client.append(BULK, raw, ['\\Seen'], date);
    }
    await client.mailboxCreate(UNDO);
    for (let i = 0; i < UNDO_COUNT; i++) {
      const date = new Date(now - (UNDO_COUNT - i) * 60_000);
      const raw = [`From: Sender ${i} <sender${i}@example.org>`, `To: ${alice.email}`, `Subject: ${undoSubject(i)}`, `Date: ${date.toUTCString()}`, `Message-ID: <undo-${i}-${stamp}@example.org>`, '', `Message ${i}.`, ''].join('\r\n');
      await client.append(UNDO, raw, ['\\Seen'], date);
    }
  });
  browser = await launchChromium();
  context = await newDemoContext(browser);
  tab = watch(await context.newPage());
  ({ page, mail } = tab);
});
afterAll(async () => {
  await browser?.close();
});

describe('the thread list on the demo setup', () => {
  test('1. a first login shows loading rows, then mail — never "Your inbox is empty" in between; an empty folder says it once known', async () => {
    // Everything the list area shows, from the first paint of the new profile (fresh worker and IndexedDB).
    await page.addInitScript({
      content: `(() => {
        const seen = (window.__listStates = []);
        const look = () => {
          const title = document.querySelector('.empty-state-title');
          const text = title && title.closest('.list-message') ? title.textContent : '';
          const rows = document.querySelectorAll('#thread-list [role="option"]:not([aria-disabled="true"])').length;
          const state = text ? 'empty:' + text : rows > 0 ? 'rows' : 'other';
          if (seen[seen.length - 1] !== state) seen.push(state);
        };
        new MutationObserver(look).observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
      })()`,
    });
    await page.goto(baseUrl);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await mail.login(alice.email, alice.password);
    await mail.waitForRows();
    const states = (await page.evaluate('window.__listStates')) as string[];
    expect(states.filter((state) => state.startsWith('empty:'))).toEqual([]);
    expect(states).toContain('rows');

    // The empty folder: once the engine knows it (folder mirrored, sync caught up), it says so.
    await eventually(() => folderLink(page, alice.email, QUIET).count(), 45_000, `${QUIET} in the sidebar`);
    await folderLink(page, alice.email, QUIET).click();
    await page.getByText(`${QUIET} is empty`).waitFor({ timeout: 30_000 });
    expect(await mail.threadList().getAttribute('aria-busy')).toBe('false');
    expect(tab.errors).toEqual([]);
  });

  test('2. the cursor row is plain to see without the list’s focus, in light and dark; senders are not cut short', async () => {
    await eventually(() => folderLink(page, alice.email, BULK).count(), 45_000, `${BULK} in the sidebar`);
    await openFolder(page, alice.email, BULK);
    await rowWith(page, literal(bulkSubject(BULK_COUNT - 1))).waitFor({ timeout: 30_000 });
    await page.getByRole('heading', { level: 1, name: BULK }).click(); // the focus away from the list
    await page.keyboard.press('j');
    await page.keyboard.press('j');
    const cursor = mail.threadList().locator('.thread-row.is-cursor');
    await expect.poll(() => cursor.getAttribute('aria-posinset')).toBe('3');
    expect(await mail.threadList().evaluate((list) => list === document.activeElement)).toBe(false);
    // A ring around the row and a 4 px bar, not the hover shade.
    const look = () =>
      cursor.evaluate((row) => ({ ring: getComputedStyle(row).boxShadow, bar: getComputedStyle(row, '::before').width, barColour: getComputedStyle(row, '::before').backgroundColor }));
    const light = await look();
    expect(light.ring).toMatch(/inset/);
    expect(light.bar).toBe('4px');
    await screenshot(page, 'thread-list-cursor-light');
    await page.emulateMedia({ colorScheme: 'dark' });
    await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    const dark = await look();
    expect(dark.ring).toMatch(/inset/);
    expect(dark.barColour).not.toBe(light.barColour);
    await screenshot(page, 'thread-list-cursor-dark');
    await page.emulateMedia({ colorScheme: 'light' });

    // The one-line views (split here): the newest row's sender shows whole.
    await mail.chooseInSettings(/^Split/);
    await page.reload();
    const longRow = rowWith(page, literal(bulkSubject(BULK_COUNT - 1)));
    await longRow.waitFor();
    const senders = longRow.locator('.row-senders');
    expect(await senders.textContent()).toBe(LONG_SENDER);
    expect(await senders.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
    expect((await senders.boundingBox())!.width).toBeGreaterThanOrEqual(150);
    await screenshot(page, 'thread-list-split-senders');
    await mail.chooseInSettings(/^Conversation/);
    await page.reload();
    await mail.waitForRows();
    expect(tab.errors).toEqual([]);
  });

  test('3. v with nothing checked moves the cursor row (the list without focus)', async () => {
    await page.getByRole('heading', { level: 1, name: BULK }).click();
    await page.keyboard.press('j');
    await page.keyboard.press('j');
    const cursor = mail.threadList().locator('.thread-row.is-cursor');
    await expect.poll(() => cursor.getAttribute('aria-posinset')).toBe('3');
    const label = (await cursor.getAttribute('aria-label')) ?? '';
    const moved = /Bulk probe \d{3} \w+/.exec(label)?.[0];
    expect(moved).toBeDefined();
    await page.keyboard.press('v');
    const menu = page.getByRole('menu', { name: 'Move to folder' });
    await menu.getByRole('menuitem', { name: 'Archive', exact: true }).click();
    await rowWith(page, literal(moved!)).waitFor({ state: 'detached' });
    await eventually(async () => (await subjectsIn('Archive')).includes(moved!) && !(await subjectsIn(BULK)).includes(moved!), 20_000, `${moved} in Archive on the server`);
    expect(tab.errors).toEqual([]);
  });

  test('4. Select all, then all N in the folder, then Archive: every thread, the ones never loaded too, archived on the server', async () => {
    const left = BULK_COUNT - 1;
    const toolbar = page.getByRole('toolbar', { name: 'Conversation actions' });
    await expect.poll(() => page.locator('.toolbar-count').textContent()).toBe(`${left} conversations`);
    const loaded = await mail.threadList().locator('[role="option"]:not([aria-disabled="true"])').count();
    expect(loaded).toBeLessThan(left); // the list holds a window, not the folder
    await toolbar.getByRole('checkbox', { name: 'Select all conversations' }).check();
    const offer = page.getByRole('button', { name: `Select all ${left} conversations in ${BULK}` });
    await offer.waitFor();
    await screenshot(page, 'thread-list-select-all-offer');
    await offer.click();
    await page.getByRole('status').filter({ hasText: `All ${left} conversations in ${BULK} are selected.` }).waitFor();
    await expect.poll(() => page.locator('.toolbar-count').textContent()).toBe(`${left} selected`);
    await toolbar.getByRole('button', { name: 'Archive' }).click();
    await notifications().filter({ hasText: `${left} conversations archived.` }).waitFor({ timeout: 30_000 });
    await page.getByText(`${BULK} is empty`).waitFor({ timeout: 30_000 });
    await screenshot(page, 'thread-list-select-all-done');
    // The server: the folder is empty, and Archive holds every one of them.
    await eventually(async () => (await subjectsIn(BULK)).length === 0, 30_000, `${BULK} empty on the server`);
    const archived = new Set(await subjectsIn('Archive'));
    const missing = Array.from({ length: BULK_COUNT }, (_, i) => bulkSubject(i)).filter((wanted) => !archived.has(wanted));
    expect(missing).toEqual([]);
    expect(tab.errors).toEqual([]);
  });

  test('5. all N moved to Trash, then Undo on the toast: every thread back in the folder, on the server too', async () => {
    await eventually(() => folderLink(page, alice.email, UNDO).count(), 45_000, `${UNDO} in the sidebar`);
    await openFolder(page, alice.email, UNDO);
    await expect.poll(() => page.locator('.toolbar-count').textContent(), { timeout: 20_000 }).toBe(`${UNDO_COUNT} conversations`);
    const toolbar = page.getByRole('toolbar', { name: 'Conversation actions' });
    await toolbar.getByRole('checkbox', { name: 'Select all conversations' }).check();
    await page.getByRole('button', { name: `Select all ${UNDO_COUNT} conversations in ${UNDO}` }).click();
    await toolbar.getByRole('button', { name: 'Delete' }).click();
    // The one toast (the stack of info toasts is the status region).
    const toast = notifications().locator('.toast').filter({ hasText: `${UNDO_COUNT} conversations moved to Trash.` });
    await toast.waitFor({ timeout: 30_000 });
    await page.getByText(`${UNDO} is empty`).waitFor({ timeout: 30_000 });
    await toast.getByRole('button', { name: 'Undo' }).click();
    await expect.poll(() => page.locator('.toolbar-count').textContent(), { timeout: 20_000 }).toBe(`${UNDO_COUNT} conversations`);
    const all = Array.from({ length: UNDO_COUNT }, (_, i) => undoSubject(i));
    await eventually(
      async () => {
        const back = new Set(await subjectsIn(UNDO));
        return all.every((wanted) => back.has(wanted));
      },
      30_000,
      `all ${UNDO_COUNT} back in ${UNDO} on the server`,
    );
    const trash = new Set(await subjectsIn('Trash'));
    expect(all.filter((wanted) => trash.has(wanted))).toEqual([]);
    expect(tab.errors).toEqual([]);
  });
});
