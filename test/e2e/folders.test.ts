/**
 * The everyday controls of issue points 22 and 25 on the demo (global-setup.ts), each
 * checked on the mail server itself over IMAP: folders created, renamed, moved (nested) and
 * deleted from the sidebar (with the catalogue's refusals next to the field); Not spam; Empty
 * Trash with its confirmation; Move in the unified inbox (each thread to its own account's
 * folder); the reading pane naming the account; Print; the inbox count moving with the row
 * on Shift+I; and an unknown mail domain refused at the email step. Screenshots at 1366×768
 * and 390×844, light and dark. The messages and folders used are this file's own.
 */
import type { ImapFlow } from 'imapflow';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, inject, test } from 'vitest';
import { launchChromium, screenshot } from './chromium';
import { accountSection, addAccount, eventually, folderLink, imapSubjects, literal, logIn, openFolder, rowWith, unreadOf, watch, withImapOf, type Watched } from './demo-session';
import type { E2eLogin } from './demo-setup';

const baseUrl = inject('baseUrl');
const demo = inject('demo');
const { alice, bob } = demo;
const stamp = Date.now().toString(36);

let browser: Browser;
let context: BrowserContext;
let tab: Watched;
let page: Page;

/** Runs `work` with an IMAP session of `login`. */
const withImap = <T>(login: E2eLogin, work: (client: ImapFlow) => Promise<T>) => withImapOf(demo.mail.host, demo.mail.imap, login, work);

/** How many messages a folder of `login` holds on the server. */
const serverCount = (login: E2eLogin, folder: string) => withImap(login, async (client) => {
  const status = await client.status(folder, { messages: true });
  return status ? (status.messages ?? 0) : 0;
});

/** The folder paths the server has for `login`. */
const serverFolders = (login: E2eLogin) => withImap(login, async (client) => (await client.list()).map((folder) => folder.path));

/** Puts a message straight into a folder on the server (as another mail program would). */
const append = (login: E2eLogin, folder: string, subject: string, minutesAgo = 1) =>
  withImap(login, async (client) => {
    const date = new Date(Date.now() - minutesAgo * 60_000);
    const raw = [`From: Zoe Folders <zoe@kite.test>`, `To: ${login.email}`, `Subject: ${subject}`, `Date: ${date.toUTCString()}`, `Message-ID: <${subject.replace(/\W/g, '')}@e2e.test>`, '', `Body of ${subject}.`, ''].join('\r\n');
    await client.append(folder, raw, [], date);
  });

const folderDialog = (name: string | RegExp) => page.getByRole('dialog', { name });
const notifications = () => page.getByRole('region', { name: 'Notifications' });

/** Screenshots of what is on screen now in the light and the dark theme. */
async function bothThemes(name: string): Promise<void> {
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    await screenshot(page, `${name}-${colorScheme}`);
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

const PRINT_ME = `Print me ${stamp}`;
const COUNT_FOLLOWS = `Count follows ${stamp}`;

beforeAll(async () => {
  // Mail for tests 5 and 6, there before the tab opens (the mirror's pick-up time is not what they test).
  await append(alice, 'INBOX', PRINT_ME, 2);
  await append(alice, 'INBOX', COUNT_FOLLOWS, 1);
  browser = await launchChromium();
  context = await browser.newContext({ viewport: { width: 1366, height: 768 }, colorScheme: 'light' });
  tab = watch(await context.newPage());
  page = tab.page;
  await logIn(page, baseUrl, alice);
  await addAccount(page, bob);
  await openFolder(page, alice.email, 'Inbox');
});
afterEach(async () => {
  // A test that failed with a dialog open must not leave it blocking the next one.
  for (let i = 0; i < 3 && (await page.locator('dialog[open]').count()) > 0; i++) await page.keyboard.press('Escape');
});
afterAll(async () => {
  await browser?.close();
});

describe('folders and everyday controls on the demo', () => {
  test('1. New folder, Rename, Move to… and Delete from the sidebar change the folders on the server; refusals show by the field', async () => {
    const first = `Receipts ${stamp}`;
    const parent = `Clients ${stamp}`;
    const section = accountSection(page, alice.email);

    // New folder: a name the spec refuses is said as typed; nothing reaches the server.
    await section.getByRole('button', { name: 'New folder' }).click();
    let dialog = folderDialog('New folder');
    const name = dialog.getByRole('textbox', { name: 'Folder name' });
    await expect.poll(() => name.evaluate((input) => input === document.activeElement)).toBe(true);
    await name.fill('Bills/2026');
    await dialog.getByRole('alert').filter({ hasText: 'A folder name cannot contain “/”' }).waitFor();
    await name.fill('x'.repeat(256));
    await dialog.getByRole('alert').filter({ hasText: 'Folder names can be at most 255 characters long.' }).waitFor();
    await name.fill(first);
    await bothThemes('folders-new-dialog-1366');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await dialog.waitFor({ state: 'detached' });
    await folderLink(page, alice.email, first).waitFor();
    await eventually(async () => (await serverFolders(alice)).includes(first), 15_000, `${first} on the server`);

    // The same name again: the server's refusal in the catalogue's words, next to the field.
    await section.getByRole('button', { name: 'New folder' }).click();
    dialog = folderDialog('New folder');
    await dialog.getByRole('textbox', { name: 'Folder name' }).fill(first);
    await dialog.getByRole('button', { name: 'Create' }).click();
    await dialog.getByRole('alert').filter({ hasText: 'A folder with this name already exists.' }).waitFor();
    await bothThemes('folders-new-taken-1366');
    await dialog.getByRole('textbox', { name: 'Folder name' }).fill(parent);
    await dialog.getByRole('button', { name: 'Create' }).click();
    await dialog.waitFor({ state: 'detached' });
    await folderLink(page, alice.email, parent).waitFor();

    // Rename from the folder's menu.
    const renamed = `Invoices ${stamp}`;
    await folderLink(page, alice.email, first).hover();
    await section.getByRole('button', { name: `More actions for ${first}` }).click();
    await bothThemes('folders-menu-1366');
    await page.getByRole('menuitem', { name: 'Rename…' }).click();
    dialog = folderDialog(`Rename “${first}”`);
    await dialog.getByRole('textbox', { name: 'Folder name' }).fill(renamed);
    await dialog.getByRole('button', { name: 'Rename' }).click();
    await dialog.waitFor({ state: 'detached' });
    await folderLink(page, alice.email, renamed).waitFor();
    await eventually(async () => {
      const paths = await serverFolders(alice);
      return paths.includes(renamed) && !paths.includes(first);
    }, 15_000, `${first} renamed to ${renamed} on the server`);

    // Move (nest) it under the other folder, from the keyboard: Shift+F10 on the folder opens its menu.
    await folderLink(page, alice.email, renamed).focus();
    await page.keyboard.press('Shift+F10');
    const menu = page.getByRole('menu', { name: `More actions for ${renamed}` });
    await menu.getByRole('menuitem', { name: 'Rename…' }).and(page.locator(':focus')).waitFor();
    await page.keyboard.press('ArrowDown'); // Rename… → Move to…
    await menu.getByRole('menuitem', { name: 'Move to…' }).and(page.locator(':focus')).waitFor();
    await page.keyboard.press('Enter');
    dialog = folderDialog(`Move “${renamed}”`);
    await dialog.getByRole('combobox', { name: 'Inside' }).selectOption({ label: parent });
    await dialog.getByRole('button', { name: 'Move' }).click();
    await dialog.waitFor({ state: 'detached' });
    await eventually(async () => (await serverFolders(alice)).includes(`${parent}/${renamed}`), 15_000, `${renamed} under ${parent} on the server`);
    await expect.poll(() => folderLink(page, alice.email, renamed).evaluate((link) => getComputedStyle(link).getPropertyValue('--depth').trim())).toBe('1');

    // Delete asks first, naming what goes; the folder and its subfolder go under Trash.
    await folderLink(page, alice.email, parent).hover();
    await section.getByRole('button', { name: `More actions for ${parent}` }).click();
    await page.getByRole('menuitem', { name: 'Delete…' }).click();
    dialog = folderDialog(`Delete “${parent}”?`);
    await dialog.getByText(`“${parent}”, with its 1 subfolder, will move to Trash, where you can restore it.`).waitFor();
    await bothThemes('folders-delete-dialog-1366');
    await dialog.getByRole('button', { name: 'Delete folder' }).click();
    await dialog.waitFor({ state: 'detached' });
    await eventually(async () => {
      const paths = await serverFolders(alice);
      return paths.includes(`Trash/${parent}/${renamed}`) && !paths.includes(parent);
    }, 15_000, `${parent} under Trash on the server`);
    expect(tab.errors).toEqual([]);
  });

  test('2. Not spam: in Spam the toolbar says Not spam, and the message goes back to the Inbox on the server', async () => {
    const junk = `Not really spam ${stamp}`;
    await append(alice, 'Junk', junk);
    await openFolder(page, alice.email, 'Spam');
    const row = rowWith(page, literal(junk));
    await row.waitFor({ timeout: 30_000 });
    await row.click();
    await page.getByRole('region', { name: `Conversation: ${junk}` }).waitFor();
    const toolbar = page.getByRole('toolbar', { name: 'Conversation actions' });
    expect(await toolbar.getByRole('button', { name: 'Report spam' }).count()).toBe(0);
    await bothThemes('folders-not-spam-1366');
    await toolbar.getByRole('button', { name: 'Not spam' }).click();
    await notifications().getByText('Conversation marked as not spam and moved to Inbox.').waitFor();
    await rowWith(page, literal(junk)).waitFor({ state: 'detached' });
    await eventually(async () => (await imapSubjects(demo.mail.host, demo.mail.imap, alice, 'INBOX')).includes(junk), 20_000, `${junk} in INBOX`);
    expect(await imapSubjects(demo.mail.host, demo.mail.imap, alice, 'Junk')).not.toContain(junk);
  });

  test('3. Empty Trash now asks with the count, then only Trash is emptied on the server', async () => {
    for (const [i, subject] of [`Old trash A ${stamp}`, `Old trash B ${stamp}`].entries()) await append(alice, 'Trash', subject, 5 + i);
    const inboxBefore = (await imapSubjects(demo.mail.host, demo.mail.imap, alice, 'INBOX')).length;
    await openFolder(page, alice.email, 'Trash');
    await rowWith(page, literal(`Old trash A ${stamp}`)).waitFor({ timeout: 30_000 });
    const empty = page.getByRole('button', { name: 'Empty Trash now' });
    await expect.poll(() => empty.isEnabled(), { timeout: 15_000 }).toBe(true);
    await empty.click();
    const dialog = folderDialog('Empty Trash?');
    // The count is the list's, as the toolbar shows it ("13 conversations").
    const shown = (await page.locator('.toolbar-count').textContent())?.trim() ?? '';
    expect(shown).toMatch(/^[\d,]+ conversations?$/);
    await dialog.getByText(`All ${shown} in Trash will be deleted forever. Nothing else is deleted, and this cannot be undone.`).waitFor();
    await bothThemes('folders-empty-trash-dialog-1366');
    await dialog.getByRole('button', { name: 'Empty Trash' }).click();
    await dialog.waitFor({ state: 'detached', timeout: 30_000 });
    await notifications().getByText(/^Trash emptied: [\d,]+ messages? deleted forever\.$/).waitFor();
    expect(await serverCount(alice, 'Trash')).toBe(0);
    expect((await imapSubjects(demo.mail.host, demo.mail.imap, alice, 'INBOX')).length).toBe(inboxBefore);
    await page.getByRole('button', { name: 'Empty Trash now' }).and(page.locator(':disabled')).waitFor({ timeout: 15_000 });
  });

  test('4. Move in the unified inbox: each thread goes to the chosen folder of its own account; the pane names the account', async () => {
    const forAlice = `Unified move A ${stamp}`;
    const forBob = `Unified move B ${stamp}`;
    await append(alice, 'INBOX', forAlice, 0);
    await append(bob, 'INBOX', forBob, 0);
    await page.getByRole('link', { name: /^All inboxes/ }).click();
    await rowWith(page, literal(forAlice)).waitFor({ timeout: 30_000 });
    await rowWith(page, literal(forBob)).waitFor({ timeout: 30_000 });

    // Which account a thread belongs to, in the reading pane's header.
    await rowWith(page, literal(forBob)).click();
    const conversation = page.getByRole('region', { name: `Conversation: ${forBob}` });
    await conversation.getByText('in bob@kite.test · Inbox').waitFor();
    await bothThemes('folders-pane-account-1366');

    await page.keyboard.press('Escape');
    for (const subject of [forAlice, forBob]) await rowWith(page, literal(subject)).click({ modifiers: ['Control'] });
    await page.getByText('2 selected').waitFor();
    await page.locator('#thread-list').focus();
    await page.keyboard.press('v');
    const menu = page.getByRole('menu', { name: 'Move to folder' });
    await bothThemes('folders-unified-move-menu-1366');
    await menu.getByRole('menuitem', { name: 'Archive', exact: true }).click();
    await notifications().getByText('2 conversations moved to Archive.').waitFor();
    await eventually(async () => (await imapSubjects(demo.mail.host, demo.mail.imap, alice, 'Archive')).includes(forAlice), 20_000, `${forAlice} in Alice's Archive`);
    await eventually(async () => (await imapSubjects(demo.mail.host, demo.mail.imap, bob, 'Archive')).includes(forBob), 20_000, `${forBob} in Bob's Archive`);
    expect(await imapSubjects(demo.mail.host, demo.mail.imap, alice, 'INBOX')).not.toContain(forAlice);
    expect(await imapSubjects(demo.mail.host, demo.mail.imap, bob, 'INBOX')).not.toContain(forBob);
  });

  test('5. Print prints just that message from a sandboxed frame with its header; nothing from the mail runs', async () => {
    const subject = PRINT_ME;
    await openFolder(page, alice.email, 'Inbox');
    await rowWith(page, literal(subject)).waitFor({ timeout: 60_000 });
    await rowWith(page, literal(subject)).click();
    const conversation = page.getByRole('region', { name: `Conversation: ${subject}` });
    await conversation.getByText(`Body of ${subject}.`).waitFor();
    await conversation.getByRole('button', { name: 'Print' }).click();
    const frame = page.locator('iframe[data-tern-print]');
    await frame.waitFor({ state: 'attached' });
    expect(await frame.getAttribute('sandbox')).toBe('allow-same-origin allow-modals');
    const printed = await eventually(() => page.frames().find((candidate) => candidate.parentFrame() !== null && candidate.url() === 'about:srcdoc' && candidate !== page.mainFrame()), 10_000, 'the print frame');
    await eventually(async () => (await printed.locator('.tern-print-header').count()) > 0, 10_000, 'the print header');
    expect(await printed.locator('.tern-print-header h1').textContent()).toBe(subject);
    expect(await printed.locator('.tern-print-header').textContent()).toMatch(/^Print me \w+FromZoe Folders <zoe@kite\.test>Toalice@tern\.testDate\w+/);
    expect(await printed.locator('body').textContent()).toContain(`Body of ${subject}.`);
    expect(await printed.locator('script').count()).toBe(0);
  });

  test('6. Shift+I: the sidebar count changes in the same frame as the row stops being bold', async () => {
    const subject = COUNT_FOLLOWS;
    await openFolder(page, alice.email, 'Inbox');
    const inbox = folderLink(page, alice.email, 'Inbox');
    const row = rowWith(page, literal(subject));
    await row.waitFor({ timeout: 60_000 });
    await row.click({ modifiers: ['Control'] }); // checked, not opened (opening would read it)
    await expect.poll(() => row.evaluate((element) => element.classList.contains('is-unread'))).toBe(true);
    expect(await unreadOf(inbox)).toBeGreaterThan(0);
    // Each animation frame notes the row's weight and the count, from before the key until both changed.
    await row.evaluate((element) => {
      const frames: string[] = [];
      (window as unknown as { frames_: string[] }).frames_ = frames;
      const count = () => /([\d,]+)\s*unread/.exec(document.querySelector('nav[aria-label="Mailboxes"] section a[aria-current="page"]')?.textContent ?? '')?.[1] ?? '0';
      const sample = () => {
        const row = document.getElementById(element.id);
        frames.push(`${row?.classList.contains('is-unread') ? 'bold' : 'plain'}:${count().replaceAll(',', '')}`);
        if (frames.length < 600) requestAnimationFrame(sample);
      };
      requestAnimationFrame(sample);
    });
    await page.locator('#thread-list').focus();
    // The key waits for the sampler's first frame (the row still bold): otherwise, on a loaded machine, the
    // first frame sampled may already be after the change, with no bold frame to compare against.
    await expect.poll(() => page.evaluate(() => (window as unknown as { frames_: string[] }).frames_.filter((sample) => sample.startsWith('bold:')).length)).toBeGreaterThan(0);
    await page.keyboard.press('Shift+I');
    await expect.poll(() => row.evaluate((element) => element.classList.contains('is-unread'))).toBe(false);
    const frames = await page.evaluate(() => (window as unknown as { frames_: string[] }).frames_.slice());
    // The count in the last frame with the row still bold, and in every frame after it: one less, from the first plain frame on.
    const lastBold = frames.map((sample) => sample.split(':')).filter(([weight]) => weight === 'bold').at(-1);
    expect(lastBold).toBeDefined();
    const plain = frames.filter((sample) => sample.startsWith('plain:'));
    expect(plain.length).toBeGreaterThan(0);
    expect(new Set(plain)).toEqual(new Set([`plain:${Number(lastBold![1]) - 1}`]));
    await expect.poll(() => unreadOf(inbox)).toBe(Number(lastBold![1]) - 1);
  });

  test('7. at 390×844: the folder dialog and Empty Spam fit the phone, light and dark', async () => {
    // Empty Spam's confirmation (cancelled: the demo's spam stays).
    await openFolder(page, alice.email, 'Spam');
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole('button', { name: 'Empty Spam now' }).click();
    const empty = folderDialog('Empty Spam?');
    await empty.getByText(/in Spam will be deleted forever\./).waitFor();
    const emptyBox = await empty.boundingBox();
    expect(emptyBox && emptyBox.x >= 0 && emptyBox.x + emptyBox.width <= 390).toBe(true);
    await bothThemes('folders-empty-spam-dialog-390');
    await empty.getByRole('button', { name: 'Cancel' }).click();
    await empty.waitFor({ state: 'detached' });

    // On a phone the folders are a pane of their own (the Folders button); its "New folder" opens the same dialog.
    await page.getByRole('button', { name: 'Folders' }).click();
    await page.locator('.nav-new-folder').first().click();
    const dialog = folderDialog('New folder');
    await dialog.waitFor();
    await dialog.getByRole('textbox', { name: 'Folder name' }).fill('Bills*');
    await dialog.getByRole('alert').filter({ hasText: 'A folder name cannot contain % or *.' }).waitFor();
    const box = await dialog.boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= 390).toBe(true);
    await bothThemes('folders-new-dialog-390');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await page.setViewportSize({ width: 1366, height: 768 });
  });

  test('8. an unknown mail domain is refused at the email step, before any password, in the catalogue’s words', async () => {
    const fresh = await browser.newContext({ viewport: { width: 1366, height: 768 }, colorScheme: 'light' });
    try {
      const login = await fresh.newPage();
      await login.goto(baseUrl);
      await login.getByRole('heading', { name: 'Sign in' }).waitFor();
      await login.getByLabel('Email address').fill('someone@nowhere.invalid');
      await login.getByRole('button', { name: 'Next' }).click();
      const email = login.getByLabel('Email address');
      await expect.poll(() => email.getAttribute('aria-invalid'), { timeout: 15_000 }).toBe('true');
      const said = await login.locator(`#${await email.getAttribute('aria-describedby')}`).textContent();
      expect(['No mail server was found for this domain.', "Sorry, we currently don't support your email service provider", 'Invalid IMAP Host'].some((text) => said?.includes(text))).toBe(true);
      expect(await login.getByLabel('Password', { exact: true }).count()).toBe(0);
      for (const colorScheme of ['light', 'dark'] as const) {
        await login.emulateMedia({ colorScheme });
        await screenshot(login, `login-unknown-domain-1366-${colorScheme}`);
      }
      await login.setViewportSize({ width: 390, height: 844 });
      await screenshot(login, 'login-unknown-domain-390-dark');
    } finally {
      await fresh.close();
    }
  });
});
