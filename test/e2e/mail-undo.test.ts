/**
 * What happens after an action, on the demo setup (global-setup.ts), keyboard first:
 * Undo on the toast of archive and delete puts the threads back in the inbox — on the IMAP
 * server too, after the server already moved them (the messages get new UIDs in INBOX);
 * archiving or deleting the open thread opens the next one and the focus never falls to
 * the page; Esc from a thread returns the focus to its row; a draft reopened from Drafts
 * and sent leaves the pane quietly instead of "The conversation could not be found".
 * The threads used here are this file's own (delivered over SMTP at the start).
 */
import { ImapFlow } from 'imapflow';
import { createTransport } from 'nodemailer';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { launchChromium, screenshot } from './chromium';
import type { E2eLogin } from './demo-setup';
import { eventually, imapSubjects, literal, logIn, newDemoContext, openFolder, rowWith, watch, type Watched } from './demo-session';

const baseUrl = inject('baseUrl');
const demo = inject('demo');
const { alice, bob } = demo;
const stamp = Date.now().toString(36);
const subject = (name: string) => `Undo probe ${name} ${stamp}`;
const PROBES = ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H'].map(subject);

let browser: Browser;
let context: BrowserContext;
let tab: Watched;
let page: Page;

/** UIDs of a folder's messages by subject (what the server really holds). */
async function imapUids(login: E2eLogin, folder: string): Promise<Map<string, number>> {
  const client = new ImapFlow({ host: demo.mail.host, port: demo.mail.imap, secure: false, auth: { user: login.email, pass: login.password }, logger: false });
  await client.connect();
  try {
    const lock = await client.getMailboxLock(folder);
    try {
      const uids = new Map<string, number>();
      if (client.mailbox && client.mailbox.exists > 0) {
        for await (const message of client.fetch('1:*', { envelope: true, uid: true })) uids.set(message.envelope?.subject ?? '', message.uid);
      }
      return uids;
    } finally {
      lock.release();
    }
  } finally {
    await client.logout().catch(() => undefined);
  }
}

const inFolder = async (folder: string, wanted: string) => (await imapSubjects(demo.mail.host, demo.mail.imap, alice, folder)).includes(wanted);
const notifications = () => page.getByRole('region', { name: 'Notifications' }).getByRole('status');
/** What has the focus: the page itself, the thread list (and its cursor row), the conversation, or something else. */
const focused = () =>
  page.evaluate(() => {
    const active = document.activeElement;
    return {
      body: !active || active === document.body || active === document.documentElement,
      list: active?.id === 'thread-list',
      cursor: active?.getAttribute('aria-activedescendant') ?? null,
      conversation: Boolean(active?.closest('.reading-pane')),
    };
  });
const openKey = () => page.evaluate(() => new URL(location.href).searchParams.get('thread'));
/** The accessible name of the row after (older than) the one named `name`, as the list shows them now. */
async function rowAfter(name: string): Promise<{ id: string; label: string }> {
  return page.evaluate((wanted) => {
    const rows = [...document.querySelectorAll<HTMLElement>('#thread-list [role="option"]:not([aria-disabled="true"])')].sort(
      (a, b) => Number(a.getAttribute('aria-posinset')) - Number(b.getAttribute('aria-posinset')),
    );
    const at = rows.findIndex((row) => (row.getAttribute('aria-label') ?? '').includes(wanted));
    const next = rows[at + 1];
    return { id: next?.id ?? '', label: next?.getAttribute('aria-label') ?? '' };
  }, name);
}

beforeAll(async () => {
  const transport = createTransport({ host: demo.mail.host, port: demo.mail.smtp, secure: false, ignoreTLS: true });
  try {
    // Oldest first, a second apart, so the inbox shows them newest first in a known order.
    for (const [i, probe] of PROBES.entries()) {
      await transport.sendMail({ from: 'Carol Undo <carol@kite.test>', to: alice.email, subject: probe, text: `Probe ${i} of the undo flows.`, date: new Date(Date.now() - (PROBES.length - i) * 60_000) });
    }
  } finally {
    transport.close();
  }
  for (const probe of PROBES) await eventually(() => inFolder('INBOX', probe), 30_000, `${probe} in INBOX`);
  browser = await launchChromium();
  context = await newDemoContext(browser);
  tab = watch(await context.newPage());
  ({ page } = tab);
  await logIn(page, baseUrl, alice);
  await openFolder(page, alice.email, 'Inbox');
  for (const probe of PROBES) await rowWith(page, literal(probe)).waitFor({ timeout: 30_000 });
});
afterAll(async () => {
  await browser?.close();
});

describe('undo and focus after actions on the demo setup', () => {
  test('1. e on a thread, then Undo once the server archived it: back in the Inbox, and in INBOX on the server under a new UID', async () => {
    const probe = subject('A');
    const before = (await imapUids(alice, 'INBOX')).get(probe);
    expect(before).toBeDefined();
    const row = rowWith(page, literal(probe));
    await row.click();
    await page.getByRole('region', { name: `Conversation: ${probe}` }).waitFor();
    await page.keyboard.press('e');
    await row.waitFor({ state: 'detached' });
    const toast = notifications().filter({ hasText: 'Conversation archived.' });
    const undo = toast.getByRole('button', { name: 'Undo' });
    await undo.waitFor();
    await screenshot(page, 'undo-1-archived-toast');
    // The server has moved it before Undo is pressed.
    await eventually(async () => (await inFolder('Archive', probe)) && !(await inFolder('INBOX', probe)), 15_000, `${probe} in Archive on the server`);
    await undo.click();
    await rowWith(page, literal(probe)).waitFor();
    await notifications().filter({ hasText: 'Action undone.' }).waitFor();
    await eventually(async () => (await inFolder('INBOX', probe)) && !(await inFolder('Archive', probe)), 15_000, `${probe} back in INBOX on the server`);
    const after = (await imapUids(alice, 'INBOX')).get(probe);
    expect(after).toBeGreaterThan(before!);
    await screenshot(page, 'undo-1-after-undo');
    expect(tab.errors).toEqual([]);
  });

  test('2. two selected threads deleted with #, then z: both back in the Inbox and in INBOX on the server', async () => {
    const picked = [subject('B'), subject('C')];
    // Nothing open: Escape closes the thread of test 1, if any.
    if (await openKey()) await page.keyboard.press('Escape');
    for (const probe of picked) await rowWith(page, literal(probe)).click({ modifiers: ['Control'] });
    for (const probe of picked) await expect.poll(() => rowWith(page, literal(probe)).getAttribute('aria-selected')).toBe('true');
    await page.keyboard.press('Shift+#');
    for (const probe of picked) await rowWith(page, literal(probe)).waitFor({ state: 'detached' });
    await notifications().filter({ hasText: '2 conversations moved to Trash.' }).getByRole('button', { name: 'Undo' }).waitFor();
    await screenshot(page, 'undo-2-trash-toast');
    await page.emulateMedia({ colorScheme: 'dark' });
    await screenshot(page, 'undo-2-trash-toast-dark');
    await page.emulateMedia({ colorScheme: 'light' });
    await eventually(async () => (await inFolder('Trash', picked[0]!)) && (await inFolder('Trash', picked[1]!)), 15_000, 'both in Trash on the server');
    await page.keyboard.press('z');
    for (const probe of picked) await rowWith(page, literal(probe)).waitFor();
    await eventually(async () => (await inFolder('INBOX', picked[0]!)) && (await inFolder('INBOX', picked[1]!)), 15_000, 'both back in INBOX on the server');
    expect(await inFolder('Trash', picked[0]!)).toBe(false);
    expect(await inFolder('Trash', picked[1]!)).toBe(false);
    expect(tab.errors).toEqual([]);
  });

  test('3. e, #, ! and v on the open thread: the next thread opens each time, and the focus is never the page', async () => {
    await openFolder(page, alice.email, 'Inbox');
    const open = async (probe: string) => {
      await rowWith(page, literal(probe)).click();
      await page.getByRole('region', { name: `Conversation: ${probe}` }).waitFor();
    };
    const expectNextOpened = async (from: string, next: { id: string; label: string }) => {
      await rowWith(page, literal(from)).waitFor({ state: 'detached' });
      await expect.poll(async () => `thread-${await openKey()}`).toBe(next.id);
      await page.locator(`.reading-pane[data-thread-key="${next.id.slice('thread-'.length)}"]`).getByRole('region', { name: /^Conversation: / }).waitFor();
      await expect.poll(async () => (await focused()).body).toBe(false);
    };

    // e with the focus in the list (a click on the row): the focus stays there, on the next row.
    await open(subject('D'));
    let next = await rowAfter(subject('D'));
    await page.keyboard.press('e');
    await expectNextOpened(subject('D'), next);
    expect(await focused()).toMatchObject({ list: true, cursor: next.id });
    await screenshot(page, 'undo-3-auto-advance');

    // # with the focus in the conversation: the next conversation has it.
    await open(subject('E'));
    await page.getByRole('region', { name: `Conversation: ${subject('E')}` }).getByRole('heading', { name: subject('E') }).click();
    next = await rowAfter(subject('E'));
    await page.keyboard.press('Shift+#');
    await expectNextOpened(subject('E'), next);
    expect(await focused()).toMatchObject({ conversation: true });

    // ! (report spam) from the page itself (nothing focused).
    await open(subject('F'));
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    next = await rowAfter(subject('F'));
    await page.keyboard.press('Shift+!');
    await expectNextOpened(subject('F'), next);

    // v: the "Move to" menu, Archive picked with the keyboard.
    await open(subject('G'));
    next = await rowAfter(subject('G'));
    await page.keyboard.press('v');
    const menu = page.getByRole('menu');
    await menu.waitFor();
    await menu.getByRole('menuitem', { name: /Archive/ }).focus();
    await page.keyboard.press('Enter');
    await expectNextOpened(subject('G'), next);
    expect(tab.errors).toEqual([]);
  });

  test('4. Esc from a thread: the list has the focus, its cursor on that thread’s row (also in single thread view)', async () => {
    const probe = subject('H');
    for (const view of ['conversation', 'single'] as const) {
      if (view === 'single') {
        await tab.mail.chooseInSettings(/^Single thread/);
        await page.reload();
        await openFolder(page, alice.email, 'Inbox');
      }
      const row = rowWith(page, literal(probe));
      await row.waitFor();
      const id = await row.getAttribute('id');
      await row.click();
      const conversation = page.getByRole('region', { name: `Conversation: ${probe}` });
      await conversation.waitFor();
      // The list that had the focus is hidden in single thread view: the conversation has it, not the page.
      if (view === 'single') await expect.poll(async () => (await focused()).conversation).toBe(true);
      await conversation.getByRole('heading', { name: probe }).click(); // the focus in the conversation
      await page.keyboard.press('Escape');
      await expect.poll(openKey).toBeNull();
      await expect.poll(focused).toMatchObject({ list: true, cursor: id });
      if (view === 'single') await screenshot(page, 'undo-4-esc-back-to-row-single');
    }
    await tab.mail.chooseInSettings(/^Conversation/);
    expect(tab.errors).toEqual([]);
  });

  test('5. a draft reopened from Drafts and sent: the pane leaves quietly, no "could not be found"', async () => {
    await page.reload();
    await openFolder(page, alice.email, 'Inbox');
    const draftSubject = subject('draft');
    await page.getByRole('button', { name: 'Compose' }).click();
    const composer = page.getByRole('form').filter({ has: page.getByRole('textbox', { name: 'Message body' }) });
    await composer.waitFor();
    const to = composer.getByRole('combobox', { name: 'To' });
    await to.fill(bob.email);
    await to.press('Enter');
    await composer.getByLabel('Subject').fill(draftSubject);
    await composer.getByRole('textbox', { name: 'Message body' }).click();
    await page.keyboard.type('A draft to send from Drafts.');
    await composer.getByText('Saved', { exact: true }).waitFor({ timeout: 10_000 });
    await composer.getByRole('button', { name: 'Close and keep the draft' }).click();
    await eventually(() => inFolder('Drafts', draftSubject), 15_000, 'the draft in Drafts');

    await openFolder(page, alice.email, 'Drafts');
    // A draft of its own opens straight in the composer (Gmail).
    await rowWith(page, literal(draftSubject)).click();
    const reopened = page.getByRole('form', { name: draftSubject });
    await reopened.waitFor();
    await reopened.getByRole('button', { name: 'Send' }).click();
    await page.getByRole('region', { name: 'Notifications' }).getByRole('status').getByText('Message sent', { exact: true }).waitFor({ timeout: 20_000 });
    await rowWith(page, literal(draftSubject)).waitFor({ state: 'detached', timeout: 15_000 });
    await expect.poll(openKey, { timeout: 10_000 }).toBeNull();
    await expect(page.getByText('The conversation could not be found.').count()).resolves.toBe(0);
    await screenshot(page, 'undo-5-drafts-after-send');
    expect(tab.errors).toEqual([]);
  });
});
