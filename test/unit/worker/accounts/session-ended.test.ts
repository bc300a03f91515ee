import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { expose, proxy, wrap, type Remote } from 'comlink';
import { afterEach, beforeAll, describe, expect, test } from 'vitest';
import type { PublicAccount } from '../../../../shared/account';
import { TIME } from '../../../../shared/constants';
import { registerErrorTransfer } from '../../../../shared/error-transfer';
import type { WorkerApi } from '../../../../shared/worker-api';
import type { SyncStatus } from '../../../../shared/worker-mail-api';
import { idbStoreFactory } from '../../../../src-worker/db/idb-store';
import { createEngine } from '../../../../src-worker/engine';
import { FakeMailServer } from '../fake-mail-server';
import { fakeBroadcastHub, loginResponse } from '../fakes';
import { waitFor } from '../mail-test-kit';

// Spec §4: a 401 InvalidToken forces logout of that account, whichever path met it.
beforeAll(() => registerErrorTransfer());
const channels: MessageChannel[] = [];
afterEach(() => channels.splice(0).forEach((channel) => (channel.port1.close(), channel.port2.close())));

const T0 = Date.UTC(2026, 0, 1);

/** A browser profile (one IndexedDB) whose engine logs in to a fake gateway for account 7. */
function browser(server: FakeMailServer, params: { now?: () => number } = {}) {
  const factory = new IDBFactory();
  const state = { now: params.now ?? (() => Date.now()) };
  const fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const path = new URL(String(input)).pathname;
    if (path === '/api/login') return Response.json(loginResponse({ mailId: server.accountId, email: 'ann@example.com', token: server.token, latestTxnId: server.latest, baseUrl: `https://gw${server.accountId}.test/api` }));
    if (path === '/api/logout') return new Response(null, { status: 204 });
    return server.fetch(input, init);
  };
  const start = () => {
    const api = createEngine({
      stores: idbStoreFactory(factory),
      fetch,
      apiBase: `https://gw${server.accountId}.test/api`,
      connectSocket: server.connectSocket,
      statusUrl: `https://gw${server.accountId}.test/status.png`,
      environment: { userAgent: 'curl/8.5', locale: 'en-GB', timeZone: 'UTC' },
      estimateStorage: async () => ({ usage: 0, quota: 1 }),
      openChannel: fakeBroadcastHub().open,
      clock: { now: () => state.now(), setTimeout, clearTimeout, setInterval, clearInterval },
    });
    return { api, tab: () => connectTab(api) };
  };
  const databases = async () => (await factory.databases()).map((info) => info.name).filter((name) => name === server.accountId);
  return { start, databases, state };
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

  test('a 401 on a command: the account is logged out, the command kept, and sent after the next login', async () => {
    const server = new FakeMailServer();
    server.standardFolders();
    const message = server.deliver({ subject: 'Read me', at: T0 });
    const profile = browser(server);
    const { tab, lists } = await loggedIn(profile.start(), server);

    endSessions(server);
    await tab.commands.run({ command: { kind: 'markRead', accountId: '7', threadIds: [message.threadId], read: true } });
    await waitFor(() => lists.at(-1)?.length === 0, 'the logout');
    expect(server.messages.get(message.id)!.unread).toBe(true);
    expect(await profile.databases()).toEqual(['7']); // kept: it holds the unsent command

    // The person logs in again (a new worker, as after closing the browser): the command goes out.
    server.handlers.length = 0;
    const restarted = profile.start();
    const tab2 = restarted.tab();
    await tab2.accounts.initialise();
    await tab2.accounts.add({ email: 'ann@example.com', password: 'Correct-Horse-9!' });
    await waitFor(() => server.messages.get(message.id)!.unread === false, 'the kept command to reach the gateway');
    expect(server.requestsTo('/api/threads/bulk').map((request) => request.body)).toEqual([
      { ids: [message.threadId], action: 'read' },
      { ids: [message.threadId], action: 'read' },
    ]);
  });

  test('a kept database whose account never comes back is deleted after 30 days', async () => {
    const server = new FakeMailServer();
    server.standardFolders();
    const message = server.deliver({ subject: 'Read me', at: T0 });
    const profile = browser(server);
    const { tab, lists } = await loggedIn(profile.start(), server);
    endSessions(server);
    await tab.commands.run({ command: { kind: 'markRead', accountId: '7', threadIds: [message.threadId], read: true } });
    await waitFor(() => lists.at(-1)?.length === 0, 'the logout');

    const later = Date.now();
    profile.state.now = () => later + 29 * TIME.day;
    await profile.start().tab().accounts.initialise();
    expect(await profile.databases()).toEqual(['7']);
    profile.state.now = () => later + 31 * TIME.day;
    await profile.start().tab().accounts.initialise();
    expect(await profile.databases()).toEqual([]);
  });
});
