/**
 * Helpers for the e2e flows against the demo (global-setup.ts + demo-setup.ts): a
 * Chromium context logged in to both demo accounts through the real login screen, rows
 * found by their accessible names, and a look at the mail server itself over IMAP.
 */
import { ImapFlow } from 'imapflow';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import type { E2eLogin } from './demo-setup';
import { MailPage } from './mail-page';

/** A RegExp that matches `text` literally. */
export const literal = (text: string) => new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));

/** Polls `probe` until it returns something truthy; throws `what` after `timeoutMs`. */
export async function eventually<T>(probe: () => T | Promise<T>, timeoutMs: number, what: string): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value) return value as NonNullable<T>;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}${last ? ` (last error: ${String(last)})` : ''}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export interface Watched {
  readonly page: Page;
  readonly mail: MailPage;
  /** Page errors and console errors (React reports render loops on the console). */
  readonly errors: string[];
}

export function watch(page: Page): Watched {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
  return { page, mail: new MailPage(page), errors };
}

export async function newDemoContext(browser: Browser): Promise<BrowserContext> {
  return browser.newContext({ viewport: { width: 1440, height: 900 }, colorScheme: 'light' });
}

/** Logs in to `first` from the login screen, then adds `second` without logging out. */
export async function logInBoth(page: Page, baseUrl: string, first: E2eLogin, second: E2eLogin): Promise<void> {
  const mail = new MailPage(page);
  await page.goto(baseUrl);
  await page.getByRole('heading', { name: 'Sign in' }).waitFor();
  await mail.login(first.email, first.password);
  await mail.waitForRows();
  await mail.sidebar().getByRole('link', { name: 'Add account' }).click();
  await page.getByRole('heading', { name: 'Add another account' }).waitFor();
  await mail.login(second.email, second.password);
  await accountSection(page, second.email).waitFor();
  await mail.waitForRows();
}

/** An account's part of the sidebar (a region named after the account). */
export const accountSection = (page: Page, email: string): Locator => new MailPage(page).sidebar().getByRole('region', { name: email });

/** A folder's link in an account's part of the sidebar ("Inbox", "Projects", "Trash"…). */
export const folderLink = (page: Page, email: string, folder: string): Locator =>
  accountSection(page, email).getByRole('link', { name: new RegExp(`^${folder}(\\s*[\\d,]+ unread)?$`) });

/** The unread count a sidebar link shows; 0 when it shows none. */
export async function unreadOf(link: Locator): Promise<number> {
  const text = (await link.textContent()) ?? '';
  const match = /([\d,]+)\s*unread/.exec(text);
  return match ? Number(match[1]!.replaceAll(',', '')) : 0;
}

/** The thread-list row whose accessible name contains `text`. */
export const rowWith = (page: Page, text: string | RegExp): Locator =>
  new MailPage(page).threadList().getByRole('option', { name: typeof text === 'string' ? literal(text) : text });

/** Accessible names of the rows the DOM holds now, top to bottom. */
export async function rowNames(page: Page): Promise<string[]> {
  return new MailPage(page)
    .threadList()
    .locator('[role="option"]:not([aria-disabled="true"])')
    .evaluateAll((rows) =>
      rows
        .map((row) => ({ at: Number(row.getAttribute('aria-posinset')), name: row.getAttribute('aria-label') ?? '' }))
        .sort((a, b) => a.at - b.at)
        .map((row) => row.name),
    );
}

/** Rows the DOM holds now with their position, time (ms) and accessible name, in list order. */
export async function rowFacts(page: Page): Promise<{ at: number; time: number; name: string }[]> {
  return new MailPage(page)
    .threadList()
    .locator('[role="option"]:not([aria-disabled="true"])')
    .evaluateAll((rows) =>
      rows
        .map((row) => ({
          at: Number(row.getAttribute('aria-posinset')),
          time: Date.parse(row.querySelector('time')?.getAttribute('datetime') ?? ''),
          name: row.getAttribute('aria-label') ?? '',
        }))
        .sort((a, b) => a.at - b.at),
    );
}

/** Subjects of the messages in an IMAP folder of `login` (what the server really holds). */
export async function imapSubjects(host: string, port: number, login: E2eLogin, folder: string): Promise<string[]> {
  const client = new ImapFlow({ host, port, secure: false, auth: { user: login.email, pass: login.password }, logger: false });
  await client.connect();
  try {
    const lock = await client.getMailboxLock(folder);
    try {
      const subjects: string[] = [];
      if (client.mailbox && client.mailbox.exists > 0) {
        for await (const message of client.fetch('1:*', { envelope: true })) subjects.push(message.envelope?.subject ?? '');
      }
      return subjects;
    } finally {
      lock.release();
    }
  } finally {
    await client.logout().catch(() => undefined);
  }
}
