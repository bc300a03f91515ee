/**
 * People's names against the demo (real gateway, Dovecot, SharedWorker engine, Chromium):
 * a "Last, First" display name ("Smith, John", in the seeded corpus) reads as "John" in a
 * thread row's sender list and in a message header's recipients, never as "Smith," beside
 * the list's own commas ("Smith,, me (2)", "to Karen, Siobhán, Smith,").
 */
import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchChromium, screenshot } from './chromium';
import { logIn, newDemoContext, watch, type Watched } from './demo-session';
import type { MailPage } from './mail-page';

const baseUrl = inject('baseUrl');
const { alice } = inject('demo');

let browser: Browser;
let tab: Watched;
let page: Page;
let mail: MailPage;

/** A list or header cut wrongly: a doubled comma, a comma before the count, a trailing comma. */
const BROKEN = /,,|, \(|,$/;

const senderLabels = () => mail.threadList().locator('.row-senders').allTextContents();

/** Searches, then waits for the results: the list keeps the last rows (aria-busy) until they arrive. */
async function search(query: string): Promise<void> {
  const before = (await senderLabels()).join('|');
  const box = page.getByRole('search').getByRole('searchbox', { name: /search/i });
  await box.fill(query);
  await expect.poll(() => page.evaluate(() => new URL(location.href).searchParams.get('q'))).toBe(query);
  await mail.waitForRows();
  await expect
    .poll(async () => (await mail.threadList().getAttribute('aria-busy')) !== 'true' && (await senderLabels()).join('|') !== before, { timeout: 10_000 })
    .toBe(true);
}

beforeAll(async () => {
  browser = await launchChromium();
  tab = watch(await (await newDemoContext(browser)).newPage());
  ({ page, mail } = tab);
  await logIn(page, baseUrl, alice);
});
afterAll(async () => {
  await browser?.close();
});

test('thread rows: "Smith, John" alone is the full name, among others it is "John"', async () => {
  await search('from:john.smith');
  const labels = await senderLabels();
  expect(labels.length).toBeGreaterThan(0);
  for (const label of labels) {
    expect(label).not.toMatch(BROKEN);
    // One sender: the full name as written; several: short names, so "Smith" never stands alone.
    if (label.includes('Smith')) expect(label).toMatch(/^Smith, John( \(\d+\))?$/);
    else expect(label).toMatch(/\bJohn\b/);
  }
  await screenshot(page, 'person-names-rows');
  expect(tab.errors).toEqual([]);
});

test('message headers: recipients by short name, with no comma left hanging', async () => {
  await search('to:john.smith');
  await mail.threadList().locator('[role="option"]').first().click();
  const subs = page.locator('.tern-message-sub').filter({ hasText: /^to / });
  await subs.first().waitFor();
  const lines = await subs.allTextContents();
  for (const line of lines) {
    expect(line).not.toMatch(BROKEN);
    if (line.includes('Smith')) expect(line).toBe('to Smith, John');
  }
  await screenshot(page, 'person-names-header');
  expect(tab.errors).toEqual([]);
});
