/**
 * Snooze, Remind me and Follow up (issue 15 points 3–4) on the demo setup (global-setup.ts),
 * in Chromium, one page load: a conversation of Alice's (Bob's question in her Inbox, her
 * answer in Sent) gets a reminder from a preset and a follow-up from the picker (a past time
 * refused first, in the catalogue's words); both are listed in the conversation. Their jobs are
 * then made due in the gateway's own table — the gateway's clock is not ours to move, its due
 * times are — and the conversation comes back marked "Reminder" and "No reply yet", on top of
 * the Inbox, until Done. Snooze takes it out of the Inbox into Snoozed; Unsnooze brings it back.
 * Screenshots at 1366×768 and 390×844, light and dark. Nothing is left behind: the timers are
 * done or cancelled in the test, and afterAll deletes the file's messages and the Snoozed folder.
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { launchChromium, screenshot } from './chromium';
import { literal, logIn, newDemoContext, openThread, rowNames, rowWith, withImapOf } from './demo-session';

const baseUrl = inject('baseUrl');
const demo = inject('demo');
const gatewayDataDir = inject('gatewayDataDir');
const { alice, bob } = demo;
const stamp = Date.now().toString(36);
const SUBJECT = `Timers ${stamp}`;

let browser: Browser;
let context: BrowserContext;
let page: Page;

const withImap = <T>(work: Parameters<typeof withImapOf<T>>[3]) => withImapOf(demo.mail.host, demo.mail.imap, alice, work);

beforeAll(async () => {
  // Bob asks (Inbox), Alice answers (Sent): a conversation with a message she sent, for Follow up.
  await withImap(async (client) => {
    const asked = new Date(Date.now() - 30 * 60_000);
    const answered = new Date(Date.now() - 20 * 60_000);
    const question = [`From: Bob Kite <${bob.email}>`, `To: ${alice.email}`, `Subject: ${SUBJECT}`, `Date: ${asked.toUTCString()}`, `Message-ID: <q-${stamp}@e2e.test>`, '', 'Shall we meet on Friday?', ''].join('\r\n');
    const answer = [`From: Alice <${alice.email}>`, `To: ${bob.email}`, `Subject: Re: ${SUBJECT}`, `Date: ${answered.toUTCString()}`, `Message-ID: <a-${stamp}@e2e.test>`, `In-Reply-To: <q-${stamp}@e2e.test>`, `References: <q-${stamp}@e2e.test>`, '', 'Friday works. Which time?', ''].join('\r\n');
    await client.append('INBOX', question, [], asked);
    await client.append('Sent', answer, ['\\Seen'], answered);
  });
  browser = await launchChromium();
  context = await newDemoContext(browser);
  page = await context.newPage();
  await logIn(page, baseUrl, alice);
});

afterAll(async () => {
  // This file's mail goes, wherever it is, and the Snoozed folder the gateway made for it.
  await withImap(async (client) => {
    for (const folder of ['INBOX', 'Sent', 'Snoozed']) {
      const lock = await client.getMailboxLock(folder).catch(() => null);
      if (!lock) continue;
      try {
        const found = await client.search({ header: { 'message-id': stamp } }, { uid: true });
        if (Array.isArray(found) && found.length > 0) await client.messageDelete(found, { uid: true });
      } finally {
        lock.release();
      }
    }
    await client.mailboxDelete('Snoozed').catch(() => undefined);
  }).catch(() => undefined);
  await browser?.close();
});

/**
 * Makes the gateway's queued timer jobs due now, in its own table: its job loop looks again
 * within its idle check (5 s) and fires them, as it would at their time.
 */
function makeTimersDue(): void {
  const db = new Database(join(gatewayDataDir, 'tern.sqlite'));
  try {
    db.pragma('busy_timeout = 5000');
    db.prepare("UPDATE jobs SET run_at = 0 WHERE kind = 'thread.timer' AND state = 'queued'").run();
  } finally {
    db.close();
  }
}

const timerLines = () => page.getByRole('list', { name: 'Times set for this conversation' });

/** A local wall-clock time `days` from now at 10:00, as the picker takes it. */
function daysAhead(days: number): string {
  const date = new Date(Date.now() + days * 86_400_000);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T10:00`;
}

async function bothThemes(name: string, sizes: readonly { width: number; height: number }[]): Promise<void> {
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    for (const size of sizes) {
      await page.setViewportSize(size);
      await screenshot(page, `${name}-${size.width}-${colorScheme}`);
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1366, height: 768 });
}

describe('snooze, reminders and follow-ups', () => {
  test('remind and follow up from the conversation; when they fire the conversation is back on top, marked, until Done; snooze and unsnooze', async () => {
    await page.setViewportSize({ width: 1366, height: 768 });
    await openThread(page, SUBJECT, 30_000);

    // Remind me: a preset.
    await page.getByRole('button', { name: 'Remind me…' }).click();
    await page.getByRole('menu').getByRole('menuitem', { name: /Tomorrow morning/ }).click();
    await timerLines().getByText(/^Reminder /).waitFor({ timeout: 15_000 });

    // Follow up: the picker refuses a past time in the catalogue's words, then takes one two days ahead.
    await page.getByRole('button', { name: 'Follow up if no reply by…' }).click();
    await page.getByRole('menu').getByRole('menuitem', { name: 'Pick date and time…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Follow up if no reply by' });
    const when = dialog.getByLabel('Date and time');
    await when.fill(daysAhead(-1));
    await dialog.getByRole('button', { name: 'Set follow-up' }).click();
    await dialog.getByRole('alert').getByText('This time has already passed. Choose a time in the future.').waitFor();
    await when.fill(daysAhead(2));
    await dialog.getByRole('button', { name: 'Set follow-up' }).click();
    await timerLines().getByText(/^Follow up if no reply by /).waitFor({ timeout: 15_000 });
    await bothThemes('timers-1-set', [{ width: 1366, height: 768 }]);

    // Their time comes (the gateway's jobs made due): both fire, nobody has answered Alice.
    makeTimersDue();
    await timerLines().getByText('Reminder', { exact: true }).waitFor({ timeout: 20_000 });
    await timerLines().getByText('No reply yet', { exact: true }).waitFor({ timeout: 20_000 });
    // The row is marked, and on top of the Inbox (it sorts at the moment it fired).
    const row = rowWith(page, literal(SUBJECT));
    await expect.poll(async () => (await row.getAttribute('aria-label')) ?? '', { timeout: 15_000 }).toMatch(/Reminder|No reply yet/);
    await expect.poll(async () => (await rowNames(page))[0] ?? '', { timeout: 15_000 }).toContain(SUBJECT);
    expect(await row.locator('.timer-chip').textContent()).toMatch(/^(Reminder|No reply yet)$/);
    await bothThemes('timers-2-raised', [{ width: 1366, height: 768 }, { width: 390, height: 844 }]);

    // Done: the marks go (every device: the gateway's summary).
    for (const mark of ['Reminder', 'No reply yet']) {
      await timerLines().getByRole('listitem').filter({ hasText: mark }).getByRole('button', { name: 'Done' }).click();
      await timerLines().getByText(mark, { exact: true }).waitFor({ state: 'detached', timeout: 15_000 });
    }
    await expect.poll(() => row.locator('.timer-chip').count(), { timeout: 15_000 }).toBe(0);

    // Snooze: out of the Inbox, into Snoozed, until the time; Unsnooze brings it back.
    await page.getByRole('button', { name: 'Snooze until…' }).click();
    await page.getByRole('menu').getByRole('menuitem', { name: /Later today/ }).click();
    await timerLines().getByText(/^Snoozed until /).waitFor({ timeout: 15_000 });
    await row.waitFor({ state: 'detached', timeout: 20_000 });
    await page.getByRole('navigation', { name: 'Mailboxes' }).getByRole('link', { name: 'Snoozed', exact: true }).click();
    await openThread(page, SUBJECT, 20_000);
    await timerLines().getByText(/^Snoozed until /).waitFor();
    await bothThemes('timers-3-snoozed', [{ width: 1366, height: 768 }, { width: 390, height: 844 }]);
    await timerLines().getByRole('button', { name: 'Unsnooze' }).click();
    await rowWith(page, literal(SUBJECT)).waitFor({ state: 'detached', timeout: 20_000 });
    expect(await withImap(async (client) => {
      const lock = await client.getMailboxLock('INBOX');
      try {
        const found = await client.search({ header: { 'message-id': `q-${stamp}` } }, { uid: true });
        return Array.isArray(found) ? found.length : 0;
      } finally {
        lock.release();
      }
    })).toBe(1);
  });

  test('desktop notifications: allowed in Settings, one notification for new mail across two tabs', async () => {
    await context.grantPermissions(['notifications'], { origin: baseUrl });
    // Every tab records the notifications it shows (the real permission is still asked).
    await context.addInitScript(() => {
      const Real = window.Notification;
      const shown: { title: string; body: string; tag: string }[] = [];
      (window as unknown as { shownNotifications: typeof shown }).shownNotifications = shown;
      class Recording {
        static get permission() {
          return Real.permission;
        }
        static requestPermission() {
          return Real.requestPermission();
        }
        onclick: (() => void) | null = null;
        constructor(title: string, options: NotificationOptions = {}) {
          shown.push({ title, body: options.body ?? '', tag: options.tag ?? '' });
        }
        close() {}
      }
      (window as unknown as { Notification: unknown }).Notification = Recording;
    });
    const second = await context.newPage();
    await second.goto(`${baseUrl}/settings/notifications`);
    await second.getByRole('heading', { name: 'Desktop notifications' }).waitFor({ timeout: 20_000 });
    await second.getByText('Notifications are allowed in this browser.').waitFor();
    await page.reload();
    await page.getByRole('navigation', { name: 'Mailboxes' }).waitFor({ timeout: 20_000 });

    const NEWS = `Notify ${stamp}`;
    await withImap(async (client) => {
      const raw = [`From: Bob Kite <${bob.email}>`, `To: ${alice.email}`, `Subject: ${NEWS}`, `Date: ${new Date().toUTCString()}`, `Message-ID: <n-${stamp}@e2e.test>`, '', 'Are you there?', ''].join('\r\n');
      await client.append('INBOX', raw, [], new Date());
    });
    const shownIn = (tab: Page) => tab.evaluate(() => (window as unknown as { shownNotifications: { title: string; body: string; tag: string }[] }).shownNotifications.filter((n) => n.body.startsWith('Notify ')));
    await expect.poll(async () => (await shownIn(page)).length + (await shownIn(second)).length, { timeout: 20_000 }).toBe(1);
    const [one] = [...(await shownIn(page)), ...(await shownIn(second))];
    expect(one).toMatchObject({ title: 'Bob Kite', body: NEWS });
    for (const colorScheme of ['light', 'dark'] as const) {
      await second.emulateMedia({ colorScheme });
      for (const size of [{ width: 1366, height: 768 }, { width: 390, height: 844 }]) {
        await second.setViewportSize(size);
        await screenshot(second, `timers-4-notifications-${size.width}-${colorScheme}`);
      }
    }
    await second.close();
  });
});
