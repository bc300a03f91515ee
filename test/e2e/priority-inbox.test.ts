/**
 * Priority inbox end to end on the demo (issue 17 point 4). Alice turns it on; a mail from
 * Bob (she wrote to him: the demo's lunch question is in her Sent) and a newsletter (List-
 * Unsubscribe, an automatic address) arrive, the newsletter last. Her Inbox lists an
 * "Important" section first with Bob's mail in it, marked, and the newsletter under
 * "Everything else"; the engine's $Important is on the mail server (raw IMAP FETCH FLAGS).
 * The marker opens "Why is this important?" with the reasons. "Mark not important" (`-`)
 * moves Bob's mail down and takes the keyword off the server. Photographed at 1366×768 and
 * 390×844, light and dark. afterAll (which runs even when a test fails) puts Alice back:
 * her preferences as they were, and no $Important left that was not there before.
 */
import type { ImapFlow } from 'imapflow';
import { createTransport } from 'nodemailer';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { loginResponseSchema } from '../../shared/api/account';
import { photographThemes } from './chromium';
import { eventually, literal, openFolder, rowWith, startLoggedIn, withImapOf, type Watched } from './demo-session';

const baseUrl = inject('baseUrl');
const demo = inject('demo');
const { alice } = demo;
const stamp = Date.now().toString(36);
const FROM_BOB = `Priority probe budget ${stamp}`;
const NEWSLETTER = `Priority probe deals ${stamp}`;

let browser: Browser | undefined;
let tab: Watched;
let page: Page;
/** Alice's preferences of this feature before the file, put back after it. */
let before: Record<string, unknown> = {};
/** Per folder, the UIDs that had $Important before the file (a mark is on every message of a thread, wherever it is). */
const markedBefore = new Map<string, Set<number>>();

/** Every folder of Alice's that holds messages. */
async function foldersOf(client: ImapFlow): Promise<string[]> {
  return (await client.list()).filter((folder) => !folder.flags.has('\\Noselect')).map((folder) => folder.path);
}

async function aliceApi(method: string, path: string, body?: unknown): Promise<Response> {
  const login = await fetch(`${baseUrl}/api/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: alice.email, password: alice.password }) });
  const { token } = loginResponseSchema.parse(await login.json());
  return fetch(`${baseUrl}${path}`, { method, headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) }, ...(body ? { body: JSON.stringify(body) } : {}) });
}

const imap = <T,>(work: (client: ImapFlow) => Promise<T>) => withImapOf(demo.mail.host, demo.mail.imap, alice, work);

/** UIDs of a folder's messages with $Important (the server's own SEARCH KEYWORD). */
async function markedIn(client: ImapFlow, folder: string): Promise<number[]> {
  const lock = await client.getMailboxLock(folder);
  try {
    return (await client.search({ keyword: '$Important' }, { uid: true })) || [];
  } finally {
    lock.release();
  }
}

/** The flags another mail program sees on the INBOX message with this subject; null while there is none. */
async function flagsOf(subject: string): Promise<string[] | null> {
  return imap(async (client) => {
    const lock = await client.getMailboxLock('INBOX');
    try {
      const [uid] = (await client.search({ subject }, { uid: true })) || [];
      if (uid === undefined) return null;
      const message = await client.fetchOne(String(uid), { flags: true }, { uid: true });
      return message ? [...(message.flags ?? [])] : null;
    } finally {
      lock.release();
    }
  });
}

beforeAll(async () => {
  const prefs = (await (await aliceApi('GET', '/api/preferences')).json()) as { values: Record<string, unknown> };
  before = { priorityInbox: prefs.values.priorityInbox ?? false, priorityModel: prefs.values.priorityModel ?? null, priorityScoredThrough: prefs.values.priorityScoredThrough ?? 0 };
  await imap(async (client) => {
    for (const folder of await foldersOf(client)) markedBefore.set(folder, new Set(await markedIn(client, folder)));
  });
  const transport = createTransport({ host: demo.mail.host, port: demo.mail.smtp, secure: false, ignoreTLS: true });
  try {
    await transport.sendMail({ from: `Bob <${demo.bob.email}>`, to: alice.email, subject: FROM_BOB, text: 'Can you look at the budget before Friday?' });
    await transport.sendMail({
      from: 'Shop Deals <newsletter@shop.test>',
      to: alice.email,
      subject: NEWSLETTER,
      text: 'This week only.',
      headers: { 'List-Id': '<deals.shop.test>', 'List-Unsubscribe': '<https://shop.test/unsubscribe>', 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click', Precedence: 'bulk' },
    });
  } finally {
    transport.close();
  }
  for (const subject of [FROM_BOB, NEWSLETTER]) await eventually(async () => (await flagsOf(subject)) !== null, 30_000, `${subject} in INBOX`);
  const on = await aliceApi('PATCH', '/api/preferences', { values: { priorityInbox: true } });
  expect(on.status).toBe(200);
  ({ browser, tab, page } = await startLoggedIn(baseUrl, alice));
  await openFolder(page, alice.email, 'Inbox');
});

afterAll(async () => {
  await browser?.close();
  await aliceApi('PATCH', '/api/preferences', { values: before });
  // Whatever this file's engine marked important (the scan, or a test that failed half-way) is taken off again.
  await imap(async (client) => {
    for (const folder of await foldersOf(client)) {
      const added = (await markedIn(client, folder)).filter((uid) => !markedBefore.get(folder)?.has(uid));
      if (added.length === 0) continue;
      const lock = await client.getMailboxLock(folder);
      try {
        await client.messageFlagsRemove(added.join(','), ['$Important'], { uid: true });
      } finally {
        lock.release();
      }
    }
  });
});

const row = (subject: string): Locator => rowWith(page, literal(subject));
const positionOf = async (subject: string) => Number(await row(subject).getAttribute('aria-posinset'));
/** How many rows the Important section holds: the rows named "Important" first. */
const importantRows = () => page.locator('#thread-list [role="option"][aria-label^="Important,"]');

describe('priority inbox', () => {
  test('the Important section shows the mail from Bob, marked, above the newsletter; the mark is $Important on the server', async () => {
    await page.getByText('Important', { exact: true }).first().waitFor({ timeout: 30_000 });
    await eventually(async () => (await row(FROM_BOB).getAttribute('aria-label'))?.startsWith('Important,'), 30_000, 'Bob’s mail in the Important section');
    await page.getByText('Everything else', { exact: true }).waitFor();
    const newsletterName = (await row(NEWSLETTER).getAttribute('aria-label'))!;
    expect(newsletterName.startsWith('Important,')).toBe(false);
    // Newer, yet below: the section orders, it hides nothing.
    expect(await positionOf(FROM_BOB)).toBeLessThan(await positionOf(NEWSLETTER));
    expect(await positionOf(NEWSLETTER)).toBeGreaterThan(await importantRows().count());
    await row(FROM_BOB).getByRole('button', { name: 'Why is this important?' }).waitFor();
    await eventually(async () => (await flagsOf(FROM_BOB))?.includes('$Important'), 20_000, '$Important on Bob’s mail on the server');
    expect(await flagsOf(NEWSLETTER)).not.toContain('$Important');
    await photographThemes(page, 'priority-inbox');
    expect(tab.errors).toEqual([]);
  });

  test('“Why is this important?” on the marker shows the reasons, from the keyboard too', async () => {
    const marker = row(FROM_BOB).getByRole('button', { name: 'Why is this important?' });
    await marker.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Why this is important' });
    await dialog.waitFor();
    await dialog.getByText('It was sent to you directly, not as a copy.').waitFor();
    // Bob is someone Alice writes to (and answers): more than the one reason.
    expect(await dialog.getByRole('listitem').count()).toBeGreaterThan(1);
    await photographThemes(page, 'priority-why');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Why is this important?');
    expect(tab.errors).toEqual([]);
  });

  test('Mark not important (`-`) moves Bob’s mail under “Everything else” and takes $Important off the server', async () => {
    await row(FROM_BOB).locator('.row-subject').click();
    await page.getByRole('region', { name: `Conversation: ${FROM_BOB}` }).waitFor();
    await page.locator('body').press('-');
    await page.getByText('Conversation marked not important.').waitFor();
    await eventually(async () => !(await row(FROM_BOB).getAttribute('aria-label'))?.startsWith('Important,'), 10_000, 'Bob’s mail no longer important');
    await eventually(async () => (await positionOf(FROM_BOB)) > (await importantRows().count()), 10_000, 'Bob’s mail under Everything else');
    await eventually(async () => !(await flagsOf(FROM_BOB))?.includes('$Important'), 20_000, '$Important gone from the server');
    // The conversation's bar offers the mark back (at 390 px too, where it is the whole bar).
    await page.getByRole('button', { name: 'Mark important' }).waitFor();
    await photographThemes(page, 'priority-unmarked');
    expect(tab.errors).toEqual([]);
  });

  test('Settings → Priority inbox: on, the mark learned from, and “Reset what it learned”', async () => {
    await page.goto(`${baseUrl}/settings/priority`);
    await page.getByRole('heading', { name: 'Priority inbox', level: 2 }).waitFor();
    expect(await page.getByRole('checkbox', { name: 'Priority inbox' }).isChecked()).toBe(true);
    await page.getByText('Learned from 1 mark.').waitFor();
    await photographThemes(page, 'priority-settings');
    await page.getByRole('button', { name: 'Reset what it learned' }).click();
    await page.getByText('It forgot what it learned: the rules apply again.').waitFor();
    await page.getByText(/^Nothing learned from your marks yet/).waitFor();
    expect(tab.errors).toEqual([]);
  });
});
