// Issue points 21 and 24: the gateway refuses an account's session (forced logout, or the
// demo restarted with new data): the open tab says the session ended — not "offline"
// forever, not a bare sign-in screen — and the account's cached mail leaves the browser
// exactly as on a normal logout (its IndexedDB database is deleted).
import type { Page } from 'playwright-core';
import { describe, expect, inject, test } from 'vitest';
import { screenshot } from './chromium';
import { accountSection, addAccount, eventually, imapMessages, logIn, newDemoContext, watch, withImapOf } from './demo-session';
import { composerForm } from './mail-page';
import { useOwnGateway } from './own-gateway';

/**
 * A tab's errors but Chromium's console reports of loads the gateway's closed port refused
 * while a test keeps it down on purpose (fresh-clone CI runs saw two; which load is not known):
 * those are the outage, not the app. A page error or any other console error still counts.
 */
const apartFromTheOutage = (errors: readonly string[]) => errors.filter((error) => error !== 'Failed to load resource: net::ERR_CONNECTION_REFUSED');

const demo = inject('demo');
const own = useOwnGateway();

const databaseNames = (page: Page) => page.evaluate(async () => (await indexedDB.databases()).map((db) => db.name ?? '').sort());
const accountIdOf = (page: Page) => page.evaluate(async () => {
  const names = (await indexedDB.databases()).map((db) => db.name ?? '');
  return names.find((name) => /^\d+$/.test(name)) ?? null;
});

/** Screenshots at 1366×768 and 390×844, light and dark; the page is left at 1366×768, light (the second viewport keeps what the first test did). */
async function screenshotsOf(page: Page, name: string, restoreViewport = true): Promise<void> {
  for (const [width, height] of [[1366, 768], [390, 844]] as const) {
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.setViewportSize({ width, height });
      await page.emulateMedia({ colorScheme });
      await screenshot(page, `${name}-${width}-${colorScheme}`);
    }
  }
  if (restoreViewport) await page.setViewportSize({ width: 1366, height: 768 });
  await page.emulateMedia({ colorScheme: 'light' });
}

/** Opens the composer (its code comes from the gateway), then stops the gateway; the caller writes on. */
async function composeThenHalt(page: Page) {
  await page.getByRole('button', { name: 'Compose' }).click();
  const box = composerForm(page);
  await box.waitFor();
  await own.gateway.halt();
  return box;
}

describe('a session the gateway no longer knows', () => {
  test('the demo restarted with new data while the tab was open: it says the session ended and the account’s database is gone', { timeout: 120_000 }, async () => {
    const context = await newDemoContext(own.browser);
    const tab = watch(await context.newPage());
    await logIn(tab.page, own.gateway.baseUrl, demo.alice);
    const accountId = await accountIdOf(tab.page);
    expect(accountId).not.toBeNull();

    // The restart: the gateway is away for a while (the tab may say it is offline), then back without any session.
    // How soon the tab hears depends on the push socket's reconnect backoff (≤ 30 s) or, if it
    // decided it was offline, the online re-check (5 s doubling while the browser says online;
    // it was a fixed minute, and the notice came ~59 s after the gateway was back).
    await own.gateway.halt();
    await own.gateway.startFresh();
    const restartedAt = Date.now();
    const notice = tab.page.getByRole('status').filter({ hasText: `Your session for ${demo.alice.email} ended. Sign in again.` });
    await notice.waitFor({ timeout: 60_000 });
    console.log(`[session-ended] notice ${Date.now() - restartedAt} ms after the gateway came back`);
    await tab.page.getByRole('heading', { name: 'Sign in' }).waitFor();
    // The address is filled in: signing in again is one password away.
    expect(await tab.page.getByLabel('Email address').inputValue()).toBe(demo.alice.email);
    // Wiped like a normal logout: no database of the account is left in the browser.
    await eventually(async () => !(await databaseNames(tab.page)).includes(accountId!), 10_000, 'the account database deleted');
    expect(await databaseNames(tab.page)).toEqual(['tern-accounts']);
    await screenshot(tab.page, 'session-ended-login');
    expect(tab.errors).toEqual([]);

    // A reload still says why (the engine keeps it until the address signs in again) …
    await tab.page.reload();
    await notice.waitFor();
    await screenshotsOf(tab.page, 'session-ended', false);
    // … and signing in again takes it away.
    await tab.page.getByRole('button', { name: 'Next' }).click();
    await tab.page.getByLabel('Password').fill(demo.alice.password);
    await tab.page.getByRole('button', { name: 'Sign in' }).click();
    await tab.page.getByRole('listbox').first().waitFor();
    await context.close();
  });

  test('one account’s session revoked elsewhere while another stays: a toast says so, that account and its database go, the other stays', async () => {
    const context = await newDemoContext(own.browser);
    const tab = watch(await context.newPage());
    await logIn(tab.page, own.gateway.baseUrl, demo.alice);
    await addAccount(tab.page, demo.bob);
    const stored = await tab.page.evaluate(
      () =>
        new Promise<{ accountId: string; emailAddress: string; token: string }[]>((resolve, reject) => {
          const open = indexedDB.open('tern-accounts');
          open.onerror = () => reject(open.error);
          open.onsuccess = () => {
            const request = open.result.transaction('accounts').objectStore('accounts').getAll();
            request.onsuccess = () => resolve(request.result as { accountId: string; emailAddress: string; token: string }[]);
            request.onerror = () => reject(request.error);
          };
        }),
    );
    const bob = stored.find((account) => account.emailAddress === demo.bob.email)!;
    const alice = stored.find((account) => account.emailAddress === demo.alice.email)!;
    expect(await databaseNames(tab.page)).toContain(bob.accountId);

    // Signed out on another device ("log out" with the same session): the gateway ends it and closes its socket.
    const response = await fetch(`${own.gateway.baseUrl}/api/logout`, { method: 'POST', headers: { authorization: `Bearer ${bob.token}` } });
    expect(response.ok).toBe(true);

    await tab.page.getByRole('region', { name: 'Notifications' }).getByText(`Your session for ${demo.bob.email} ended. Sign in again.`).waitFor({ timeout: 30_000 });
    await accountSection(tab.page, demo.bob.email).waitFor({ state: 'detached' });
    await accountSection(tab.page, demo.alice.email).waitFor();
    await eventually(async () => !(await databaseNames(tab.page)).includes(bob.accountId), 10_000, 'Bob’s database deleted');
    expect(await databaseNames(tab.page)).toEqual([alice.accountId, 'tern-accounts'].sort());
    await screenshot(tab.page, 'session-ended-toast');
    expect(tab.errors).toEqual([]);
    await context.close();
  });

  test('a draft typed while the gateway was down is not lost with the wiped mail: the notice says it is kept, signing in again puts it in Drafts', { timeout: 120_000 }, async () => {
    const stamp = Date.now().toString(36);
    const subject = `Written while the gateway was down ${stamp}`;
    const body = `Nothing I typed should be lost ${stamp}.`;
    const context = await newDemoContext(own.browser);
    const tab = watch(await context.newPage());
    await logIn(tab.page, own.gateway.baseUrl, demo.alice);

    // The gateway goes away with the composer open; the person writes on, and the draft is saved on this device only.
    const box = await composeThenHalt(tab.page);
    const to = box.getByRole('combobox', { name: 'To' });
    await to.fill(demo.bob.email);
    await to.press('Enter');
    await box.getByLabel('Subject').fill(subject);
    await box.getByRole('textbox', { name: 'Message body' }).click();
    await tab.page.keyboard.type(body);
    await box.getByText('Saved on this device only', { exact: true }).waitFor({ timeout: 15_000 });

    // It comes back with fresh data: the session is refused, the mail wiped, the draft kept and said so.
    await own.gateway.startFresh();
    const notice = tab.page
      .getByRole('status')
      .filter({ hasText: `Your session for ${demo.alice.email} ended. Sign in again. 1 unsent draft is kept on this device and will be saved to Drafts when you sign in.` });
    await notice.waitFor({ timeout: 60_000 });
    await eventually(async () => (await databaseNames(tab.page)).join() === 'tern-accounts', 10_000, 'only the accounts database left');
    await screenshotsOf(tab.page, 'session-ended-kept');

    await tab.page.getByRole('button', { name: 'Next' }).click();
    await tab.page.getByLabel('Password').fill(demo.alice.password);
    await tab.page.getByRole('button', { name: 'Sign in' }).click();
    await tab.page.getByRole('region', { name: 'Notifications' }).getByText('1 unsent message was restored to Drafts.').waitFor({ timeout: 30_000 });
    // The composer this tab had open (it keeps the draft's id) opens again on the restored text.
    await composerForm(tab.page, subject).getByText(body).waitFor({ timeout: 15_000 });
    await screenshot(tab.page, 'session-ended-restored');
    // On the mail server, as any other mail program sees it.
    const drafts = () => imapMessages(demo.mail.host, demo.mail.imap, demo.alice, 'Drafts');
    const saved = await eventually(async () => (await drafts()).find((message) => message.subject === subject), 30_000, 'the kept draft in Drafts over IMAP');
    expect(saved.source).toContain(body);
    expect(saved.source).toContain(demo.bob.email);
    expect(apartFromTheOutage(tab.errors)).toEqual([]);
    await context.close();

    // Leave the shared demo mailbox as it was.
    await withImapOf(demo.mail.host, demo.mail.imap, demo.alice, async (client) => {
      const lock = await client.getMailboxLock('Drafts');
      try {
        const uids = await client.search({ subject: stamp }, { uid: true });
        if (uids && uids.length > 0) await client.messageDelete(uids, { uid: true });
      } finally {
        lock.release();
      }
    });
  });

  test('a logout the person chooses, with a draft not on the server yet: asked first, and Cancel keeps it', { timeout: 120_000 }, async () => {
    const stamp = Date.now().toString(36);
    const context = await newDemoContext(own.browser);
    const tab = watch(await context.newPage());
    await logIn(tab.page, own.gateway.baseUrl, demo.alice);
    const box = await composeThenHalt(tab.page);
    try {
      await box.getByLabel('Subject').fill(`Not on the server ${stamp}`);
      await box.getByText('Saved on this device only', { exact: true }).waitFor({ timeout: 15_000 });
      // Folded down: the open composer covers the account menu (a layering problem of its own).
      await box.getByRole('button', { name: 'Minimize the composer' }).click();

      const ask = async () => {
        await tab.page.getByRole('button', { name: `Account: ${demo.alice.email}` }).click();
        await tab.page.getByRole('menuitem', { name: `Log out of ${demo.alice.email}` }).click();
        return tab.page.getByRole('dialog', { name: `Log out of ${demo.alice.email}?` });
      };
      const dialog = await ask();
      await dialog.getByText('1 message you wrote is saved on this device only: it has not reached the server yet. Logging out deletes it.').waitFor();
      await screenshotsOf(tab.page, 'logout-unsent');
      // Keyboard: Escape is Cancel; the account and its draft stay.
      await tab.page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
      await accountSection(tab.page, demo.alice.email).waitFor();

      await (await ask()).getByRole('button', { name: 'Log out anyway' }).click();
      await tab.page.getByRole('status').filter({ hasText: 'You have logged out of all accounts.' }).waitFor();
      expect(await databaseNames(tab.page)).toEqual(['tern-accounts']);
      expect(apartFromTheOutage(tab.errors)).toEqual([]);
    } finally {
      await own.gateway.startFresh();
      await context.close();
    }
  });
});
