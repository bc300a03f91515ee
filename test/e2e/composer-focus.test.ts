/**
 * The composer's focus, invalid recipients and Discard end to end on the demo setup
 * (walkthrough 3, items 2, 3 and 8): closing a composer gives the focus back to what opened
 * it, never the page; Undo send puts it in the body; an invalid chip survives a reload and
 * stops Send (nothing reaches IMAP); Discard deletes the draft from Drafts over IMAP and
 * the toast's Undo brings it back. The threads and drafts used here are this file's own.
 */
import { createTransport } from 'nodemailer';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import type { E2eLogin } from './demo-setup';
import { composerForm } from './mail-page';
import { launchChromium, screenshot } from './chromium';
import { eventually, imapMessages, logIn, newDemoContext, openThread, rowWith, watch, type Watched } from './demo-session';

const baseUrl = inject('baseUrl');
const demo = inject('demo');
const { alice, bob } = demo;
const stamp = Date.now().toString(36);
const THREAD_SUBJECT = `Focus thread ${stamp}`;
const SENT_SUBJECT = `Focus sent ${stamp}`;
const UNDO_SUBJECT = `Focus undo and discard ${stamp}`;
const INVALID_SUBJECT = `Focus invalid chip ${stamp}`;

let browser: Browser;
let context: BrowserContext;
let tab: Watched;
let page: Page;

beforeAll(async () => {
  const transport = createTransport({ host: demo.mail.host, port: demo.mail.smtp, secure: false, ignoreTLS: true });
  try {
    await transport.sendMail({ from: `Bob <${bob.email}>`, to: alice.email, subject: THREAD_SUBJECT, text: 'A message to answer.' });
  } finally {
    transport.close();
  }
  browser = await launchChromium();
  context = await newDemoContext(browser);
  tab = watch(await context.newPage());
  ({ page } = tab);
  await logIn(page, baseUrl, alice);
});
afterAll(async () => {
  await browser?.close();
});

const composer = (subject?: string | RegExp) => composerForm(page, subject);
const composeButton = () => page.getByRole('button', { name: 'Compose', exact: true });
const imapOf = (login: E2eLogin, folder: string) => imapMessages(demo.mail.host, demo.mail.imap, login, folder);

/** What has the focus: its tag, accessible label, and whether it sits in the list, the conversation or the composer. */
const focused = () =>
  page.evaluate(() => {
    const active = document.activeElement as HTMLElement | null;
    return {
      tag: active?.tagName ?? 'NONE',
      label: active?.getAttribute('aria-label') ?? active?.textContent?.trim().slice(0, 40) ?? '',
      inList: Boolean(active?.closest('#thread-list')),
      inConversation: Boolean(active?.closest('.reading-pane')),
      inComposer: Boolean(active?.closest('.composer-dock')),
      editor: active?.getAttribute('contenteditable') === 'true',
    };
  });

/** A new message to Bob with `subject` and a line of body, from the Compose button. */
async function compose(subject: string, to: readonly string[] = [bob.email]): Promise<Locator> {
  await composeButton().click();
  const box = composer();
  await box.waitFor();
  const field = box.getByRole('combobox', { name: 'To' });
  for (const address of to) {
    await field.fill(address);
    await field.press('Enter');
  }
  await box.getByLabel('Subject').fill(subject);
  await box.getByRole('textbox', { name: 'Message body' }).click();
  await page.keyboard.type(`Body of ${subject}.`);
  return composer(subject);
}

describe('composer focus, invalid recipients and Discard', () => {
  test('1. r then Escape, and the Reply button then Escape: the focus is back in the list / on Reply, not the page', async () => {
    const conversation = await openThread(page, THREAD_SUBJECT);
    // The keyboard's way: the list has the focus, r answers, Escape closes.
    await rowWith(page, THREAD_SUBJECT).click();
    const before = await focused();
    await page.keyboard.press('r');
    const reply = composer(/./);
    await reply.waitFor();
    await expect.poll(async () => (await focused()).inComposer).toBe(true);
    await page.keyboard.press('Escape');
    await reply.waitFor({ state: 'detached' });
    const afterKey = await focused();
    expect(afterKey.tag).not.toBe('BODY');
    expect(afterKey.inList || afterKey.inConversation).toBe(true);
    expect(afterKey.inList).toBe(before.inList);
    await screenshot(page, 'composer-focus-1-r-escape');

    // The conversation's Reply button opens it: Escape gives that button the focus again.
    const replyButton = conversation.getByRole('button', { name: 'Reply', exact: true }).first();
    await replyButton.click();
    await reply.waitFor();
    await page.keyboard.press('Escape');
    await reply.waitFor({ state: 'detached' });
    await expect.poll(async () => (await focused()).label).toBe('Reply');
    expect((await focused()).inConversation).toBe(true);
    await screenshot(page, 'composer-focus-1-reply-button-escape');
  });

  test('2. Compose then Escape: the Compose button has the focus again', async () => {
    await composeButton().click();
    const box = composer('New message');
    await box.waitFor();
    await page.keyboard.press('Escape');
    await box.waitFor({ state: 'detached' });
    const after = await focused();
    expect(after.tag).toBe('BUTTON');
    expect(after.label).toContain('Compose');
  });

  test('3. Send: once the undo window is over the focus is back on Compose, not the page', async () => {
    const box = await compose(SENT_SUBJECT);
    await box.getByRole('button', { name: 'Send' }).click();
    await page.getByRole('region', { name: 'Notifications' }).getByText('Message sent', { exact: true }).waitFor({ timeout: 20_000 });
    await page.locator('.composer-dock').waitFor({ state: 'detached', timeout: 10_000 });
    const after = await focused();
    expect(after.tag).not.toBe('BODY');
    expect(after.label).toContain('Compose');
    await screenshot(page, 'composer-focus-3-after-send');
    await eventually(async () => (await imapOf(bob, 'INBOX')).find((message) => message.subject === SENT_SUBJECT), 30_000, 'the sent message at Bob');
  });

  test('4. Undo send: the composer is back with the body editor focused; Discard then deletes the draft from Drafts, and Undo brings it back', async () => {
    const box = await compose(UNDO_SUBJECT);
    await box.getByText('Saved', { exact: true }).waitFor({ timeout: 10_000 });
    await eventually(async () => (await imapOf(alice, 'Drafts')).find((message) => message.subject === UNDO_SUBJECT), 15_000, 'the draft in Drafts');
    await page.keyboard.press('Control+Enter');
    const undo = page.getByRole('status').getByRole('button', { name: 'Undo' });
    await undo.click();
    await box.getByText('Sending undone. Your message is back in the composer.').waitFor();
    await expect.poll(async () => (await focused()).editor).toBe(true);
    await screenshot(page, 'composer-focus-4-undo-send');
    // Typing goes on where the text ends.
    await page.keyboard.type(' More.');
    await expect(box.getByRole('textbox', { name: 'Message body' }).textContent()).resolves.toContain(`Body of ${UNDO_SUBJECT}. More.`);

    await box.getByRole('button', { name: 'Discard draft' }).click();
    await box.waitFor({ state: 'detached' });
    const toast = page.getByRole('region', { name: 'Notifications' }).getByText('Draft discarded.');
    await toast.waitFor();
    expect((await focused()).label).toContain('Compose');
    await screenshot(page, 'composer-focus-4-discarded');
    await eventually(async () => ((await imapOf(alice, 'Drafts')).some((message) => message.subject === UNDO_SUBJECT) ? null : true), 15_000, 'the draft gone from Drafts');

    await page.getByRole('region', { name: 'Notifications' }).getByRole('button', { name: 'Undo' }).click();
    const back = composer(UNDO_SUBJECT);
    await back.waitFor();
    await toast.waitFor({ state: 'detached' }); // its Undo used, the toast goes
    await expect(back.getByRole('textbox', { name: 'Message body' }).textContent()).resolves.toContain(`Body of ${UNDO_SUBJECT}. More.`);
    await back.getByRole('list', { name: 'To recipients' }).getByRole('button', { name: `Remove ${bob.email}` }).waitFor();
    const restored = await eventually(async () => (await imapOf(alice, 'Drafts')).find((message) => message.subject === UNDO_SUBJECT), 15_000, 'the draft back in Drafts');
    expect(restored.source).toContain('More.');
    await screenshot(page, 'composer-focus-4-discard-undone');
    // Ctrl+Shift+D throws it away again (the suite leaves no draft behind).
    await back.getByLabel('Subject').focus();
    await page.keyboard.press('Control+Shift+D');
    await back.waitFor({ state: 'detached' });
    await eventually(async () => ((await imapOf(alice, 'Drafts')).some((message) => message.subject === UNDO_SUBJECT) ? null : true), 15_000, 'the draft gone again');
    expect((await imapOf(bob, 'INBOX')).some((message) => message.subject === UNDO_SUBJECT)).toBe(false);
  });

  test('5. an invalid chip survives autosave and a reload; Send is refused with the focus on it, and nothing is sent', async () => {
    const box = await compose(INVALID_SUBJECT, ['bob@kite', bob.email]);
    const badChip = (form: Locator) => form.getByRole('button', { name: 'Edit bob@kite, invalid address' });
    await badChip(box).waitFor();
    await box.getByText('Saved', { exact: true }).waitFor({ timeout: 10_000 });
    // The IMAP draft carries only the valid address (its To header must parse).
    const draft = await eventually(async () => (await imapOf(alice, 'Drafts')).find((message) => message.subject === INVALID_SUBJECT), 15_000, 'the draft in Drafts');
    expect(draft.source).toMatch(new RegExp(`^To:.*${bob.email.replace('.', '\\.')}`, 'im'));
    expect(draft.source).not.toMatch(/bob@kite(?!\.test)/);

    await page.reload();
    const restored = composer(INVALID_SUBJECT);
    await restored.waitFor({ timeout: 15_000 });
    await badChip(restored).waitFor();
    await restored.getByRole('list', { name: 'To recipients' }).getByRole('button', { name: `Remove ${bob.email}` }).waitFor();
    await screenshot(page, 'composer-focus-5-invalid-after-reload');

    // The page's record of its calls to the engine (src-ui/engine/rpc-stats.ts) says whether a send was asked for.
    const callsBefore = (await page.evaluate('globalThis.__ternEngineStats.seq')) as number;
    await restored.getByRole('button', { name: 'Send' }).click();
    await restored.locator('.tern-field-error').getByText('This email address is not valid.', { exact: false }).waitFor();
    await expect.poll(async () => (await focused()).label).toBe('Edit bob@kite, invalid address');
    await screenshot(page, 'composer-focus-5-send-refused');
    // Still a composer, no undo window; and nothing reaches Bob: the engine was never asked to
    // send (so no later delivery can come; no waiting to see that none does).
    await expect(page.getByRole('status').getByRole('button', { name: 'Undo' }).count()).resolves.toBe(0);
    const calls = (await page.evaluate(`globalThis.__ternEngineStats.entries(${callsBefore})`)) as { method: string }[];
    expect(calls.map((call) => call.method).filter((method) => method === 'commands.send' || method === 'commands.sendAgain')).toEqual([]);
    expect((await imapOf(bob, 'INBOX')).some((message) => message.subject === INVALID_SUBJECT)).toBe(false);
    await restored.getByRole('button', { name: 'Discard draft' }).click();
    await restored.waitFor({ state: 'detached' });
    expect((await focused()).tag).not.toBe('BODY');
    expect(tab.errors).toEqual([]);
  });
});
