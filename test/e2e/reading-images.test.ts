/**
 * Remote images in the reading pane, on the demo setup: a fluid newsletter whose images
 * are shown (for this message, or always for its sender) still fits the reading pane beside the list at 1280 px
 * at its own size — the pictures that arrive shrink with the pane, and a picture that
 * fails becomes a placeholder that shrinks too (a broken 560 px image used to hold the
 * mail at 592 px: cut off, or zoomed to 11 px text). "Always show" can be stopped from
 * the message. And in the dark theme a mail without colours of its own reads in the
 * app's dark colours, while a designed newsletter keeps its light card.
 *
 * The images come from a loopback http server, and reach the browser only through the
 * gateway's private image proxy (issue 19): the server sees the proxy, never Chromium. The
 * demo gateway's proxy is allowed to reach that loopback address (E2E_IMAGE_HOST), as an
 * operator would allow an internal image host; anything else private it refuses.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createTransport } from 'nodemailer';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { launchChromium, screenshot } from './chromium';
import { logIn, newDemoContext, openFolder, openThread, watch, type Watched } from './demo-session';
import { E2E_IMAGE_HOST } from './demo-setup';

const baseUrl = inject('baseUrl');
const demo = inject('demo');
const { alice } = demo;
const stamp = Date.now().toString(36);
/** http://<E2E_IMAGE_HOST>:<port>, once the image server listens. */
let IMAGE_HOST = '';
const SENDER = `news-${stamp}@images.kite.test`;
const SENDER_NAME = 'The Picture Weekly';
const FIRST = `Pictures this week ${stamp}`;
const SECOND = `More pictures ${stamp}`;
const SIMPLE = `Plain words ${stamp}`;

/** A newsletter laid out as the seeded ones are (test/harness/seed/bodies.ts): fluid table, 600 and 560 px images, one of them gone. */
function newsletterHtml(title: string): string {
  const story = (slug: string, heading: string) =>
    `<tr><td style="padding:16px;font-family:Helvetica,Arial,sans-serif">` +
    `<img src="${IMAGE_HOST}/img/${slug}.svg" width="560" height="280" alt="">` +
    `<h2 style="font-size:20px"><a href="${IMAGE_HOST}/r/${slug}">${heading}</a></h2>` +
    `<p>The staging environment is back up, so you should be able to test the new flow again. Please keep this internal until the announcement goes out.</p></td></tr>`;
  return (
    `<!DOCTYPE html><html><head><meta charset="utf-8"><title>${title}</title></head>` +
    `<body style="margin:0;background:#f4f4f7"><table role="presentation" width="100%" cellpadding="0" cellspacing="0">` +
    `<tr><td align="center"><img src="${IMAGE_HOST}/assets/header-600x120.svg" width="600" height="120" alt="${SENDER_NAME}"></td></tr>` +
    story('story-1', 'Interview: the team behind the new mail engine') +
    story('gone-2', 'This picture no longer exists on the server') +
    story('story-3', 'Five keyboard shortcuts you should know') +
    `<tr><td style="font-size:12px;color:#888;padding:16px">You subscribed to ${SENDER_NAME}. <a href="${IMAGE_HOST}/unsubscribe">Unsubscribe</a></td></tr></table>` +
    `<img src="${IMAGE_HOST}/open/${stamp}.gif" width="1" height="1" alt=""></body></html>`
  );
}

function svg(width: number, height: number, fill: string): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}"><rect width="100%" height="100%" fill="${fill}"/><text x="20" y="40" font-size="28" fill="#fff">${width}×${height}</text></svg>`;
}

let server: Server;
const served: string[] = [];
/** Who asked the image server for each image: the gateway's proxy, if the reader's IP stays private. */
const userAgents = new Set<string>();
let browser: Browser;
let context: BrowserContext;
let tab: Watched;
let page: Page;

async function seed(): Promise<void> {
  const transport = createTransport({ host: demo.mail.host, port: demo.mail.smtp, secure: false, ignoreTLS: true });
  try {
    for (const subject of [FIRST, SECOND]) {
      await transport.sendMail({
        from: `${SENDER_NAME} <${SENDER}>`,
        to: alice.email,
        envelope: { from: SENDER, to: [alice.email] },
        subject,
        html: newsletterHtml(subject),
        text: subject,
      });
    }
    await transport.sendMail({
      from: 'Bob Kim <bob@kite.test>',
      to: alice.email,
      envelope: { from: 'bob@kite.test', to: [alice.email] },
      subject: SIMPLE,
      html: '<p>Hi Alice,</p><p>Short and <b>simple</b>: no colours of its own. <a href="https://kite.test/notes">The notes</a>.</p><blockquote type="cite">An earlier line.</blockquote><p>Bob</p>',
      text: 'Hi Alice, short and simple.',
    });
  } finally {
    transport.close();
  }
}

beforeAll(async () => {
  server = createServer((request, response) => {
    const path = request.url ?? '/';
    served.push(path);
    userAgents.add(request.headers['user-agent'] ?? '');
    if (path.startsWith('/assets/header-600x120')) return void response.writeHead(200, { 'content-type': 'image/svg+xml' }).end(svg(600, 120, '#3b4a9c'));
    if (path.startsWith('/img/story-')) return void response.writeHead(200, { 'content-type': 'image/svg+xml' }).end(svg(560, 280, '#2f7d6d'));
    if (path.startsWith('/open/')) return void response.writeHead(200, { 'content-type': 'image/svg+xml' }).end(svg(1, 1, '#fff'));
    response.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
  });
  await new Promise<void>((resolve) => server.listen(0, E2E_IMAGE_HOST, resolve));
  IMAGE_HOST = `http://${E2E_IMAGE_HOST}:${(server.address() as AddressInfo).port}`;
  await seed();
  browser = await launchChromium();
  context = await newDemoContext(browser);
  tab = watch(await context.newPage());
  ({ page } = tab);
  await page.setViewportSize({ width: 1280, height: 800 });
  // The conversation view (the default): list on the left, the conversation beside it, a ≈ 460 px frame at 1280.
  await logIn(page, baseUrl, alice);
  await openFolder(page, alice.email, 'Inbox');
});
afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => server?.close(resolve));
});

interface FrameFacts {
  readonly frameWidth: number;
  readonly scrollWidth: number;
  readonly clientWidth: number;
  readonly zoom: number;
  readonly loaded: number;
  readonly broken: number;
  readonly fontSize: number;
}

const frameFacts = (frame: Locator): Promise<FrameFacts> =>
  frame.evaluate((element) => {
    const iframe = element as HTMLIFrameElement;
    const doc = iframe.contentDocument as Document;
    const images = [...doc.images];
    const paragraph = doc.querySelector('p');
    const zoom = Number(doc.body.style.zoom || '1');
    return {
      frameWidth: iframe.clientWidth,
      scrollWidth: doc.documentElement.scrollWidth,
      clientWidth: doc.documentElement.clientWidth,
      zoom,
      loaded: images.filter((image) => /\/api\/proxy\/image\?/.test(image.currentSrc) && image.complete && image.naturalWidth > 0).length,
      broken: doc.querySelectorAll('img[data-tern-broken-src]').length,
      fontSize: paragraph ? parseFloat(getComputedStyle(paragraph).fontSize) * zoom : 0,
    };
  });

/** The pictures have arrived (three stories' two + header + pixel), the gone one is a placeholder, and the mail fits at (nearly) its own size. */
async function expectShownAndFitting(frame: Locator, what: string): Promise<FrameFacts> {
  await expect.poll(async () => (await frameFacts(frame)).loaded, { timeout: 10_000 }).toBe(4);
  // The missing picture has failed by then (its 404 is as quick); give the refit its frame, then read.
  await page.waitForTimeout(500);
  const facts = await frameFacts(frame);
  console.log(`[reading-images] ${what}: ${JSON.stringify(facts)}`);
  expect(facts.scrollWidth, JSON.stringify(facts)).toBeLessThanOrEqual(facts.clientWidth);
  expect(facts.zoom, JSON.stringify(facts)).toBeGreaterThanOrEqual(0.9);
  expect(facts.fontSize, JSON.stringify(facts)).toBeGreaterThanOrEqual(12);
  expect(facts.broken, JSON.stringify(facts)).toBe(1);
  return facts;
}

const frameOf = (conversation: Locator) => conversation.locator(`iframe[title="Message from ${SENDER_NAME}"]`);

describe('remote images shown in a narrow pane', () => {
  test('1. Show images: the newsletter still fits the 1280 px reading pane beside the list at its own size, the missing picture a shrinking placeholder', async () => {
    const conversation = await openThread(page, FIRST, 30_000);
    const frame = frameOf(conversation);
    await frame.waitFor();
    const blocked = await frameFacts(frame);
    expect(blocked.frameWidth).toBeLessThan(600);
    await conversation.getByRole('button', { name: 'Show images' }).click();
    const shown = await expectShownAndFitting(frame, 'show images, conversation view 1280');
    expect(shown.frameWidth).toBeLessThan(600);
    expect(served.some((path) => path.startsWith('/img/gone-2'))).toBe(true);
    // Every picture was fetched by the gateway's image proxy, none by the browser.
    expect([...userAgents]).toEqual([expect.stringMatching(/^TernImageProxy\//)]);
    const sources = await frame.evaluate((element) => [...((element as HTMLIFrameElement).contentDocument?.images ?? [])].map((image) => image.getAttribute('src') ?? ''));
    expect(sources.filter((src) => src.includes(E2E_IMAGE_HOST))).toEqual([]);
    await screenshot(page, 'reading-images-1-shown');
    // The missing picture: a placeholder of its shape, within the pane.
    await frame.evaluate((element) => (element as HTMLIFrameElement).contentDocument?.querySelector('img[data-tern-broken-src]')?.scrollIntoView({ block: 'center' }));
    await screenshot(page, 'reading-images-1-missing-picture');
    expect(tab.errors.filter((error) => !/404|Failed to load resource/.test(error))).toEqual([]);
  });

  test('2. Always show from the sender: the next newsletter opens with its pictures and fits; Stop (from the message) hides them again, for good', async () => {
    // The second newsletter, still blocked (test 1 showed the first one's pictures for that message only).
    let conversation = await openThread(page, SECOND, 30_000);
    await conversation.getByRole('region', { name: 'Remote images blocked' }).getByRole('button', { name: `Always show from ${SENDER}` }).click();
    const frame = frameOf(conversation);
    await frame.waitFor();
    const allowed = await expectShownAndFitting(frame, 'sender allowed, conversation view 1280');
    expect(allowed.frameWidth).toBeLessThan(600);
    await screenshot(page, 'reading-images-2-sender-allowed');

    // Opened afresh (a reload): allowed at once, measured with the pictures as they arrive.
    await page.reload();
    await tab.mail.waitForRows();
    conversation = await openThread(page, FIRST, 30_000);
    await expect(conversation.getByRole('region', { name: 'Remote images blocked' }).count()).resolves.toBe(0);
    await expectShownAndFitting(frameOf(conversation), 'sender allowed after reload');

    // The way back: the line says so and offers Stop.
    const stop = conversation.getByRole('button', { name: `Stop always showing images from ${SENDER}` });
    await stop.waitFor();
    await screenshot(page, 'reading-images-2-always-line');
    await stop.click();
    await conversation.getByRole('region', { name: 'Remote images blocked' }).getByRole('button', { name: 'Show images' }).waitFor();
    expect(await page.evaluate(() => localStorage.getItem('tern.trustedSenders'))).not.toContain(SENDER);
    await page.reload();
    await tab.mail.waitForRows();
    conversation = await openThread(page, SECOND, 30_000);
    await conversation.getByRole('region', { name: 'Remote images blocked' }).waitFor();
    await screenshot(page, 'reading-images-2-stopped');
  });

  test('3. split view (the conversation below the list) at 1280: shown pictures at their own size, nothing cut off', async () => {
    await tab.mail.chooseInSettings(/^Split/);
    await page.reload();
    await tab.mail.waitForRows();
    const conversation = await openThread(page, FIRST, 30_000);
    await conversation.getByRole('button', { name: 'Show images' }).click();
    const facts = await expectShownAndFitting(frameOf(conversation), 'show images, split view 1280');
    expect(facts.zoom).toBe(1);
    await screenshot(page, 'reading-images-3-split-view');
    await tab.mail.chooseInSettings(/^Conversation/);
  });
});

describe('dark theme', () => {
  const background = (locator: Locator) => locator.evaluate((element) => getComputedStyle(element).backgroundColor);
  /** The colour the frame's text and its (painted) backdrop have. */
  const frameColours = (frame: Locator) =>
    frame.evaluate((element) => {
      const iframe = element as HTMLIFrameElement;
      const doc = iframe.contentDocument as Document;
      return { element: getComputedStyle(iframe).backgroundColor, body: getComputedStyle(doc.body).backgroundColor, text: getComputedStyle(doc.body).color, scheme: getComputedStyle(doc.documentElement).colorScheme };
    });

  test('4. a mail without colours of its own reads in the dark colours; a newsletter keeps its light card', async () => {
    const chooseTheme = async (name: 'Dark' | 'Light') => {
      await tab.mail.chooseInSettings(new RegExp(`^${name}`));
      await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe(name.toLowerCase());
    };
    // The theme roams with the account's preferences (issue 21): chosen in the app, not planted in localStorage.
    await chooseTheme('Dark');
    await page.reload();
    await tab.mail.waitForRows();
    let conversation = await openThread(page, SIMPLE, 30_000);
    const simple = conversation.locator('iframe[title="Message from Bob Kim"]');
    await simple.waitFor();
    await expect.poll(async () => (await frameColours(simple)).text).toBe('rgb(231, 234, 239)');
    const colours = await frameColours(simple);
    expect(colours).toEqual({ element: 'rgba(0, 0, 0, 0)', body: 'rgba(0, 0, 0, 0)', text: 'rgb(231, 234, 239)', scheme: 'dark' });
    // What shows behind it is the conversation's dark card.
    const card = await background(conversation.locator('.tern-message-list'));
    const [r, g, b] = (card.match(/\d+/g) ?? []).map(Number);
    expect((r ?? 255) + (g ?? 255) + (b ?? 255)).toBeLessThan(3 * 80);
    await screenshot(page, 'reading-images-4-dark-simple');

    conversation = await openThread(page, FIRST, 30_000);
    const newsletter = frameOf(conversation);
    await newsletter.waitFor();
    expect((await frameColours(newsletter)).element).toBe('rgb(255, 255, 255)');
    await screenshot(page, 'reading-images-4-dark-newsletter');

    // Back in the light theme, the same mail is dark text again.
    await chooseTheme('Light');
    await page.reload();
    await tab.mail.waitForRows();
    conversation = await openThread(page, SIMPLE, 30_000);
    await expect.poll(async () => (await frameColours(conversation.locator('iframe[title="Message from Bob Kim"]'))).text).toBe('rgb(31, 35, 40)');
    // The choice roams with alice's preferences: leave her on the system theme the other files expect.
    await tab.mail.chooseInSettings(/^System/);
    expect(tab.errors.filter((error) => !/404|Failed to load resource/.test(error))).toEqual([]);
  });
});
