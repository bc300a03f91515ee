import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { expose, proxy, wrap, type Remote } from 'comlink';
import { afterEach, beforeAll, describe, expect, test } from 'vitest';
import type { PublicAccount } from '../../../../shared/account';
import { registerErrorTransfer } from '../../../../shared/error-transfer';
import type { WorkerApi } from '../../../../shared/worker-api';
import type { CommandStatus, SyncStatus } from '../../../../shared/worker-mail-api';
import { AccountRepository } from '../../../../src-worker/accounts/account-repository';
import { ACCOUNTS_DATABASE, ACCOUNTS_SCHEMA } from '../../../../src-worker/accounts/accounts-database';
import { idbStoreFactory } from '../../../../src-worker/db/idb-store';
import { lazyStore } from '../../../../src-worker/db/lazy-store';
import { createEngine } from '../../../../src-worker/engine';
import { FakeMailServer } from '../fake-mail-server';
import { fakeBroadcastHub, loginResponse, stoppableClock } from '../fakes';
import { waitFor } from '../mail-test-kit';

// Spec §4: a 401 InvalidToken forces logout of that account, whichever path met it.
beforeAll(() => registerErrorTransfer());
const channels: MessageChannel[] = [];
const clocks: ReturnType<typeof stoppableClock>[] = [];
afterEach(() => {
  channels.splice(0).forEach((channel) => (channel.port1.close(), channel.port2.close()));
  clocks.splice(0).forEach((clock) => clock.stop());
});

const T0 = Date.UTC(2026, 0, 1);

/** A browser profile (one IndexedDB) whose engine logs in to a fake gateway for account 7. */
function browser(server: FakeMailServer, params: { now?: () => number } = {}) {
  const factory = new IDBFactory();
  const state = { now: params.now ?? (() => Date.now()) };
  const fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const path = new URL(String(input)).pathname;
    // The gateway answers for the address that signs in (ann by default).
    const email = path === '/api/login' ? ((JSON.parse(String(init?.body)) as { email?: string }).email ?? 'ann@example.com') : '';
    if (path === '/api/login') return Response.json(loginResponse({ mailId: server.accountId, email, token: server.token, latestTxnId: server.latest, baseUrl: `https://gw${server.accountId}.test/api` }));
    if (path === '/api/logout') return new Response(null, { status: 204 });
    return server.fetch(input, init);
  };
  const start = () => {
    const clock = stoppableClock(() => state.now());
    clocks.push(clock);
    const api = createEngine({
      stores: idbStoreFactory(factory),
      fetch,
      apiBase: `https://gw${server.accountId}.test/api`,
      connectSocket: server.connectSocket,
      statusUrl: `https://gw${server.accountId}.test/status.png`,
      environment: { userAgent: 'curl/8.5', locale: 'en-GB', timeZone: 'UTC' },
      estimateStorage: async () => ({ usage: 0, quota: 1 }),
      openChannel: fakeBroadcastHub().open,
      clock,
    });
    return { api, tab: () => connectTab(api) };
  };
  const databases = async () => (await factory.databases()).map((info) => info.name).filter((name) => name === server.accountId);
  /** The accounts database as a second connection reads it (the engine's stays open). */
  const repository = new AccountRepository(lazyStore(idbStoreFactory(factory), ACCOUNTS_DATABASE, ACCOUNTS_SCHEMA));
  return { start, databases, state, repository };
}

function connectTab(api: WorkerApi): Remote<WorkerApi> {
  const channel = new MessageChannel();
  channels.push(channel);
  expose(api, channel.port1);
  return wrap<WorkerApi>(channel.port2);
}

/** Logs in from one tab; another watches the account list; resolves once synced. */
async function loggedIn(engine: ReturnType<ReturnType<typeof browser>['start']>, server: FakeMailServer) {
  const [tab, other] = [engine.tab(), engine.tab()];
  const lists: (readonly PublicAccount[])[] = [];
  await other.accounts.watch(proxy((accounts: readonly PublicAccount[]) => void lists.push(accounts)));
  await tab.accounts.initialise();
  await tab.accounts.add({ email: 'ann@example.com', password: 'Correct-Horse-9!' });
  const statuses: SyncStatus[] = [];
  await tab.mail.watchSync(proxy((status: SyncStatus) => void statuses.push(status)));
  await waitFor(() => statuses.some((status) => status.phase === 'idle' && status.appliedTransactionId === server.latest), 'the first sync');
  // And the loads that follow the first screen (settings, templates, address book): a test that
  // ends the session next must not meet one of them still to come.
  await waitFor(() => ['/api/preferences', '/api/templates', '/api/contacts'].every((path) => server.requests.some((request) => request.path === path)), 'the loads after the first screen');
  return { tab, lists, statuses };
}

/** The gateway forgets every session: each request with a token is refused. */
function endSessions(server: FakeMailServer) {
  server.handlers.push(({ headers }) => (headers.get('authorization') ? Response.json({ error: 'InvalidToken', description: 'Your session has ended.' }, { status: 401 }) : undefined));
}

describe('a session the gateway ended logs the account out', () => {
  test('a 401 on the sync path: gone from every tab’s list, and its database with it (nothing was pending)', async () => {
    const server = new FakeMailServer();
    server.standardFolders();
    server.deliver({ subject: 'Hello', at: T0 });
    const profile = browser(server);
    const { tab, lists, statuses } = await loggedIn(profile.start(), server);
    expect(await profile.databases()).toEqual(['7']);

    endSessions(server);
    server.deliver({ subject: 'Pushed', at: T0 + 1 });
    server.announce(); // the websocket says there is more; the pull meets the 401

    await waitFor(() => lists.at(-1)?.length === 0, 'the watching tab to see the account go');
    expect(await tab.accounts.list()).toEqual([]);
    expect(statuses.some((status) => status.phase === 'signed-out' && status.error?.name === 'InvalidToken')).toBe(true);
    await waitFor(async () => (await profile.databases()).length === 0, 'the database to be deleted');
  });

  test('a 401 on a command: logged out exactly as by a normal logout — database gone, the command with it — and the tabs can say why', async () => {
    // Issue point 21: the database used to be kept while a command was pending, and the
    // account's cached mail stayed in the browser after the gateway refused its session.
    const server = new FakeMailServer();
    server.standardFolders();
    const message = server.deliver({ subject: 'Read me', at: T0 });
    const profile = browser(server);
    const { tab, lists } = await loggedIn(profile.start(), server);

    endSessions(server);
    await tab.commands.run({ command: { kind: 'markRead', accountId: '7', threadIds: [message.threadId], read: true } });
    await waitFor(() => lists.at(-1)?.length === 0, 'the logout');
    await waitFor(async () => (await profile.databases()).length === 0, 'the database to be deleted');
    expect(server.messages.get(message.id)!.unread).toBe(true);
    expect(await tab.accounts.endedSessions()).toEqual([{ accountId: '7', emailAddress: 'ann@example.com', endedAt: expect.any(Number) }]);

    // Signing in again starts clean, and the notice goes.
    server.handlers.length = 0;
    await tab.accounts.add({ email: 'ann@example.com', password: 'Correct-Horse-9!' });
    expect(await tab.accounts.endedSessions()).toEqual([]);
  });
});

/** A composer's draft as the tab saves it. */
const draftOf = (subject: string) => ({
  accountId: '7',
  to: [{ name: 'Bob', email: 'bob@kite.test' }, { name: '', email: 'bob@kite' }],
  cc: [],
  bcc: [{ name: '', email: 'carol@example.com' }],
  subject,
  html: `<p>${subject}, typed on this device</p>`,
  attachmentIds: [],
});

/** What a login answered besides the account (its kind and what was restored). */
const extrasOf = (result: { kind: string }) => {
  const { account: _account, ...rest } = result as { kind: string; account?: unknown };
  return rest;
};

/** Every value the accounts database holds, as one text (what survives the logout). */
async function accountsDatabaseText(profile: ReturnType<typeof browser>): Promise<string> {
  const repository = profile.repository;
  const [accounts, ended, kept] = await Promise.all([repository.list(), repository.endedSessions(), repository.keptWork('ann@example.com')]);
  return JSON.stringify({ accounts, ended, kept });
}

describe('a forced logout keeps the person’s unsent work, and only that', () => {
  test('a draft saved on this device only: the database goes, the draft’s fields are kept, and the next sign-in saves it to Drafts', async () => {
    const server = new FakeMailServer();
    server.standardFolders();
    server.deliver({ subject: 'Received secret', at: T0 });
    const profile = browser(server);
    const { tab, lists } = await loggedIn(profile.start(), server);

    endSessions(server);
    const { draftId } = await tab.commands.saveDraft({ draft: draftOf('Quarterly plan') });
    await waitFor(() => lists.at(-1)?.length === 0, 'the logout');
    await waitFor(async () => (await profile.databases()).length === 0, 'the database to be deleted');

    const kept = await profile.repository.keptWork('ann@example.com');
    expect(kept).toEqual({
      emailAddress: 'ann@example.com',
      keptAt: expect.any(Number),
      drafts: [
        {
          // The composer's own id: a composer the tab remembers opens on the restored draft.
          draftId,
          accountId: '7',
          api: 'https://gw7.test/api',
          cursor: server.latest,
          to: [{ name: 'Bob', email: 'bob@kite.test' }, { name: '', email: 'bob@kite' }],
          cc: [],
          bcc: [{ name: '', email: 'carol@example.com' }],
          subject: 'Quarterly plan',
          html: '<p>Quarterly plan, typed on this device</p>',
          attachmentIds: [],
          wasSending: false,
          savedAt: expect.any(Number),
        },
      ],
      sendsInDrafts: 0,
    });
    // Nothing received stays: not the mail, not its subject.
    expect(await accountsDatabaseText(profile)).not.toContain('Received secret');
    // The notice can say so.
    expect(await tab.accounts.endedSessions()).toEqual([{ accountId: '7', emailAddress: 'ann@example.com', endedAt: expect.any(Number), keptDrafts: 1 }]);
    expect(server.drafts.size).toBe(0);

    server.handlers.length = 0;
    const result = await tab.accounts.add({ email: 'ann@example.com', password: 'Correct-Horse-9!' });
    expect(result).toMatchObject({ kind: 'added', restoredDrafts: 1 });
    const saved = await waitFor(() => [...server.drafts.values()].find((draft) => draft.subject === 'Quarterly plan'), 'the draft on the gateway');
    // The invalid address stays in the engine (held recipients); the gateway gets the deliverable ones.
    expect(saved).toMatchObject({ to: [{ name: 'Bob', email: 'bob@kite.test' }], bcc: [{ name: '', email: 'carol@example.com' }], html: '<p>Quarterly plan, typed on this device</p>' });
    expect(await profile.repository.keptWork('ann@example.com')).toBeNull();
    expect(server.drafts.size).toBe(1);
    // The composer open before the logout (the tab keeps its draft id) opens on it, invalid address and all.
    expect(await tab.commands.openDraft({ accountId: '7', draftId })).toMatchObject({ draftId, subject: 'Quarterly plan', to: [{ email: 'bob@kite.test' }, { email: 'bob@kite' }] });
  });

  test('a send that was waiting comes back as a draft and is never sent on its own', async () => {
    const server = new FakeMailServer();
    server.standardFolders();
    const profile = browser(server);
    const { tab, lists } = await loggedIn(profile.start(), server);

    endSessions(server);
    const { draftId } = await tab.commands.saveDraft({ draft: draftOf('Send me later') });
    await tab.commands.send({ accountId: '7', draftId, delayMs: 0, subject: 'Send me later' });
    await waitFor(() => lists.at(-1)?.length === 0, 'the logout');
    expect((await profile.repository.keptWork('ann@example.com'))?.drafts).toEqual([expect.objectContaining({ subject: 'Send me later', wasSending: true })]);

    server.handlers.length = 0;
    const statuses: CommandStatus[] = [];
    await tab.commands.watchCommands(proxy((status: CommandStatus) => void statuses.push(status)));
    const result = await tab.accounts.add({ email: 'ann@example.com', password: 'Correct-Horse-9!' });
    expect(result).toMatchObject({ kind: 'added', restoredDrafts: 1 });
    await waitFor(() => statuses.some((status) => status.kind === 'saveDraft' && status.status === 'done'), 'the restored draft to be saved');
    expect([...server.drafts.values()].map((draft) => draft.subject)).toEqual(['Send me later']);
    expect(server.sent.size).toBe(0);
    // (A new watch first hears the old session's last statuses: the send was pending then.)
    expect(statuses.filter((status) => status.kind === 'send' && status.status !== 'pending')).toEqual([]);
  });

  test('a send waiting in its undo window for a draft the gateway already has: nothing to keep but the word that it did not go', async () => {
    const server = new FakeMailServer();
    server.standardFolders();
    const profile = browser(server);
    const { tab, lists } = await loggedIn(profile.start(), server);

    const statuses: CommandStatus[] = [];
    await tab.commands.watchCommands(proxy((status: CommandStatus) => void statuses.push(status)));
    const { draftId } = await tab.commands.saveDraft({ draft: draftOf('Saved, then sent') });
    await waitFor(() => statuses.some((status) => status.kind === 'saveDraft' && status.status === 'done'), 'the draft on the gateway');
    // The undo window is open (the engine holds the send) when the gateway ends the session.
    await tab.commands.send({ accountId: '7', draftId, delayMs: 60_000, subject: 'Saved, then sent' });
    endSessions(server);
    server.deliver({ subject: 'Pushed', at: T0 });
    server.announce(); // the pull meets the 401
    await waitFor(() => lists.at(-1)?.length === 0, 'the logout');
    expect(await tab.accounts.endedSessions()).toEqual([{ accountId: '7', emailAddress: 'ann@example.com', endedAt: expect.any(Number), sendsInDrafts: 1 }]);
    expect((await profile.repository.keptWork('ann@example.com'))?.drafts).toEqual([]);

    server.handlers.length = 0;
    expect(await tab.accounts.add({ email: 'ann@example.com', password: 'Correct-Horse-9!' })).toMatchObject({ kind: 'added', sendsInDrafts: 1 });
    // Said once: the next sign-in has nothing more to say.
    expect(extrasOf(await tab.accounts.add({ email: 'ann@example.com', password: 'Correct-Horse-9!' }))).toEqual({ kind: 'added' });
    expect([...server.drafts.values()].map((draft) => draft.subject)).toEqual(['Saved, then sent']);
    expect(server.sent.size).toBe(0);
  });

  test('another address signing in touches nothing kept; a draft thrown away is not kept', async () => {
    const server = new FakeMailServer();
    server.standardFolders();
    const profile = browser(server);
    const { tab, lists } = await loggedIn(profile.start(), server);

    endSessions(server);
    await tab.commands.saveDraft({ draft: draftOf('Keep me') });
    const thrown = await tab.commands.saveDraft({ draft: draftOf('Throw me away') });
    await tab.commands.discardDraft({ accountId: '7', draftId: thrown.draftId });
    await waitFor(() => lists.at(-1)?.length === 0, 'the logout');
    expect((await profile.repository.keptWork('ann@example.com'))?.drafts.map((draft) => draft.subject)).toEqual(['Keep me']);

    server.handlers.length = 0;
    const result = await tab.accounts.add({ email: 'bob@example.com', password: 'Correct-Horse-9!' });
    expect(result).toMatchObject({ kind: 'added' });
    expect(result).not.toHaveProperty('restoredDrafts');
    expect((await profile.repository.keptWork('ann@example.com'))?.drafts).toHaveLength(1);
    expect(await tab.accounts.endedSessions()).toEqual([expect.objectContaining({ emailAddress: 'ann@example.com', keptDrafts: 1 })]);
    expect(server.drafts.size).toBe(0);
  });
});

describe('a logout the person chooses', () => {
  test('the tab can ask how many drafts have not reached the gateway (they go with the database), per stored account', async () => {
    const server = new FakeMailServer();
    server.standardFolders();
    const profile = browser(server);
    const { tab } = await loggedIn(profile.start(), server);
    expect(await tab.accounts.unsentDrafts({ accountIds: ['7'] })).toBe(0);

    // The gateway cannot take drafts for now (not a refused session): the save waits on this device.
    server.handlers.push(({ path }) => (path.startsWith('/api/drafts') ? Response.json({ error: 'InternalServerError', description: 'later' }, { status: 500 }) : undefined));
    await tab.commands.saveDraft({ draft: draftOf('Not yet on the server') });
    expect(await tab.accounts.unsentDrafts({ accountIds: ['7', '99'] })).toBe(1);

    await tab.accounts.remove({ accountId: '7' });
    expect(await tab.accounts.unsentDrafts({ accountIds: ['7'] })).toBe(0);
    // Chosen, not forced: nothing is kept.
    expect(await profile.repository.keptWork('ann@example.com')).toBeNull();
  });
});
