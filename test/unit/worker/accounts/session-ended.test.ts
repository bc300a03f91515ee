import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { expose, proxy, wrap, type Remote } from 'comlink';
import { afterEach, beforeAll, describe, expect, test } from 'vitest';
import type { PublicAccount } from '../../../../shared/account';
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
