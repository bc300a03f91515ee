import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { describe, expect, test, vi } from 'vitest';
import { senderName, type PublicAccount } from '../../../../shared/account';
import { TernError } from '../../../../shared/errors';
import { ACCOUNTS_DATABASE, ACCOUNTS_SCHEMA } from '../../../../src-worker/accounts/accounts-database';
import { AccountRepository } from '../../../../src-worker/accounts/account-repository';
import { EngineAccounts } from '../../../../src-worker/accounts/account-service';
import { createGatewayLogin } from '../../../../src-worker/accounts/gateway-login';
import { AccountDatabases } from '../../../../src-worker/db/account-databases';
import { idbStoreFactory } from '../../../../src-worker/db/idb-store';
import { lazyStore } from '../../../../src-worker/db/lazy-store';
import { MAIL_SCHEMA } from '../../../../src-worker/db/mail-schema';
import { MemoryDatabases } from '../../../../src-worker/db/memory-store';
import { withRead, withWrite, type StoreFactory } from '../../../../src-worker/db/store';
import { fakeBroadcastHub, fakeFetch, fakeGateway, loginResponse } from '../fakes';

const ANN = loginResponse({ mailId: '10', email: 'ann.lee@example.com', token: 'token-10' });
const BOB = loginResponse({ mailId: '9', email: 'bob@example.org', token: 'token-9', baseUrl: 'https://other.example.org/api' });

/** One engine's account service over `stores`, with spies for analytics and the logger. */
function setup(params: { stores?: StoreFactory; hub?: ReturnType<typeof fakeBroadcastHub>; fetch?: typeof fetch; pendingCommands?: () => Promise<boolean> } = {}) {
  const stores = params.stores ?? new MemoryDatabases();
  const hub = params.hub ?? fakeBroadcastHub();
  const gateway = fakeGateway([ANN, BOB]);
  const repository = new AccountRepository(lazyStore(stores, ACCOUNTS_DATABASE, ACCOUNTS_SCHEMA));
  const databases = new AccountDatabases({ factory: stores, tabId: crypto.randomUUID(), channel: hub.open('db') });
  const analytics = { setAccounts: vi.fn(async () => {}) };
  const logger = { activate: vi.fn(), deactivate: vi.fn(), log: vi.fn() };
  const service = new EngineAccounts({
    repository,
    databases,
    gateway: createGatewayLogin({ fetch: params.fetch ?? gateway.fetch, apiBase: 'https://gateway.example/api' }),
    analytics,
    logger,
    channel: hub.open('accounts'),
    tabId: crypto.randomUUID(),
    ...(params.pendingCommands ? { pendingCommands: params.pendingCommands } : {}),
  });
  return { service, repository, databases, analytics, logger, gateway, stores };
}

const login = (email: string) => ({ email, password: 'Correct-Horse-9!' });

describe('AccountService', () => {
  test('add logs in through the gateway and stores the account with its extras', async () => {
    const { service, repository, gateway, databases } = setup();
    const result = await service.add(login('Ann.Lee@example.com '));
    expect(gateway.requests[0]).toMatchObject({ url: 'https://gateway.example/api/login', method: 'POST', body: { email: 'ann.lee@example.com' } });
    expect(result).toMatchObject({ kind: 'added', account: { accountId: '10', label: 'ann.lee@example.com', api: 'https://mail.example.com/api' } });
    expect((result as { account: PublicAccount }).account).not.toHaveProperty('token');
    expect((await repository.get('10'))?.token).toBe('token-10');
    expect(await repository.extras('10')).toEqual({ accountId: '10', justLoggedIn: true, webSocketKind: null, trackingHeader: '0:1' });
    expect((await databases.open('10')).name).toBe('10');
  });

  test('logged in with one account or more; the primary is the smallest numeric id', async () => {
    const { service, analytics, logger } = setup();
    expect(await service.initialise()).toEqual({ loggedIn: false, primaryAccountId: null, accounts: [] });
    await service.add(login(ANN.email));
    await service.add(login(BOB.email));
    const state = await service.initialise();
    expect(state).toMatchObject({ loggedIn: true, primaryAccountId: '9' });
    expect((await service.list()).map((account) => account.accountId)).toEqual(['9', '10']);
    expect(analytics.setAccounts).toHaveBeenLastCalledWith({ accountIds: ['9', '10'], primaryAccountId: '9' });
    // The logger follows the primary account's database.
    expect(logger.activate.mock.calls.map(([target]) => target.accountId)).toEqual(['10', '9']);
  });

  test('a refused login is the gateway’s catalogue error; bad input never reaches it', async () => {
    const { service, gateway } = setup();
    await expect(service.add(login('nobody@example.com'))).rejects.toMatchObject({ name: 'AuthenticationError', message: 'Incorrect Email or Password' });
    const invalid = await service.add({ email: 'not an address', password: 'x' }).catch((error: unknown) => error);
    expect(invalid).toBeInstanceOf(TernError);
    expect((invalid as TernError).name).toBe('InvalidRequestData');
    expect(gateway.requests).toHaveLength(1);
  });

  test('a challenge of the gateway is answered as data and stores nothing', async () => {
    const { fetch } = fakeFetch(() => ({ challenge: 'AUTHENTICATOR' }));
    const { service } = setup({ fetch });
    expect(await service.add(login(ANN.email))).toEqual({ kind: 'challenge', step: 'AUTHENTICATOR' });
    expect(await service.list()).toEqual([]);
  });

  test('logging in again renews the session and keeps the synced state and label', async () => {
    const { service, repository } = setup();
    await service.add(login(ANN.email));
    await repository.update('10', (account) => ({ ...account, label: 'Work', appliedTransactionId: 40 }));
    await service.add(login(ANN.email));
    expect(await repository.get('10')).toMatchObject({ label: 'Work', appliedTransactionId: 40, token: 'token-10' });
  });

  test('a display name is one trimmed line, reaches every watcher, survives a new login, and an empty one falls back to the gateway’s', async () => {
    const { service, repository } = setup();
    await service.add(login(ANN.email));
    const heard: (readonly PublicAccount[])[] = [];
    await service.watch((accounts) => void heard.push(accounts));
    await expect(service.setDisplayName({ accountId: '10', displayName: '  Ann\n Lee  (work) ' })).resolves.toMatchObject({ accountId: '10', name: 'Ann Lee', displayName: 'Ann Lee (work)' });
    expect(await repository.get('10')).toMatchObject({ displayName: 'Ann Lee (work)', name: 'Ann Lee' });
    await vi.waitFor(() => expect(heard.at(-1)?.[0]).toMatchObject({ displayName: 'Ann Lee (work)' }));
    expect(senderName((await repository.get('10'))!)).toBe('Ann Lee (work)');
    // A new login brings the gateway's name again; the chosen one stays.
    await service.add(login(ANN.email));
    expect(await repository.get('10')).toMatchObject({ displayName: 'Ann Lee (work)', token: 'token-10' });
    await service.setDisplayName({ accountId: '10', displayName: '   ' });
    expect(senderName((await repository.get('10'))!)).toBe('Ann Lee');
    await expect(service.setDisplayName({ accountId: '99', displayName: 'X' })).rejects.toMatchObject({ name: 'AccountNotFound' });
    await expect(service.setDisplayName({ accountId: '10', displayName: 7 as unknown as string })).rejects.toMatchObject({ name: 'InvalidRequestData' });
  });

  test('remove logs out: gateway session, stored account, info and database go', async () => {
    const { service, repository, databases, gateway, analytics, logger } = setup();
    await service.add(login(ANN.email));
    await service.saveInfo({ accountId: '10', billing: { isAdmin: true } });
    const store = await databases.open('10');
    await service.remove({ accountId: '10' });
    expect(gateway.requests.at(-1)).toMatchObject({ url: 'https://mail.example.com/api/logout', headers: { authorization: 'Bearer token-10' } });
    expect(await repository.get('10')).toBeUndefined();
    expect(await repository.info(ANN.email)).toEqual({ partner: null, billing: null });
    await expect(withRead(store, ['Thread'], (tx) => tx.count('Thread'))).rejects.toMatchObject({ name: 'DatabaseClosed', detail: { reason: 'logged-out' } });
    expect(analytics.setAccounts).toHaveBeenLastCalledWith({ accountIds: [], primaryAccountId: null });
    expect(logger.deactivate).toHaveBeenCalled();
    expect((await service.initialise()).loggedIn).toBe(false);
    await expect(service.remove({ accountId: '10' })).rejects.toMatchObject({ name: 'AccountNotFound' });
  });

  test('removing the primary moves the logger to the next primary', async () => {
    const { service, logger } = setup();
    await service.add(login(BOB.email));
    await service.add(login(ANN.email));
    await service.remove({ accountId: '9' });
    expect(logger.activate.mock.calls.map(([target]) => target.accountId)).toEqual(['9', '10']);
  });

  test('reset clears the account’s database and sync state and stops the logger', async () => {
    const { service, repository, databases, analytics, logger } = setup();
    await service.add(login(ANN.email));
    await repository.update('10', (account) => ({ ...account, appliedTransactionId: 40, emailTemplateCursor: '17' }));
    await withWrite(await databases.open('10'), ['Thread'], (tx) => tx.put('Thread', { id: 't1' }));
    analytics.setAccounts.mockClear();
    await service.reset({ accountId: '10' });
    expect(await withRead(await databases.open('10'), ['Thread'], (tx) => tx.count('Thread'))).toBe(0);
    expect(await repository.get('10')).toMatchObject({ appliedTransactionId: 0, emailTemplateCursor: '0', token: 'token-10' });
    expect(logger.deactivate).toHaveBeenCalledTimes(1);
    expect(analytics.setAccounts).toHaveBeenCalledWith({ accountIds: ['10'], primaryAccountId: '10' });
  });

  test('partner and billing info are kept under the email key', async () => {
    const { service, stores } = setup();
    await service.add(login(ANN.email));
    await service.saveInfo({ accountId: '10', partner: { companyName: 'Flock Partners' } });
    await service.saveInfo({ accountId: '10', billing: { isAdmin: true } });
    expect(await service.info({ accountId: '10' })).toEqual({ partner: { companyName: 'Flock Partners' }, billing: { isAdmin: true } });
    const raw = await withRead(await stores.open(ACCOUNTS_DATABASE, ACCOUNTS_SCHEMA), ['accountInfo'], (tx) => tx.getAllKeys('accountInfo'));
    expect(raw).toEqual(['ann-lee@example-com']);
  });

  test('watchers hear every change, in this engine and in others', async () => {
    const hub = fakeBroadcastHub();
    const stores = new MemoryDatabases();
    const here = setup({ stores, hub });
    const there = setup({ stores, hub });
    const seenHere = vi.fn();
    const seenThere = vi.fn();
    const { subscriptionId } = await here.service.watch(seenHere);
    await there.service.watch(seenThere);
    await here.service.add(login(ANN.email));
    await vi.waitFor(() => expect(seenThere).toHaveBeenCalledTimes(1));
    expect(seenHere.mock.calls[0]?.[0].map((account: PublicAccount) => account.accountId)).toEqual(['10']);
    expect(seenThere.mock.calls[0]?.[0].map((account: PublicAccount) => account.accountId)).toEqual(['10']);
    await here.service.unwatch({ subscriptionId });
    await here.service.add(login(BOB.email));
    await vi.waitFor(() => expect(seenThere).toHaveBeenCalledTimes(2));
    expect(seenHere).toHaveBeenCalledTimes(1);
  });

  test('accounts persist in their own IndexedDB database across engine restarts', async () => {
    const stores = idbStoreFactory(new IDBFactory());
    await setup({ stores }).service.add(login(ANN.email));
    const restarted = setup({ stores });
    expect(await restarted.service.initialise()).toMatchObject({ loggedIn: true, primaryAccountId: '10', accounts: [{ emailAddress: 'ann.lee@example.com' }] });
    expect(restarted.logger.activate).toHaveBeenCalledWith(expect.objectContaining({ accountId: '10' }));
  });

  test('a session ended: the account goes unless a new login replaced that session meanwhile', async () => {
    const { service, repository, databases, stores } = setup();
    await service.add(login(ANN.email));
    // A late 401 for an older token (the person logged in again since): nothing happens.
    await service.sessionEnded({ accountId: '10', token: 'token-from-before' });
    expect((await service.list()).map((account) => account.accountId)).toEqual(['10']);
    // Its own session: logged out; with nothing pending the database goes as on logout.
    await withWrite(await databases.open('10'), ['JSONBlob'], (tx) => tx.put('JSONBlob', { id: 'marker' }));
    await Promise.all([service.sessionEnded({ accountId: '10', token: 'token-10' }), service.sessionEnded({ accountId: '10', token: 'token-10' })]);
    expect(await service.list()).toEqual([]);
    expect(await repository.keptDatabases()).toEqual({});
    const reopened = await stores.open('10', MAIL_SCHEMA);
    expect(await withRead(reopened, ['JSONBlob'], (tx) => tx.get('JSONBlob', 'marker'))).toBeUndefined();
  });

  test('a forced logout wipes the account like a normal logout, pending commands or not, and is told until the address signs in again', async () => {
    const indexedDb = new IDBFactory();
    const { service, repository } = setup({ stores: idbStoreFactory(indexedDb), pendingCommands: async () => true });
    await service.add(login(ANN.email));
    await service.add(login(BOB.email));
    const seen: string[][] = [];
    await service.watch((accounts) => seen.push(accounts.map((account) => account.accountId)));
    expect((await indexedDb.databases()).map((db) => db.name).sort()).toEqual(['10', '9', ACCOUNTS_DATABASE].sort());

    await service.sessionEnded({ accountId: '10', token: 'token-10' });
    // The database is gone from IndexedDB (issue point 21: it was kept while commands were pending).
    expect((await indexedDb.databases()).map((db) => db.name).sort()).toEqual(['9', ACCOUNTS_DATABASE].sort());
    expect(await repository.keptDatabases()).toEqual({});
    await vi.waitFor(() => expect(seen.at(-1)).toEqual(['9']));
    expect(await service.endedSessions()).toEqual([{ accountId: '10', emailAddress: ANN.email, endedAt: expect.any(Number) }]);

    // Signing in again is the answer: the notice goes. A user's own logout leaves none.
    await service.add(login(ANN.email));
    expect(await service.endedSessions()).toEqual([]);
    await service.remove({ accountId: '9' });
    expect(await service.endedSessions()).toEqual([]);
  });

  test('a database an earlier build kept over a forced logout is deleted at the next start', async () => {
    const indexedDb = new IDBFactory();
    const stores = idbStoreFactory(indexedDb);
    const { repository, databases } = setup({ stores });
    await databases.open('10');
    await repository.setKeptDatabase('10', Date.now());
    await setup({ stores }).service.initialise();
    expect((await indexedDb.databases()).map((db) => db.name)).toEqual([ACCOUNTS_DATABASE]);
    expect(await repository.keptDatabases()).toEqual({});
  });
});
