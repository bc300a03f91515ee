/**
 * Labels end to end on the demo (issue 17 point 1): Settings → Labels refuses an empty and a
 * taken name in the catalogue's words and keeps what was typed, then creates a label; `l`
 * on the inbox's first conversation opens "Label as" and gives it; the row says so; the
 * sidebar's label lists it alone; a second conversation dragged onto the sidebar label gets
 * it too. Photographed at 1366×768 and 390×844, light and dark. The label is deleted in
 * afterAll through the gateway (it runs even when a test fails), so the other files see
 * Alice's mail as they left it: deleting a label takes its keyword off every message.
 */
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { labelsDocSchema } from '../../shared/api/labels';
import { loginResponseSchema } from '../../shared/api/account';
import { photographThemes } from './chromium';
import { accountSection, eventually, openFolder, rowWith, startInInbox, type Watched } from './demo-session';
import { MailPage } from './mail-page';

const baseUrl = inject('baseUrl');
const { alice } = inject('demo');
const NAME = 'Trips E2E';

let browser: Browser;
let tab: Watched;
let page: Page;

beforeAll(async () => {
  ({ browser, tab, page } = await startInInbox(baseUrl, alice));
});

/** Deletes the label over the gateway's own API with a session of its own (the app's may be gone with a failed test). */
afterAll(async () => {
  await browser?.close();
  const login = await fetch(`${baseUrl}/api/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: alice.email, password: alice.password }) });
  const { token } = loginResponseSchema.parse(await login.json());
  const headers = { authorization: `Bearer ${token}` };
  const doc = labelsDocSchema.parse(await (await fetch(`${baseUrl}/api/labels`, { headers })).json());
  for (const label of doc.labels.filter((candidate) => candidate.name === NAME)) {
    const deleted = await fetch(`${baseUrl}/api/labels/${label.id}`, { method: 'DELETE', headers });
    expect(deleted.status).toBe(200);
  }
});

const labelLink = () => accountSection(page, alice.email).getByRole('link', { name: NAME, exact: true });

describe('labels', () => {
  test('Settings → Labels refuses an empty and a taken name in place, keeping what was typed, and creates the label', async () => {
    await page.goto(`${baseUrl}/settings/labels`);
    await page.getByRole('heading', { name: 'Labels', level: 2 }).waitFor();
    const name = page.getByRole('textbox', { name: 'Name', exact: true });
    await name.fill('   ');
    await page.getByRole('button', { name: 'Create label' }).click();
    await page.getByRole('alert').filter({ hasText: 'A label needs a name of 1 to 40 characters.' }).waitFor();
    expect(await name.getAttribute('aria-invalid')).toBe('true');

    await name.fill(NAME);
    await page.getByRole('radio', { name: 'Green' }).check();
    await page.getByRole('button', { name: 'Create label' }).click();
    await page.getByRole('listitem').filter({ hasText: NAME }).waitFor();
    expect(await name.inputValue()).toBe('');

    await name.fill(NAME.toLowerCase());
    await page.getByRole('button', { name: 'Create label' }).click();
    await page.getByRole('alert').filter({ hasText: 'A label with this name already exists.' }).waitFor();
    expect(await name.inputValue()).toBe(NAME.toLowerCase());
    await name.fill('');

    await photographThemes(page, 'labels-settings');
    expect(tab.errors).toEqual([]);
  });

  test('`l` gives the first conversation the label; the sidebar label lists it alone; a dragged conversation gets it too', async () => {
    const mail = new MailPage(page);
    await page.goto(`${baseUrl}/mail/unified/inbox`);
    await openFolder(page, alice.email, 'Inbox');
    await labelLink().waitFor();
    const first = mail.row(0);
    const second = mail.row(1);
    const firstName = (await first.getAttribute('aria-label'))!;
    const secondName = (await second.getAttribute('aria-label'))!;
    const subjectOf = async (row: typeof first) => (await row.locator('.row-subject').textContent())!;
    const [firstSubject, secondSubject] = [await subjectOf(first), await subjectOf(second)];

    // The cursor starts on the first row: `l` labels what `e` would archive.
    await page.locator('body').press('l');
    const menu = page.getByRole('menu', { name: 'Label as' });
    await menu.waitFor();
    await menu.getByRole('menuitemcheckbox', { name: NAME }).click();
    await rowWith(page, `Labels: ${NAME}`).waitFor();
    expect(await rowWith(page, `Labels: ${NAME}`).getAttribute('aria-label')).toContain(firstName.split(',')[1]!.trim());
    await page.getByText(`Conversation labelled “${NAME}”.`).waitFor();

    await labelLink().click();
    await page.getByRole('heading', { level: 1, name: NAME, exact: true }).waitFor();
    await eventually(async () => (await mail.rows().count()) === 1 && (await mail.row(0).locator('.row-subject').textContent()) === firstSubject, 10_000, 'the label’s list with the one conversation');

    // Drag-and-drop: the second inbox conversation onto the sidebar label.
    await openFolder(page, alice.email, 'Inbox');
    await rowWith(page, secondName.split(',')[1]!.trim()).first().dragTo(labelLink());
    await page.getByText(`Conversation labelled “${NAME}”.`).last().waitFor();
    await labelLink().click();
    await page.getByRole('heading', { level: 1, name: NAME, exact: true }).waitFor();
    await eventually(async () => (await mail.rows().count()) === 2, 10_000, 'both labelled conversations in the label’s list');
    const subjects = await mail.rows().locator('.row-subject').allTextContents();
    expect(subjects.sort()).toEqual([firstSubject, secondSubject].sort());

    await photographThemes(page, 'labels-list');
    expect(tab.errors).toEqual([]);
  });
});
