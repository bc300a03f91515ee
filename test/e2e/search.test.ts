/**
 * The search box against the demo (real gateway, Dovecot, Postfix, SharedWorker engine,
 * Chromium): its name and landmark, `/` and Escape, one account or all, the operator
 * list, and a query the gateway would refuse said by name instead of "No results".
 */
import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { launchChromium, screenshot } from './chromium';
import { addAccount, literal, logIn, newDemoContext, rowNames, watch, type Watched } from './demo-session';
import type { MailPage } from './mail-page';

const baseUrl = inject('baseUrl');
const demo = inject('demo');
const { alice, bob } = demo;
/** The thread Alice started and Bob answered: Bob's answer is in her inbox, his own copy in his Sent. */
const lunch = demo.probes.lunch;
const stamp = lunch.split(' ').at(-1)!;

let browser: Browser;
let tab: Watched;
let page: Page;
let mail: MailPage;
let box: Locator;

const query = () => page.evaluate(() => new URL(location.href).searchParams.get('q'));
/** The accounts rows belong to (a row's name ends with "in <address>" when several accounts are searched). */
const accountsShown = (names: readonly string[]) => new Set(names.map((name) => name.split(' in ').at(-1)));
const focused = (locator: Locator) => locator.evaluate((element) => element === document.activeElement);

beforeAll(async () => {
  browser = await launchChromium();
  const context = await newDemoContext(browser);
  tab = watch(await context.newPage());
  ({ page, mail } = tab);
  await logIn(page, baseUrl, alice);
  await addAccount(page, bob);
  await page.getByRole('link', { name: /^All inboxes/ }).click();
  await page.getByRole('listbox', { name: 'All inboxes' }).waitFor();
  await mail.waitForRows();
  // Found as a person with a screen reader finds it: a search landmark holding a named searchbox.
  box = page.getByRole('search').getByRole('searchbox', { name: /search/i });
});
afterAll(async () => {
  await browser?.close();
});

test('the box has a name and a landmark; `/` focuses it; from:bob subject: finds Bob’s answer; the scope selector searches one account or all', async () => {
  await expect(box.count()).resolves.toBe(1);
  await mail.threadList().focus();
  await page.keyboard.press('/');
  await expect.poll(() => focused(box)).toBe(true);

  await page.keyboard.type(`from:bob subject:${stamp}`, { delay: 15 });
  await page.getByRole('listbox', { name: 'Search results' }).waitFor();
  await expect.poll(query).toBe(`from:bob subject:${stamp}`);
  // Bob's answer sits in Alice's inbox; Bob's inbox holds only her question (not from him).
  await expect.poll(() => rowNames(page)).toEqual([expect.stringMatching(new RegExp(`${literal(stamp).source}.*in ${literal(alice.email).source}$`))]);
  await expect(page.getByRole('alert').filter({ hasText: /search operator|not valid|not closed/ }).count()).resolves.toBe(0);
  // Far under the 1,000-match limit: no "newest 1,000 matches" line (search-cut.test.tsx shows it for a cut search).
  await expect(page.getByRole('status').filter({ hasText: /newest .* matches/ }).count()).resolves.toBe(0);

  // Without from:, both accounts hold the thread.
  await box.fill(`subject:${stamp}`);
  await expect.poll(async () => accountsShown(await rowNames(page)).size).toBe(2);
  for (const name of await rowNames(page)) expect(name).toMatch(literal(stamp));
  // One account: the scope selector narrows the same query to it, and back to all.
  const scope = page.getByRole('search').getByRole('combobox', { name: 'Search in' });
  for (const email of [alice.email, bob.email]) {
    await scope.selectOption({ label: email });
    await expect.poll(async () => [...accountsShown(await rowNames(page))]).toEqual([email]);
  }
  await scope.selectOption({ label: 'All accounts' });
  await expect.poll(async () => accountsShown(await rowNames(page)).size).toBe(2);
  await screenshot(page, 'search-operators-results');
});

test('an unknown operator, a bad value or an open quote is said by name (role=alert), the query kept as typed', async () => {
  const cases: [string, RegExp][] = [
    ['foo:bar', /“foo:” is not a search operator/],
    ['invoice before:notadate', /“before:notadate” is not valid: before: takes a date/],
    ['larger:abc', /“larger:” is not a search operator/],
    ['subject:"lunch plans', /quote after “subject:” is not closed/],
  ];
  for (const [text, said] of cases) {
    await box.fill('');
    await box.pressSequentially(text, { delay: 10 });
    const alert = page.getByRole('alert').filter({ hasText: said });
    await alert.waitFor();
    await expect(box.inputValue()).resolves.toBe(text);
    await expect(box.getAttribute('aria-invalid')).resolves.toBe('true');
    await expect.poll(query).toBe(text);
    // The results area says it cannot search, not "No results".
    await page.getByText(`Can’t search for “${text}”`).waitFor();
    await expect(page.getByText(/^No results/).count()).resolves.toBe(0);
    if (text === 'foo:bar') {
      await expect(alert.textContent()).resolves.toContain('foo');
      await screenshot(page, 'search-error-unknown-operator');
    }
  }
  // Fixed, it searches again and the alert goes.
  await box.fill(`from:bob subject:${stamp}`);
  await mail.waitForRows();
  await expect.poll(() => page.getByRole('alert').filter({ hasText: /search operator|not valid|not closed/ }).count()).toBe(0);
  expect(tab.errors).toEqual([]);
});

test('the operator list opens from the keyboard and writes the operator into the box', async () => {
  await box.fill('');
  const help = page.getByRole('search').getByRole('button', { name: 'Search operators' });
  await help.focus();
  await page.keyboard.press('Enter');
  const menu = page.getByRole('menu', { name: 'Search operators' });
  await menu.waitFor();
  await expect(menu.getByRole('menuitem').allTextContents()).resolves.toEqual([
    expect.stringMatching(/^from:/),
    expect.stringMatching(/^to:/),
    expect.stringMatching(/^subject:/),
    expect.stringMatching(/^has:/),
    expect.stringMatching(/^is:/),
    expect.stringMatching(/^in:/),
    expect.stringMatching(/^label:/),
    expect.stringMatching(/^after:/),
    expect.stringMatching(/^before:/),
  ]);
  await screenshot(page, 'search-operator-list');
  await page.keyboard.press('i'); // type-ahead: is:
  await page.keyboard.press('Enter');
  await expect.poll(() => box.inputValue()).toBe('is:');
  await expect.poll(() => focused(box)).toBe(true);
  await page.keyboard.type('unread');
  await expect.poll(query).toBe('is:unread');
  await mail.waitForRows();
  // Escape in the open list closes it and gives the focus back to its button.
  await help.click();
  await menu.waitFor();
  await page.keyboard.press('Escape');
  await expect(menu.count()).resolves.toBe(0);
  await expect.poll(() => focused(help)).toBe(true);
});

test('Escape leaves the search: the mailbox comes back and the focus is on its list', async () => {
  await box.fill(`from:bob subject:${stamp}`);
  await expect.poll(query).toBe(`from:bob subject:${stamp}`);
  await box.focus();
  await page.keyboard.press('Escape');
  await page.getByRole('listbox', { name: 'All inboxes' }).waitFor();
  await expect.poll(query).toBeNull();
  await expect(box.inputValue()).resolves.toBe('');
  await expect.poll(() => focused(mail.threadList())).toBe(true);
  // `/` returns to the box from there.
  await page.keyboard.press('/');
  await expect.poll(() => focused(box)).toBe(true);
  expect(tab.errors).toEqual([]);
});

test('the server’s search ("Search the server for more", server=1): the gateway answers the same query, and the line above the results says so', async () => {
  await box.fill(`subject:${stamp}`);
  await expect.poll(async () => accountsShown(await rowNames(page)).size).toBe(2);
  // The offer itself shows only past 1,000 matches (search-cut.test.tsx); the demo holds 500 messages, so the address asks.
  const url = new URL(page.url());
  url.searchParams.set('server', '1');
  await page.goto(url.toString());
  await page.getByRole('status').filter({ hasText: 'Results of the server’s search' }).waitFor();
  await expect.poll(async () => accountsShown(await rowNames(page)).size).toBe(2);
  for (const name of await rowNames(page)) expect(name).toMatch(literal(stamp));
  await screenshot(page, 'search-server-results');
  // A new query is the cache's again.
  await box.fill(`from:bob subject:${stamp}`);
  await expect.poll(query).toBe(`from:bob subject:${stamp}`);
  await expect.poll(() => page.evaluate(() => new URL(location.href).searchParams.get('server'))).toBeNull();
  await expect(page.getByRole('status').filter({ hasText: 'Results of the server’s search' }).count()).resolves.toBe(0);
  expect(tab.errors).toEqual([]);
});
