/**
 * Issue "Trust" point 23: forwarding a message with three attachments at 1366×768 laid the
 * attachment rows over the quoted text and the formatting bar, and the editor shrank to
 * 0 px. The composer lays out any number of attachments: the formatting bar and an editor
 * of usable height stay on screen, the attachments sit below the editor without covering
 * it (compact tiles; a long list scrolls inside itself). Checked with 3 and with 12
 * attachments, in the light and the dark theme, at 1366×768 and on a 390×844 phone.
 */
import { createTransport } from 'nodemailer';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { launchChromium, screenshot } from './chromium';
import { composerForm } from './mail-page';
import { literal, logIn, openThread, watch, type Watched } from './demo-session';

const baseUrl = inject('baseUrl');
const demo = inject('demo');
const { alice, bob } = demo;
const stamp = Date.now().toString(36);
const SUBJECT = `Three files to pass on ${stamp}`;
/** The editor keeps at least this much height: a few lines to write in. */
const USABLE_EDITOR_PX = 90;

let browser: Browser;

beforeAll(async () => {
  browser = await launchChromium();
  const transport = createTransport({ host: demo.mail.host, port: demo.mail.smtp, secure: false, ignoreTLS: true });
  try {
    await transport.sendMail({
      from: `Bob <${bob.email}>`,
      to: alice.email,
      envelope: { from: bob.email, to: [alice.email] },
      subject: SUBJECT,
      text: 'Here are the three files for the quarter.\n\nThe budget, the plan and the minutes.',
      attachments: [
        { filename: 'Quarterly budget 2026 (final, approved by finance).pdf', content: Buffer.from('%PDF-1.4 budget'), contentType: 'application/pdf' },
        { filename: 'Project plan.docx', content: Buffer.from('plan'), contentType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document' },
        { filename: 'Minutes 12 March.txt', content: Buffer.from('minutes'), contentType: 'text/plain' },
      ],
    });
  } finally {
    transport.close();
  }
});
afterAll(async () => {
  await browser?.close();
});

interface Box {
  readonly top: number;
  readonly bottom: number;
  readonly height: number;
}

async function boxOf(locator: Locator): Promise<Box> {
  const box = await locator.boundingBox();
  if (!box) throw new Error('not on screen');
  return { top: box.y, bottom: box.y + box.height, height: box.height };
}

/** What is drawn at the centre of `locator`: inside it (not covered by something else). */
const drawnOnTop = (locator: Locator) =>
  locator.evaluate((element) => {
    const rect = element.getBoundingClientRect();
    const hit = document.elementFromPoint(rect.left + rect.width / 2, rect.top + rect.height / 2);
    return hit !== null && element.contains(hit);
  });

/** The formatting bar, the editor and the attachments: all on screen, none over another. */
async function checkLayout(page: Page, box: Locator, attachments: number) {
  const toolbar = box.getByRole('toolbar', { name: 'Formatting' });
  const editor = box.getByRole('textbox', { name: 'Message body' });
  const list = box.getByRole('list', { name: 'Attachments' });
  await expect.poll(() => list.getByRole('listitem').count(), { timeout: 20_000 }).toBe(attachments);
  const viewport = page.viewportSize()!;
  const [bar, body, files, footer] = await Promise.all([boxOf(toolbar), boxOf(editor), boxOf(list), boxOf(box.getByRole('button', { name: 'Send' }))]);
  expect(bar.top).toBeGreaterThanOrEqual(0);
  expect(body.height).toBeGreaterThanOrEqual(USABLE_EDITOR_PX);
  // Top to bottom, each below the one before it: the bar, the editor, the attachments, Send.
  expect(body.top).toBeGreaterThanOrEqual(bar.bottom - 1);
  expect(files.top).toBeGreaterThanOrEqual(body.bottom - 1);
  expect(footer.top).toBeGreaterThanOrEqual(files.bottom - 1);
  expect(footer.bottom).toBeLessThanOrEqual(viewport.height + 1);
  await expect(drawnOnTop(toolbar)).resolves.toBe(true);
  await expect(drawnOnTop(editor)).resolves.toBe(true);
  // A long list scrolls inside itself: its last attachment can be reached.
  await list.getByRole('listitem').last().scrollIntoViewIfNeeded();
  await expect(drawnOnTop(list.getByRole('listitem').last())).resolves.toBe(true);
  return { editorPx: Math.round(body.height) };
}

/** Adds files from the picker until the composer holds `total` attachments. */
async function attachMore(page: Page, box: Locator, count: number) {
  const files = Array.from({ length: count }, (_, i) => ({ name: `Extra notes ${i + 1} with a rather long file name.txt`, mimeType: 'text/plain', buffer: Buffer.from(`notes ${i}`) }));
  await box.locator('input[type="file"]').setInputFiles(files);
}

describe('a composer with many attachments', () => {
  for (const scheme of ['light', 'dark'] as const) {
    test(`forwarding three attachments at 1366×768 (${scheme}): the formatting bar and the editor stay usable; with 12 too`, async () => {
      const context = await browser.newContext({ viewport: { width: 1366, height: 768 }, colorScheme: scheme });
      const tab: Watched = watch(await context.newPage());
      const { page } = tab;
      await logIn(page, baseUrl, alice);
      await openThread(page, SUBJECT);
      await page.keyboard.press('f');
      const box = composerForm(page, literal(`Fwd: ${SUBJECT}`));
      await box.waitFor();
      const three = await checkLayout(page, box, 3);
      console.log(`[composer-attachments] ${scheme} 1366×768, 3 attachments: editor ${three.editorPx} px`);
      await screenshot(page, `composer-attachments-3-${scheme}-1366`);

      await attachMore(page, box, 9);
      const twelve = await checkLayout(page, box, 12);
      console.log(`[composer-attachments] ${scheme} 1366×768, 12 attachments: editor ${twelve.editorPx} px`);
      await screenshot(page, `composer-attachments-12-${scheme}-1366`);
      expect(tab.errors).toEqual([]);
      await context.close();
    });
  }

  test('on a 390×844 phone: a new message with 12 attachments keeps the bar and the editor', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, colorScheme: 'light' });
    const tab: Watched = watch(await context.newPage());
    const { page } = tab;
    await logIn(page, baseUrl, alice);
    await page.getByRole('button', { name: 'Compose' }).first().click();
    const box = composerForm(page);
    await box.waitFor();
    await attachMore(page, box, 12);
    await expect.poll(() => box.getByRole('list', { name: 'Attachments' }).getByRole('listitem').count(), { timeout: 20_000 }).toBe(12);
    await screenshot(page, 'composer-attachments-12-light-390');
    const twelve = await checkLayout(page, box, 12);
    console.log(`[composer-attachments] 390×844, 12 attachments: editor ${twelve.editorPx} px`);
    await page.emulateMedia({ colorScheme: 'dark' });
    await screenshot(page, 'composer-attachments-12-dark-390');
    expect(tab.errors).toEqual([]);
    await context.close();
  });
});
