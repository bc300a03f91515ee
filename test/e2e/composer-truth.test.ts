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
import { eventually, imapMessages, literal, logIn, newDemoContext, openFolder, rowWith, watch, type Watched } from './demo-session';
import type { Browser } from 'playwright-core';

const baseUrl = inject('baseUrl');
const demo = inject('demo');
const { alice, bob } = demo;
const stamp = Date.now().toString(36);
const SUBJECT = `Two tabs one draft ${stamp}`;
const FIRST = `first-tab-text-${stamp}`;
const SECOND = `second-tab-text-${stamp}`;

let browser: Browser;
let context: BrowserContext;
let tabA: Watched;
let tabB: Watched;

beforeAll(async () => {
  browser = await launchChromium();
  context = await newDemoContext(browser);
  tabA = watch(await context.newPage());
  await logIn(tabA.page, baseUrl, alice);
});
afterAll(async () => {
  await browser?.close();
});

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

describe('one draft in two tabs', () => {
  test('edited in both, then sent from the first: the second tab is told at once and keeps its text; Bob gets the first tab’s', async () => {
    const a = tabA.page;
    // The draft, saved on the server.
    await a.getByRole('button', { name: 'Compose' }).click();
    const created = composerForm(a);
    await created.waitFor();
    const to = created.getByRole('combobox', { name: 'To' });
    await to.fill(bob.email);
    await to.press('Enter');
    await created.getByLabel('Subject').fill(SUBJECT);
    await typeAtEnd(a, created, 'Hello Bob.');
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
    await screenshot(b, 'composer-truth-conflict');

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
});
