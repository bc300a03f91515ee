/**
 * Send later and the Scheduled list (issue 15 point 1) on the demo setup (global-setup.ts), in
 * Chromium: a message scheduled with the "Tomorrow morning" preset and one with the date-time
 * picker (a time in the past is refused first, in the catalogue's words) both show under
 * Scheduled — not in Drafts; Cancel send takes one back to Drafts (on the IMAP server too),
 * Edit opens the other in the composer. Screenshots at 1366×768 and 390×844, light and dark.
 * Nothing is left behind: the drafts this file made are deleted whatever happens, and no
 * scheduled send stays on the gateway (both were taken back).
 */
import { ImapFlow } from 'imapflow';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { launchChromium, screenshot } from './chromium';
import { eventually, imapSubjects, logIn, newDemoContext } from './demo-session';
import { composerForm } from './mail-page';

const baseUrl = inject('baseUrl');
const demo = inject('demo');
const { alice, bob } = demo;
const stamp = Date.now().toString(36);
const PRESET = `Scheduled preset ${stamp}`;
const PICKED = `Scheduled picked ${stamp}`;

let browser: Browser;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  browser = await launchChromium();
  context = await newDemoContext(browser);
  page = await context.newPage();
  await logIn(page, baseUrl, alice);
});
afterAll(async () => {
  // This file's drafts go, whatever failed (other files count what Drafts holds).
  const client = new ImapFlow({ host: demo.mail.host, port: demo.mail.imap, secure: false, auth: { user: alice.email, pass: alice.password }, logger: false });
  await client.connect().then(
    async () => {
      const lock = await client.getMailboxLock('Drafts');
      try {
        const found = await client.search({ subject: stamp }, { uid: true });
        if (Array.isArray(found) && found.length > 0) await client.messageDelete(found, { uid: true });
      } finally {
        lock.release();
        await client.logout();
      }
    },
    () => undefined,
  );
  await browser?.close();
});

const draftSubjects = () => imapSubjects(demo.mail.host, demo.mail.imap, alice, 'Drafts');

/** A new message to Bob with this subject, in the composer. */
async function compose(subject: string) {
  await page.getByRole('button', { name: 'Compose' }).click();
  const box = composerForm(page);
  await box.waitFor();
  const to = box.getByRole('combobox', { name: 'To' });
  await to.fill(bob.email);
  await to.press('Enter');
  await box.getByLabel('Subject').fill(subject);
  await box.getByRole('textbox', { name: 'Message body' }).click();
  await page.keyboard.type(`Sent later, ${stamp}.`);
  return box;
}

/** A local wall-clock time `days` from now at 10:00, as the picker takes it. */
function daysAhead(days: number): string {
  const date = new Date(Date.now() + days * 86_400_000);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T10:00`;
}

describe('send later and the Scheduled list', () => {
  test('scheduled with a preset and with the picker, both listed under Scheduled and not in Drafts; cancel one back to Drafts, edit the other', async () => {
    const first = await compose(PRESET);
    await first.getByRole('button', { name: 'Schedule for later…' }).click();
    const menu = page.getByRole('menu');
    await expect.poll(() => menu.getByRole('menuitem', { name: /Monday morning/ }).isVisible()).toBe(true);
    await menu.getByRole('menuitem', { name: /Tomorrow morning/ }).click();
    await first.waitFor({ state: 'detached' });
    await page.getByText(/^Scheduled for /).first().waitFor({ timeout: 15_000 });

    const second = await compose(PICKED);
    await second.getByRole('button', { name: 'Schedule for later…' }).click();
    await page.getByRole('menu').getByRole('menuitem', { name: 'Pick date and time…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Send later' });
    const when = dialog.getByLabel('Date and time');
    await when.fill(daysAhead(-1));
    await dialog.getByRole('button', { name: 'Schedule send' }).click();
    await dialog.getByRole('alert').getByText('This time has already passed. Choose a time in the future.').waitFor();
    await screenshot(page, 'scheduled-1-picker-past');
    await when.fill(daysAhead(2));
    await dialog.getByRole('button', { name: 'Schedule send' }).click();
    await second.waitFor({ state: 'detached' });

    await page.getByRole('navigation', { name: 'Mailboxes' }).getByRole('link', { name: 'Scheduled', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Scheduled' }).waitFor();
    const list = page.locator('.scheduled-list');
    await list.getByText(PRESET, { exact: true }).waitFor({ timeout: 15_000 });
    await list.getByText(PICKED, { exact: true }).waitFor({ timeout: 15_000 });
    // Soonest first: tomorrow's preset before the picked day after tomorrow.
    expect(await list.locator('.scheduled-item-subject').allTextContents()).toEqual(expect.arrayContaining([PRESET, PICKED]));
    const order = (await list.locator('.scheduled-item-subject').allTextContents()).filter((text) => text.includes(stamp));
    expect(order).toEqual([PRESET, PICKED]);
    // Kept apart from Drafts: the gateway took both out of the Drafts folder while they wait.
    await eventually(async () => !(await draftSubjects()).some((subject) => subject.includes(stamp)), 15_000, 'both out of Drafts');

    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.setViewportSize({ width: 1366, height: 768 });
      await screenshot(page, `scheduled-2-list-1366-${scheme}`);
      await page.setViewportSize({ width: 390, height: 844 });
      await screenshot(page, `scheduled-3-list-390-${scheme}`);
    }
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize({ width: 1440, height: 900 });

    await list.getByRole('button', { name: `Cancel sending “${PRESET}” (back to Drafts)` }).click();
    await page.getByText('Scheduled send cancelled. The message is back in Drafts.').waitFor();
    await list.getByText(PRESET, { exact: true }).waitFor({ state: 'detached' });
    await eventually(async () => (await draftSubjects()).includes(PRESET), 15_000, 'the cancelled message back in Drafts');

    await list.getByRole('button', { name: `Edit “${PICKED}” (cancels the scheduled send)` }).click();
    const editing = composerForm(page, PICKED);
    await editing.waitFor({ timeout: 15_000 });
    expect(await editing.getByLabel('Subject').inputValue()).toBe(PICKED);
    await list.getByText(PICKED, { exact: true }).waitFor({ state: 'detached' });
    await screenshot(page, 'scheduled-4-edit');
    await page.getByText('Nothing is scheduled.', { exact: false }).waitFor();
  });
});
