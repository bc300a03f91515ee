/**
 * The mail UI end to end on the demo setup, continued (see mail-flows.test.ts): two tabs
 * on one shared engine, and the hostile HTML message delivered to Alice at setup, which
 * must run no script and fetch nothing.
 */
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import type { Browser, BrowserContext, CDPSession } from 'playwright-core';
import { launchChromium, screenshot } from './chromium';
import { trackerRequests } from './demo-setup';
import { accountSection, addAccount, eventually, folderLink, literal, logIn, newDemoContext, openFolder, rowWith, unreadOf, watch, type Watched } from './demo-session';

const baseUrl = inject('baseUrl');
const demo = inject('demo');
const { alice, bob } = demo;

let browser: Browser;
let context: BrowserContext;
let first: Watched;
/** Requests any page or frame of the context made (the shared worker's own are not reported here). */
const requests: string[] = [];

beforeAll(async () => {
  browser = await launchChromium();
  context = await newDemoContext(browser);
  context.on('request', (request) => requests.push(request.url()));
  first = watch(await context.newPage());
  // Bob only, this time: Alice is added from the second tab.
  await logIn(first.page, baseUrl, bob);
});
afterAll(async () => {
  await browser?.close();
});

async function sharedWorkers(cdp: CDPSession): Promise<{ url: string }[]> {
  const { targetInfos } = (await cdp.send('Target.getTargets')) as { targetInfos: { type: string; url: string }[] };
  return targetInfos.filter((target) => target.type === 'shared_worker');
}

describe('many tabs, one engine', () => {
  test('8. a second tab shows the inbox from the shared engine, and changes in one tab show in the other at once', async () => {
    const cdp = await browser.newBrowserCDPSession();
    expect(await sharedWorkers(cdp)).toHaveLength(1);
    const workerUrl = (await sharedWorkers(cdp))[0]!.url;
    expect(workerUrl).toMatch(new RegExp(`^${literal(baseUrl).source}/build/worker-`));

    const started = performance.now();
    const second = watch(await context.newPage());
    await second.page.goto(baseUrl);
    await second.mail.waitForRows();
    const secondRowsMs = performance.now() - started;
    // Still the one engine: the tab attached to it rather than starting (and syncing) its own.
    expect(await sharedWorkers(cdp)).toEqual([expect.objectContaining({ url: workerUrl })]);
    // Bob's mail is there at once, with the same count as in the first tab.
    await expect.poll(() => unreadOf(folderLink(second.page, bob.email, 'Inbox'))).toBe(await unreadOf(folderLink(first.page, bob.email, 'Inbox')));
    console.log(`[tabs] second tab: inbox rows ${Math.round(secondRowsMs)} ms after opening`);
    await screenshot(second.page, 'flow-second-tab');

    // The first tab shows one of Bob's folders; the second adds Alice. The first tab gets
    // her account, her folders and her counts when her first sync ends, though no list it
    // shows changes (it used to keep an empty folder list for her).
    await first.page.bringToFront();
    await openFolder(first.page, bob.email, 'Spam');
    await second.page.bringToFront();
    await addAccount(second.page, alice);
    await accountSection(first.page, alice.email).waitFor();
    const aliceInbox = await eventually(() => unreadOf(folderLink(first.page, alice.email, 'Inbox')), 15_000, "Alice's folders and inbox count in the first tab");
    await eventually(async () => (await unreadOf(folderLink(first.page, alice.email, 'Spam'))) > 0, 15_000, "Alice's Spam count in the first tab");
    await expect.poll(() => unreadOf(folderLink(second.page, alice.email, 'Inbox'))).toBe(aliceInbox);
    expect(await sharedWorkers(cdp)).toHaveLength(1);
    await screenshot(first.page, 'flow-tabs-account-added-elsewhere');
    await first.page.bringToFront();
    await first.mail.sidebar().getByRole('link', { name: /^All inboxes/ }).click();
    await first.page.getByRole('listbox', { name: 'All inboxes' }).waitFor();
    await first.mail.waitForRows();

    // Star in the first tab (toolbar) → starred in the second.
    const target = rowWith(first.page, demo.probes.toBob);
    const twin = rowWith(second.page, demo.probes.toBob);
    await expect(twin.getAttribute('aria-label')).resolves.toMatch(/^Unread, /);
    await expect(twin.getAttribute('aria-label')).resolves.not.toMatch(/Starred/);
    // The tab a person acts in is the visible one (a hidden tab's animation frames are throttled).
    await first.page.bringToFront();
    const bobAtStart = await unreadOf(folderLink(first.page, bob.email, 'Inbox'));
    await target.click();
    await first.page.getByRole('region', { name: /^Conversation: / }).waitFor();
    // Opening it read it: Bob's count drops in both tabs.
    await expect.poll(() => unreadOf(folderLink(first.page, bob.email, 'Inbox')), { timeout: 5_000 }).toBe(bobAtStart - 1);
    await expect.poll(() => unreadOf(folderLink(second.page, bob.email, 'Inbox')), { timeout: 5_000 }).toBe(bobAtStart - 1);
    const pressed = performance.now();
    await first.mail.toolbarButton('Add star').click();
    const isStarred = (subject: string) =>
      [...document.querySelectorAll('[role="option"]')].some((row) => row.getAttribute('aria-label')?.includes(subject) && /(^|, )Starred, /.test(row.getAttribute('aria-label') ?? ''));
    const inFirst = first.page.waitForFunction(isStarred, demo.probes.toBob, { polling: 'raf', timeout: 5_000 }).then(() => performance.now() - pressed);
    // The other tab is hidden: poll on a timer, not on its (throttled) animation frames.
    await second.page.waitForFunction(isStarred, demo.probes.toBob, { polling: 25, timeout: 5_000 });
    console.log(`[tabs] star clicked in tab 1: shown there after ${Math.round(await inFirst)} ms`);
    console.log(`[tabs] star in tab 1 → shown in tab 2 after ${Math.round(performance.now() - pressed)} ms`);

    // Read in the second tab (opening an unread thread of Bob's) → read in the first, and Bob's count drops.
    const probes = Object.values(demo.probes);
    // One both virtual lists hold now: the first tab has a conversation open beside its list,
    // so its window of rows need not reach as far down as the second tab's.
    const rowsOf = (tab: Watched) =>
      tab.mail
        .threadList()
        .locator('[role="option"]:not([aria-disabled="true"])').evaluateAll((rows) => rows.map((row) => ({ id: row.id, name: row.getAttribute('aria-label') ?? '' })));
    const inFirstTab = new Set((await rowsOf(first)).map((row) => row.id));
    const candidate = (await rowsOf(second)).find(
      ({ id, name }) => inFirstTab.has(id) && name.startsWith('Unread, ') && name.endsWith(`in ${bob.email}`) && !probes.some((probe) => name.includes(probe)),
    );
    expect(candidate, "an unread thread of Bob's in both tabs' lists").toBeDefined();
    const rowId = candidate!.id;
    const unread = second.mail.threadList().locator(`[id="${rowId}"]`);
    // The same thread's row in the first tab (rows are identified by account and thread).
    const nameInFirst = () => first.page.locator(`[id="${rowId}"]`).getAttribute('aria-label');
    await expect(nameInFirst()).resolves.toMatch(/^Unread, /);
    const bobBefore = await unreadOf(folderLink(first.page, bob.email, 'Inbox'));
    await second.page.bringToFront();
    await unread.click();
    await second.page.getByRole('region', { name: /^Conversation: / }).waitFor();
    const opened = performance.now();
    await expect.poll(nameInFirst, { timeout: 5_000, interval: 25 }).not.toMatch(/^Unread, /);
    console.log(`[tabs] read in tab 2 → shown in tab 1 after ${Math.round(performance.now() - opened)} ms`);
    await expect.poll(() => unreadOf(folderLink(first.page, bob.email, 'Inbox')), { timeout: 5_000 }).toBe(bobBefore - 1);

    // And back: mark unread with the keyboard (Shift+U) in the first tab → unread again in the second.
    await first.page.bringToFront();
    await first.page.locator(`[id="${rowId}"]`).click();
    await first.page.getByRole('region', { name: /^Conversation: / }).waitFor();
    await first.mail.threadList().focus();
    await first.page.keyboard.press('Shift+U');
    await expect.poll(() => second.page.locator(`[id="${rowId}"]`).getAttribute('aria-label'), { timeout: 5_000, interval: 25 }).toMatch(/^Unread, /);
    // And it stays unread, though it is open in the first tab (the open thread used to be read again at once).
    await first.page.waitForTimeout(1_500);
    await expect(first.page.locator(`[id="${rowId}"]`).getAttribute('aria-label')).resolves.toMatch(/^Unread, /);
    await expect(second.page.locator(`[id="${rowId}"]`).getAttribute('aria-label')).resolves.toMatch(/^Unread, /);
    await expect.poll(() => unreadOf(folderLink(second.page, bob.email, 'Inbox')), { timeout: 5_000 }).toBe(bobBefore);
    await screenshot(first.page, 'flow-tabs-first');
    await screenshot(second.page, 'flow-tabs-second');

    expect(await sharedWorkers(cdp)).toHaveLength(1);
    await cdp.detach();
    expect(first.errors).toEqual([]);
    expect(second.errors).toEqual([]);
    await second.page.close();
  });
});

describe('hostile HTML mail', () => {
  test('9. runs no script (page and frames), opens no dialog, and fetches nothing', async () => {
    const tracker = `127.0.0.1:${demo.tracker.port}`;
    expect(trackerRequests(demo.tracker.logFile), 'the tracker before the test').toEqual([]);
    const { page, mail, errors } = watch(await context.newPage());
    const dialogs: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    const seen: string[] = [];
    page.on('request', (request) => seen.push(request.url()));
    await page.goto(baseUrl);
    await mail.waitForRows();

    await rowWith(page, demo.probes.hostile).click();
    const conversation = page.getByRole('region', { name: `Conversation: ${demo.probes.hostile}` });
    await conversation.waitFor();
    const frame = conversation.getByTitle('Message from Parcel Service');
    await frame.waitFor();
    expect((await frame.getAttribute('sandbox'))?.split(/\s+/)).not.toContain('allow-scripts');
    const body = frame.contentFrame();
    await body.getByText('Your parcel is waiting').waitFor();
    // The remote images are held back, and the reader is told so.
    // (Three: the <img>, the inline style's background and the <style> sheet's; src=x is not remote.)
    await conversation.getByRole('region', { name: 'Remote images blocked' }).getByText('3 remote images are hidden', { exact: false }).waitFor();
    await expect(conversation.getByRole('button', { name: 'Show images' }).count()).resolves.toBe(1);
    // Give anything that would load or run time to do so.
    await page.waitForTimeout(1_500);
    await screenshot(page, 'flow-hostile-message');

    // No script ran: not in the page, not in any frame (read through the same-origin frame from the page too).
    expect(await page.evaluate(() => (window as { __pwned?: unknown }).__pwned)).toBeUndefined();
    const inFrames = await page.evaluate(() =>
      [...document.querySelectorAll('iframe')].map((element) => {
        const win = element.contentWindow as (Window & { __pwned?: unknown }) | null;
        return { title: element.title, pwned: win ? String(win.__pwned) : 'no window', scripts: element.contentDocument?.querySelectorAll('script').length ?? -1 };
      }),
    );
    expect(inFrames.length).toBeGreaterThan(0);
    for (const inFrame of inFrames) expect(inFrame).toEqual({ title: inFrame.title, pwned: 'undefined', scripts: 0 });
    for (const child of page.frames()) {
      const value = await child.evaluate(() => String((window as { __pwned?: unknown }).__pwned)).catch((error: unknown) => `evaluate failed: ${String(error)}`);
      if (!value.startsWith('evaluate failed')) expect(value, `__pwned in ${child.url()}`).toBe('undefined');
    }
    // Nothing that could run is left in the mail's document.
    await expect(body.locator('script, [onerror], [onload]').count()).resolves.toBe(0);
    expect(dialogs).toEqual([]);

    // Nothing was fetched: the tracker saw nothing, and no page or frame asked for it.
    expect(trackerRequests(demo.tracker.logFile)).toEqual([]);
    expect(seen.filter((url) => url.includes(tracker))).toEqual([]);
    expect(requests.filter((url) => url.includes(tracker))).toEqual([]);
    // Everything the page did fetch came from the gateway itself.
    expect(seen.filter((url) => !url.startsWith(baseUrl) && !url.startsWith('data:') && !url.startsWith('blob:') && url !== 'about:srcdoc')).toEqual([]);
    expect(errors.filter((error) => !/Content Security Policy/.test(error))).toEqual([]);

    // The tracker does record requests (so the empty log above means something).
    await fetch(`http://${tracker}/control.png`);
    expect(trackerRequests(demo.tracker.logFile)).toHaveLength(1);
    await page.close();
  });
});
