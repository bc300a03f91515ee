/**
 * Feedback after actions, on the demo setup (global-setup.ts), keyboard first: one
 * confirmation at a time (e z # z ! z leaves a single "Action undone."); a move to a folder
 * deleted on the server meanwhile shows its error alone, the thread back as the cursor row;
 * checked rows make the reading pane say how many are selected; the `v` menu offers no
 * Drafts or Sent and Escape gives the list its focus back; Add account with an address
 * already signed in says so and switches to it; logging out of one account says so.
 * The threads used here are this file's own (delivered over SMTP at the start).
 */
import { ImapFlow } from 'imapflow';
import { createTransport } from 'nodemailer';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { screenshot } from './chromium';
import { addAccount, eventually, folderLink, imapSubjects, literal, openFolder, rowWith, startInInbox, type Watched } from './demo-session';

const baseUrl = inject('baseUrl');
const demo = inject('demo');
const { alice, bob } = demo;
const stamp = Date.now().toString(36);
const subject = (name: string) => `Feedback probe ${name} ${stamp}`;
const PROBES = ['A', 'B', 'C', 'D'].map(subject);
const GONE_FOLDER = `Gone ${stamp}`;

let browser: Browser;
let tab: Watched;
let page: Page;

/** Runs `work` with an IMAP session of Alice's. */
async function withImap(work: (client: ImapFlow) => Promise<void>): Promise<void> {
  const client = new ImapFlow({ host: demo.mail.host, port: demo.mail.imap, secure: false, auth: { user: alice.email, pass: alice.password }, logger: false });
  await client.connect();
  try {
    await work(client);
  } finally {
    await client.logout().catch(() => undefined);
  }
}

const notifications = () => page.getByRole('region', { name: 'Notifications' });
const statusToasts = () => notifications().getByRole('status').locator('.toast');
const errorToasts = () => notifications().getByRole('alert').locator('.toast');
const inInbox = async (wanted: string) => (await imapSubjects(demo.mail.host, demo.mail.imap, alice, 'INBOX')).includes(wanted);
/** Closes the open thread, if any, and puts the focus in the list. */
async function toList(): Promise<void> {
  if (await page.evaluate(() => new URL(location.href).searchParams.get('thread'))) await page.keyboard.press('Escape');
  await page.locator('#thread-list').focus();
}

beforeAll(async () => {
  const transport = createTransport({ host: demo.mail.host, port: demo.mail.smtp, secure: false, ignoreTLS: true });
  try {
    for (const [i, probe] of PROBES.entries()) {
      await transport.sendMail({ from: 'Dana Feedback <dana@kite.test>', to: alice.email, subject: probe, text: `Probe ${i} of the feedback flows.`, date: new Date(Date.now() - (PROBES.length - i) * 60_000) });
    }
  } finally {
    transport.close();
  }
  for (const probe of PROBES) await eventually(() => inInbox(probe), 30_000, `${probe} in INBOX`);
  ({ browser, tab, page } = await startInInbox(baseUrl, alice));
  for (const probe of PROBES) await rowWith(page, literal(probe)).waitFor({ timeout: 30_000 });
});
afterAll(async () => {
  await browser?.close();
});

describe('feedback after actions on the demo setup', () => {
  test('1. e z # z ! z: one toast at a time, a single "Action undone." at the end', async () => {
    const probe = subject('A');
    for (const key of ['e', 'Shift+#', 'Shift+!']) {
      const row = rowWith(page, literal(probe));
      await row.click();
      await page.getByRole('region', { name: `Conversation: ${probe}` }).waitFor();
      await page.keyboard.press(key);
      await row.waitFor({ state: 'detached' });
      await statusToasts().filter({ hasText: /Conversation (archived|moved to Trash|marked as spam)\./ }).waitFor();
      expect(await statusToasts().count()).toBe(1);
      await page.keyboard.press('z');
      await rowWith(page, literal(probe)).waitFor();
      await statusToasts().filter({ hasText: 'Action undone.' }).waitFor();
      expect(await statusToasts().count()).toBe(1);
    }
    await screenshot(page, 'feedback-1-one-undone-toast');
    expect(await notifications().locator('.toast').count()).toBe(1);
    await eventually(() => inInbox(probe), 20_000, `${probe} back in INBOX on the server`);
  });

  test('2. a move to a folder deleted on the server: the error alone, no "moved" toast, the thread back as the cursor row', async () => {
    await withImap(async (client) => void (await client.mailboxCreate(GONE_FOLDER)));
    await folderLink(page, alice.email, GONE_FOLDER).waitFor({ timeout: 30_000 });
    await toList();
    const probe = subject('B');
    const row = rowWith(page, literal(probe));
    const rowId = await row.getAttribute('id');
    await row.click();
    await toList();
    await expect.poll(() => page.locator('#thread-list').getAttribute('aria-activedescendant')).toBe(rowId);
    await page.keyboard.press('v');
    const menu = page.getByRole('menu', { name: 'Move to folder' });
    const target = menu.getByRole('menuitem', { name: GONE_FOLDER });
    await target.waitFor();
    // Gone on the server while the menu still offers it.
    await withImap(async (client) => void (await client.mailboxDelete(GONE_FOLDER)));
    await target.click();
    await errorToasts().first().waitFor({ timeout: 20_000 });
    await rowWith(page, literal(probe)).waitFor();
    // The success toast never stays beside the failure.
    await page.waitForTimeout(500);
    expect(await statusToasts().filter({ hasText: 'moved to' }).count()).toBe(0);
    expect(await errorToasts().count()).toBe(1);
    expect(await page.locator('#thread-list').getAttribute('aria-activedescendant')).toBe(rowId);
    await screenshot(page, 'feedback-2-move-failed');
    await errorToasts().getByRole('button', { name: 'Dismiss notification' }).click();
  });

  test('3. checked rows: the pane says how many are selected, like the toolbar; Escape clears them', async () => {
    await toList();
    for (const probe of [subject('C'), subject('D')]) await rowWith(page, literal(probe)).click({ modifiers: ['Control'] });
    const pane = page.getByRole('region', { name: 'Reading pane' });
    await pane.getByText('2 conversations selected').waitFor();
    await expect.poll(() => page.locator('.toolbar-count').textContent()).toBe('2 selected');
    await screenshot(page, 'feedback-3-selected-pane');
    await page.locator('#thread-list').focus();
    await page.keyboard.press('Escape');
    await pane.getByText('No conversation selected').waitFor();
  });

  test('4. v: no Drafts, Sent or Inbox in the menu; Escape gives the list the focus on its cursor row', async () => {
    await toList();
    const cursor = await page.locator('#thread-list').getAttribute('aria-activedescendant');
    await page.keyboard.press('v');
    const menu = page.getByRole('menu', { name: 'Move to folder' });
    await menu.waitFor();
    const labels = (await menu.getByRole('menuitem').allTextContents()).map((label) => label.trim());
    expect(labels).toContain('Archive');
    expect(labels).toContain('Trash');
    for (const absent of ['Drafts', 'Sent', 'Inbox']) expect(labels).not.toContain(absent);
    await screenshot(page, 'feedback-4-move-menu');
    await page.keyboard.press('Escape');
    await menu.waitFor({ state: 'detached' });
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('thread-list');
    expect(await page.locator('#thread-list').getAttribute('aria-activedescendant')).toBe(cursor);
  });

  test('5. Add account with Alice again: "already signed in" at the email step and a switch to her inbox', async () => {
    await page.getByRole('navigation', { name: 'Mailboxes' }).getByRole('link', { name: 'Add account' }).click();
    await page.getByRole('heading', { name: 'Add another account' }).waitFor();
    await page.getByLabel('Email address').fill(alice.email);
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByText('You are already signed in to this account.').waitFor();
    expect(await page.getByLabel('Password', { exact: true }).count()).toBe(0);
    await screenshot(page, 'feedback-5-already-signed-in');
    await page.getByRole('button', { name: `Switch to ${alice.email}` }).click();
    await page.getByRole('heading', { level: 1, name: 'Inbox', exact: true }).waitFor();
    await rowWith(page, literal(subject('C'))).waitFor();
  });

  test('6. Log out of one account: "Logged out of bob@kite.test."', async () => {
    await addAccount(page, bob);
    await openFolder(page, bob.email, 'Inbox');
    await page.getByRole('button', { name: `Account: ${bob.email}` }).click();
    await page.getByRole('menuitem', { name: `Log out of ${bob.email}` }).click();
    await statusToasts().filter({ hasText: `Logged out of ${bob.email}.` }).waitFor();
    await screenshot(page, 'feedback-6-logged-out');
    expect(tab.errors).toEqual([]);
  });
});
