/**
 * Where the composer sits, on the demo setup at a 1280×800 laptop window: a reply leaves
 * the conversation it answers readable — its last message in sight, not under the
 * composer, and the conversation still scrolls above it — and a draft of Drafts opens
 * straight in the composer (Gmail), its row naming whom it is to. The threads and drafts
 * used here are this file's own (sent over SMTP, written here).
 */
import { createTransport } from 'nodemailer';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { composerForm } from './mail-page';
import { launchChromium, screenshot } from './chromium';
import { eventually, imapSubjects, literal, logIn, openFolder, openThread, rowWith, watch, type Watched } from './demo-session';

const baseUrl = inject('baseUrl');
const demo = inject('demo');
const { alice, bob } = demo;
const stamp = Date.now().toString(36);
const THREAD_SUBJECT = `Layout review ${stamp}`;
const LAST_TEXT = `The last word on the layout ${stamp}.`;
const DRAFT_SUBJECT = `Lone draft ${stamp}`;
const DRAFT_BODY = `Bob, a draft from Drafts ${stamp}.`;
/** Paragraphs enough that the conversation is taller than what stays visible above a reply. */
const filler = (what: string) => Array.from({ length: 12 }, (_, i) => `${what} paragraph ${i + 1}: the numbers for the quarter, line by line, as promised.`).join('\n\n');

let browser: Browser;
let tab: Watched;
let page: Page;

beforeAll(async () => {
  browser = await launchChromium();
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, colorScheme: 'light' });
  tab = watch(await context.newPage());
  ({ page } = tab);
  // Two messages from Bob in one thread, the last one starting with LAST_TEXT.
  const transport = createTransport({ host: demo.mail.host, port: demo.mail.smtp, secure: false, ignoreTLS: true });
  try {
    const firstId = `<layout-1-${stamp}@kite.test>`;
    const envelope = { from: bob.email, to: [alice.email] };
    // An older Date for the first: sent in the same second, the two would sort by id alone.
    await transport.sendMail({ from: `Bob <${bob.email}>`, to: alice.email, envelope, subject: THREAD_SUBJECT, messageId: firstId, date: new Date(Date.now() - 120_000), text: filler('First') });
    await transport.sendMail({
      from: `Bob <${bob.email}>`,
      to: alice.email,
      envelope,
      subject: THREAD_SUBJECT, // the same subject: the thread is named after it whichever message comes first
      inReplyTo: firstId,
      references: [firstId],
      text: `${LAST_TEXT}\n\n${filler('Last')}`,
    });
  } finally {
    transport.close();
  }
  await logIn(page, baseUrl, alice);
});
afterAll(async () => {
  await browser?.close();
});

/** The open composer (a form named after its subject). */
const composer = (subject?: string | RegExp) => composerForm(page, subject);

describe('composer layout at 1280×800', () => {
  test('a reply leaves the conversation readable: its last message is in sight, not under the composer, and it scrolls', async () => {
    const row = rowWith(page, literal(THREAD_SUBJECT));
    await eventually(async () => (await row.count()) > 0, 30_000, 'the seeded thread in the inbox');
    const conversation = await openThread(page, THREAD_SUBJECT);
    await conversation.getByText(LAST_TEXT).waitFor();
    await row.click(); // the list has the focus: r answers the open thread
    await page.keyboard.press('r');
    const reply = composer(`Re: ${THREAD_SUBJECT}`);
    await reply.waitFor();
    await screenshot(page, 'composer-layout-1-reply-1280');

    // The last message's text is on screen and what is at its centre is that text, not the composer.
    const box = await page.evaluate((text) => {
      const walker = document.createTreeWalker(document.querySelector('.reading-pane-scroll')!, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const at = node.textContent?.indexOf(text) ?? -1;
        if (at < 0) continue;
        const range = document.createRange();
        range.setStart(node, at);
        range.setEnd(node, at + text.length);
        const { x, y, width, height } = range.getBoundingClientRect();
        const hit = document.elementFromPoint(x + width / 2, y + height / 2);
        return { x, y, width, height, inComposer: Boolean(hit?.closest('.composer-dock')), isText: hit === node.parentElement || Boolean(hit?.contains(node)) };
      }
      return null;
    }, LAST_TEXT);
    expect(box).not.toBeNull();
    expect(box!.y).toBeGreaterThanOrEqual(0);
    expect(box!.y + box!.height).toBeLessThanOrEqual(800);
    expect({ inComposer: box!.inComposer, isText: box!.isText }).toEqual({ inComposer: false, isText: true });
    const composerBox = (await reply.boundingBox())!;
    expect(box!.y + box!.height).toBeLessThanOrEqual(composerBox.y);

    // The conversation scrolls above the composer, to its first message and back to its end.
    const scroller = page.locator('.reading-pane-scroll');
    const sizes = await scroller.evaluate((element) => ({ scroll: element.scrollHeight, client: element.clientHeight, bottom: element.getBoundingClientRect().bottom }));
    expect(sizes.scroll).toBeGreaterThan(sizes.client);
    expect(sizes.bottom).toBeLessThanOrEqual(composerBox.y + 1);
    const before = await scroller.evaluate((element) => element.scrollTop);
    await page.mouse.move(box!.x + box!.width / 2, box!.y + box!.height / 2);
    await page.mouse.wheel(0, 400);
    await expect.poll(() => scroller.evaluate((element) => element.scrollTop)).toBeGreaterThan(before);
    await screenshot(page, 'composer-layout-2-reply-scrolled');

    // Written to, then closed: a draft reply in the conversation.
    await reply.getByRole('textbox', { name: 'Message body' }).click();
    await page.keyboard.type(`A draft reply ${stamp}`);
    await reply.getByText('Saved', { exact: true }).waitFor({ timeout: 10_000 });
    await reply.getByRole('button', { name: 'Close and keep the draft' }).click();
    await reply.waitFor({ state: 'detached' });
    // With the composer gone the pane has its whole height again.
    await expect.poll(() => scroller.evaluate((element) => element.getBoundingClientRect().bottom)).toBeGreaterThan(composerBox.y + 100);
  });

  test('a conversation holding a draft reply opens from Drafts as the conversation, the draft marked with Edit draft', async () => {
    await openFolder(page, alice.email, 'Drafts');
    const row = rowWith(page, literal(THREAD_SUBJECT));
    await row.waitFor({ timeout: 15_000 });
    // It names its senders, not recipients: it is a conversation.
    expect(await row.getAttribute('aria-label')).not.toMatch(/^Draft, /);
    await row.click();
    const conversation = page.getByRole('region', { name: `Conversation: ${THREAD_SUBJECT}` });
    await conversation.waitFor();
    await conversation.getByRole('button', { name: 'Edit draft' }).waitFor();
    await conversation.getByText('Draft', { exact: true }).first().waitFor();
    expect(await composer().count()).toBe(0);
  });

  test('a draft in Drafts opens straight in the composer, and its row names whom it is to', async () => {
    await page.getByRole('button', { name: 'Compose', exact: true }).click();
    const box = composer();
    await box.waitFor();
    const to = box.getByRole('combobox', { name: 'To' });
    await to.fill(bob.email);
    await to.press('Enter');
    await box.getByLabel('Subject').fill(DRAFT_SUBJECT);
    await box.getByRole('textbox', { name: 'Message body' }).click();
    await page.keyboard.type(DRAFT_BODY);
    await box.getByText('Saved', { exact: true }).waitFor({ timeout: 10_000 });
    await box.getByRole('button', { name: 'Close and keep the draft' }).click();
    await box.waitFor({ state: 'detached' });
    await eventually(async () => (await imapSubjects(demo.mail.host, demo.mail.imap, alice, 'Drafts')).includes(DRAFT_SUBJECT), 15_000, 'the draft in Drafts');

    await openFolder(page, alice.email, 'Drafts');
    const row = rowWith(page, literal(DRAFT_SUBJECT));
    await row.waitFor({ timeout: 15_000 });
    // Whom the draft is to, marked as a draft, instead of "me".
    await expect.poll(() => row.getAttribute('aria-label'), { timeout: 10_000 }).toMatch(new RegExp(`^Draft, To: ${literal(bob.email).source}, ${literal(DRAFT_SUBJECT).source}`));
    await expect(row.locator('.row-senders').innerText()).resolves.toBe(`Draft To: ${bob.email}`);
    await expect(row.locator('.row-draft-label').innerText()).resolves.toBe('Draft');
    await screenshot(page, 'composer-layout-3-drafts-row');

    await row.click();
    const reopened = composer(DRAFT_SUBJECT);
    await reopened.waitFor();
    await expect(reopened.getByLabel('Subject').inputValue()).resolves.toBe(DRAFT_SUBJECT);
    await expect(reopened.getByRole('textbox', { name: 'Message body' }).textContent()).resolves.toContain(DRAFT_BODY);
    await reopened.getByRole('list', { name: 'To recipients' }).getByRole('button', { name: `Remove ${bob.email}` }).waitFor();
    // No conversation of one message with Reply and Forward on the user's own draft.
    expect(await page.getByRole('region', { name: `Conversation: ${DRAFT_SUBJECT}` }).count()).toBe(0);
    await screenshot(page, 'composer-layout-4-draft-opened');

    // Enter on the row does the same.
    await reopened.getByRole('button', { name: 'Close and keep the draft' }).click();
    await reopened.waitFor({ state: 'detached' });
    await page.locator('#thread-list').focus(); // the cursor is on the draft's row
    await page.keyboard.press('Enter');
    await composer(DRAFT_SUBJECT).waitFor();
    expect(await page.getByRole('region', { name: `Conversation: ${DRAFT_SUBJECT}` }).count()).toBe(0);
    expect(tab.errors).toEqual([]);
  });
});
