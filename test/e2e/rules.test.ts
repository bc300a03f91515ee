/**
 * Rules that run on the server, end to end on the demo (issue 16): Alice creates a filter on
 * the Filters page, mail sent over SMTP is filed by Dovecot's Sieve into Archive and shows
 * there in the app; "Filter messages like this" on an open message opens a new filter
 * prefilled with its sender; "Block sender" says so and can be undone. A second tab on the
 * Filters page sees the saved filter and the run's result without a reload. Forwarding in:
 * with Bob's address forwarding to Alice (his own Sieve script, as another provider's
 * forwarding), the page's check says the test message arrived. The rules pages are
 * photographed at 1366×768 and 390×844, light and dark. The filter is deleted at the end, so
 * other files' mail to Alice is delivered as before.
 */
import { createTransport } from 'nodemailer';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { ManageSieveClient } from '../../src-server/sieve/managesieve-client';
import { screenshot } from './chromium';
import { imapSubjects, literal, openFolder, openThread, rowWith, startInInbox, watch, type Watched } from './demo-session';

const baseUrl = inject('baseUrl');
const demo = inject('demo');
const { alice, bob } = demo;

let browser: Browser;
let context: BrowserContext;
let tab: Watched;
let page: Page;

const SUBJECT = `Quarterly digest ${Date.now().toString(36)}`;

async function sendToAlice(subject: string) {
  const transport = createTransport({ host: demo.mail.host, port: demo.mail.smtp, secure: false, ignoreTLS: true });
  try {
    await transport.sendMail({ from: `${bob.name} <${bob.email}>`, to: alice.email, subject, text: 'The numbers.' });
  } finally {
    transport.close();
  }
}

/** Bob's own ManageSieve session: his address's forwarding, set up and taken down by the test. */
async function asBobOnSieve(work: (client: ManageSieveClient) => Promise<void>) {
  const client = await ManageSieveClient.connect({ host: demo.mail.host, port: demo.mail.sieve, security: 'none', user: bob.email, password: bob.password });
  try {
    await work(client);
  } finally {
    await client.logout();
  }
}

/** Both themes at both widths; `focus` is scrolled into view first (the settings pane scrolls, not the page). */
async function shots(name: string, focus?: Locator) {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const [width, height] of [[1366, 768], [390, 844]] as const) {
      await page.setViewportSize({ width, height });
      await focus?.scrollIntoViewIfNeeded();
      await screenshot(page, `rules-${name}-${width}-${scheme}`);
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1440, height: 900 });
}

beforeAll(async () => {
  ({ browser, context, tab, page } = await startInInbox(baseUrl, alice));
}, 60_000);

afterAll(async () => {
  await browser?.close();
});

describe('filters', () => {
  test('a filter made on the Filters page files new mail into Archive, starred; another tab sees it and its run without a reload', async () => {
    const other = watch(await context.newPage());
    await other.page.goto(`${baseUrl}/settings/rules`);
    await other.page.getByText('No filters yet.').waitFor();
    await page.goto(`${baseUrl}/settings/rules`);
    await page.getByRole('heading', { name: 'Filters', level: 2 }).waitFor();
    await page.getByText('No filters yet.').waitFor();
    await page.getByRole('button', { name: 'New filter' }).click();
    const editor = page.locator('.rules-editor');
    await editor.getByLabel('Name').fill('Digests');
    const condition = editor.locator('.rules-row').first();
    await condition.getByRole('combobox', { name: 'Condition' }).selectOption('subject');
    await condition.getByRole('textbox', { name: 'Value' }).fill(SUBJECT);
    const action = editor.locator('fieldset').nth(1).locator('.rules-row').first();
    await action.getByRole('combobox', { name: 'Folder' }).selectOption('Archive');
    await editor.getByRole('button', { name: 'Add action' }).click();
    await editor.getByRole('combobox', { name: 'Action' }).nth(1).selectOption('star');
    await shots('filter-editor');
    await editor.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Rules saved on your mail server').waitFor();
    const item = page.locator('.rules-item', { hasText: 'Digests' });
    await item.getByText(`Subject contains “${SUBJECT}” → Move to folder Archive, Star`).waitFor();
    // The other tab was told through the gateway's push and delta, not reloaded.
    const otherItem = other.page.locator('.rules-item', { hasText: 'Digests' });
    await otherItem.waitFor();
    // Run over the Inbox now: nothing there matches yet (the filter's mail has not been sent). The run is a
    // gateway job: its result shows under the filter, here and in the other tab.
    await item.getByRole('button', { name: 'Apply to existing mail' }).click();
    await item.getByRole('status').getByText('No message in the Inbox matches this filter.').waitFor();
    await otherItem.getByRole('status').getByText('No message in the Inbox matches this filter.').waitFor();
    await shots('filters');
    // A reload still shows how the run went (the gateway keeps it an hour).
    await other.page.reload();
    await other.page.locator('.rules-item', { hasText: 'Digests' }).getByText('No message in the Inbox matches this filter.').waitFor();
    expect(other.errors).toEqual([]);
    await other.page.close();

    await sendToAlice(`${SUBJECT} for Q4`);
    await page.goto(`${baseUrl}/mail/unified/inbox`);
    await openFolder(page, alice.email, 'Archive');
    await rowWith(page, literal(`${SUBJECT} for Q4`)).waitFor({ timeout: 20_000 });
    expect(await imapSubjects(demo.mail.host, demo.mail.imap, alice, 'INBOX')).not.toContain(`${SUBJECT} for Q4`);
    expect(tab.errors).toEqual([]);
  });

  test('"Filter messages like this" opens a new filter from the message\'s sender; "Block sender" can be undone', async () => {
    await openFolder(page, alice.email, 'Inbox');
    const conversation = await openThread(page, demo.probes.lunch);
    const fromBob = conversation.getByRole('article', { name: new RegExp(`^Message from ${bob.name}`) }).last();
    // Another e2e file may have replied in this thread: Bob's message is then folded, and its actions show once it is opened.
    const bobToggle = fromBob.locator('.tern-message-toggle');
    await bobToggle.waitFor();
    if ((await bobToggle.getAttribute('aria-expanded')) !== 'true') await bobToggle.click();
    await fromBob.getByRole('button', { name: 'Block sender' }).waitFor();
    await shots('message-actions');
    await fromBob.getByRole('button', { name: 'Block sender' }).click();
    const toast = page.getByText(`${bob.email} is blocked: new mail from them goes to Spam.`);
    await toast.waitFor();
    await page.getByRole('button', { name: 'Undo', exact: true }).click();
    await page.getByText(`${bob.email} is no longer blocked.`).waitFor();

    await fromBob.getByRole('button', { name: 'Filter messages like this' }).click();
    await page.getByRole('heading', { name: 'Filters', level: 2 }).waitFor();
    const editor = page.locator('.rules-editor');
    await expect.poll(() => editor.getByRole('textbox', { name: 'Value' }).first().inputValue()).toBe(bob.email);
    expect(await editor.getByLabel('Name').inputValue()).toBe(bob.email);
    await editor.getByRole('button', { name: 'Cancel' }).click();

    // The other rules pages, as they look with the lists empty and the auto reply off.
    await page.goto(`${baseUrl}/settings/allow-block`);
    await page.getByRole('heading', { name: 'Blocklist and allowlist', level: 2 }).waitFor();
    await page.getByRole('heading', { name: 'Blocked senders', level: 3 }).waitFor();
    expect(await page.locator('.rules-sender').count()).toBe(0);
    await page.getByRole('textbox', { name: 'Blocked senders' }).fill('not a sender');
    await page.getByRole('button', { name: 'Block', exact: true }).click();
    await page.getByText('Enter an address like name@example.com or a domain like example.com.').waitFor();
    await shots('allow-block');
    await page.goto(`${baseUrl}/settings/auto-reply`);
    await page.getByRole('switch', { name: /Send an auto reply/ }).waitFor();
    await page.getByLabel('First day').fill('2026-12-20');
    await page.getByLabel('Last day').fill('2026-12-10');
    await page.getByText('The last day comes before the first day.').waitFor();
    await shots('auto-reply');
    await page.goto(`${baseUrl}/settings/business-auto-reply`);
    await page.getByRole('switch', { name: /Send a reply outside working hours/ }).waitFor();
    await page.getByLabel('Until').fill('08:00');
    await page.getByText('The working day must end after it starts.').waitFor();
    await shots('business-hours');
    await page.goto(`${baseUrl}/settings/forwarding`);
    await page.getByRole('switch', { name: 'Forward my mail' }).check();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Enter the address to forward to.').waitFor();
    await page.getByRole('note').getByText(/SPF or DMARC/).waitFor();
    // Forwarding in: Bob's address forwards to Alice, and the check proves it with a test message.
    await asBobOnSieve(async (client) => {
      await client.putScript('e2e-forward', `redirect ${JSON.stringify(alice.email)};\r\n`);
      await client.setActive('e2e-forward');
    });
    await page.getByRole('textbox', { name: 'Your other address' }).fill(bob.email);
    await page.getByRole('button', { name: 'Send a test message' }).click();
    const works = page.getByRole('status').getByText(`Forwarding works: the test message sent to ${bob.email} arrived here`);
    await works.waitFor({ timeout: 30_000 });
    await shots('forwarding', works);
    expect(tab.errors).toEqual([]);
  });

  afterAll(async () => {
    // Bob's address forwards nothing any more (his mail stays his in later files).
    await asBobOnSieve(async (client) => {
      if ((await client.listScripts()).some((script) => script.name === 'e2e-forward')) {
        await client.setActive('');
        await client.deleteScript('e2e-forward');
      }
    }).catch(() => undefined);
    // Leave Alice's mail as other files expect it: no filters, no blocked sender (a failed
    // Undo above would otherwise send Bob's mail to Spam in every later file).
    await page.goto(`${baseUrl}/settings/allow-block`);
    await page.getByRole('heading', { name: 'Blocked senders', level: 3 }).waitFor();
    const unblock = page.getByRole('button', { name: `Remove: ${bob.email}` });
    if (await unblock.count()) {
      await unblock.click();
      await unblock.waitFor({ state: 'detached' });
    }
    await page.goto(`${baseUrl}/settings/rules`);
    await page.getByRole('heading', { name: 'Filters', level: 2 }).waitFor();
    const remove = page.getByRole('button', { name: 'Delete: Digests' });
    if (await remove.count()) {
      await remove.click();
      await page.getByText('No filters yet.').waitFor();
    }
  });
});
