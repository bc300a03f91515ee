/**
 * Accounts, sessions, the start-up key check, analytics, plans and preferences on both
 * engines (DESIGN §7): every query of account-store, session-store, key-check,
 * analytics-store, plan-store and preference-store once on SQLite and once on a real
 * PostgreSQL, so a construct only one engine accepts fails here. The password is the point
 * of the first tests: sealed in the `secret` column (BLOB / BYTEA) on either engine, never
 * stored as it was typed.
 */
import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { DEFAULT_PREFERENCES } from '../../../shared/preferences';
import type { AnalyticsEventRecord } from '../../../shared/analytics-events';
import { AccountStore, type ServerSettings } from '../../../src-server/accounts/account-store';
import { SessionStore } from '../../../src-server/accounts/session-store';
import { AnalyticsStore } from '../../../src-server/analytics/analytics-store';
import { assertKeyOpensStore, sealedSecretCount } from '../../../src-server/crypto/key-check';
import { SecretBox } from '../../../src-server/crypto/secret-box';
import { PlanService } from '../../../src-server/plans/plan-service';
import { PlanStore } from '../../../src-server/plans/plan-store';
import { PreferenceService } from '../../../src-server/preferences/preference-service';
import { PreferenceStore } from '../../../src-server/preferences/preference-store';
import type { SqlStore } from '../../../src-server/store/sql';
import { TransactionLog } from '../../../src-server/store/transaction-log';
import { describeOnEngines } from '../support/engines';

const PASSWORD = 'Correct-Horse-9!';
const imap: ServerSettings = { host: 'imap.tern.test', port: 993, security: 'tls' };
const smtp: ServerSettings = { host: 'smtp.tern.test', port: 465, security: 'tls' };
const alice = { email: 'alice@tern.test', name: 'Alice', imap, smtp, password: PASSWORD };

/** Whether any of the bytes spell the text, as UTF-8 or UTF-16 (how a careless store would keep it). */
const spells = (bytes: Buffer, text: string) => bytes.includes(Buffer.from(text, 'utf8')) || bytes.includes(Buffer.from(text, 'utf16le'));

describeOnEngines('Account stores', (engine) => {
  let store: SqlStore;
  let dataDir: string;
  let box: SecretBox;
  let accounts: AccountStore;
  let sessions: SessionStore;

  beforeEach(async () => {
    store = await engine.open();
    dataDir = await engine.dataDir();
    box = SecretBox.load({ dataDir });
    accounts = new AccountStore(store, box);
    sessions = new SessionStore(store);
  });
  afterEach(async () => {
    await store.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  test('the secret column holds the password sealed, never as typed; the store opens it again', async () => {
    const account = await accounts.save(alice);
    await accounts.save({ ...alice, password: `${PASSWORD}-new` });
    const row = await store.get<{ secret: unknown }>('SELECT secret FROM accounts WHERE id = ?', [account.id]);
    expect(Buffer.isBuffer(row!.secret)).toBe(true);
    const secret = row!.secret as Buffer;
    expect(secret.length).toBeGreaterThan(PASSWORD.length);
    expect(spells(secret, PASSWORD)).toBe(false);
    // No other column of the row took it either.
    const whole = await store.get<Record<string, unknown>>('SELECT * FROM accounts WHERE id = ?', [account.id]);
    expect(Object.values(whole!).some((value) => spells(Buffer.isBuffer(value) ? value : Buffer.from(String(value)), PASSWORD))).toBe(false);
    expect(await accounts.password(account.id)).toBe(`${PASSWORD}-new`);
    // Sealed for its own row: the same ciphertext moved to another account does not open.
    const bob = await accounts.save({ ...alice, email: 'bob@kite.test' });
    await store.run('UPDATE accounts SET secret = ? WHERE id = ?', [secret, bob.id]);
    await expect(accounts.password(bob.id)).rejects.toThrow();
    await expect(accounts.password(9999)).rejects.toThrow('No account 9999');
  });

  test('save creates, then refreshes the same row; get, byEmail and all read it', async () => {
    const first = await accounts.save(alice);
    expect(first).toEqual({ id: expect.any(Number), email: 'alice@tern.test', name: 'Alice', imap, smtp, latestTxnId: 0 });
    const second = await accounts.save({ ...alice, name: 'Alice Tern', imap: { ...imap, port: 143, security: 'starttls' } });
    expect(second).toEqual({ ...first, name: 'Alice Tern', imap: { host: 'imap.tern.test', port: 143, security: 'starttls' } });
    const bob = await accounts.save({ ...alice, email: 'bob@kite.test', name: 'Bob' });
    expect(await accounts.get(first.id)).toEqual(second);
    expect(await accounts.byEmail('alice@tern.test')).toEqual(second);
    expect(await accounts.byEmail('carol@tern.test')).toBeUndefined();
    expect(await accounts.get(9999)).toBeUndefined();
    expect((await accounts.all()).map((account) => account.id)).toEqual([first.id, bob.id]);
  });

  test('first logins of one address at once make one account', async () => {
    // Connections open first (PostgreSQL's pool), so the saves overlap rather than queue behind a connect.
    await Promise.all(Array.from({ length: 4 }, () => store.transaction(async (tx) => tx.get('SELECT 1 AS one'))));
    const saved = await Promise.all(['a', 'b', 'c', 'd'].map((suffix) => accounts.save({ ...alice, password: `${PASSWORD}-${suffix}` })));
    expect(new Set(saved.map((account) => account.id)).size).toBe(1);
    expect(await accounts.all()).toHaveLength(1);
    expect(['a', 'b', 'c', 'd'].map((suffix) => `${PASSWORD}-${suffix}`)).toContain(await accounts.password(saved[0]!.id));
  });

  test('sessions: a token verifies, only its hash is stored, ending one leaves the others', async () => {
    const a = await accounts.save(alice);
    const b = await accounts.save({ ...alice, email: 'bob@kite.test' });
    expect(await sessions.activeAccountIds()).toEqual([]);
    const token = await sessions.create(a.id);
    const other = await sessions.create(a.id);
    const bobs = await sessions.create(b.id);
    expect(other).not.toBe(token);
    const session = await sessions.verify(token);
    expect(session).toEqual({ accountId: a.id, tokenHash: expect.any(String) });
    const stored = await store.all<{ token_hash: string }>('SELECT token_hash FROM sessions');
    expect(stored.map((row) => row.token_hash)).toContain(session.tokenHash);
    expect(stored.map((row) => row.token_hash)).not.toContain(token);
    expect((await sessions.activeAccountIds()).sort()).toEqual([a.id, b.id].sort());

    const ended: number[] = [];
    sessions.on('ended', (gone) => ended.push(gone.accountId));
    await sessions.end(session);
    expect(ended).toEqual([a.id]);
    await expect(sessions.verify(token)).rejects.toMatchObject({ name: 'InvalidToken' });
    expect((await sessions.verify(other)).accountId).toBe(a.id);
    await sessions.end(await sessions.verify(bobs));
    expect(await sessions.activeAccountIds()).toEqual([a.id]);
    await expect(sessions.verify(undefined)).rejects.toMatchObject({ name: 'TokenParamMissing' });
    await expect(sessions.verify('made-up')).rejects.toMatchObject({ name: 'InvalidToken' });
  });

  test('the start-up key check counts sealed secrets only, and refuses a key that cannot open them', async () => {
    expect(await sealedSecretCount(store)).toBe(0);
    await assertKeyOpensStore({ store, box, databasePath: store.location, open: (id) => accounts.password(id) });
    // A row being created holds an empty secret for a moment: not a sealed one.
    await store.run(
      `INSERT INTO accounts (email, name, imap_host, imap_port, imap_security, smtp_host, smtp_port, smtp_security, secret, created_at)
       VALUES ('new@tern.test', '', 'h', 1, 'none', 'h', 2, 'none', ?, 0)`,
      [Buffer.alloc(0)],
    );
    expect(await sealedSecretCount(store)).toBe(0);
    const account = await accounts.save(alice);
    expect(await sealedSecretCount(store)).toBe(1);
    await assertKeyOpensStore({ store, box, databasePath: store.location, open: (id) => accounts.password(id) });

    const otherKey = SecretBox.load({ dataDir, envKey: randomBytes(32).toString('hex') });
    const withOtherKey = new AccountStore(store, otherKey);
    await expect(assertKeyOpensStore({ store, box: otherKey, databasePath: store.location, open: (id) => withOtherKey.password(id) })).rejects.toThrow(
      `The key from TERN_SECRET_KEY cannot open the mail passwords stored in ${store.location} (tried account ${account.id}).`,
    );
  });

  test('analytics: a batch is stored once however often it is retried; listed per account and before login', async () => {
    const analytics = new AnalyticsStore(store);
    const account = await accounts.save(alice);
    const event = (id: string, eventName = 'login_success', entityId?: string): AnalyticsEventRecord =>
      ({ eventName, eventTs: 1_700_000_000_000, entityId, attrs: { event_id: id }, hattrs: {} }) as unknown as AnalyticsEventRecord;
    const batch = [event('e1'), event('e2'), event('e1')];
    expect(await analytics.save({ accountId: account.id, client: '{"client":"web_mail"}', events: batch })).toBe(2);
    expect(await analytics.save({ accountId: account.id, client: null, events: batch })).toBe(0);
    expect(await analytics.save({ accountId: null, client: null, events: [event('p1', 'login_page_viewed', 'device-9'), event('e2')] })).toBe(1);
    expect(await analytics.list(account.id)).toEqual([
      { eventName: 'login_success', eventId: 'e1', entityId: null },
      { eventName: 'login_success', eventId: 'e2', entityId: null },
    ]);
    expect(await analytics.list(null)).toEqual([{ eventName: 'login_page_viewed', eventId: 'p1', entityId: 'device-9' }]);
    const stored = await store.get<{ attrs: string; client: string | null }>('SELECT attrs, client FROM analytics_events WHERE event_id = ?', ['e1']);
    expect(stored).toEqual({ attrs: '{"event_id":"e1"}', client: '{"client":"web_mail"}' });
  });
});


describeOnEngines('Plan and preference stores', (engine) => {
  let store: SqlStore;
  let alice: number;
  let bob: number;
  const announced: [number, number][] = [];
  const push = { announce: (accountId: number, latest: number) => void announced.push([accountId, latest]) };
  const clock = () => 1_000;

  beforeEach(async () => {
    store = await engine.open();
    const add = async (email: string) =>
      (await store.get<{ id: number }>(
        `INSERT INTO accounts (email, name, imap_host, imap_port, imap_security, smtp_host, smtp_port, smtp_security, secret, created_at)
         VALUES (?, '', 'h', 1, 'none', 'h', 2, 'none', ?, 0) RETURNING id`,
        [email, Buffer.alloc(0)],
      ))!.id;
    bob = await add('bob@kite.test');
    alice = await add('alice@tern.test');
    announced.length = 0;
  });
  afterEach(() => store.close());

  test('plans: no row is the default; put sets and replaces; the listing and byEmail join the accounts', async () => {
    const plans = new PlanStore(store);
    expect(await plans.planOf(alice)).toBe('paid');
    await plans.put(alice, 'free', 5);
    expect(await plans.planOf(alice)).toBe('free');
    await plans.put(alice, 'paid', 6);
    expect(await plans.planOf(alice)).toBe('paid');
    await plans.put(bob, 'free', 7);
    expect(await store.get('SELECT plan, updated_at AS "updatedAt" FROM account_plans WHERE account_id = ?', [alice])).toEqual({ plan: 'paid', updatedAt: 6 });
    expect(await plans.list()).toEqual([
      { accountId: alice, email: 'alice@tern.test', plan: 'paid' },
      { accountId: bob, email: 'bob@kite.test', plan: 'free' },
    ]);
    expect(await plans.byEmail('bob@kite.test')).toEqual({ accountId: bob, email: 'bob@kite.test', plan: 'free' });
    expect(await plans.byEmail('carol@tern.test')).toBeUndefined();
    // A plan this build does not know reads as the default, not as an error.
    await store.run("UPDATE account_plans SET plan = 'gold' WHERE account_id = ?", [bob]);
    expect(await plans.planOf(bob)).toBe('paid');
  });

  test('preferences: no row is the defaults at revision 0; put writes and replaces the document', async () => {
    const preferences = new PreferenceStore(store);
    expect(await preferences.get(alice)).toEqual({ revision: 0, values: DEFAULT_PREFERENCES, updatedAt: 0 });
    await preferences.put(alice, { revision: 1, values: { ...DEFAULT_PREFERENCES, theme: 'dark' }, updatedAt: 10 });
    await preferences.put(alice, { revision: 2, values: { ...DEFAULT_PREFERENCES, theme: 'light', spellCheck: false }, updatedAt: 20 });
    expect(await preferences.get(alice)).toEqual({ revision: 2, values: { ...DEFAULT_PREFERENCES, theme: 'light', spellCheck: false }, updatedAt: 20 });
    expect((await preferences.get(bob)).revision).toBe(0);
  });

  test('a plan or preference change whose log entry fails changes nothing (one transaction)', async () => {
    const failing = { append: async (): Promise<number> => { throw new Error('log refused'); } };
    const plans = new PlanService({ store, txlog: failing, push, now: clock });
    await expect(plans.setPlan(alice, 'free')).rejects.toThrow('log refused');
    expect(await store.get('SELECT plan FROM account_plans WHERE account_id = ?', [alice])).toBeUndefined();
    const preferences = new PreferenceService({ store, txlog: failing, push, plans, now: clock });
    await expect(preferences.patch({ accountId: alice, patch: { theme: 'dark' } })).rejects.toThrow('log refused');
    expect(await preferences.get(alice)).toMatchObject({ revision: 0 });
    expect(announced).toEqual([]);
  });

  test('setPlan and patch write their txlog rows with the change and announce the new latest id', async () => {
    const txlog = new TransactionLog(store);
    const plans = new PlanService({ store, txlog, push, now: clock });
    const preferences = new PreferenceService({ store, txlog, push, plans, now: clock });
    expect(await plans.setPlan(alice, 'free')).toEqual({ plan: 'free', features: [] });
    await expect(preferences.patch({ accountId: alice, patch: { spellCheck: false } })).rejects.toMatchObject({ name: 'FeatureNotInPlan', detail: { feature: 'spellChecker' } });
    expect(await preferences.patch({ accountId: alice, patch: { theme: 'dark' } })).toEqual({ revision: 1, values: { ...DEFAULT_PREFERENCES, theme: 'dark' }, updatedAt: 1_000 });
    expect(await plans.has(alice, 'spellChecker')).toBe(false);
    expect((await txlog.read(alice, 0, 10)).entries).toEqual([
      { txnId: 1, object: 'plan', objectId: alice },
      { txnId: 2, object: 'preferences', objectId: alice },
    ]);
    expect(announced).toEqual([[alice, 1], [alice, 2]]);
    // Two patches at once build on each other, not on the same revision.
    const [one, two] = await Promise.all([preferences.patch({ accountId: bob, patch: { theme: 'light' } }), preferences.patch({ accountId: bob, patch: { viewMode: 'list' } })]);
    expect([one.revision, two.revision].sort()).toEqual([1, 2]);
    expect(await preferences.get(bob)).toMatchObject({ revision: 2, values: { theme: 'light', viewMode: 'list' } });
  });
});
