/**
 * Writing tools on the demo (issue 14 points 3–6), one page load: Settings → Templates writes
 * a template with a {{first_name}} field; the composer's Templates menu (Ctrl+Shift+Y) inserts
 * it filled from the recipient's name, its subject into the empty subject; the emoji button
 * loads the picker from the app's own data (no request leaves for a CDN), searches and inserts
 * at the caret. Screens at 1366×768 and 390×844, light and dark. The template is deleted in
 * afterAll (other files write as Alice and would see it in their menus).
 */
import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { screenshot } from './chromium';
import { eventually, openFolder, openThread, startLoggedIn, withImapOf, type Watched } from './demo-session';
import { composerForm } from './mail-page';

const baseUrl = inject('baseUrl');
const demo = inject('demo');
const { alice, bob } = demo;
const TEMPLATE = 'Kite lesson follow-up';
const RECEIPT_SUBJECT = `Did you read this ${Date.now().toString(36)}`;

let browser: Browser;
let tab: Watched;
let page: Page;
/** Every URL the page asked for that is not the gateway's own. */
const foreign: string[] = [];

beforeAll(async () => {
  ({ browser, tab, page } = await startLoggedIn(baseUrl, alice, { viewport: { width: 1366, height: 768 } }));
  page.on('request', (request) => {
    const url = request.url();
    if (!url.startsWith(baseUrl) && !url.startsWith('data:') && !url.startsWith('blob:')) foreign.push(url);
  });
});
afterAll(async () => {
  try {
    // Leave Alice's mailbox as it was: the message that asked for a receipt, its Sent copy and the receipt go.
    await withImapOf(demo.mail.host, demo.mail.imap, alice, async (client) => {
      for (const folder of ['INBOX', 'Sent']) {
        const lock = await client.getMailboxLock(folder);
        try {
          const uids = (await client.search({ subject: RECEIPT_SUBJECT }, { uid: true })) || [];
          if (uids.length > 0) await client.messageDelete(uids.join(','), { uid: true });
        } finally {
          lock.release();
        }
      }
    }).catch(() => undefined);
    // Leave Alice as she was: no template.
    await page.keyboard.press('Escape').catch(() => undefined);
    await page.setViewportSize({ width: 1366, height: 768 });
    await page.goto(`${baseUrl}/settings/templates`);
    await page.getByRole('heading', { name: 'Templates', level: 2 }).waitFor();
    const remove = page.getByRole('button', { name: `Delete: ${TEMPLATE}`, exact: true });
    if (await remove.count()) {
      await remove.click();
      await remove.waitFor({ state: 'detached' });
    }
  } finally {
    await browser?.close();
  }
});

async function photograph(name: string) {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.setViewportSize({ width: 1366, height: 768 });
    await screenshot(page, `${name}-1366-${scheme}`);
    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot(page, `${name}-390-${scheme}`);
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1366, height: 768 });
}

test('a template written under Settings → Templates, an empty name refused in place', async () => {
  await page.goto(`${baseUrl}/settings/templates`);
  await page.getByRole('button', { name: 'New template' }).first().click();
  const form = page.getByRole('form', { name: 'New template', exact: true });
  await form.getByLabel('Subject', { exact: true }).fill('Your lesson, {{first_name}}');
  await form.getByRole('textbox', { name: 'Template text', exact: true }).click();
  await page.keyboard.type('Dear {{first_name}}, thanks for flying with us.');
  await form.getByRole('button', { name: 'Save', exact: true }).click();
  await form.getByRole('alert').filter({ hasText: 'A template needs a name.' }).waitFor();
  expect(await form.getByRole('textbox', { name: 'Template text', exact: true }).innerText()).toContain('thanks for flying');
  await form.getByLabel('Name', { exact: true }).fill(TEMPLATE);
  await form.getByRole('button', { name: 'Save', exact: true }).click();
  await page.getByRole('button', { name: `Edit: ${TEMPLATE}`, exact: true }).waitFor();
  await photograph('templates');
  expect(tab.errors).toEqual([]);
});

test('the composer: Ctrl+Shift+Y inserts the template filled from the recipient; an emoji from the picker goes in at the caret', async () => {
  await page.goto(`${baseUrl}/mail/unified/inbox`);
  await page.getByRole('button', { name: 'Compose', exact: true }).click();
  const box = composerForm(page);
  await box.waitFor();
  await box.getByRole('combobox', { name: 'To' }).fill(`Bob Kite <${bob.email}>`);
  await page.keyboard.press('Enter');
  const body = box.getByRole('textbox', { name: 'Message body' });
  await body.click();
  await page.keyboard.press('Control+Shift+Y');
  await page.getByRole('menuitem', { name: TEMPLATE }).click();
  await body.getByText('Dear Bob, thanks for flying with us.').waitFor();
  expect(await box.getByRole('textbox', { name: 'Subject' }).inputValue()).toBe('Your lesson, Bob');

  // Emoji: lazy, from /build/emoji/en.json; type to search, then pick.
  await page.keyboard.press('End');
  await box.getByRole('button', { name: 'Insert emoji', exact: true }).click();
  const picker = page.getByRole('dialog', { name: 'Emoji' });
  const search = picker.getByRole('combobox');
  await search.waitFor();
  await search.fill('grinning face');
  await picker.getByRole('option', { name: /^😀/ }).first().waitFor();
  await photograph('composer-emoji');
  await picker.getByRole('option', { name: /^😀/ }).first().click();
  await picker.waitFor({ state: 'detached' });
  await body.getByText('Dear Bob, thanks for flying with us.😀').waitFor();
  await photograph('composer-template');
  expect(foreign).toEqual([]);
  // Closed, the draft kept: Discard it (the shared Drafts stay as they were).
  await box.getByRole('button', { name: 'Discard draft', exact: true }).click();
  expect(tab.errors).toEqual([]);
});

test('a read receipt asked for from the composer; the message that asks shows the bar, Send answers it and the bar goes', async () => {
  await page.goto(`${baseUrl}/mail/unified/inbox`);
  await page.getByRole('button', { name: 'Compose', exact: true }).click();
  const box = composerForm(page);
  await box.waitFor();
  await box.getByRole('combobox', { name: 'To' }).fill(alice.email);
  await page.keyboard.press('Enter');
  await box.getByRole('textbox', { name: 'Subject' }).fill(RECEIPT_SUBJECT);
  await box.getByRole('textbox', { name: 'Message body' }).fill('Let me know when you have read it.');
  const ask = box.getByRole('button', { name: 'Ask for a read receipt', exact: true });
  await ask.click();
  expect(await ask.getAttribute('aria-pressed')).toBe('true');
  await page.keyboard.press('Control+Enter');

  await openFolder(page, alice.email, 'Inbox');
  const conversation = await openThread(page, RECEIPT_SUBJECT, 30_000);
  const bar = conversation.getByRole('region', { name: 'Sender asked for a read receipt', exact: true });
  await bar.waitFor();
  // One bar: the Sent copy of the same conversation never asks.
  expect(await conversation.getByRole('region', { name: 'Sender asked for a read receipt', exact: true }).count()).toBe(1);
  await photograph('receipt-bar');
  await bar.getByRole('button', { name: 'Send', exact: true }).click();
  await bar.waitFor({ state: 'detached' });
  // The receipt reached the sender (Alice herself), and the message carries $MDNSent on the server.
  await eventually(
    () =>
      withImapOf(demo.mail.host, demo.mail.imap, alice, async (client) => {
        const lock = await client.getMailboxLock('INBOX');
        try {
          const receipt = (await client.search({ subject: `Read: ${RECEIPT_SUBJECT}` }, { uid: true })) || [];
          const asked = (await client.search({ subject: RECEIPT_SUBJECT, keyword: '$MDNSent' }, { uid: true })) || [];
          return receipt.length > 0 && asked.length > 0;
        } finally {
          lock.release();
        }
      }),
    20_000,
    'the receipt and $MDNSent',
  );
  // The receipt joins the conversation (it answers the message) as a line, not as mail.
  await conversation.locator('.tern-receipt-line').filter({ hasText: /^\s*Read by Alice/ }).waitFor({ timeout: 30_000 });
  await photograph('receipt-read-by');
  expect(tab.errors).toEqual([]);
});
