/**
 * Drafts, Undo and replies end to end on the demo setup (global-setup.ts): what a usability
 * walkthrough found broken. A draft with Bcc survives a reload and comes back whole from
 * Drafts; Send, Undo, Send on a reopened draft sends it, body and all, says "Message sent"
 * and empties Drafts; a reply-all or forward closed untouched leaves no draft; a reply to a
 * mail with an inline cid: image quotes it by its alt text without a CSP error; the sidebar
 * names the account by its sender name. The seeded probe threads are left alone (the other
 * flows rely on them): the threads used here are this file's own.
 */
import { createTransport } from 'nodemailer';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import type { E2eLogin } from './demo-setup';
import { composerForm } from './mail-page';
import { launchChromium, screenshot } from './chromium';
import { accountSection, eventually, imapMessages, imapSubjects, literal, logIn, newDemoContext, openFolder, openThread as openThreadIn, rowWith, watch, type Watched } from './demo-session';

const baseUrl = inject('baseUrl');
const demo = inject('demo');
const { alice, bob } = demo;
const stamp = Date.now().toString(36);
const DRAFT_SUBJECT = `Walkthrough draft ${stamp}`;
const BODY = `Hello Bob, this is a draft that should survive a reload ${stamp}.`;
const LOGO_SUBJECT = `Invoice with our logo ${stamp}`;
/** A 1×1 PNG: the inline "Company logo". */
const LOGO_PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

let browser: Browser;
let context: BrowserContext;
let tab: Watched;
let page: Page;

beforeAll(async () => {
  browser = await launchChromium();
  context = await newDemoContext(browser);
  tab = watch(await context.newPage());
  ({ page } = tab);
  await logIn(page, baseUrl, alice);
});
afterAll(async () => {
  await browser?.close();
});

/** The open composer (a form named after its subject). */
const composer = (subject?: string | RegExp) => composerForm(page, subject);
const chips = (box: Locator, field: 'To' | 'Cc' | 'Bcc') => box.getByRole('list', { name: `${field} recipients` });

/** A folder's messages on the server: subject and the raw source. */
const imapMessagesOf = (login: E2eLogin, folder: string) => imapMessages(demo.mail.host, demo.mail.imap, login, folder);

/** Opens a thread of the current list by its subject and waits for the conversation. */
const openThread = (subject: string) => openThreadIn(page, subject);

describe('drafts, undo and replies on the demo setup', () => {
  test('1. a message with To and Bcc saves itself, survives a reload, and comes back from Drafts with its Bcc', async () => {
    await page.getByRole('button', { name: 'Compose' }).click();
    const box = composer();
    await box.waitFor();
    const to = box.getByRole('combobox', { name: 'To' });
    await to.fill(bob.email);
    await to.press('Enter');
    await box.getByRole('button', { name: 'Add Bcc recipients' }).click();
    const bcc = box.getByRole('combobox', { name: 'Bcc' });
    await bcc.fill(alice.email);
    await bcc.press('Enter');
    await box.getByLabel('Subject').fill(DRAFT_SUBJECT);
    await box.getByRole('textbox', { name: 'Message body' }).click();
    await page.keyboard.type(BODY);
    await box.getByText('Saved', { exact: true }).waitFor({ timeout: 10_000 });
    await screenshot(page, 'drafts-1-composed');
    // The draft on the server keeps Bcc (for whoever opens it); wait for it before the reload.
    await eventually(async () => (await imapMessagesOf(alice, 'Drafts')).find((message) => message.subject === DRAFT_SUBJECT && message.source.includes(BODY)), 15_000, 'the draft in Drafts');

    await page.reload();
    // The composer open before the reload opens again by itself (the tab remembers it); closed, the draft waits in Drafts.
    const restored = composer(DRAFT_SUBJECT);
    await restored.waitFor({ timeout: 15_000 });
    await restored.getByRole('button', { name: 'Close and keep the draft' }).click();
    await restored.waitFor({ state: 'detached' });
    await openFolder(page, alice.email, 'Drafts');
    // A draft of its own opens straight in the composer (Gmail), not as a conversation with Edit draft.
    await rowWith(page, literal(DRAFT_SUBJECT)).click();
    const reopened = composer(DRAFT_SUBJECT);
    await reopened.waitFor();
    await chips(reopened, 'To').getByRole('button', { name: `Remove ${bob.email}` }).waitFor();
    await chips(reopened, 'Bcc').getByRole('button', { name: `Remove ${alice.email}` }).waitFor();
    await expect(reopened.getByRole('textbox', { name: 'Message body' }).textContent()).resolves.toContain(BODY);
    await screenshot(page, 'drafts-1-reopened-with-bcc');
    expect(tab.errors).toEqual([]);
  });

  test('2. the reopened draft: Send, Undo brings it back whole; Send again sends it, says "Message sent", and Drafts is empty of it', async () => {
    const box = composer(DRAFT_SUBJECT);
    const body = box.getByRole('textbox', { name: 'Message body' });
    await body.click();
    await page.keyboard.press('End');
    await page.keyboard.type(' Edited after the reload.');
    await box.getByRole('button', { name: 'Send' }).click();
    const undo = page.getByRole('status').getByRole('button', { name: 'Undo' });
    await undo.waitFor();
    await undo.click();
    await box.getByText('Sending undone. Your message is back in the composer.').waitFor();
    // Everything is back: the body with the edit, the recipients, Bcc included.
    await expect(body.textContent()).resolves.toContain(`${BODY} Edited after the reload.`);
    await chips(box, 'Bcc').getByRole('button', { name: `Remove ${alice.email}` }).waitFor();
    await chips(box, 'To').getByRole('button', { name: `Remove ${bob.email}` }).waitFor();
    await screenshot(page, 'drafts-2-after-undo');

    await box.getByRole('button', { name: 'Send' }).click();
    await undo.waitFor();
    // The undo window ends, the gateway takes it: a polite confirmation, no error.
    const sentToast = page.getByRole('region', { name: 'Notifications' }).getByRole('status').getByText('Message sent', { exact: true });
    await sentToast.waitFor({ timeout: 20_000 });
    await screenshot(page, 'drafts-2-message-sent');
    await expect(page.getByRole('alert').filter({ hasText: 'Message not sent' }).count()).resolves.toBe(0);

    // Bob gets the whole message, without the Bcc line; Alice (Bcc) gets it too; Drafts no longer holds it.
    const received = await eventually(async () => (await imapMessagesOf(bob, 'INBOX')).find((message) => message.subject === DRAFT_SUBJECT), 30_000, "the message in Bob's INBOX");
    expect(received.source).toContain('Edited after the reload.');
    expect(received.source).toContain(stamp);
    expect(received.source).not.toMatch(/^Bcc:/im);
    await eventually(async () => (await imapSubjects(demo.mail.host, demo.mail.imap, alice, 'INBOX')).includes(DRAFT_SUBJECT), 30_000, "the Bcc copy in Alice's INBOX");
    await eventually(async () => !(await imapSubjects(demo.mail.host, demo.mail.imap, alice, 'Drafts')).includes(DRAFT_SUBJECT), 15_000, 'the draft gone from Drafts');
    await rowWith(page, literal(DRAFT_SUBJECT)).waitFor({ state: 'detached', timeout: 15_000 });
    await screenshot(page, 'drafts-2-drafts-after-send');
    expect(tab.errors).toEqual([]);
  });

  test('3. reply all (a) and forward (f) closed without a change save no draft: the thread keeps its place and preview', async () => {
    // A thread of its own (the seeded probes belong to the other flows): from Billing, to Alice, Cc Bob, with an inline logo.
    const transport = createTransport({ host: demo.mail.host, port: demo.mail.smtp, secure: false, ignoreTLS: true });
    try {
      await transport.sendMail({
        from: 'Billing <billing@kite.test>',
        to: alice.email,
        cc: bob.email,
        envelope: { from: 'billing@kite.test', to: [alice.email] },
        subject: LOGO_SUBJECT,
        html: '<p><img src="cid:logo@kite.test" alt="Company logo" width="40" height="40"></p><p>Your invoice is attached.</p>',
        attachments: [{ filename: 'logo.png', cid: 'logo@kite.test', contentType: 'image/png', content: Buffer.from(LOGO_PNG, 'base64') }],
      });
    } finally {
      transport.close();
    }
    await openFolder(page, alice.email, 'Inbox');
    const draftsBefore = await imapSubjects(demo.mail.host, demo.mail.imap, alice, 'Drafts');
    const row = rowWith(page, literal(LOGO_SUBJECT));
    const conversation = await openThread(LOGO_SUBJECT);
    const messagesBefore = await conversation.getByRole('article').count();
    // Read now that it is open: its label (senders, count, preview) and place are what must not change.
    await expect.poll(() => row.getAttribute('aria-label'), { timeout: 10_000 }).not.toMatch(/^Unread|Saving changes/);
    const [labelBefore, placeBefore] = [await row.getAttribute('aria-label'), await row.getAttribute('aria-posinset')];
    for (const key of ['a', 'f']) {
      await row.click(); // the open thread's row has the focus: the key answers it
      await page.keyboard.press(key);
      const box = composer(`${key === 'a' ? 'Re' : 'Fwd'}: ${LOGO_SUBJECT}`);
      await box.waitFor();
      if (key === 'a') await chips(box, 'Cc').getByRole('button', { name: `Remove ${bob.email}` }).waitFor();
      // A forward brings the logo along as an attachment: its upload is the app's doing, not a change.
      else await box.getByRole('button', { name: 'Remove logo.png' }).waitFor({ timeout: 10_000 });
      // Past the autosave's quiet time, then closed as it was.
      await page.waitForTimeout(2_500);
      await expect(box.locator('.tern-save-status').textContent()).resolves.toBe('');
      await screenshot(page, `drafts-3-untouched-${key === 'a' ? 'reply-all' : 'forward'}`);
      await box.getByRole('button', { name: 'Close and keep the draft' }).click();
      await box.waitFor({ state: 'detached' });
    }
    await page.waitForTimeout(2_000);
    expect(await imapSubjects(demo.mail.host, demo.mail.imap, alice, 'Drafts')).toEqual(draftsBefore);
    await expect(conversation.getByRole('article').count()).resolves.toBe(messagesBefore);
    await expect(row.getAttribute('aria-label')).resolves.toBe(labelBefore);
    await expect(row.getAttribute('aria-posinset')).resolves.toBe(placeBefore);
    await screenshot(page, 'drafts-3-after-closing');
    expect(tab.errors).toEqual([]);
  });

  test('4. a reply to a mail with an inline cid: logo quotes it as its alt text, with no CSP error', async () => {
    const conversation = page.getByRole('region', { name: `Conversation: ${LOGO_SUBJECT}` });
    await conversation.getByRole('toolbar', { name: /^Actions for the message from Billing/ }).getByRole('button', { name: 'Reply', exact: true }).click();
    const box = composer(`Re: ${LOGO_SUBJECT}`);
    await box.waitFor();
    const body = box.getByRole('textbox', { name: 'Message body' });
    await body.getByText('Your invoice is attached.').waitFor();
    await expect(body.textContent()).resolves.toContain('[Company logo]');
    await expect(body.locator('img').count()).resolves.toBe(0);
    await screenshot(page, 'drafts-4-reply-quote');
    await box.getByRole('button', { name: 'Close and keep the draft' }).click();
    await box.waitFor({ state: 'detached' });
    expect(tab.errors).toEqual([]);
  });

  test('5. the sidebar names the account by the sender name set in the settings', async () => {
    const name = `Alice W. ${stamp}`;
    await page.getByRole('button', { name: 'Settings' }).click();
    await page.getByRole('menu', { name: 'Settings' }).getByRole('menuitem', { name: /^Sender name/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Sender name' });
    await dialog.getByLabel(`Sender name for ${alice.email}`).fill(name);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });
    await accountSection(page, alice.email).getByText(name, { exact: true }).waitFor();
    await screenshot(page, 'drafts-5-sidebar-name');
    expect(tab.errors).toEqual([]);
  });
});
