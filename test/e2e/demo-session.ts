/**
 * Helpers for the e2e flows against the demo (global-setup.ts + demo-setup.ts): a
 * Chromium context logged in to both demo accounts through the real login screen, rows
 * found by their accessible names, and a look at the mail server itself over IMAP.
 */
import { ImapFlow } from 'imapflow';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { launchChromium } from './chromium';
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

/**
 * Chromium checks the page's CSP when a parser meets an `on…=` attribute, even in a DOMParser
 * document that never runs anything: sanitising the demo's hostile mail (DOMPurify parses it
 * first, then drops the handler) logs this report. Nothing ran — mail-tabs test 9 proves that —
 * so it is not an app error; any test whose auto-advance opens that mail would otherwise fail.
 */
const SANITISER_PARSE_REPORT = /^Executing inline event handler violates the following Content Security Policy directive 'script-src 'self''/;

export function watch(page: Page): Watched {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => message.type() === 'error' && !SANITISER_PARSE_REPORT.test(message.text()) && errors.push(message.text()));
  return { page, mail: new MailPage(page), errors };
}

export async function newDemoContext(browser: Browser, options: { readonly serviceWorkers?: 'allow' | 'block'; readonly viewport?: { readonly width: number; readonly height: number } } = {}): Promise<BrowserContext> {
  return browser.newContext({ viewport: { width: 1440, height: 900 }, colorScheme: 'light', ...options });
}

/** Logs in to one account from the login screen (email first, then password) and waits for the inbox. */
export async function logIn(page: Page, baseUrl: string, login: E2eLogin): Promise<void> {
  const mail = new MailPage(page);
  await page.goto(baseUrl);
  await page.getByRole('heading', { name: 'Sign in' }).waitFor();
  await mail.login(login.email, login.password);
  await mail.waitForRows();
}

export interface DemoTab {
  readonly browser: Browser;
  readonly context: BrowserContext;
  readonly tab: Watched;
  readonly page: Page;
}

/** A new Chromium with one watched tab logged in to `login` (1440×900 unless `viewport` says otherwise): how most demo files start. */
export async function startLoggedIn(baseUrl: string, login: E2eLogin, options: { readonly viewport?: { readonly width: number; readonly height: number } } = {}): Promise<DemoTab> {
  const browser = await launchChromium();
  const context = await newDemoContext(browser, options);
  const tab = watch(await context.newPage());
  await logIn(tab.page, baseUrl, login);
  return { browser, context, tab, page: tab.page };
}

/** `startLoggedIn`, then on the account's Inbox. */
export async function startInInbox(baseUrl: string, login: E2eLogin): Promise<DemoTab> {
  const started = await startLoggedIn(baseUrl, login);
  await openFolder(started.page, login.email, 'Inbox');
  return started;
}

/** Adds another account from the sidebar's "Add account", without logging out. */
export async function addAccount(page: Page, login: E2eLogin): Promise<void> {
  const mail = new MailPage(page);
  await mail.sidebar().getByRole('link', { name: 'Add account' }).click();
  await page.getByRole('heading', { name: 'Add another account' }).waitFor();
  await mail.login(login.email, login.password);
  await accountSection(page, login.email).waitFor();
  await mail.waitForRows();
}

/** Goes to a folder of an account through the sidebar and waits until its list (or empty state) is there. */
export async function openFolder(page: Page, email: string, folder: string): Promise<void> {
  const link = folderLink(page, email, folder);
  await link.click();
  await link.and(page.locator('[aria-current="page"]')).waitFor();
  await page.getByRole('heading', { level: 1, name: folder, exact: true }).waitFor();
  await page.waitForFunction(() => {
    const list = document.getElementById('thread-list');
    return list !== null && list.getAttribute('aria-busy') === 'false';
  });
}

/** An account's part of the sidebar (a region named after the account). */
export const accountSection = (page: Page, email: string): Locator => new MailPage(page).sidebar().getByRole('region', { name: email });

/** A folder's link in an account's part of the sidebar ("Inbox", "Projects", "Trash"…). */
export const folderLink = (page: Page, email: string, folder: string): Locator =>
  accountSection(page, email).getByRole('link', { name: new RegExp(`^${folder}(\\s*[\\d,]+ unread)?$`) });

/** The unread count a sidebar link shows; 0 when it shows none. */
export async function unreadOf(link: Locator): Promise<number> {
  if ((await link.count()) === 0) return 0; // not there (yet): polled by callers
  const text = (await link.textContent({ timeout: 2_000 })) ?? '';
  const match = /([\d,]+)\s*unread/.exec(text);
  return match ? Number(match[1]!.replaceAll(',', '')) : 0;
}

/** The thread-list row whose accessible name contains `text`. */
export const rowWith = (page: Page, text: string | RegExp): Locator =>
  new MailPage(page).threadList().getByRole('option', { name: typeof text === 'string' ? literal(text) : text });

/** Opens a thread of the current list by its subject and waits for its conversation (a region named after the subject). */
export async function openThread(page: Page, subject: string, timeout = 20_000): Promise<Locator> {
  const row = rowWith(page, literal(subject));
  await row.waitFor({ timeout });
  await row.click();
  const conversation = page.getByRole('region', { name: `Conversation: ${subject}` });
  await conversation.waitFor();
  return conversation;
}

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

/** Runs `work` with an IMAP session of `login` on the demo's server, logged out afterwards. */
export async function withImapOf<T>(host: string, port: number, login: E2eLogin, work: (client: ImapFlow) => Promise<T>): Promise<T> {
  const client = new ImapFlow({ host, port, secure: false, auth: { user: login.email, pass: login.password }, logger: false });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.logout().catch(() => undefined);
  }
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

/** Subjects and raw sources of the messages in an IMAP folder of `login` (a draft's body, as the server keeps it). */
export async function imapMessages(host: string, port: number, login: E2eLogin, folder: string): Promise<{ subject: string; source: string }[]> {
  const client = new ImapFlow({ host, port, secure: false, auth: { user: login.email, pass: login.password }, logger: false });
  await client.connect();
  try {
    const lock = await client.getMailboxLock(folder);
    try {
      const found: { subject: string; source: string }[] = [];
      if (client.mailbox && client.mailbox.exists > 0) {
        for await (const message of client.fetch('1:*', { envelope: true, source: true })) found.push({ subject: message.envelope?.subject ?? '', source: message.source?.toString() ?? '' });
      }
      return found;
    } finally {
      lock.release();
    }
  } finally {
    await client.logout().catch(() => undefined);
  }
}

/**
 * What the engine still owes the gateway, read from the page's origin (the engine's
 * IndexedDB is the origin's): each outbox row's kind, status, attempts and waits. A test
 * that times out waiting for a command's outcome adds it to its error, so a failure on CI
 * says what the queue was doing.
 */
export async function outboxRows(page: Page): Promise<string> {
  return page
    .evaluate(async (table) => {
      const lines: string[] = [];
      for (const { name } of await indexedDB.databases()) {
        if (!name) continue;
        const db = await new Promise<IDBDatabase>((resolve, reject) => {
          const request = indexedDB.open(name);
          request.onsuccess = () => resolve(request.result);
          request.onerror = () => reject(request.error);
        });
        if (db.objectStoreNames.contains(table)) {
          const rows = await new Promise<Record<string, unknown>[]>((resolve, reject) => {
            const request = db.transaction(table).objectStore(table).getAll();
            request.onsuccess = () => resolve(request.result as Record<string, unknown>[]);
            request.onerror = () => reject(request.error);
          });
          const now = Date.now();
          for (const row of rows) {
            const wait = (at: unknown) => (typeof at === 'number' ? `${Math.round((at - now) / 1000)} s` : '-');
            lines.push(`${name}: ${String(row.kind)} ${String(row.status)} attempts=${String(row.attempts)} draft=${String(row.draft_id)} send_at=${wait(row.send_at)} retry_at=${wait(row.retry_at)} backoff_until=${wait(row.backoff_until)}`);
          }
        }
        db.close();
      }
      return lines.length > 0 ? lines.join('\n') : '(empty)';
    }, 'ProviderSyncbackRequest')
    .catch((error: unknown) => `(could not read: ${String(error)})`);
}
