/**
 * Hostile content on the demo, in Debian's Chromium (issue points 12, 13, 14, 15):
 *   - an SVG attachment whose script would write to the app's localStorage, IndexedDB and
 *     window title, previewed and opened in a new tab: the new tab's document has an
 *     opaque origin, and nothing changed in the app's origin; a PNG preview still shows;
 *   - a reply to a mail whose CSS climbs out through nesting (`p { body:has(&) * {…} }`)
 *     and lays a `\70 osition: fixed` cover over everything: the app stays visible and
 *     clickable around the composer (elementFromPoint);
 *   - a file name with U+202E reads in its stored order, isolated;
 *   - a 20 MB HTML mail shows its start and "Show the whole message" while the page stays
 *     responsive (a frame and a key press go through); the figures are logged, not asserted.
 */
import { createTransport } from 'nodemailer';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { launchChromium, screenshot } from './chromium';
import { logIn, newDemoContext, openFolder, openThread, watch, type Watched } from './demo-session';
import { noisePng } from './fixtures/reading-mail';

const baseUrl = inject('baseUrl');
const demo = inject('demo');
const { alice } = demo;
const stamp = Date.now().toString(36);
const FILES_SUBJECT = `Files from Mallory ${stamp}`;
const CSS_SUBJECT = `Styled newsletter ${stamp}`;
const HUGE_SUBJECT = `The whole archive ${stamp}`;
const HUGE_ROW = '<tr><td style="padding:2px">Entry of the archive, with some text to make it long.</td></tr>\n';
const HUGE_HTML = `<html><body><h1>Start of the archive</h1><table>${HUGE_ROW.repeat(Math.ceil((20 * 1024 * 1024) / HUGE_ROW.length))}</table><p>End of the archive</p></body></html>`;

/** Each line of the script would leave a mark in the app's origin if it ever ran there. */
const SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="120" height="80" viewBox="0 0 120 80">
<script>
try { localStorage.setItem('tern-pwned', 'svg'); } catch (e) {}
try { indexedDB.open('tern-pwned-db'); } catch (e) {}
try { parent.document.title = 'pwned'; } catch (e) {}
try { opener.document.title = 'pwned'; } catch (e) {}
document.title = 'svg ran in ' + self.origin;
</script>
<rect width="120" height="80" fill="#2a7"/></svg>`;
const PHOTO = Buffer.from(noisePng(64, 48, [40, 90, 200]), 'base64');
const DISGUISED = 'invoice\u202Egpj.exe';

/** The payloads: nesting that climbs out of the scope, and an escaped `position` cover. */
const HOSTILE_CSS_HTML = `<html><head><style>
p { body:has(&) * { visibility: hidden !important } }
.cover { \\70 osition: fixed; inset: 0; z-index: 2147483647; background: rgba(200, 0, 0, .6) }
.cover2 { position/**/: fixed; top: 0; left: 0; width: 100vw; height: 100vh; z-index: 2147483647 }
.cover3 { --p: fixed; position: var(--p); inset: 0; z-index: 2147483647 }
</style></head><body><div class="cover"></div><div class="cover2"></div><div class="cover3"></div>
<p>Our autumn collection is here.</p></body></html>`;

let browser: Browser;
let context: BrowserContext;
let tab: Watched;
let page: Page;

/** Screenshots of `target` at 1366×768 light and 390×844 dark, then back to 1366×768 light. */
async function screenshotsBothWays(page: Page, target: Locator, name: string): Promise<void> {
  for (const [width, height, scheme] of [
    [1366, 768, 'light'],
    [390, 844, 'dark'],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.emulateMedia({ colorScheme: scheme });
    await target.scrollIntoViewIfNeeded();
    await screenshot(page, `${name}-${width}-${scheme}`);
  }
  await page.setViewportSize({ width: 1366, height: 768 });
  await page.emulateMedia({ colorScheme: 'light' });
}

async function send(message: Parameters<ReturnType<typeof createTransport>['sendMail']>[0]): Promise<void> {
  const transport = createTransport({ host: demo.mail.host, port: demo.mail.smtp, secure: false, ignoreTLS: true });
  try {
    await transport.sendMail({ to: alice.email, envelope: { from: 'mallory@kite.test', to: [alice.email] }, ...message });
  } finally {
    transport.close();
  }
}

beforeAll(async () => {
  await send({
    from: 'Mallory <mallory@kite.test>',
    subject: FILES_SUBJECT,
    text: 'The files you asked for.',
    attachments: [
      { filename: 'diagram.svg', contentType: 'image/svg+xml', content: SVG },
      { filename: 'photo.png', contentType: 'image/png', content: PHOTO },
      { filename: DISGUISED, contentType: 'application/octet-stream', content: Buffer.alloc(20_000, 7) },
    ],
  });
  await send({ from: 'Shop <shop@kite.test>', subject: CSS_SUBJECT, html: HOSTILE_CSS_HTML, text: 'Our autumn collection is here.' });
  await send({ from: 'Archive <archive@kite.test>', subject: HUGE_SUBJECT, html: HUGE_HTML, text: 'The archive.' });
  browser = await launchChromium();
  context = await newDemoContext(browser);
  tab = watch(await context.newPage());
  ({ page } = tab);
  await page.setViewportSize({ width: 1366, height: 768 });
  await logIn(page, baseUrl, alice);
  await openFolder(page, alice.email, 'Inbox');
});
afterAll(async () => {
  await browser?.close();
});

/** Marks the SVG's script would leave in the app's origin. */
const appMarks = (target: Page) =>
  target.evaluate(async () => ({
    storage: localStorage.getItem('tern-pwned'),
    databases: (await indexedDB.databases()).map((database) => database.name).filter((name) => name?.includes('pwned')),
    title: document.title,
    origin: self.origin,
  }));

describe('attachments (issue points 12 and 15)', () => {
  test('an SVG with a script, previewed and opened in a new tab, runs nothing in the app’s origin; a PNG preview shows', async () => {
    const conversation = await openThread(page, FILES_SUBJECT, 30_000);
    const list = conversation.getByRole('region', { name: 'Attachments' });
    await list.waitFor();
    const before = await appMarks(page);
    expect(before.storage).toBeNull();

    await list.getByRole('button', { name: /^Preview diagram\.svg/ }).click();
    const dialog = page.getByRole('dialog', { name: 'diagram.svg' });
    const shown = dialog.locator('img.tern-preview-image');
    await expect.poll(() => shown.evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBe(120);
    const src = await shown.getAttribute('src');
    expect(src).toMatch(new RegExp(`^${baseUrl}/api/attachment-preview/`));
    await screenshot(page, 'hostile-1-svg-preview');

    const [opened] = await Promise.all([context.waitForEvent('page'), dialog.getByRole('link', { name: 'Open diagram.svg in a new tab' }).click()]);
    await opened.waitForLoadState('load');
    // The response's CSP sandbox gives the document an opaque origin, and no script runs in it.
    expect(await opened.evaluate(() => self.origin)).toBe('null');
    expect(await opened.title()).not.toMatch(/svg ran/);
    // The browser's own address of the SVG (what "Open image in new tab" would open) is sandboxed too.
    const direct = await context.newPage();
    await direct.goto(src as string);
    expect(await direct.evaluate(() => self.origin)).toBe('null');
    expect(await direct.title()).not.toMatch(/svg ran/);
    await direct.close();
    await opened.close();

    const after = await appMarks(page);
    expect(after).toEqual({ ...before, databases: [] });
    expect(after.title).not.toBe('pwned');

    // The next previewable part: the PNG shows at its size.
    await page.keyboard.press('ArrowRight');
    const photo = page.getByRole('dialog', { name: 'photo.png' }).locator('img.tern-preview-image');
    await expect.poll(() => photo.evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBe(64);
    await screenshot(page, 'hostile-2-png-preview');
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog').count()).resolves.toBe(0);
    expect(tab.errors).toEqual([]);
  });

  test('a file name with U+202E reads in its stored order, isolated, in the list and its accessible names', async () => {
    const conversation = await openThread(page, FILES_SUBJECT, 30_000);
    const list = conversation.getByRole('region', { name: 'Attachments' });
    const names = await list.locator('.tern-att-name').allInnerTexts();
    expect(names).toContain('invoicegpj.exe');
    expect(names.join('')).not.toMatch(/[\u202a-\u202e\u2066-\u2069\u200e\u200f]/);
    await list.getByRole('button', { name: 'Download invoicegpj.exe (20 KB)' }).waitFor();
    expect(await list.locator('bdi.tern-att-name').count()).toBe(3);
    await screenshotsBothWays(page, list, 'hostile-3-bidi-names');
  });
});

describe('quoted CSS (issue point 13)', () => {
  test('replying to a mail whose CSS climbs out by nesting and escapes keeps the app visible and on top', async () => {
    await openFolder(page, alice.email, 'Inbox');
    const conversation = await openThread(page, CSS_SUBJECT, 30_000);
    // Attached, not visible: its own CSS hides the mail's content, which is all it may style.
    await page.frameLocator(`iframe[title="Message from Shop"]`).getByText('Our autumn collection is here.').waitFor({ state: 'attached' });
    await conversation.getByRole('toolbar', { name: /^Actions for the message from Shop/ }).getByRole('button', { name: 'Reply', exact: true }).click();
    const editor = page.getByRole('textbox', { name: 'Message body' }).last();
    await editor.waitFor();
    // The quote is in the composer, with its styles (scoped).
    await expect.poll(() => page.locator('style').evaluateAll((styles) => styles.some((style) => /tern-quote-/.test(style.textContent ?? '')))).toBe(true);

    // Points of the app outside the quote: the sidebar's Inbox link and the composer's Send button.
    const hit = (selector: string) =>
      page.locator(selector).first().evaluate((element) => {
        const box = element.getBoundingClientRect();
        const found = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
        return { inside: found !== null && (element === found || element.contains(found)), visibility: getComputedStyle(element).visibility, found: found?.className ?? null };
      });
    expect(await hit('[aria-current="page"]')).toMatchObject({ inside: true, visibility: 'visible' });
    const send = page.getByRole('button', { name: 'Send', exact: true });
    await send.waitFor();
    expect(await send.evaluate((element) => {
      const box = element.getBoundingClientRect();
      const found = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
      return found !== null && (element === found || element.contains(found)) && getComputedStyle(element).visibility === 'visible';
    })).toBe(true);
    // No element of the page is positioned fixed by the mail.
    expect(await page.evaluate(() => Array.from(document.querySelectorAll('.cover, .cover2, .cover3'), (element) => getComputedStyle(element).position))).toEqual(['static', 'static', 'static']);
    await screenshot(page, 'hostile-4-reply-to-hostile-css');
    await page.keyboard.press('Escape');
  });
});

describe('a 20 MB HTML mail (issue point 14)', () => {
  test('shows its start and "Show the whole message" while the page stays responsive', async () => {
    await openFolder(page, alice.email, 'Inbox');
    // Long tasks and a key listener, installed before the mail is opened.
    await page.evaluate(() => {
      const seen = { longest: 0, keys: 0 };
      (window as unknown as { __huge: typeof seen }).__huge = seen;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) seen.longest = Math.max(seen.longest, entry.duration);
      }).observe({ type: 'longtask', buffered: false });
      window.addEventListener('keydown', (event) => event.key === 'Shift' && seen.keys++, true);
    });
    const started = await page.evaluate(() => performance.now());
    const conversation = await openThread(page, HUGE_SUBJECT, 60_000);
    const bar = conversation.getByRole('region', { name: 'Large message' });
    await bar.waitFor({ timeout: 30_000 });
    await page.frameLocator('iframe[title="Message from Archive"]').getByText('Start of the archive').waitFor({ timeout: 30_000 });
    const shownAt = await page.evaluate(() => performance.now());
    expect(await bar.textContent()).toMatch(/This message is large \(2\d\.\d MB\): only its first part is shown\./);
    const button = bar.getByRole('button', { name: /^Show the whole message \(2\d\.\d MB\)$/ });
    await button.waitFor();
    // Responsive: a frame goes out and a key press is handled.
    expect(await page.evaluate(() => new Promise<boolean>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve(true)))))).toBe(true);
    await page.keyboard.press('Shift');
    await expect.poll(() => page.evaluate(() => (window as unknown as { __huge: { keys: number } }).__huge.keys)).toBeGreaterThan(0);
    const longest = await page.evaluate(() => (window as unknown as { __huge: { longest: number } }).__huge.longest);
    console.log(`[hostile] 20 MB HTML mail: click to first part shown ${Math.round(shownAt - started)} ms, longest task ${Math.round(longest)} ms`);
    await screenshotsBothWays(page, bar, 'hostile-5-large-body');

    // On demand, the whole: its end shows, the bar goes. The frame has no allow-same-origin:
    // Chromium lays the 20 MB out in another process (IsolatedMailFrame.tsx).
    await page.evaluate(() => {
      const seen = (window as unknown as { __huge: { longest: number; gap?: number } }).__huge;
      seen.longest = 0;
      seen.gap = 0;
      let last = performance.now();
      const tick = () => {
        const now = performance.now();
        seen.gap = Math.max(seen.gap ?? 0, now - last);
        last = now;
        requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
    });
    const before = await page.evaluate(() => performance.now());
    await button.click();
    await bar.waitFor({ state: 'detached', timeout: 120_000 });
    const frame = conversation.locator('iframe[title="Message from Archive"]');
    expect((await frame.getAttribute('sandbox'))?.split(' ')).toEqual(['allow-popups', 'allow-popups-to-escape-sandbox']);
    await page.frameLocator('iframe[title="Message from Archive"]').getByText('End of the archive').waitFor({ state: 'attached', timeout: 120_000 });
    const whole = await page.evaluate(() => performance.now());
    const after = await page.evaluate(() => (window as unknown as { __huge: { longest: number; gap: number } }).__huge);
    console.log(`[hostile] 20 MB HTML mail: "Show the whole message" to its end in the frame ${Math.round(whole - before)} ms; meanwhile longest task ${Math.round(after.longest)} ms, longest gap between frames ${Math.round(after.gap)} ms`);
    await screenshot(page, 'hostile-6-whole-message');
    expect(tab.errors).toEqual([]);
  }, 240_000);
});
