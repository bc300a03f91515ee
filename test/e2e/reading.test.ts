/**
 * Reading mail on the demo setup, as a new user's walkthrough found it: a 600-700 px
 * newsletter fits the reading pane (zoomed out, no sideways scrolling) and fits again when
 * the window changes; plain text hard-wrapped at 72 columns and format=flowed text read as
 * paragraphs; the sender's name is not cut for its address. And a tab that outlives a
 * deploy: a screen whose chunk is gone says the app was updated and offers a reload, and
 * the draft that was open survives it.
 */
import { createTransport } from 'nodemailer';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, inject, test } from 'vitest';
import { launchChromium, screenshot } from './chromium';
import { eventually, imapMessages, literal, logIn, newDemoContext, openFolder, openThread as openThreadIn, rowWith, watch, type Watched } from './demo-session';
import { HARD_WRAPPED_PARAGRAPH, HARD_WRAPPED_QUOTE, HARD_WRAPPED_TEXT, HERO_PNG, THUMB_PNG, WIDE_NEWSLETTER_HTML } from './fixtures/reading-mail';

const baseUrl = inject('baseUrl');
const demo = inject('demo');
const { alice } = demo;
const stamp = Date.now().toString(36);
const NEWSLETTER_SUBJECT = `The weekly digest ${stamp}`;
const PLAIN_SUBJECT = `Notes on the draft ${stamp}`;
const FLOWED_SUBJECT = `Flowed paragraphs ${stamp}`;
const SENDER_NAME = 'The Atelier Weekly Digest Newsletter Team';
const FLOWED_PARAGRAPH = 'This paragraph was sent as format=flowed: every line but its last ends with a space, a soft break the reader joins again.';

let browser: Browser;
let context: BrowserContext;
let tab: Watched;
let page: Page;

/** format=flowed lines (RFC 3676): short (below any hard-wrap guess), each soft break a trailing space. */
function flowedLines(paragraph: string, width = 40): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of paragraph.split(' ')) {
    if (line !== '' && line.length + word.length > width) {
      lines.push(line);
      line = '';
    }
    line += `${word} `;
  }
  lines.push(line.trimEnd());
  return lines;
}

async function seed(): Promise<void> {
  const transport = createTransport({ host: demo.mail.host, port: demo.mail.smtp, secure: false, ignoreTLS: true });
  try {
    await transport.sendMail({
      from: `${SENDER_NAME} <newsletter-no-reply@news.kite.test>`,
      to: alice.email,
      envelope: { from: 'newsletter-no-reply@news.kite.test', to: [alice.email] },
      subject: NEWSLETTER_SUBJECT,
      html: WIDE_NEWSLETTER_HTML,
      text: 'The weekly digest (HTML)',
      attachments: [
        { filename: 'hero.png', cid: 'hero@news.example', contentType: 'image/png', content: Buffer.from(HERO_PNG, 'base64') },
        { filename: 'thumb.png', cid: 'thumb@news.example', contentType: 'image/png', content: Buffer.from(THUMB_PNG, 'base64') },
      ],
    });
    await transport.sendMail({
      from: 'Bob Kim <bob@kite.test>',
      to: alice.email,
      envelope: { from: 'bob@kite.test', to: [alice.email] },
      subject: PLAIN_SUBJECT,
      text: HARD_WRAPPED_TEXT,
    });
    const raw = [
      'From: Carol Diaz <carol@kite.test>',
      `To: ${alice.email}`,
      `Subject: ${FLOWED_SUBJECT}`,
      `Date: ${new Date().toUTCString()}`,
      `Message-ID: <flowed-${stamp}@kite.test>`,
      'MIME-Version: 1.0',
      'Content-Type: text/plain; charset=utf-8; format=flowed',
      'Content-Transfer-Encoding: 7bit',
      '',
      ...flowedLines(FLOWED_PARAGRAPH),
      '',
      'Carol',
      '',
    ].join('\r\n');
    await transport.sendMail({ envelope: { from: 'carol@kite.test', to: [alice.email] }, raw });
  } finally {
    transport.close();
  }
}

beforeAll(async () => {
  await seed();
  browser = await launchChromium();
  // No service worker: "a tab that outlives a deploy" below fakes a chunk gone from the
  // server, which a tab meets without one (a first visit, a browser without them); with one,
  // the tab keeps its own build's chunks (offline-shell.test.ts).
  context = await newDemoContext(browser, { serviceWorkers: 'block' });
  tab = watch(await context.newPage());
  ({ page } = tab);
  await logIn(page, baseUrl, alice);
  await openFolder(page, alice.email, 'Inbox');
});
afterAll(async () => {
  await browser?.close();
});

const openThread = (subject: string) => openThreadIn(page, subject, 30_000);

interface FrameFit {
  readonly frameWidth: number;
  readonly scrollWidth: number;
  readonly clientWidth: number;
  readonly zoom: string;
  readonly frameHeight: number;
  readonly contentHeight: number;
}

/** How the mail frame's document sits in the frame (the page reads it: the frame is same-origin, without scripts). */
const frameFit = (frame: Locator): Promise<FrameFit> =>
  frame.evaluate((element) => {
    const iframe = element as HTMLIFrameElement;
    const doc = iframe.contentDocument as Document;
    return {
      frameWidth: iframe.clientWidth,
      scrollWidth: doc.documentElement.scrollWidth,
      clientWidth: doc.documentElement.clientWidth,
      zoom: doc.body.style.zoom,
      frameHeight: iframe.getBoundingClientRect().height,
      contentHeight: doc.documentElement.scrollHeight,
    };
  });

/** Fits: no sideways scrolling, and the frame as tall as the (zoomed) mail, not a tall empty box. */
async function expectFits(frame: Locator): Promise<FrameFit> {
  const fits = (fit: FrameFit) => fit.scrollWidth <= fit.clientWidth && Math.abs(fit.frameHeight - fit.contentHeight) <= 2;
  const deadline = Date.now() + 5_000;
  let fit = await frameFit(frame);
  while (!fits(fit) && Date.now() < deadline) {
    await page.waitForTimeout(100);
    fit = await frameFit(frame);
  }
  expect(fit.scrollWidth, JSON.stringify(fit)).toBeLessThanOrEqual(fit.clientWidth);
  expect(Math.abs(fit.frameHeight - fit.contentHeight), JSON.stringify(fit)).toBeLessThanOrEqual(2);
  return fit;
}

describe('reading mail in a narrow pane', () => {
  beforeEach(async () => {
    await page.setViewportSize({ width: 1440, height: 900 });
  });

  test('1. a 640 px newsletter is zoomed out to the reading pane, re-fitted when the window changes, never enlarged', async () => {
    await page.setViewportSize({ width: 1180, height: 900 });
    const conversation = await openThread(NEWSLETTER_SUBJECT);
    const frame = conversation.locator(`iframe[title="Message from ${SENDER_NAME}"]`);
    await frame.waitFor();
    await page.frameLocator(`iframe[title="Message from ${SENDER_NAME}"]`).getByText('The weekly digest').waitFor();
    const narrow = await expectFits(frame);
    expect(narrow.frameWidth).toBeLessThan(640);
    expect(Number(narrow.zoom)).toBeGreaterThan(0.5);
    expect(Number(narrow.zoom)).toBeLessThan(1);
    await screenshot(page, 'reading-1-newsletter-fitted');

    // The window narrows further: the mail is zoomed out a little more, and still fits.
    await page.setViewportSize({ width: 1080, height: 900 });
    const narrower = await expectFits(frame);
    expect(narrower.frameWidth).toBeLessThan(narrow.frameWidth);
    expect(Number(narrower.zoom)).toBeLessThan(Number(narrow.zoom));
    await screenshot(page, 'reading-1-newsletter-narrower');

    // Wide enough for the mail: back at its own size, not enlarged.
    await page.setViewportSize({ width: 2200, height: 900 });
    await expect.poll(async () => (await frameFit(frame)).zoom, { timeout: 5_000 }).toBe('');
    const wide = await expectFits(frame);
    expect(wide.frameWidth).toBeGreaterThanOrEqual(640);
    await screenshot(page, 'reading-1-newsletter-wide');
    expect(tab.errors).toEqual([]);
  });

  test('2. the header shows the sender’s whole name before the address', async () => {
    const conversation = page.getByRole('region', { name: `Conversation: ${NEWSLETTER_SUBJECT}` });
    const article = conversation.getByRole('article', { name: new RegExp(`^Message from ${SENDER_NAME}`) });
    const name = article.locator('.tern-message-name');
    await expect(name.textContent()).resolves.toBe(SENDER_NAME);
    const cut = await name.evaluate((element) => element.scrollWidth > element.clientWidth);
    expect(cut).toBe(false);
    await expect(article.locator('.tern-message-from').getAttribute('title')).resolves.toBe(`${SENDER_NAME} <newsletter-no-reply@news.kite.test>`);
    expect(tab.errors).toEqual([]);
  });

  test('3. plain text hard-wrapped at 72 columns reads as paragraphs in a narrow pane; code, table, list and quote keep their lines', async () => {
    // 1080 px: the narrowest window with the list beside the pane (its 480 px minimum); narrower, the thread takes the whole mailbox.
    await page.setViewportSize({ width: 1080, height: 900 });
    const conversation = await openThread(PLAIN_SUBJECT);
    const plain = conversation.locator('.tern-plain');
    await plain.waitFor();
    const text = (await plain.innerText()).replace(/\r/g, '');
    const lines = text.split('\n');
    // The wrapped paragraph is one logical line again (the browser wraps it to the pane).
    expect(lines).toContain(HARD_WRAPPED_PARAGRAPH.slice(0, HARD_WRAPPED_PARAGRAPH.indexOf(' https:')));
    for (const kept of ['    npm ci', 'Chapter    Pages   Status', '- send the index to the printer', 'Bob Kim']) expect(lines).toContain(kept);
    // The quote is one block, set off as a quote, its lines joined too.
    await expect(conversation.locator('.tern-plain-quote').innerText()).resolves.toBe(HARD_WRAPPED_QUOTE);
    await screenshot(page, 'reading-3-plain-text-narrow');
    expect(tab.errors).toEqual([]);
  });

  test('4. format=flowed text arrives as paragraphs (its soft breaks joined, RFC 3676)', async () => {
    const conversation = await openThread(FLOWED_SUBJECT);
    const plain = conversation.locator('.tern-plain');
    await plain.waitFor();
    const lines = (await plain.innerText()).replace(/\r/g, '').split('\n');
    expect(lines).toContain(FLOWED_PARAGRAPH);
    expect(lines).toContain('Carol');
    expect(tab.errors).toEqual([]);
  });

  test('7. a fluid newsletter with its remote images blocked keeps its text size: the placeholders shrink with the pane', async () => {
    await page.setViewportSize({ width: 1180, height: 900 });
    await openFolder(page, alice.email, 'Newsletters');
    await tab.mail.row(0).click();
    const frame = page.locator('iframe.tern-mail-frame').first();
    await frame.waitFor();
    await expect.poll(async () => frame.evaluate((element) => (element as HTMLIFrameElement).contentDocument?.querySelectorAll('img[data-tern-blocked-src]').length ?? 0)).toBeGreaterThan(0);
    const fit = await expectFits(frame);
    expect(fit.frameWidth).toBeLessThan(600);
    expect(fit.zoom).toBe('');
    await screenshot(page, 'reading-7-fluid-newsletter-blocked-images');
    await openFolder(page, alice.email, 'Inbox');
    expect(tab.errors).toEqual([]);
  });
});

/** Alice's messages in a folder on the server, with their raw sources. */
const imapSources = (folder: string) => imapMessages(demo.mail.host, demo.mail.imap, alice, folder);

describe('a tab that outlives a deploy', () => {
  test('5. a lazy route whose chunk is gone says the app was updated, with a focused Reload button that brings the screen back; the draft left behind is whole', async () => {
    const DRAFT_SUBJECT = `Draft left for another screen ${stamp}`;
    const second = watch(await context.newPage());
    const tabPage = second.page;
    // The deploy: this tab's login screen chunk no longer exists on the server.
    await tabPage.route('**/build/chunks/LoginScreen-*.js', (route) => route.fulfill({ status: 404, contentType: 'text/plain', body: 'Not found' }));
    await tabPage.goto(`${baseUrl}/mail/unified/inbox`);
    await second.mail.waitForRows();
    // A draft is open, its last words typed just before leaving the mail screen (inside the autosave's quiet time).
    await tabPage.getByRole('button', { name: 'Compose' }).click();
    const box = tabPage.getByRole('form').filter({ has: tabPage.getByRole('textbox', { name: 'Message body' }) });
    await box.getByLabel('Subject').fill(DRAFT_SUBJECT);
    await box.getByRole('textbox', { name: 'Message body' }).click();
    await tabPage.keyboard.type('Saved first.');
    await box.getByText('Saved', { exact: true }).waitFor({ timeout: 10_000 });
    await tabPage.keyboard.type(' Typed just before leaving.');
    await second.mail.sidebar().getByRole('link', { name: 'Add account' }).click();
    await tabPage.getByRole('alert').filter({ hasText: 'Tern Mail has been updated. Reload to continue.' }).waitFor({ timeout: 10_000 });
    const reload = tabPage.getByRole('button', { name: 'Reload' });
    await expect(reload.evaluate((element) => element === document.activeElement)).resolves.toBe(true);
    await expect(tabPage.getByText('Something went wrong').count()).resolves.toBe(0);
    await screenshot(tabPage, 'reading-5-app-updated');
    // The composer closed with the mail screen and saved what was typed, not an empty body over the draft.
    await eventually(
      async () => (await imapSources('Drafts')).find((draft) => draft.subject === DRAFT_SUBJECT && draft.source.includes('Saved first. Typed just before leaving.')),
      20_000,
      'the whole draft in Drafts',
    );

    // The new deploy's files are there: Reload brings the screen back.
    await tabPage.unroute('**/build/chunks/LoginScreen-*.js');
    await reload.click();
    await tabPage.getByRole('heading', { name: 'Add another account' }).waitFor({ timeout: 15_000 });
    // The failed chunk is the only error this tab saw.
    expect(second.errors.filter((error) => !/LoginScreen|404|dynamically imported module|has been updated/.test(error))).toEqual([]);
    await tabPage.close();
  });

  test('6. the conversation view’s chunk gone: the message shows in the reading pane, the list, sidebar and open draft stay, and the draft survives the reload', async () => {
    const DRAFT_SUBJECT = `Draft across a deploy ${stamp}`;
    const second = watch(await context.newPage());
    const tabPage = second.page;
    await tabPage.route('**/build/chunks/conversation-*.js', (route) => route.fulfill({ status: 404, contentType: 'text/plain', body: 'Not found' }));
    await tabPage.goto(`${baseUrl}/mail/unified/inbox`);
    await second.mail.waitForRows();

    await tabPage.getByRole('button', { name: 'Compose' }).click();
    const box = tabPage.getByRole('form').filter({ has: tabPage.getByRole('textbox', { name: 'Message body' }) });
    await box.waitFor();
    await box.getByLabel('Subject').fill(DRAFT_SUBJECT);
    await box.getByRole('textbox', { name: 'Message body' }).click();
    await tabPage.keyboard.type('Written before the deploy.');
    await box.getByText('Saved', { exact: true }).waitFor({ timeout: 10_000 });
    await tabPage.keyboard.type(' And this just before opening a thread.');

    await rowWith(tabPage, literal(PLAIN_SUBJECT)).click();
    const pane = tabPage.getByRole('region', { name: 'Conversation' });
    await pane.getByRole('alert').filter({ hasText: 'Tern Mail has been updated. Reload to continue.' }).waitFor({ timeout: 10_000 });
    // Only the reading pane gave way: the thread list (with the focus), the sidebar and the composer, with everything typed, are still there.
    await rowWith(tabPage, literal(PLAIN_SUBJECT)).waitFor();
    await expect(tabPage.evaluate(() => document.activeElement?.closest('#thread-list') !== null)).resolves.toBe(true);
    await second.mail.sidebar().waitFor();
    await expect(box.getByRole('textbox', { name: 'Message body' }).textContent()).resolves.toBe('Written before the deploy. And this just before opening a thread.');
    await screenshot(tabPage, 'reading-6-app-updated-in-reading-pane');

    await tabPage.unroute('**/build/chunks/conversation-*.js');
    await pane.getByRole('button', { name: 'Reload' }).click();
    await second.mail.waitForRows();
    // Nothing was lost: the whole draft is in Drafts.
    const saved = await eventually(
      async () => (await imapSources('Drafts')).find((draft) => draft.subject === DRAFT_SUBJECT && draft.source.includes('And this just before opening a thread.')),
      20_000,
      'the whole draft in Drafts',
    );
    expect(saved.source).toContain('Written before the deploy.');
    await screenshot(tabPage, 'reading-6-after-reload');
    expect(second.errors.filter((error) => !/conversation|404|dynamically imported module|has been updated/.test(error))).toEqual([]);
    await tabPage.close();
  });
});
