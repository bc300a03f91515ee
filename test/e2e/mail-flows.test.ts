/**
 * The mail UI end to end against the demo setup (global-setup.ts, demo-setup.ts): the
 * built gateway in front of real Dovecot and Postfix, the real SharedWorker engine and
 * Debian's Chromium; nothing faked. One browser context walks through the flows in order,
 * as a person would: log in to two accounts, the unified inbox, a thread, a reply that
 * reaches the other account, move and delete, search, dark mode.
 *
 * Second tab and the hostile HTML message: mail-tabs.test.ts.
 */
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchChromium, screenshot } from './chromium';
import {
  accountSection,
  eventually,
  folderLink,
  imapSubjects,
  literal,
  newDemoContext,
  openFolder as openDemoFolder,
  rowFacts,
  rowNames,
  rowWith,
  unreadOf,
  watch,
  type Watched,
} from './demo-session';
import type { MailPage } from './mail-page';

const baseUrl = inject('baseUrl');
const demo = inject('demo');
const { alice, bob } = demo;

let browser: Browser;
let context: BrowserContext;
let tab: Watched;
let page: Page;
let mail: MailPage;

beforeAll(async () => {
  browser = await launchChromium();
  context = await newDemoContext(browser);
  tab = watch(await context.newPage());
  ({ page, mail } = tab);
});
afterAll(async () => {
  await browser?.close();
});

/** A thread's subject without the reply and forward prefixes, as the list shows it. */
const baseSubject = (subject: string) => subject.replace(/^\s*((re|fwd?|aw|sv)\s*:\s*)+/i, '').trim();

/** Goes to a folder of an account through the sidebar and waits for its list. */
const openFolder = (email: string, folder: string) => openDemoFolder(page, email, folder);

/** Opens the row and returns the subject the conversation shows. */
async function openRow(row: ReturnType<typeof rowWith>): Promise<string> {
  await row.click();
  const heading = page.getByRole('region', { name: /^Conversation: / }).getByRole('heading', { level: 2 });
  await heading.waitFor();
  return (await heading.textContent()) ?? '';
}

describe('the mail UI on the demo setup', () => {
  test('1. log in to Alice (email, then password), then add Bob without logging out', async () => {
    const started = performance.now();
    await page.goto(baseUrl);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(page.url()).toMatch(/\/login$/);
    await screenshot(page, 'flow-login-email');

    // SPLIT_LOGIN: the email alone first, then the password with the address shown.
    await page.getByLabel('Email address').fill(alice.email);
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('heading', { name: 'Enter your password' }).waitFor();
    await expect(page.getByLabel('Password', { exact: true }).count()).resolves.toBe(1);
    await page.getByRole('button', { name: `Use another email address than ${alice.email}` }).waitFor();
    await page.getByLabel('Password', { exact: true }).fill(alice.password);
    await screenshot(page, 'flow-login-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await mail.waitForRows();
    expect(new URL(page.url()).pathname).toBe('/mail/unified/inbox');
    console.log(`[flows] login → first inbox rows: ${Math.round(performance.now() - started)} ms`);
    await accountSection(page, alice.email).waitFor();
    await screenshot(page, 'flow-inbox-alice');

    // Add Bob from the sidebar: Alice stays signed in.
    await mail.sidebar().getByRole('link', { name: 'Add account' }).click();
    await page.getByRole('heading', { name: 'Add another account' }).waitFor();
    await page.getByText('Your other accounts stay signed in.').waitFor();
    await screenshot(page, 'flow-add-account');
    await mail.login(bob.email, bob.password);
    await accountSection(page, bob.email).waitFor();
    await accountSection(page, alice.email).waitFor();
    // Straight to one of Alice's folders while Bob's first sync runs: Bob's folders and
    // counts must still fill in when it ends (they used to stay empty until something else
    // refreshed them), and so must Alice's folder counts.
    await openFolder(alice.email, 'Spam');
    await eventually(async () => (await unreadOf(folderLink(page, bob.email, 'Inbox'))) > 0, 15_000, "Bob's folders and inbox count while Alice's Spam is shown");
    await eventually(async () => (await unreadOf(folderLink(page, alice.email, 'Spam'))) > 0, 15_000, "Alice's Spam count");
    await mail.sidebar().getByRole('link', { name: /^All inboxes/ }).click();
    await page.getByRole('listbox', { name: 'All inboxes' }).waitFor();

    // Both accounts with their inbox's unread count, and the unified count is their sum.
    const aliceUnread = await eventually(() => unreadOf(folderLink(page, alice.email, 'Inbox')), 15_000, "Alice's unread count");
    const bobUnread = await eventually(() => unreadOf(folderLink(page, bob.email, 'Inbox')), 15_000, "Bob's unread count");
    const allInboxes = mail.sidebar().getByRole('link', { name: /^All inboxes/ });
    await eventually(async () => (await unreadOf(allInboxes)) === aliceUnread + bobUnread, 5_000, 'the unified unread count');
    expect(aliceUnread).toBeGreaterThan(0);
    expect(bobUnread).toBeGreaterThan(0);
    // The tab title counts every unread thread; the account menu offers both accounts.
    await expect.poll(() => page.title()).toBe(`(${(aliceUnread + bobUnread).toLocaleString('en-US')}) Tern Mail`);
    await page.getByRole('button', { name: /^Account: / }).click();
    const accountMenu = page.getByRole('menu', { name: /^Account: / });
    for (const email of [alice.email, bob.email]) await accountMenu.getByRole('menuitemradio', { name: literal(email) }).waitFor();
    await accountMenu.getByRole('menuitem', { name: 'Log out of all accounts' }).waitFor();
    await screenshot(page, 'flow-account-menu');
    await page.keyboard.press('Escape');
    await expect(accountMenu.count()).resolves.toBe(0);
    console.log(`[flows] two accounts in the sidebar after ${Math.round(performance.now() - started)} ms (unread: Alice ${aliceUnread}, Bob ${bobUnread})`);
    await screenshot(page, 'flow-inbox-both-accounts');
  });

  test('2. the unified inbox shows threads from both accounts, newest first', async () => {
    const list = page.getByRole('listbox', { name: 'All inboxes' });
    await list.waitFor();
    // The probes delivered at setup are the newest mail of each inbox.
    await rowWith(page, demo.probes.toBob).waitFor();
    await rowWith(page, `Re: ${demo.probes.lunch}`).or(rowWith(page, demo.probes.lunch)).first().waitFor();

    const checkOrder = async (where: string) => {
      const rows = await rowFacts(page);
      expect(rows.length, `rows at ${where}`).toBeGreaterThan(8);
      for (let i = 1; i < rows.length; i++) {
        expect(rows[i]!.at, `row positions at ${where}`).toBe(rows[i - 1]!.at + 1);
        expect(rows[i]!.time, `row ${rows[i]!.at} (${rows[i]!.name}) is not newer than the one above it`).toBeLessThanOrEqual(rows[i - 1]!.time);
      }
      return rows;
    };
    const top = await checkOrder('the top');
    const fromAlice = top.filter((row) => row.name.endsWith(`in ${alice.email}`));
    const fromBob = top.filter((row) => row.name.endsWith(`in ${bob.email}`));
    expect(fromAlice.length + fromBob.length).toBe(top.length);
    expect(fromAlice.length).toBeGreaterThan(0);
    expect(fromBob.length).toBeGreaterThan(0);
    expect(top.find((row) => row.name.includes(demo.probes.toBob))?.name).toMatch(literal(`in ${bob.email}`));
    await screenshot(page, 'flow-unified-inbox');

    // Further down (another window of the merged list), still in time order and still mixed.
    await mail.threadList().evaluate((element) => (element.scrollTop = element.scrollHeight / 2));
    await expect.poll(async () => (await rowFacts(page))[0]?.at ?? 0, { timeout: 5_000 }).toBeGreaterThan(20);
    const middle = await checkOrder('the middle');
    expect(middle.some((row) => row.name.endsWith(`in ${alice.email}`)) && middle.some((row) => row.name.endsWith(`in ${bob.email}`))).toBe(true);
    await mail.threadList().evaluate((element) => (element.scrollTop = 0));
  });

  test('3. open a thread: its messages, the newest expanded, the body in a frame that cannot run scripts', async () => {
    const aliceInboxBefore = await unreadOf(folderLink(page, alice.email, 'Inbox'));
    const row = rowWith(page, new RegExp(`^Unread, .*\\(2\\), ${literal(demo.probes.lunch).source}.*in ${literal(alice.email).source}$`));
    const subject = await openRow(row);
    expect(subject).toMatch(literal(demo.probes.lunch));
    const conversation = page.getByRole('region', { name: `Conversation: ${subject}` });
    const messages = conversation.getByRole('article');
    await expect(messages.count()).resolves.toBe(2);
    // Oldest first: Alice's question (collapsed), then Bob's answer (expanded).
    await expect(messages.nth(0).getAttribute('aria-label')).resolves.toMatch(/^Message from Alice Tern/);
    await expect(messages.nth(1).getAttribute('aria-label')).resolves.toMatch(/^Message from Bob Kite/);
    await expect(messages.nth(0).getByRole('button', { expanded: false }).count()).resolves.toBe(1);
    await expect(messages.nth(1).getByRole('button', { expanded: true }).count()).resolves.toBe(1);

    const frame = messages.nth(1).getByTitle('Message from Bob Kite');
    await frame.waitFor();
    const sandbox = (await frame.getAttribute('sandbox')) ?? '';
    expect(sandbox.split(/\s+/)).not.toContain('allow-scripts');
    expect(sandbox).toBe('allow-same-origin allow-popups allow-popups-to-escape-sandbox');
    // The HTML part, formatting and all, is what the frame shows.
    const body = frame.contentFrame();
    await body.getByText('Friday at noon').waitFor();
    await expect(body.locator('b').textContent()).resolves.toBe('Friday at noon');
    await expect.poll(async () => (await frame.boundingBox())?.height ?? 0).toBeGreaterThan(60);
    // Expanding the older message loads its (plain text) body.
    await messages.nth(0).getByRole('button', { expanded: false }).click();
    await messages.nth(0).getByText('The noodle place opened again.').waitFor();

    // Opening it read it: the row and Alice's count follow.
    await expect.poll(() => row.count()).toBe(0);
    await rowWith(page, new RegExp(`^(?!Unread).*${literal(demo.probes.lunch).source}`)).waitFor();
    await expect.poll(() => unreadOf(folderLink(page, alice.email, 'Inbox')), { timeout: 5_000 }).toBe(aliceInboxBefore - 1);
    await screenshot(page, 'flow-thread-open');
  });

  test('4. reply from Alice; the reply reaches Bob’s inbox live (SMTP → IDLE → delta → worker → UI)', async () => {
    // Bob has read Alice's question (his copy, in the unified inbox): his inbox count drops.
    const bobUnreadStart = await unreadOf(folderLink(page, bob.email, 'Inbox'));
    await openRow(rowWith(page, new RegExp(`^Unread, Alice Tern, ${literal(demo.probes.lunch).source}.*in ${literal(bob.email).source}$`)));
    await expect.poll(() => unreadOf(folderLink(page, bob.email, 'Inbox')), { timeout: 5_000 }).toBe(bobUnreadStart - 1);

    // Alice answers Bob's message in her thread.
    await openRow(rowWith(page, new RegExp(`${literal(demo.probes.lunch).source}.*in ${literal(alice.email).source}$`)));
    const conversation = page.getByRole('region', { name: /^Conversation: / });
    await conversation.getByRole('toolbar', { name: 'Actions for the message from Bob Kite' }).getByRole('button', { name: 'Reply', exact: true }).click();
    const composer = page.getByRole('form', { name: `Re: ${demo.probes.lunch}` });
    await composer.waitFor();
    // The reply goes to Bob, from Alice.
    const to = composer.getByRole('list', { name: 'To recipients' });
    await to.getByRole('button', { name: `Remove ${bob.email}` }).waitFor();
    await expect(to.getByRole('button', { name: /^Remove / }).count()).resolves.toBe(1);
    await expect(composer.getByLabel('From').evaluate((select) => (select as HTMLSelectElement).selectedOptions[0]?.textContent)).resolves.toContain(alice.email);
    const bobUnreadBefore = await unreadOf(folderLink(page, bob.email, 'Inbox'));
    const words = `See you there, table for two at noon ${Date.now().toString(36)}.`;
    // A reply starts with the caret above the quote, in the body.
    const body = composer.getByRole('textbox', { name: 'Message body' });
    await expect.poll(() => body.evaluate((element) => element === document.activeElement)).toBe(true);
    await page.keyboard.type(words);
    await expect(body.evaluate((element) => element.textContent?.startsWith('See you there'))).resolves.toBe(true);
    await screenshot(page, 'flow-reply-composer');
    await composer.getByRole('button', { name: 'Send' }).click();
    const toast = page.getByRole('status').filter({ hasText: /Sending…|Message sent\./ });
    await toast.waitFor();
    await toast.getByRole('button', { name: 'Undo' }).waitFor();
    await screenshot(page, 'flow-reply-undo-toast');
    const sentAt = performance.now();

    // Alice's Sent holds the reply; meanwhile, with Alice's folder on screen, Bob's inbox count
    // goes up when the reply reaches him (SMTP → Dovecot → the gateway's IDLE → push → delta).
    await openFolder(alice.email, 'Sent');
    await rowWith(page, new RegExp(`^me.*${literal(demo.probes.lunch).source}, ${literal(words.slice(0, 20)).source}`)).waitFor({ timeout: 15_000 });
    await expect.poll(() => unreadOf(folderLink(page, bob.email, 'Inbox')), { timeout: 30_000, interval: 100 }).toBe(bobUnreadBefore + 1);
    console.log(`[flows] reply: Send → Bob's inbox count up ${Math.round(performance.now() - sentAt)} ms (5 s of it the undo window)`);
    await screenshot(page, 'flow-reply-in-sent');

    // Bob's inbox, in the same tab, without a reload: his copy of the thread is back at the
    // top, unread, now with Alice's reply.
    await openFolder(bob.email, 'Inbox');
    const arrived = rowWith(page, new RegExp(`^Unread, .*\\(2\\), ${literal(demo.probes.lunch).source}, ${literal(words.slice(0, 20)).source}`));
    await arrived.waitFor({ timeout: 10_000 });
    await expect(arrived.getAttribute('aria-posinset')).resolves.toBe('1');
    // The undo window is over: the composer has closed.
    await toast.waitFor({ state: 'detached' });
    // Bob reads it: his copy has Alice's question and her reply, the reply expanded.
    await openRow(arrived);
    const messages = page.getByRole('region', { name: /^Conversation: / }).getByRole('article');
    await expect(messages.count()).resolves.toBe(2);
    // (Sent under the account's name, which the gateway derives from the address: "Alice".)
    await expect(messages.nth(1).getAttribute('aria-label')).resolves.toMatch(/^Message from Alice\b/);
    // The composer sends HTML: the reply shows in its sandboxed frame, the quote below it.
    const reply = messages.nth(1).getByTitle(/^Message from Alice\b/);
    expect((await reply.getAttribute('sandbox'))?.split(/\s+/)).not.toContain('allow-scripts');
    await reply.contentFrame().getByText(words).waitFor();
    await screenshot(page, 'flow-reply-arrived-bob');
    // And the server has it: in Bob's INBOX, and one copy in Alice's Sent.
    expect((await imapSubjects(demo.mail.host, demo.mail.imap, bob, 'INBOX')).filter((s) => s === `Re: ${demo.probes.lunch}`)).toHaveLength(1);
    await eventually(async () => (await imapSubjects(demo.mail.host, demo.mail.imap, alice, 'Sent')).filter((s) => s === `Re: ${demo.probes.lunch}`).length === 1, 10_000, "the reply in Alice's Sent");
  });

  test('5. move a thread to a folder and delete others (toolbar and keys e/#): they leave the list at once and land in the folder', async () => {
    await openFolder(alice.email, 'Inbox');
    const probes = Object.values(demo.probes);
    const candidates = (await rowNames(page)).filter((name) => !probes.some((probe) => name.includes(probe)));
    expect(candidates.length).toBeGreaterThan(6);
    const imap = (folder: string) => imapSubjects(demo.mail.host, demo.mail.imap, alice, folder);
    const count = (subjects: string[], subject: string) => subjects.filter((s) => baseSubject(s) === baseSubject(subject)).length;

    type Action = { how: string; folder: string; imapFolder: string; act: () => Promise<void> };
    const actions: Action[] = [
      {
        how: 'toolbar: Move to folder → Projects',
        folder: 'Projects',
        imapFolder: 'Projects',
        act: async () => {
          await mail.toolbarButton('Move to folder').click();
          const menu = page.getByRole('menu', { name: 'Move to folder' });
          await screenshot(page, 'flow-move-menu');
          await menu.getByRole('menuitem', { name: 'Projects', exact: true }).click();
        },
      },
      { how: 'toolbar: Delete', folder: 'Trash', imapFolder: 'Trash', act: () => mail.toolbarButton('Delete').click() },
      { how: 'key #', folder: 'Trash', imapFolder: 'Trash', act: () => page.keyboard.press('#') },
      { how: 'key e', folder: 'Archive', imapFolder: 'Archive', act: () => page.keyboard.press('e') },
    ];
    const done: { subject: string; action: Action; before: number }[] = [];
    for (const [index, action] of actions.entries()) {
      // Each time the first row that is not a probe (the list shrinks under us).
      // Found by id, not by name: a row's name carries passing states ("Saving changes" while the
      // auto-advance's mark-read is on its way), so a name read now may be gone a moment later.
      const rowId = (await mail
        .threadList()
        .locator('[role="option"]:not([aria-disabled="true"])')
        .evaluateAll(
          (rows, skip) =>
            rows
              .map((row) => ({ at: Number(row.getAttribute('aria-posinset')), id: row.id, name: row.getAttribute('aria-label') ?? '' }))
              .sort((a, b) => a.at - b.at)
              .find((row) => !skip.some((probe) => row.name.includes(probe)))?.id,
          probes,
        ))!;
      const row = page.locator(`[id="${rowId}"]`);
      const subject = await openRow(row);
      const before = count(await imap(action.imapFolder), subject);
      if (action.how.startsWith('key')) await mail.threadList().focus();
      const pressed = performance.now();
      await action.act();
      // Optimistic: gone from the list (and the next thread open in its place) well before any round trip could be relied on.
      await page.locator(`[id="${rowId}"]`).waitFor({ state: 'detached', timeout: 1_500 });
      const gone = performance.now() - pressed;
      await page.locator(`.reading-pane[data-thread-key]:not([data-thread-key="${rowId.slice('thread-'.length)}"])`).waitFor();
      console.log(`[flows] ${action.how}: row left the list after ${Math.round(gone)} ms`);
      if (index === 0) await screenshot(page, 'flow-after-move');
      done.push({ subject, action, before });
    }
    // On the server: each in its folder, one thread's worth more than before.
    for (const { subject, action, before } of done) {
      await eventually(async () => count(await imap(action.imapFolder), subject) > before, 15_000, `"${subject}" in ${action.imapFolder} on the server`);
    }
    // In the UI: each folder lists what landed there.
    for (const folder of ['Projects', 'Trash', 'Archive']) {
      await openFolder(alice.email, folder);
      for (const { subject } of done.filter((item) => item.action.folder === folder)) {
        await rowWith(page, `, ${subject}, `).first().waitFor({ timeout: 10_000 });
      }
      await screenshot(page, `flow-folder-${folder.toLowerCase()}`);
    }
    expect(tab.errors).toEqual([]);
  });

  test('6. search from the toolbar box (/ focuses it) finds a seeded subject in both accounts', async () => {
    await page.getByRole('link', { name: /^All inboxes/ }).click();
    await mail.waitForRows();
    // A subject both seeded mailboxes hold (the two seeds draw from one corpus).
    const [aliceSubjects, bobSubjects] = await Promise.all([
      imapSubjects(demo.mail.host, demo.mail.imap, alice, 'INBOX'),
      imapSubjects(demo.mail.host, demo.mail.imap, bob, 'INBOX'),
    ]);
    const inBob = new Set(bobSubjects.map(baseSubject));
    const shared = [...new Set(aliceSubjects.map(baseSubject))].filter((subject) => inBob.has(subject) && /^[\w ,:!'-]+$/.test(subject) && subject.split(' ').length >= 3);
    expect(shared.length, 'a seeded subject in both inboxes').toBeGreaterThan(0);
    const subject = shared[0]!;

    await mail.threadList().focus();
    await page.keyboard.press('/');
    await expect.poll(() => mail.searchBox().evaluate((input) => input === document.activeElement)).toBe(true);
    await page.keyboard.type(`"${subject}"`);
    await page.getByRole('listbox', { name: 'Search results' }).waitFor();
    await expect.poll(() => page.evaluate(() => new URL(location.href).searchParams.get('q'))).toBe(`"${subject}"`);
    await mail.waitForRows();
    const names = await eventually(async () => {
      const now = await rowNames(page);
      return now.some((name) => name.endsWith(`in ${alice.email}`)) && now.some((name) => name.endsWith(`in ${bob.email}`)) ? now : null;
    }, 15_000, 'results from both accounts');
    for (const name of names) expect(name).toMatch(literal(subject));
    console.log(`[flows] search "${subject}": ${names.length} threads`);
    await screenshot(page, 'flow-search-results');
    // Escape clears it and brings the inbox back.
    await mail.searchBox().focus();
    await page.keyboard.press('Escape');
    await page.getByRole('listbox', { name: 'All inboxes' }).waitFor();
  });

  test('7. dark mode from the settings dropdown', async () => {
    const theme = () => page.evaluate(() => document.documentElement.dataset.theme);
    const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    await expect(theme()).resolves.toBe('light');
    const lightBackground = await background();
    const settings = await mail.openSettings();
    await settings.getByRole('menuitemradio', { name: /^Dark/ }).click();
    await expect.poll(theme).toBe('dark');
    expect(await background()).not.toBe(lightBackground);
    await expect(page.evaluate(() => getComputedStyle(document.documentElement).colorScheme)).resolves.toBe('dark');
    // The open conversation's frame follows too.
    await mail.row(0).click();
    await page.getByRole('region', { name: /^Conversation: / }).waitFor();
    await page.waitForTimeout(300);
    await screenshot(page, 'flow-dark-mode');
    // It is remembered: a reload stays dark.
    await page.reload();
    await mail.waitForRows();
    await expect(theme()).resolves.toBe('dark');
    const again = await mail.openSettings();
    await expect(again.getByRole('menuitemradio', { name: /^Dark/ }).getAttribute('aria-checked')).resolves.toBe('true');
    await again.getByRole('menuitemradio', { name: /^Light/ }).click();
    await expect.poll(theme).toBe('light');
    expect(tab.errors).toEqual([]);
  });
});
