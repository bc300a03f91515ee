/**
 * The repro of a lost draft (Trust point 3), in real Chromium on the demo: the same
 * draft open in two tabs (one shared engine), edited in both, then Send in the first tab.
 * It used to end with the second tab saying "Saved" while its text had silently overwritten
 * the first tab's, so the message left with the wrong text, and the second tab's text was
 * then lost with the sent draft. Now the second tab is told at once (a conflict), nothing
 * either tab typed is lost: the first tab's text is what Bob gets, the second tab's is kept
 * as a draft of its own ("Keep both").
 */
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import type { E2eLogin } from './demo-setup';
import { launchChromium, screenshot } from './chromium';
import { composerForm } from './mail-page';
import { eventually, imapMessages, literal, logIn, newDemoContext, openFolder, outboxRows, rowWith, watch, type Watched } from './demo-session';
import type { Browser } from 'playwright-core';
import { findFreePorts } from '../harness/ports';
import { workerNetwork, type WorkerNetwork } from './worker-network';

const baseUrl = inject('baseUrl');
const demo = inject('demo');
const { alice, bob } = demo;
const stamp = Date.now().toString(36);
const SUBJECT = `Two tabs one draft ${stamp}`;
const FIRST = `first-tab-text-${stamp}`;
const SECOND = `second-tab-text-${stamp}`;
const REFUSED_SUBJECT = `Refused by the server ${stamp}`;
const REFUSED_BODY = `text-that-must-come-back-${stamp}`;
const OFFLINE_SUBJECT = `Written offline ${stamp}`;
const LEFT_SUBJECT = `Left during the undo window ${stamp}`;

let browser: Browser;
let context: BrowserContext;
let tabA: Watched;
let tabB: Watched;
let network: WorkerNetwork;

beforeAll(async () => {
  const [debuggingPort] = await findFreePorts(1);
  browser = await launchChromium([`--remote-debugging-port=${debuggingPort}`]);
  context = await newDemoContext(browser);
  tabA = watch(await context.newPage());
  await logIn(tabA.page, baseUrl, alice);
  network = await workerNetwork(debuggingPort!);
});
afterAll(async () => {
  network?.close();
  await browser?.close();
});

/** Light and dark, the laptop and the phone: what a person sees of it. */
async function screenshots(page: Page, name: string) {
  for (const [width, height] of [[1366, 768], [390, 844]] as const) {
    await page.setViewportSize({ width, height });
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      await screenshot(page, `${name}-${width}-${colorScheme}`);
    }
  }
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.emulateMedia({ colorScheme: 'light' });
}

const messagesOf = (login: E2eLogin, folder: string) => imapMessages(demo.mail.host, demo.mail.imap, login, folder);
/** The whole source with quoted-printable soft breaks undone (a long line is folded in a draft's source). */
const plain = (source: string) => source.replace(/=\r?\n/g, '');

/** The composer's save indicator (a live region in its title bar). */
const indicator = (box: Locator) => box.locator('.tern-save-status[role="status"]');

async function openDraftFromDrafts(page: Page): Promise<Locator> {
  await openFolder(page, alice.email, 'Drafts');
  await rowWith(page, literal(SUBJECT)).click();
  const box = composerForm(page, SUBJECT);
  await box.waitFor();
  return box;
}

async function typeAtEnd(page: Page, box: Locator, text: string) {
  await box.getByRole('textbox', { name: 'Message body' }).click();
  await page.keyboard.press('Control+End');
  await page.keyboard.type(text);
}

/** Compose, then write what is given: the open composer. */
async function compose(page: Page, message: { to?: string; subject: string; body: string }): Promise<Locator> {
  await page.bringToFront();
  await page.getByRole('button', { name: 'Compose', exact: true }).click();
  const box = composerForm(page);
  await box.waitFor();
  if (message.to) {
    const to = box.getByRole('combobox', { name: 'To' });
    await to.fill(message.to);
    await to.press('Enter');
  }
  await box.getByLabel('Subject').fill(message.subject);
  await typeAtEnd(page, box, message.body);
  return box;
}

describe('one draft in two tabs', () => {
  test('edited in both, then sent from the first: the second tab is told at once and keeps its text; Bob gets the first tab’s', async () => {
    const a = tabA.page;
    // The draft, saved on the server.
    const created = await compose(a, { to: bob.email, subject: SUBJECT, body: 'Hello Bob.' });
    await indicator(created).getByText('Saved', { exact: true }).waitFor({ timeout: 15_000 });
    await created.getByRole('button', { name: 'Close and keep the draft' }).click();
    await created.waitFor({ state: 'detached' });
    await eventually(async () => (await messagesOf(alice, 'Drafts')).find((message) => message.subject === SUBJECT), 15_000, 'the draft in Drafts');

    // Open in both tabs (the second tab attaches to the same engine).
    const boxA = await openDraftFromDrafts(a);
    tabB = watch(await context.newPage());
    const b = tabB.page;
    await b.goto(baseUrl);
    const boxB = await openDraftFromDrafts(b);

    // The first tab edits and saves.
    await a.bringToFront();
    await typeAtEnd(a, boxA, ` ${FIRST}`);
    await indicator(boxA).getByText('Saved', { exact: true }).waitFor({ timeout: 15_000 });

    // The second tab edits too: its save would overwrite the first tab's text. It is told at once.
    await b.bringToFront();
    await typeAtEnd(b, boxB, ` ${SECOND}`);
    const conflict = boxB.getByRole('alert').filter({ hasText: 'This draft was changed in another tab or window.' });
    await conflict.waitFor({ timeout: 15_000 });
    await expect(indicator(boxB).getAttribute('data-state')).resolves.toBe('conflict');
    await expect(boxB.getByRole('button', { name: 'Keep both' }).isVisible()).resolves.toBe(true);
    await expect(boxB.getByRole('button', { name: 'Use the other version' }).isVisible()).resolves.toBe(true);
    await screenshots(b, 'composer-truth-conflict');

    // Send in the first tab: its own text goes.
    await a.bringToFront();
    await boxA.getByRole('button', { name: 'Send' }).click();
    await a.getByRole('region', { name: 'Notifications' }).getByRole('status').getByText('Message sent', { exact: true }).waitFor({ timeout: 30_000 });
    const received = await eventually(async () => (await messagesOf(bob, 'INBOX')).find((message) => message.subject === SUBJECT), 30_000, "the message in Bob's INBOX");
    expect(plain(received.source)).toContain(FIRST);
    expect(plain(received.source)).not.toContain(SECOND);

    // The second tab still has its text, and keeps it as a draft of its own.
    await b.bringToFront();
    await expect(boxB.getByRole('textbox', { name: 'Message body' }).textContent()).resolves.toContain(SECOND);
    await boxB.getByRole('button', { name: 'Keep both' }).click();
    await conflict.waitFor({ state: 'detached' });
    await indicator(boxB).getByText('Saved', { exact: true }).waitFor({ timeout: 15_000 });
    const kept = await eventually(async () => (await messagesOf(alice, 'Drafts')).find((message) => plain(message.source).includes(SECOND)), 15_000, "the second tab's text in Drafts");
    expect(kept.subject).toBe(SUBJECT);
    await screenshot(b, 'composer-truth-kept-both');
    expect(tabA.errors).toEqual([]);
    expect(tabB.errors).toEqual([]);
  });

  test("a send the mail server refuses: the composer comes back with its text, the catalogue's sentence and the server's own reply", async () => {
    const a = tabA.page;
    // A valid address of a harness domain that has no such mailbox: Postfix refuses it at RCPT (550 5.1.1).
    const box = await compose(a, { to: `nobody-${stamp}@tern.test`, subject: REFUSED_SUBJECT, body: REFUSED_BODY });
    await box.getByRole('button', { name: 'Send' }).click();
    await box.waitFor({ state: 'detached', timeout: 15_000 });

    // After the undo window the gateway answers SendFailed: the composer opens again by itself.
    const back = composerForm(a, REFUSED_SUBJECT);
    await back.waitFor({ timeout: 40_000 }).catch(async (error: Error) => {
      throw new Error(`${error.message}\nThe engine's outbox then:\n${await outboxRows(a)}`);
    });
    const why = back.getByRole('alert').filter({ hasText: 'The message was not sent.' });
    await why.waitFor();
    await expect(why.textContent()).resolves.toContain('Message could not be sent: the details are invalid or the mail server is unreachable.');
    await expect(why.textContent()).resolves.toMatch(/The mail server answered: “[^”]*5\.1\.1[^”]*”/);
    await expect(back.getByRole('textbox', { name: 'Message body' }).textContent()).resolves.toContain(REFUSED_BODY);
    // No "Message sent" anywhere, and the draft is still a draft on the server.
    await expect(a.getByText('Message sent', { exact: true }).count()).resolves.toBe(0);
    await eventually(async () => (await messagesOf(alice, 'Drafts')).find((message) => message.subject === REFUSED_SUBJECT), 15_000, 'the draft still in Drafts');
    await screenshot(a, 'composer-truth-send-refused');
    await back.getByRole('button', { name: 'Close and keep the draft' }).click();
    await back.waitFor({ state: 'detached' });
    expect(tabA.errors).toEqual([]);
  });

  test('a draft written while the gateway cannot be reached says "Saved on this device only", and why; "Saved" once the gateway has it', async () => {
    const a = tabA.page;
    let box!: Locator;
    await network.setOffline(true);
    try {
      box = await compose(a, { subject: OFFLINE_SUBJECT, body: 'Written on the train.' });
      const local = indicator(box).locator('[aria-hidden="true"]').getByText('Saved on this device only', { exact: true });
      await local.waitFor({ timeout: 20_000 });
      await expect(indicator(box).getAttribute('title')).resolves.toMatch(/^Draft saved on this device only, not on the server yet: ./);
      await expect(indicator(box).textContent()).resolves.toContain('not on the server yet');
      await expect(box.getByText('Saved', { exact: true }).count()).resolves.toBe(0);
      await screenshots(a, 'composer-truth-device-only');
    } finally {
      await network.setOffline(false);
    }
    await indicator(box).getByText('Saved', { exact: true }).waitFor({ timeout: 75_000 });
    await eventually(async () => (await messagesOf(alice, 'Drafts')).find((message) => message.subject === OFFLINE_SUBJECT), 15_000, 'the draft in Drafts');
    await box.getByRole('button', { name: 'Discard draft' }).click();
    await box.waitFor({ state: 'detached' });
  });

  test('a send that fails after its tab was reloaded is told by a notice that outlives the reload; Open draft brings its text back', async () => {
    const a = tabA.page;
    const box = await compose(a, { to: `nobody-else-${stamp}@tern.test`, subject: LEFT_SUBJECT, body: REFUSED_BODY });
    await box.getByRole('button', { name: 'Send' }).click();
    await box.waitFor({ state: 'detached', timeout: 15_000 });
    // The tab goes away inside the undo window: nobody is left to reopen the composer.
    await a.reload();
    const notice = a.getByRole('region', { name: 'Notifications' }).locator('[data-notice="notSent"]').filter({ hasText: LEFT_SUBJECT });
    await notice.waitFor({ timeout: 40_000 });
    await expect(notice.textContent()).resolves.toContain(`“${LEFT_SUBJECT}” was not sent`);
    await expect(notice.textContent()).resolves.toMatch(/The mail server answered: “[^”]*5\.1\.1/);
    await screenshots(a, 'composer-truth-not-sent-notice');
    // It stays: another reload still shows it.
    await a.reload();
    await notice.waitFor({ timeout: 15_000 });
    await notice.getByRole('button', { name: 'Open draft' }).click();
    const back = composerForm(a, LEFT_SUBJECT);
    await back.waitFor();
    await expect(back.getByRole('textbox', { name: 'Message body' }).textContent()).resolves.toContain(REFUSED_BODY);
    await notice.waitFor({ state: 'detached' });
    expect(tabA.errors).toEqual([]);
  });
});
