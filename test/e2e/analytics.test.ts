// Issue point 20: in 30 minutes of use no analytics event reached the gateway. Real
// Chromium against the demo's mail servers and a gateway of the test's own: log in, open
// a message, send one, search; then read the gateway's SQLite and find those events, in
// batches, with the spec's base properties (§3) and nothing of the mail in them.
import { describe, expect, inject, test } from 'vitest';
import { APP_VERSION } from '../../shared/app-info';
import { eventually, logIn, newDemoContext, openFolder, watch } from './demo-session';
import { composerForm, MailPage } from './mail-page';
import { useOwnGateway } from './own-gateway';

const demo = inject('demo');
const own = useOwnGateway();

interface StoredEvent {
  event_name: string;
  account_id: number | null;
  attrs: string;
  hattrs: string;
  client: string | null;
  received_at: number;
}

describe('analytics events reach the gateway', () => {
  test('logging in, opening a message, sending one and searching are stored by the gateway with the base properties', { timeout: 120_000 }, async () => {
    const context = await newDemoContext(own.browser);
    const tab = watch(await context.newPage());
    const { page } = tab;
    await logIn(page, own.gateway.baseUrl, demo.alice);
    await openFolder(page, demo.alice.email, 'Inbox');
    // The newest conversation, whichever it is: a fresh gateway lists the newest page first, and
    // by this file other files' mail has pushed the seeded probes below it.
    const newest = new MailPage(page).row(0);
    const newestName = (await newest.getAttribute('aria-label')) ?? '';
    expect(newestName).not.toBe('');
    await newest.click();
    await page.locator('.reading-pane .tern-conversation').waitFor();

    const subject = `Analytics probe ${Date.now()}`;
    await page.getByRole('button', { name: 'Compose', exact: true }).click();
    const box = composerForm(page);
    await box.waitFor();
    const to = box.getByRole('combobox', { name: 'To' });
    await to.fill(demo.bob.email);
    await to.press('Enter');
    await box.getByLabel('Subject').fill(subject);
    await box.getByRole('textbox', { name: 'Message body' }).click();
    await page.keyboard.type('Counting events.');
    await composerForm(page, subject).getByRole('button', { name: 'Send' }).click();
    await page.getByRole('region', { name: 'Notifications' }).getByText('Message sent', { exact: true }).waitFor({ timeout: 30_000 });

    const search = page.getByRole('searchbox').first();
    await search.fill('from:bob lunch');
    await search.press('Enter');

    // Batches leave at most every 5 s per queue (spec §9): wait for them to be stored.
    const wanted = ['login_success', 'account_added', 'folder_opened', 'thread_opened', 'mail_sent', 'search_performed'];
    const stored = await eventually(
      () => {
        const rows = own.gateway.query<StoredEvent>('SELECT event_name, account_id, attrs, hattrs, client, received_at FROM analytics_events ORDER BY id');
        return wanted.every((name) => rows.some((row) => row.event_name === name)) ? rows : null;
      },
      45_000,
      `the events ${wanted.join(', ')} in the gateway's analytics_events`,
    );
    console.log(`[analytics] ${stored.length} events in ${new Set(stored.map((row) => row.received_at)).size} batches: ${stored.map((row) => row.event_name).join(', ')}`);

    const accountId = Number(stored.find((row) => row.event_name === 'login_success')!.account_id);
    expect(accountId).toBeGreaterThan(0);
    for (const name of wanted) {
      const row = stored.find((event) => event.event_name === name)!;
      // Logged-in events arrive over addEvents with the account's session: stored under its account.
      expect(row.account_id, name).toBe(accountId);
      const attrs = JSON.parse(row.attrs) as Record<string, unknown>;
      expect(attrs, name).toMatchObject({
        app_version: APP_VERSION,
        device: 'web',
        no_of_accounts: 1,
        account_ids: [String(accountId)],
        primary_account_id: String(accountId),
        locale: expect.any(String),
        timezone: expect.any(String),
        os: expect.any(String),
        browser: expect.any(String),
        device_id: expect.any(String),
        event_id: expect.any(String),
      });
      expect(JSON.parse(row.client ?? '{}'), name).toMatchObject({ client: 'web_mail', app_version: APP_VERSION });
    }
    expect(APP_VERSION).toBe('5.33.0');
    expect(JSON.parse(stored.find((row) => row.event_name === 'mail_sent')!.attrs)).toMatchObject({ undo_window_ms: expect.any(Number) });
    expect(JSON.parse(stored.find((row) => row.event_name === 'search_performed')!.attrs)).toMatchObject({ term_count: 2, operator_count: 1 });
    // The login attempt before there was an account went out as a pre-login event.
    expect(stored.some((row) => row.event_name === 'login_submitted' && row.account_id === null)).toBe(true);

    // Nothing of the mail or the people in clear: no address, subject, body or search words.
    const everything = stored.map((row) => `${row.attrs} ${row.hattrs}`).join('\n');
    for (const secret of [demo.alice.email, demo.bob.email, subject, 'Counting events', demo.probes.lunch, 'lunch', newestName]) expect(everything).not.toContain(secret);
    expect(tab.errors).toEqual([]);
    await context.close();
  });
});
