/**
 * Contacts end to end on the demo (issue 18): a card created on the Contacts screen is saved
 * through the engine and the gateway and is still there after a reload; a second card with the
 * same address (by the spec's equivalence) is offered for merging and merged; a delete is
 * undone from its toast; the composer suggests the card by its last name; a Google CSV export
 * (BOM, ` ::: ` multi-values, an invalid row) is imported through the column mapping and the
 * gateway's job, and importing it again adds nothing; a contact list of two cards (Bob and
 * Alice herself) is written to as one chip and both receive the message (checked over IMAP);
 * a sender added from a message opens from the toast, with the conversation in its recent mail;
 * one letter in the composer suggests Bob, whom Alice writes to most;
 * the screen and the import dialog
 * photographed at 1366×768 and 390×844, light and dark, in English and German.
 */
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { screenshot } from './chromium';
import { createTransport } from 'nodemailer';
import { eventually, imapSubjects, literal, openThread, startLoggedIn, type Watched } from './demo-session';
import { composerForm } from './mail-page';

const baseUrl = inject('baseUrl');
const demo = inject('demo');
const { alice, bob } = demo;

let browser: Browser;
let tab: Watched;
let page: Page;

beforeAll(async () => {
  ({ browser, tab, page } = await startLoggedIn(baseUrl, alice, { viewport: { width: 1366, height: 768 } }));
});
/**
 * Leaves Alice's book as this file's import and list tests found it (other files' composers
 * would otherwise suggest "Bo Listmate…" for Bob): their cards and lists deleted through the
 * gateway with the page's own session, even when a test failed.
 */
async function removeWhatTheseTestsAdded(): Promise<number> {
  return page.evaluate(async () => {
    let removed = 0;
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open('tern-accounts');
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    const accounts = await new Promise<{ api: string; token: string }[]>((resolve) => {
      const request = db.transaction('accounts').objectStore('accounts').getAll();
      request.onsuccess = () => resolve(request.result as { api: string; token: string }[]);
    });
    db.close();
    for (const { api, token } of accounts) {
      const call = (method: string, path: string) => fetch(`${api}${path}`, { method, headers: { authorization: `Bearer ${token}` } });
      const book = (await (await call('GET', '/contacts?limit=2000')).json()) as { contacts: { id: string; lastName: string; emails: string[] }[] };
      const added = book.contacts.filter((card) => card.lastName.startsWith('Listmate') || card.emails.some((email) => /@(yarrow|yasen)\.test$/.test(email)));
      for (const card of added) removed += Number((await call('DELETE', `/contacts/${card.id}`)).ok);
      const lists = (await (await call('GET', '/contact-lists')).json()) as { lists?: { id: string; name: string }[] };
      for (const list of lists.lists ?? []) if (list.name.startsWith('Crew ')) removed += Number((await call('DELETE', `/contact-lists/${list.id}`)).ok);
    }
    return removed;
  });
}

afterAll(async () => {
  const removed = await removeWhatTheseTestsAdded().catch((error: unknown) => console.warn(`contacts e2e clean-up: ${String(error)}`));
  console.info(`contacts e2e: removed ${String(removed)} cards and lists it had added`);
  await browser?.close();
});

const list = () => page.getByRole('listbox', { name: /\d+ contacts?$/ });

async function createCard(fields: { first: string; last: string; email: string; phone?: string; company?: string }) {
  await page.getByRole('button', { name: 'New contact' }).click();
  await page.getByLabel('First name').fill(fields.first);
  await page.getByLabel('Last name').fill(fields.last);
  await page.getByLabel('Email addresses 1').fill(fields.email);
  if (fields.phone) await page.getByLabel('Phone numbers 1').fill(fields.phone);
  if (fields.company) await page.getByLabel('Company').fill(fields.company);
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await list().getByRole('option', { name: new RegExp(`^${literal(`${fields.first} ${fields.last}`).source}`) }).waitFor();
}

describe('the Contacts screen', () => {
  test('create, survive a reload, merge a duplicate, delete and undo; a bad address is refused in place', async () => {
    await page.getByRole('button', { name: 'Contacts' }).click();
    await page.getByRole('heading', { name: 'Contacts', level: 1 }).waitFor();
    await createCard({ first: 'Zoe', last: 'Quartz', email: 'zoe.quartz@kite.test', phone: '+49 30 1234', company: 'Kite' });
    await createCard({ first: 'Zoe', last: 'Q.', email: 'Zoe.Quartz+work@kite.test' });

    // A bad address: refused with the field marked, nothing lost of what was typed.
    await page.getByRole('button', { name: 'New contact' }).click();
    await page.getByLabel('First name').fill('Broken');
    await page.getByLabel('Email addresses 1').fill('not an address');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.locator('.contact-error').waitFor();
    expect(await page.getByLabel('Email addresses 1').getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByLabel('First name').inputValue()).toBe('Broken');
    await page.getByRole('button', { name: 'Cancel' }).click();

    await page.reload();
    await list().getByRole('option', { name: /Zoe Quartz/ }).waitFor();
    expect(await list().getByRole('option').count()).toBe(2);

    // The two share an address by the equivalence (case, +suffix): one merge.
    await page.getByText(/1 possible duplicate/).click();
    await page.getByRole('button', { name: 'Merge' }).click();
    await page.getByLabel('Email addresses 2').waitFor();
    expect(await page.getByLabel('Email addresses 1').inputValue()).toBe('zoe.quartz@kite.test');
    expect(await list().getByRole('option').count()).toBe(1);

    // Search, then delete and undo.
    await page.getByRole('searchbox', { name: 'Search contacts' }).fill('1234');
    expect(await list().getByRole('option').count()).toBe(1);
    await page.getByRole('searchbox', { name: 'Search contacts' }).fill('');
    await page.getByRole('button', { name: 'Delete' }).click();
    await page.getByText('Zoe Quartz deleted.').waitFor();
    await page.getByRole('button', { name: 'Undo' }).click();
    await list().getByRole('option', { name: /Zoe Quartz/ }).waitFor();
    expect(tab.errors).toEqual([]);
  });

  test('keyboard: "/" searches, the list moves with the arrows and Enter opens, Escape closes', async () => {
    await createCard({ first: 'Abe', last: 'Keys', email: 'abe@kite.test' });
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.keyboard.press('/');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('type'))).toBe('search');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Home');
    await page.keyboard.press('Enter');
    expect(await page.getByLabel('First name').inputValue()).toBe('Abe');
    await page.keyboard.press('Escape');
    await page.getByText(/contacts\. Choose one/).waitFor();
  });

  test('the composer suggests a card by its last name and takes it as a chip', async () => {
    await page.goto(`${baseUrl}/mail/unified/inbox`);
    await page.getByRole('button', { name: 'Compose', exact: true }).click();
    const box = composerForm(page);
    await box.waitFor();
    const to = box.getByRole('combobox', { name: 'To' });
    await to.pressSequentially('quar');
    const suggestions = page.getByRole('listbox', { name: /Suggestions/ });
    await suggestions.getByRole('option').first().waitFor();
    expect(await suggestions.getByRole('option').first().textContent()).toContain('Zoe Quartz');
    await to.press('Enter');
    await box.getByText('Zoe Quartz').waitFor();
    await page.keyboard.press('Escape');
  });

  test('import a Google CSV: the mapping is shown and confirmed, the invalid row left out on consent, progress, the cards listed; the same file again adds nothing', async () => {
    const googleCsv = [
      'First Name,Middle Name,Last Name,Nickname,Organization Name,Notes,Labels,E-mail 1 - Label,E-mail 1 - Value,E-mail 2 - Label,E-mail 2 - Value,Phone 1 - Label,Phone 1 - Value',
      'Ulla,,Yarrowby,,Yarrow GmbH,,* myContacts,* Work,ulla@yarrow.test ::: ulla.home@yarrow.test,,,Mobile,+49 170 1 ::: +49 30 2',
      'Вера,,Ясенева,,,,* myContacts,* Home,vera@yasen.test,,,,',
      'Olaf,,Yarrowby,,,Cousin,* myContacts,Work,olaf@yarrow.test,Home,OLAF+home@yarrow.test,,',
      'Broken,,Row,,,,* myContacts,Work,not-an-address,,,,',
    ].join('\r\n');
    const file = { name: 'google.csv', mimeType: 'text/csv', buffer: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(googleCsv, 'utf8')]) };
    await page.goto(`${baseUrl}/contacts`);
    await page.getByRole('heading', { name: 'Contacts', level: 1 }).waitFor();
    const importFile = async () => {
      await page.getByRole('button', { name: 'Import and export' }).click();
      await page.getByRole('menuitem', { name: 'Import from a file…' }).click();
      const dialog = page.getByRole('dialog', { name: 'Import contacts' });
      await dialog.getByLabel('File').setInputFiles(file);
      await dialog.getByText('3 contacts will be imported.').waitFor();
      return dialog;
    };
    const dialog = await importFile();
    // Mapped by header name: the address column as such, its label column not; empty columns left out of the table.
    expect(await dialog.getByRole('combobox', { name: 'Imported as: E-mail 1 - Value' }).inputValue()).toBe('email');
    expect(await dialog.getByRole('combobox', { name: 'Imported as: E-mail 1 - Label' }).inputValue()).toBe('ignore');
    expect(await dialog.getByRole('combobox', { name: 'Imported as: Middle Name' }).count()).toBe(0);
    await dialog.getByText('Row 5: “not-an-address” is not an email address').waitFor();
    const importButton = dialog.getByRole('button', { name: 'Import', exact: true });
    expect(await importButton.isDisabled()).toBe(true);
    await dialog.getByLabel('Leave these rows out and import the rest').check();
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await screenshot(page, `contacts-import-1366-${scheme}`);
      await page.setViewportSize({ width: 390, height: 844 });
      await screenshot(page, `contacts-import-390-${scheme}`);
      await page.setViewportSize({ width: 1366, height: 768 });
    }
    await page.emulateMedia({ colorScheme: 'light' });
    await importButton.click();
    await dialog.getByText('Imported: 3 new, 0 completed, 0 already there. 1 invalid row was left out.').waitFor();
    await screenshot(page, 'contacts-import-done-1366-light');
    await dialog.getByRole('button', { name: 'Close', exact: true }).last().click();
    await list().getByRole('option', { name: /^Ulla Yarrowby/ }).click();
    expect(await page.getByLabel('Email addresses 2').inputValue()).toBe('ulla.home@yarrow.test');
    expect(await page.getByLabel('Phone numbers 2').inputValue()).toBe('+49 30 2');
    await list().getByRole('option', { name: /^Вера Ясенева/ }).waitFor();

    // The same file again: every card is already there.
    const again = await importFile();
    await again.getByLabel('Leave these rows out and import the rest').check();
    await again.getByRole('button', { name: 'Import', exact: true }).click();
    await again.getByText('Imported: 0 new, 0 completed, 3 already there. 1 invalid row was left out.').waitFor();
    await again.getByRole('button', { name: 'Close', exact: true }).last().click();
    expect(await list().getByRole('option', { name: /Yarrowby/ }).count()).toBe(2);
    expect(tab.errors).toEqual([]);
  });

  test('a contact list: made, two cards put in it, written to as one chip; every member receives the message over IMAP', async () => {
    const stamp = Date.now().toString(36);
    const listName = `Crew ${stamp}`;
    const subject = `To the crew ${stamp}`;
    await page.goto(`${baseUrl}/contacts`);
    await page.getByRole('heading', { name: 'Contacts', level: 1 }).waitFor();
    await createCard({ first: 'Bo', last: `Listmate${stamp}`, email: bob.email });
    await createCard({ first: 'Al', last: `Listmate${stamp}`, email: alice.email });
    if (!(await page.getByLabel('New list name').isVisible())) await page.locator('summary', { hasText: 'Contact lists' }).click();
    await page.getByLabel('New list name').fill(listName);
    await page.getByRole('button', { name: 'Create list' }).click();
    const lists = page.getByRole('list', { name: 'Your contact lists' });
    await lists.getByText(listName).waitFor();
    for (const first of ['Bo', 'Al']) {
      await list().getByRole('option', { name: new RegExp(`^${first} Listmate${stamp}`) }).click();
      await page.getByRole('checkbox', { name: listName }).check();
    }
    await lists.getByRole('listitem').filter({ hasText: listName }).getByText('2 people').waitFor();
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await screenshot(page, `contacts-lists-1366-${scheme}`);
      await page.setViewportSize({ width: 390, height: 844 });
      await screenshot(page, `contacts-lists-card-390-${scheme}`);
      await page.setViewportSize({ width: 1366, height: 768 });
    }
    await page.emulateMedia({ colorScheme: 'light' });

    await page.goto(`${baseUrl}/mail/unified/inbox`);
    await page.getByRole('button', { name: 'Compose', exact: true }).click();
    const box = composerForm(page);
    await box.waitFor();
    await box.getByRole('combobox', { name: 'To' }).pressSequentially('crew');
    const suggestions = page.getByRole('listbox', { name: /Suggestions/ });
    await suggestions.getByRole('option', { name: new RegExp(`${literal(listName).source}.*Contact list of 2 people`) }).click();
    const chip = box.getByRole('button', { name: `${listName}, a contact list of 2: open it into its members` });
    await chip.waitFor();
    expect(await chip.textContent()).toBe(`${listName} (2)`);
    await screenshot(page, 'contacts-list-chip-1366-light');
    await box.getByLabel('Subject').fill(subject);
    await box.getByRole('textbox', { name: 'Message body' }).fill('Hello crew.');
    await box.getByRole('button', { name: 'Send' }).click();
    for (const login of [bob, alice]) {
      await eventually(async () => (await imapSubjects(demo.mail.host, demo.mail.imap, login, 'INBOX')).includes(subject), 20_000, `${subject} in ${login.email}'s INBOX`);
    }
    expect(tab.errors).toEqual([]);
  });

  test('from a message: add the sender, open the card from the toast, its recent mail opens the conversation; one letter suggests the person written to most first', async () => {
    const stamp = Date.now().toString(36);
    const subject = `Hello from Petra ${stamp}`;
    const transport = createTransport({ host: demo.mail.host, port: demo.mail.smtp, secure: false, ignoreTLS: true });
    try {
      await transport.sendMail({ from: `Petra Yarrowfield <petra.${stamp}@yarrow.test>`, to: alice.email, subject, text: 'Shall we meet on Thursday?' });
    } finally {
      transport.close();
    }
    await page.goto(`${baseUrl}/mail/unified/inbox`);
    const conversation = await openThread(page, subject);
    await conversation.getByRole('button', { name: 'Add to contacts' }).click();
    await page.getByText('Petra Yarrowfield added to your contacts.').waitFor();
    await page.getByRole('button', { name: 'Open contact' }).click();
    await page.getByRole('heading', { name: 'Petra Yarrowfield', level: 2 }).waitFor();
    const recent = page.getByRole('region', { name: 'Recent mail' });
    const row = recent.getByRole('button', { name: literal(subject) });
    await row.waitFor();
    await recent.getByRole('button', { name: 'All mail with Petra Yarrowfield' }).waitFor();
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await screenshot(page, `contacts-recent-mail-1366-${scheme}`);
      await page.setViewportSize({ width: 390, height: 844 });
      await recent.scrollIntoViewIfNeeded();
      await screenshot(page, `contacts-recent-mail-390-${scheme}`);
      await page.setViewportSize({ width: 1366, height: 768 });
    }
    await page.emulateMedia({ colorScheme: 'light' });
    await row.click();
    await page.getByRole('region', { name: `Conversation: ${subject}` }).waitFor();
    expect(new URL(page.url()).searchParams.get('q')).toContain('yarrow.test');
    // Again from the message: the book has the address already, and says so.
    await page.getByRole('region', { name: `Conversation: ${subject}` }).getByRole('button', { name: 'Add to contacts' }).click();
    await page.getByText('Petra Yarrowfield is already in your contacts.').waitFor();

    // The composer: one letter, and Bob — whom Alice writes to most (the seeded mail, the list above) — comes first.
    await page.goto(`${baseUrl}/mail/unified/inbox`);
    await page.getByRole('button', { name: 'Compose', exact: true }).click();
    const box = composerForm(page);
    await box.waitFor();
    const to = box.getByRole('combobox', { name: 'To' });
    await to.pressSequentially('b');
    const suggestions = page.getByRole('listbox', { name: /Suggestions/ });
    await suggestions.getByRole('option').first().waitFor();
    expect(await suggestions.getByRole('option').first().textContent()).toContain(bob.email);
    await screenshot(page, 'contacts-suggest-one-letter-1366-light');
    await to.fill('');
    await page.keyboard.press('Escape');
    expect(tab.errors).toEqual([]);
  });

  test('the screen at 1366×768 and 390×844, light and dark, English and German', async () => {
    await page.goto(`${baseUrl}/contacts`);
    await list().waitFor();
    await list().getByRole('option', { name: /Zoe Quartz/ }).click();
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.setViewportSize({ width: 1366, height: 768 });
      await screenshot(page, `contacts-1366-${scheme}-en`);
      await page.setViewportSize({ width: 390, height: 844 });
      await screenshot(page, `contacts-card-390-${scheme}-en`);
      await page.getByRole('button', { name: 'Back to contacts' }).click();
      await screenshot(page, `contacts-list-390-${scheme}-en`);
      await list().getByRole('option', { name: /Zoe Quartz/ }).click();
    }
    // German: the language preference (it roams), then back to English for the files after this one.
    await page.setViewportSize({ width: 1366, height: 768 });
    await page.goto(`${baseUrl}/settings/general`);
    await page.getByRole('combobox', { name: 'Language' }).selectOption('de');
    await page.getByRole('heading', { name: 'Allgemein', level: 2 }).waitFor();
    await page.goto(`${baseUrl}/contacts`);
    await page.getByRole('heading', { name: 'Kontakte', level: 1 }).waitFor();
    await page.getByRole('listbox', { name: /Kontakt/ }).getByRole('option', { name: /Zoe Quartz/ }).click();
    await screenshot(page, 'contacts-1366-dark-de');
    await page.goto(`${baseUrl}/settings/general`);
    await page.getByRole('combobox', { name: 'Sprache' }).selectOption('en');
    await page.getByRole('heading', { name: 'General', level: 2 }).waitFor();
  });
});
