/**
 * The installable app (issue 20 point 2) against a gateway of the test's own: the page
 * links its manifest (brand name, PNG icons, mailto handler); on this secure origin the
 * default-mail dialog asks the browser to take email links; the service worker takes the
 * page; a new build's worker waits and the page offers "A new version is ready — Reload",
 * which brings the new version in; then, with the gateway stopped, a reload still opens
 * Tern — the shell from the service worker's cache, the mail list from the engine's
 * IndexedDB — instead of the browser's error page — and a message never opened here reads
 * offline, its body downloaded ahead by "keep recent mail offline".
 */
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, expect, inject, test } from 'vitest';
import { screenshot } from './chromium';
import { eventually, imapSubjects, logIn, watch, type Watched } from './demo-session';
import { useOwnGateway } from './own-gateway';

const demo = inject('demo');
const { alice, bob } = demo;
const own = useOwnGateway();

/** The version of the service worker controlling the page (service-worker.ts answers 'version'). */
const controllerVersion = (page: import('playwright-core').Page) =>
  page.evaluate(
    `new Promise((resolve) => {
      const controller = navigator.serviceWorker.controller;
      if (!controller) return resolve(null);
      navigator.serviceWorker.addEventListener('message', (event) => event.data?.kind === 'tern-sw-version' && resolve(event.data.version), { once: true });
      controller.postMessage('version');
    })`,
  ) as Promise<string | null>;

/**
 * One tab through three steps, each a test of its own so each has the whole test budget
 * (in one test the service worker's install, the bodies kept offline and the send after the
 * outage added up to over a minute on a loaded CI machine) and a failure names its step.
 * A later step needs the earlier ones: vitest runs a file's tests in order.
 */
let tab: Watched;
afterAll(() => tab?.page.context().close());

test('manifest and icons; the service worker takes the page; a new build waits for Reload', async () => {
  const { gateway, browser } = own;
  const context = await browser.newContext({ viewport: { width: 1366, height: 768 }, colorScheme: 'light' });
  tab = watch(await context.newPage());
  const { page, mail } = tab;
  await logIn(page, gateway.baseUrl, alice);

  // The manifest: the brand's name, PNG icons (one maskable), both themes' colours in the page, mailto.
  const manifestUrl = await page.locator('link[rel="manifest"]').getAttribute('href');
  const manifest = (await (await fetch(new URL(manifestUrl!, gateway.baseUrl))).json()) as { name: string; icons: { src: string; type: string; purpose: string }[]; protocol_handlers: { protocol: string; url: string }[] };
  expect(manifest.name).toBe('Tern Mail');
  expect(manifest.icons.some((icon) => icon.type === 'image/png' && icon.purpose === 'maskable')).toBe(true);
  for (const icon of manifest.icons.filter((one) => one.type === 'image/png')) {
    const bytes = Buffer.from(await (await fetch(new URL(icon.src, gateway.baseUrl))).arrayBuffer());
    expect(bytes.subarray(1, 4).toString('ascii')).toBe('PNG');
  }
  expect(manifest.protocol_handlers).toEqual([{ protocol: 'mailto', url: '/compose?uri=%s' }]);
  await expect(page.locator('meta[name="theme-color"]').count()).resolves.toBe(2);

  // On a secure origin (127.0.0.1 is one) the default-mail dialog asks the browser, and says only that it asked.
  await page.goto(`${gateway.baseUrl}/settings/apps`);
  await page.getByRole('button', { name: 'Use Tern Mail for email links…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Open email links in Tern Mail' });
  await dialog.getByRole('button', { name: 'Use Tern Mail for email links' }).click();
  await dialog.getByRole('status').filter({ hasText: 'Your browser has been asked.' }).waitFor();
  await screenshot(page, 'offline-default-mail-asked');
  await dialog.getByRole('button', { name: 'Close', exact: true }).first().click();
  await page.getByRole('button', { name: 'Back to mail' }).click();
  await mail.waitForRows();

  // The service worker takes this page (the first install claims it: no reload needed).
  // Its install fetches the whole build (about 1.4 MB) first: on a loaded 2-core machine that took over 15 s once.
  const firstVersion = await eventually(() => controllerVersion(page), 45_000, 'a service worker controlling the page');

  // A deploy: a new sw.js (a new build's file list). The worker installs and waits; the page offers Reload.
  const swPath = join(gateway.publicDir, 'build', 'sw.js');
  const original = await readFile(swPath, 'utf8');
  await writeFile(swPath, original.replace(/"version":"([0-9a-f]+)"/, '"version":"$1-next"'));
  await Promise.all(['.br', '.gz'].map((extension) => rm(swPath + extension, { force: true })));
  await page.evaluate('navigator.serviceWorker.getRegistration().then((registration) => registration.update())');
  const banner = page.getByRole('status').filter({ hasText: 'A new version is ready.' });
  await banner.waitFor({ timeout: 15_000 });
  // Until then the old version still serves this tab: nothing mixes.
  await expect(controllerVersion(page)).resolves.toBe(firstVersion);
  await screenshot(page, 'offline-update-ready');
  await banner.getByRole('button', { name: 'Reload' }).click();
  await page.waitForEvent('load');
  await mail.waitForRows();
  await expect(eventually(() => controllerVersion(page), 15_000, 'the new version')).resolves.toBe(`${firstVersion}-next`);
  await expect(banner.count()).resolves.toBe(0);
});

test('recent mail kept offline; with the gateway down a reload shows the app, its mail and a message never opened', async () => {
  const { gateway } = own;
  const { page, mail } = tab;
  // Keep recent mail offline (Settings → Apps): the engine downloads the missing bodies, the page says when all are here.
  await page.goto(`${gateway.baseUrl}/settings/apps`);
  await page.getByRole('checkbox', { name: /^Keep recent mail on this device/ }).check();
  await page.getByRole('status').filter({ hasText: 'The last 30 days of mail are on this device.' }).waitFor({ timeout: 60_000 });
  // Further back: the choice is this browser's, and the engine fetches what the longer span adds.
  await page.getByLabel('How far back').selectOption({ label: 'The last 90 days' });
  await expect(page.evaluate(() => localStorage.getItem('tern.keepOffline'))).resolves.toBe('90');
  await page.getByRole('status').filter({ hasText: 'The last 90 days of mail are on this device.' }).waitFor({ timeout: 60_000 });
  await screenshot(page, 'offline-keep-recent-done');
  await page.getByRole('button', { name: 'Back to mail' }).click();
  await mail.waitForRows();

  // The gateway goes away; a reload still opens Tern with the mail the engine keeps.
  const firstRow = await mail.threadList().locator('[role="option"]:not([aria-disabled="true"])').first().getAttribute('aria-label');
  await gateway.halt();
  await expect(fetch(gateway.baseUrl).then(() => 'answered', () => 'refused')).resolves.toBe('refused');
  await page.reload();
  await mail.waitForRows();
  await expect(mail.threadList().locator('[role="option"]:not([aria-disabled="true"])').first().getAttribute('aria-label')).resolves.toBe(firstRow);
  await expect(page.title()).resolves.toMatch(/Tern Mail/);
  await screenshot(page, 'offline-gateway-down');
  // A message never opened here reads offline: its body was downloaded ahead.
  await mail.threadList().locator('[role="option"][aria-posinset="3"]').click();
  const pane = page.getByRole('region', { name: 'Conversation' });
  await pane.locator('.tern-message-content:not([hidden])').first().waitFor();
  await expect.poll(() => pane.locator('.tern-body-loading').count(), { timeout: 10_000 }).toBe(0);
  await expect(pane.locator('.tern-body-error').count()).resolves.toBe(0);
  await screenshot(page, 'offline-prefetched-message');
});

test('written with the gateway down, a message waits and leaves when it is back', { timeout: 120_000 }, async () => {
  const { gateway } = own;
  const { page } = tab;
  // Written with the gateway down: the message waits in the engine's outbox and leaves when the gateway is back.
  // The engine knows it is offline (the page's banner says so) …
  await page.getByRole('status').filter({ hasText: 'You’re offline.' }).first().waitFor();
  const subject = `Written offline ${Date.now().toString(36)}`;
  await page.getByRole('button', { name: 'Compose' }).click();
  const box = page.getByRole('form').filter({ has: page.getByRole('textbox', { name: 'Message body' }) });
  await box.getByRole('combobox', { name: 'To' }).fill(bob.email);
  await box.getByRole('combobox', { name: 'To' }).press('Enter');
  await box.getByLabel('Subject').fill(subject);
  await box.getByRole('textbox', { name: 'Message body' }).fill('Written while the server was away.');
  await box.getByRole('button', { name: 'Send' }).click();
  // … so the page says at once that the mail waits, not "sent" and not after a try that an
  // engine in its offline backoff may not make for half a minute.
  await page.getByRole('region', { name: 'Notifications' }).getByText('You’re offline. It is kept on this device and goes when you’re back online.', { exact: true }).waitFor({ timeout: 10_000 });
  await box.waitFor({ state: 'detached' });
  await screenshot(page, 'offline-sent-waiting');
  await expect(imapSubjects(demo.mail.host, demo.mail.imap, bob, 'INBOX')).resolves.not.toContain(subject);
  await gateway.resume();
  await eventually(async () => (await imapSubjects(demo.mail.host, demo.mail.imap, bob, 'INBOX')).includes(subject), 90_000, "the mail written offline in Bob's inbox");
  await page.getByRole('status').filter({ hasText: 'Message sent' }).waitFor();
});
