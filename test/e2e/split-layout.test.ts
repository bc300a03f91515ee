/**
 * The list beside the reading pane (the conversation view) at laptop and half-screen widths,
 * on the demo setup: the divider between them resizes the list with the mouse and the keys
 * and is remembered by the browser; a window too narrow for both minimums (480 px pane,
 * 300 px list) shows the open thread over the whole mailbox, with Back to the list, instead
 * of a pane squeezed to a column.
 */
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { launchChromium, screenshot } from './chromium';
import { logIn, newDemoContext, watch, type Watched } from './demo-session';

const baseUrl = inject('baseUrl');
const { alice } = inject('demo');

let browser: Browser;
let context: BrowserContext;
let tab: Watched;
let page: Page;

beforeAll(async () => {
  browser = await launchChromium();
  context = await newDemoContext(browser);
  tab = watch(await context.newPage());
  ({ page } = tab);
  await page.setViewportSize({ width: 960, height: 700 });
  await logIn(page, baseUrl, alice);
});
afterAll(async () => {
  await browser?.close();
});

const width = async (locator: Locator): Promise<number> => (await locator.boundingBox())?.width ?? 0;
const divider = () => page.getByRole('separator', { name: 'Resize reading pane' });
const listBox = () => page.locator('.mailbox-list');
const pane = () => page.locator('.reading-pane');
const body = () => page.locator('.mailbox-body');

async function openFirstThread(): Promise<void> {
  await tab.mail.waitForRows();
  await tab.mail.row(0).click();
  await page.getByRole('region', { name: /^Conversation: / }).waitFor();
}

async function shoot(name: string): Promise<void> {
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    await page.waitForTimeout(150);
    await screenshot(page, `${name}-${colorScheme}`);
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

describe('split layout: the list beside the reading pane', () => {
  test('1. at 960 px (half a laptop screen) the open thread takes the whole mailbox, with Back to the list', async () => {
    await page.setViewportSize({ width: 960, height: 700 });
    await tab.mail.waitForRows();
    // No thread open: the list has the whole width, no empty pane beside it.
    await expect(divider().count()).resolves.toBe(0);
    const bodyWidth = await width(body());
    expect(await width(listBox())).toBeGreaterThanOrEqual(bodyWidth - 1);
    await expect(pane().count()).resolves.toBe(0);

    await openFirstThread();
    await expect(listBox().isHidden()).resolves.toBe(true);
    const paneWidth = await width(pane());
    expect(paneWidth).toBeGreaterThanOrEqual(480);
    expect(paneWidth).toBeGreaterThanOrEqual(bodyWidth - 1);
    await shoot('split-960-open');

    await page.getByRole('button', { name: 'Back to the list' }).click();
    await tab.mail.threadList().waitFor();
    await expect(pane().count()).resolves.toBe(0);
    expect(tab.errors).toEqual([]);
  });

  test('2. at 1280 px the divider resizes the list with the mouse and the keys, inside both minimums', async () => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await openFirstThread();
    const separator = divider();
    await separator.waitFor();
    await expect(separator.getAttribute('aria-orientation')).resolves.toBe('vertical');
    const bodyWidth = await width(body());
    const min = Number(await separator.getAttribute('aria-valuemin'));
    const max = Number(await separator.getAttribute('aria-valuemax'));
    expect(min).toBe(300);
    expect(max).toBe(Math.floor(bodyWidth) - 480);
    const start = Number(await separator.getAttribute('aria-valuenow'));
    expect(Math.abs((await width(listBox())) - start)).toBeLessThanOrEqual(1);
    expect(await width(pane())).toBeGreaterThanOrEqual(480);
    await shoot('split-1280-open');

    // The mouse: drag 80 px to the right.
    const grip = await separator.boundingBox();
    if (!grip) throw new Error('no divider box');
    await page.mouse.move(grip.x + grip.width / 2, grip.y + 200);
    await page.mouse.down();
    await page.mouse.move(grip.x + grip.width / 2 + 40, grip.y + 200, { steps: 4 });
    await page.mouse.move(grip.x + grip.width / 2 + 80, grip.y + 200, { steps: 4 });
    await page.mouse.up();
    const dragged = Number(await separator.getAttribute('aria-valuenow'));
    expect(dragged).toBe(Math.min(max, start + 80));
    expect(Math.abs((await width(listBox())) - dragged)).toBeLessThanOrEqual(1);
    // The virtual list's rows follow the list's width (absolutely placed rows, not measured once).
    expect(Math.abs((await width(tab.mail.row(0))) - (await width(tab.mail.threadList())))).toBeLessThanOrEqual(1);

    // The keys: the divider has the focus after the drag; Left twice is 32 px narrower.
    await expect(separator.evaluate((element) => element === document.activeElement)).resolves.toBe(true);
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    await expect(separator.getAttribute('aria-valuenow')).resolves.toBe(String(dragged - 32));
    await page.keyboard.press('Home');
    await expect(separator.getAttribute('aria-valuenow')).resolves.toBe('300');
    expect(Math.abs((await width(listBox())) - 300)).toBeLessThanOrEqual(1);
    await page.keyboard.press('End');
    await expect(separator.getAttribute('aria-valuenow')).resolves.toBe(String(max));
    expect(await width(pane())).toBeGreaterThanOrEqual(479);
    // Dragging past the end stops at the pane's minimum.
    const end = await separator.boundingBox();
    if (!end) throw new Error('no divider box');
    await page.mouse.move(end.x, end.y + 200);
    await page.mouse.down();
    await page.mouse.move(end.x + 300, end.y + 200, { steps: 5 });
    await page.mouse.up();
    await expect(separator.getAttribute('aria-valuenow')).resolves.toBe(String(max));
    // The arrow keys on the divider do not reach the mailbox's shortcuts (the thread stays open).
    await page.keyboard.press('ArrowLeft');
    await expect(separator.getAttribute('aria-valuenow')).resolves.toBe(String(max - 16));
    await page.getByRole('region', { name: /^Conversation: / }).waitFor();
    expect(tab.errors).toEqual([]);
  });

  test('3. the width is remembered across a reload, and gives way (not the pane) in a narrower window', async () => {
    await page.setViewportSize({ width: 1280, height: 800 });
    const separator = divider();
    await separator.focus();
    await page.keyboard.press('Home');
    for (let step = 0; step < 5; step++) await page.keyboard.press('ArrowRight');
    await expect(separator.getAttribute('aria-valuenow')).resolves.toBe('380');
    await expect(page.evaluate(() => localStorage.getItem('tern.listWidth'))).resolves.toBe('380');

    await page.reload();
    await tab.mail.waitForRows();
    await page.getByRole('region', { name: /^Conversation: / }).waitFor();
    await expect(divider().getAttribute('aria-valuenow')).resolves.toBe('380');
    expect(Math.abs((await width(listBox())) - 380)).toBeLessThanOrEqual(1);

    // 1100 px: a 820 px mailbox, so the list gives way to keep the pane at 480.
    await page.setViewportSize({ width: 1100, height: 800 });
    await expect.poll(async () => divider().getAttribute('aria-valuenow')).toBe(String(Math.floor(await width(body())) - 480));
    expect(await width(pane())).toBeGreaterThanOrEqual(479);
    // Wide again: the chosen 380 px is back.
    await page.setViewportSize({ width: 1440, height: 900 });
    await expect.poll(async () => divider().getAttribute('aria-valuenow')).toBe('380');
    await shoot('split-1440-open');
    expect(tab.errors).toEqual([]);
  });
});
