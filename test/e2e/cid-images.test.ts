/**
 * `cid:` images in HTML mail, on the demo setup: a 292-byte logo (below the 512-byte bound
 * of the spec's inline-image rule) shows as well as a 5 KB banner, their Content-IDs
 * matched whatever the case and brackets the HTML spells them with; a cid: the message
 * does not carry is the neutral placeholder; and the list under the message still follows
 * the spec's paperclip rule: the real file is listed, the inline pictures are not.
 */
import { createTransport } from 'nodemailer';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import { launchChromium, screenshot } from './chromium';
import { logIn, newDemoContext, openFolder, openThread, watch, type Watched } from './demo-session';
import { noisePng } from './fixtures/reading-mail';

const baseUrl = inject('baseUrl');
const demo = inject('demo');
const { alice } = demo;
const SUBJECT = `Your receipt with a small logo ${Date.now().toString(36)}`;
const SENDER = 'Atelier Shop';
const LOGO = Buffer.from(noisePng(9, 8, [20, 140, 90]), 'base64');
const BANNER = Buffer.from(noisePng(50, 40, [176, 64, 43]), 'base64');
const RECEIPT = Buffer.from('%PDF-1.4\n% a receipt, for the list\n'.repeat(40));

/** The HTML names the logo in another case than its Content-ID, the banner with URL-encoded brackets. */
const HTML = `<table role="presentation" width="480" style="font:14px sans-serif"><tr><td>
  <p><img id="logo" src="cid:LOGO.small@Atelier.test" alt="Atelier" width="45" height="40"> <b>Atelier Shop</b></p>
  <p><img id="banner" src="cid:%3Cbanner@atelier.test%3E" alt="Autumn sale" width="250" height="200"></p>
  <p>Missing: <img id="gone" src="cid:gone@atelier.test" alt="A picture that was not sent" width="120" height="40"></p>
  <p>Thank you for your order.</p>
</td></tr></table>`;

let browser: Browser;
let context: BrowserContext;
let tab: Watched;
let page: Page;

beforeAll(async () => {
  expect(LOGO.length).toBeLessThanOrEqual(512); // below the inline-image bound: the case this file is about
  expect(BANNER.length).toBeGreaterThan(4 * 1024);
  const transport = createTransport({ host: demo.mail.host, port: demo.mail.smtp, secure: false, ignoreTLS: true });
  try {
    await transport.sendMail({
      from: `${SENDER} <shop@kite.test>`,
      to: alice.email,
      envelope: { from: 'shop@kite.test', to: [alice.email] },
      subject: SUBJECT,
      html: HTML,
      text: 'Your receipt (HTML)',
      attachments: [
        { filename: 'logo.png', cid: 'logo.small@atelier.test', contentType: 'image/png', content: LOGO },
        { filename: 'banner.png', cid: 'banner@atelier.test', contentType: 'image/png', content: BANNER },
        { filename: 'receipt.pdf', contentType: 'application/pdf', content: RECEIPT },
      ],
    });
  } finally {
    transport.close();
  }
  browser = await launchChromium();
  context = await newDemoContext(browser);
  tab = watch(await context.newPage());
  ({ page } = tab);
  await page.setViewportSize({ width: 1280, height: 900 });
  await logIn(page, baseUrl, alice);
  await openFolder(page, alice.email, 'Inbox');
});
afterAll(async () => {
  await browser?.close();
});

interface Picture {
  readonly naturalWidth: number;
  readonly complete: boolean;
  readonly missingCid: boolean;
  readonly src: string;
}

test('a 292-byte and a 5 KB cid: image both show; a missing one is the placeholder; only the real file is listed', async () => {
  const conversation = await openThread(page, SUBJECT, 30_000);
  const frame = conversation.locator(`iframe[title="Message from ${SENDER}"]`);
  await frame.waitFor();
  await page.frameLocator(`iframe[title="Message from ${SENDER}"]`).getByText('Thank you for your order.').waitFor();

  // The frame is same-origin (sandboxed without scripts): the page reads its pictures.
  const pictures = (): Promise<Record<string, Picture>> =>
    frame.evaluate((element) => {
      const doc = (element as HTMLIFrameElement).contentDocument as Document;
      const out: Record<string, Picture> = {};
      for (const image of Array.from(doc.querySelectorAll('img'))) {
        out[image.id] = { naturalWidth: image.naturalWidth, complete: image.complete, missingCid: image.hasAttribute('data-tern-missing-cid'), src: image.src.slice(0, 22) };
      }
      return out;
    });
  await expect.poll(async () => Object.values(await pictures()).every((picture) => picture.complete), { timeout: 5_000 }).toBe(true);
  const shown = await pictures();
  expect(shown.logo, JSON.stringify(shown)).toMatchObject({ naturalWidth: 9, missingCid: false, src: 'data:image/png;base64,' });
  expect(shown.banner, JSON.stringify(shown)).toMatchObject({ naturalWidth: 50, missingCid: false, src: 'data:image/png;base64,' });
  // Not carried by the message: a transparent picture on the placeholder, never a broken image.
  expect(shown.gone, JSON.stringify(shown)).toMatchObject({ naturalWidth: 1, missingCid: true, src: 'data:image/gif;base64,' });

  // The list follows the paperclip rule (spec §5): the PDF, not the two small inline pictures.
  const article = conversation.getByRole('article', { name: new RegExp(`^Message from ${SENDER}`) });
  const list = article.getByRole('region', { name: 'Attachments' });
  await list.waitFor();
  const names = await list.locator('.tern-att-name').allInnerTexts();
  expect(names).toEqual(['receipt.pdf']);
  await frame.scrollIntoViewIfNeeded();
  await screenshot(page, 'cid-images-1-small-and-large');
  expect(tab.errors).toEqual([]);
});
