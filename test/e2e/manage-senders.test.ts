/**
 * Manage senders end to end on the demo (issue 17 point 2), one page load: the senders of the
 * cached mail across Alice's accounts, most mail first, with their counts and which can be
 * unsubscribed; the filter; unsubscribing asks first and says how (one click, RFC 8058) and
 * Cancel leaves it; "Archive all" runs over the sender's conversations with a confirmation
 * whose Undo puts them back (the count returns); Block blocks on the account with Undo.
 * Photographed at 1366×768 and 390×844, light and dark. Shared state is put back in afterAll
 * (it runs even when a test fails): the sender unblocked through Settings → Blocklist.
 */
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { photographThemes } from './chromium';
import { eventually, startInInbox, type Watched } from './demo-session';

const baseUrl = inject('baseUrl');
const { alice } = inject('demo');

let browser: Browser;
let tab: Watched;
let page: Page;
let blocked: string | null = null;

beforeAll(async () => {
  ({ browser, tab, page } = await startInInbox(baseUrl, alice));
});

afterAll(async () => {
  if (blocked && page) {
    await page.goto(`${baseUrl}/settings/allow-block`);
    await page.getByRole('heading', { name: 'Blocked senders', level: 3 }).waitFor();
    const unblock = page.getByRole('button', { name: `Remove: ${blocked}` });
    if (await unblock.count()) {
      await unblock.click();
      await unblock.waitFor({ state: 'detached' });
    }
  }
  await browser?.close();
});

const rows = () => page.locator('.senders-row');
const countOf = async (row: Locator) => Number(/(\d+) messages?/.exec((await row.locator('.senders-facts').textContent()) ?? '')?.[1] ?? NaN);

describe('manage senders', () => {
  test('senders by volume with their facts; unsubscribe asks first; archive all with Undo; block with Undo', async () => {
    await page.goto(`${baseUrl}/settings/manage-senders`);
    await page.getByRole('heading', { name: 'Manage senders', level: 2 }).waitFor();
    await rows().first().waitFor({ timeout: 20_000 });
    const counts = await Promise.all((await rows().all()).slice(0, 10).map(countOf));
    expect(counts.every((count, i) => i === 0 || count <= counts[i - 1]!), counts.join(',')).toBe(true);
    expect(counts[0]).toBeGreaterThan(1);

    // A newsletter of the demo (List-Unsubscribe with One-Click): the biggest one that offers it.
    const newsletter = rows().filter({ hasText: 'Can unsubscribe' }).first();
    const email = (await newsletter.locator('.senders-email').textContent()) ?? (await newsletter.locator('.senders-name').textContent())!;
    const before = await countOf(newsletter);
    await page.getByRole('searchbox', { name: 'Find a sender' }).fill(email);
    await eventually(async () => (await rows().count()) === 1, 5000, 'the filter leaving one sender');
    const row = rows().first();
    await photographThemes(page, 'manage-senders');

    await row.getByRole('button', { name: 'Unsubscribe', exact: true }).click();
    const ask = row.getByRole('group').filter({ hasText: 'one click, RFC 8058' });
    await ask.waitFor();
    expect(await ask.textContent()).toContain('https://');
    await row.getByRole('button', { name: 'Cancel', exact: true }).click();
    await ask.waitFor({ state: 'detached' });

    await row.getByRole('button', { name: 'Archive all', exact: true }).click();
    const done = page.getByText(/conversations? archived\./);
    await done.waitFor({ timeout: 20_000 });
    await page.getByRole('button', { name: 'Undo', exact: true }).click();
    await page.getByText('Action undone.').waitFor();
    let seen: number[] = [];
    await eventually(
      async () => {
        await page.getByRole('button', { name: 'Count again', exact: true }).click();
        seen.push((await rows().count()) === 1 ? await countOf(rows().first()) : -1);
        return seen.at(-1) === before;
      },
      30_000,
      `${email}'s ${before} messages back where they were`,
    ).catch((error: unknown) => {
      throw new Error(`${String(error)}; counts seen: ${seen.slice(-8).join(',')}`);
    });
    seen = [];

    blocked = email;
    await row.getByRole('button', { name: 'Block', exact: true }).click();
    await page.getByText(`${email} is blocked: new mail from them goes to Spam.`).waitFor();
    await page.getByRole('button', { name: 'Undo', exact: true }).click();
    await page.getByText(`${email} is no longer blocked.`).waitFor();
    blocked = null;
    expect(tab.errors).toEqual([]);
  });
});
