import { proxy } from 'comlink';
import { afterEach, beforeAll, expect, test, vi } from 'vitest';
import type { PublicAccount } from '../../../shared/account';
import { registerErrorTransfer } from '../../../shared/error-transfer';
import { TernError } from '../../../shared/errors';
import type { WorkerApi } from '../../../shared/worker-api';
import type { WriterRole } from '../../../src-worker/boundary/writer-election';
import { MemoryDatabases } from '../../../src-worker/db/memory-store';
import { channelName, ENGINE_BUILD } from '../../../src-worker/boundary/channel-names';
import { createEngine } from '../../../src-worker/engine';
import type { BroadcastPort } from '../../../src-worker/db/account-databases';
import { fakeBroadcastHub, fakeFetch, loginResponse, stoppableClock } from './fakes';
import { tabChannels } from './tab-channels';

// The engine as a tab sees it: the real services over a real MessageChannel.
beforeAll(() => registerErrorTransfer());
const connectTab = tabChannels();
const clocks: ReturnType<typeof stoppableClock>[] = [];
afterEach(() => clocks.splice(0).forEach((clock) => clock.stop()));

const ANN = loginResponse({ mailId: '7', email: 'ann@example.com', token: 'token-7' });

function engine(params: { writer?: WriterRole; analyticsStatus?: () => Response; openChannel?: (name: string) => BroadcastPort; build?: string } = {}) {
  const { analyticsStatus = () => new Response(null, { status: 200 }), ...rest } = params;
  const network = fakeFetch((request) => (request.url.endsWith('/login') ? ANN : request.url.includes('/analytics/') ? analyticsStatus() : new Response(null, { status: 204 })));
  const clock = stoppableClock();
  clocks.push(clock);
  const api = createEngine({
    clock,
    stores: new MemoryDatabases(),
    fetch: network.fetch,
    apiBase: 'https://gateway.example/api',
    environment: { userAgent: 'curl/8.5', locale: 'en-GB', timeZone: 'UTC' },
    estimateStorage: async () => ({ usage: 0, quota: 1 }),
    openChannel: fakeBroadcastHub().open,
    engineId: 'engine-1',
    ...rest,
  });
  return { api, network };
}

test('a tab logs in, sees the account, and its analytics reach the account’s addEvents', async () => {
  const { api, network } = engine();
  const tab = connectTab(api);
  const other = connectTab(api);
  const seen: (readonly PublicAccount[])[] = [];
  await other.accounts.watch(proxy((accounts: readonly PublicAccount[]) => void seen.push(accounts)));

  expect(await tab.accounts.initialise()).toEqual({ loggedIn: false, primaryAccountId: null, accounts: [] });
  const added = await tab.accounts.add({ email: 'ann@example.com', password: 'Correct-Horse-9!' });
  expect(added).toMatchObject({ kind: 'added', account: { accountId: '7', emailAddress: 'ann@example.com' } });
  expect((await tab.accounts.list()).map((account) => account.accountId)).toEqual(['7']);
  await vi.waitFor(() => expect(seen.at(-1)?.map((account) => account.accountId)).toEqual(['7']));

  expect(await tab.analytics.track({ eventName: 'thread_opened', accountId: '7' })).toEqual({ accepted: true, queue: '7' });
  await vi.waitFor(() => expect(network.requests.some((request) => request.url === 'https://mail.example.com/api/analytics/addEvents')).toBe(true));
  await tab.log.record({ type: 'Action', message: 'opened ann@example.com' });
});

test('catalogue errors of the services reach the tab typed', async () => {
  const tab = connectTab(engine().api);
  const error = await tab.accounts.reset({ accountId: '99' }).catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(TernError);
  expect(error).toMatchObject({ name: 'AccountNotFound', detail: { accountId: '99' } });
});

test('what a tab sends is parsed: a bad log line or info is refused, not stored', async () => {
  const tab = connectTab(engine().api);
  await expect(tab.log.record({ type: 'Shout' as 'Info', message: 'hi' })).rejects.toMatchObject({ name: 'InvalidRequestData', detail: { issues: ['type'] } });
  await tab.accounts.add({ email: 'ann@example.com', password: 'Correct-Horse-9!' });
  const bad = { accountId: '7', billing: { isAdmin: 'yes' } } as unknown as Parameters<WorkerApi['accounts']['saveInfo']>[0];
  await expect(tab.accounts.saveInfo(bad)).rejects.toMatchObject({ name: 'InvalidRequestData' });
  expect(await tab.accounts.saveInfo({ accountId: '7', billing: { isAdmin: true, plan: 'pro' } })).toEqual({ partner: null, billing: { isAdmin: true, plan: 'pro' } });
});

test('an engine that is not the elected writer sends no analytics', async () => {
  const waiting: WriterRole = { isWriter: false, elected: new Promise(() => {}), resign: () => {} };
  const { api, network } = engine({ writer: waiting });
  const tab = connectTab(api);
  await tab.analytics.track({ eventName: 'login_page_viewed' });
  await tab.analytics.flush();
  await new Promise((resolve) => setTimeout(resolve, 20));
  expect(network.requests.filter((request) => request.url.includes('/analytics/'))).toEqual([]);
});

test('a 401 InvalidToken on the analytics path logs that account out through the account service', async () => {
  const { api } = engine({ analyticsStatus: () => Response.json({ error: 'InvalidToken' }, { status: 401 }) });
  const tab = connectTab(api);
  await tab.accounts.add({ email: 'ann@example.com', password: 'Correct-Horse-9!' });
  await tab.analytics.track({ eventName: 'thread_opened', accountId: '7' });
  await vi.waitFor(async () => expect(await tab.accounts.list()).toEqual([]));
  expect(await tab.analytics.track({ eventName: 'thread_opened', accountId: '7' })).toEqual({ accepted: false, reason: 'unknown-account' });
});

test('every channel an engine opens carries its build: an engine of another build hears none of its broadcasts', async () => {
  const hub = fakeBroadcastHub();
  const opened: string[] = [];
  const { api } = engine({ openChannel: (name) => (opened.push(name), hub.open(name)), build: 'build-A' });
  expect(opened.length).toBeGreaterThanOrEqual(3);
  for (const name of opened) expect(name.endsWith('@build-A')).toBe(true);
  expect(channelName('tern-mail')).toBe(`tern-mail@${ENGINE_BUILD}`);

  // Listeners on the same channels as named by the same build and by another one.
  const heard = { sameBuild: 0, otherBuild: 0 };
  for (const name of opened) {
    const base = name.slice(0, name.lastIndexOf('@'));
    hub.open(channelName(base, 'build-A')).addEventListener('message', () => void heard.sameBuild++);
    hub.open(channelName(base, 'build-B')).addEventListener('message', () => void heard.otherBuild++);
  }
  await connectTab(api).accounts.add({ email: 'ann@example.com', password: 'Correct-Horse-9!' });
  await vi.waitFor(() => expect(heard.sameBuild).toBeGreaterThan(0));
  expect(heard.otherBuild).toBe(0);
});
