import { afterEach, beforeEach, describe, expect, test, vi, type Mock } from 'vitest';
import { addEventsBodySchema } from '../../../../shared/api/analytics';
import type { AnalyticsEventRecord } from '../../../../shared/analytics-events';
import { ACCOUNTS_DATABASE, ACCOUNTS_SCHEMA } from '../../../../src-worker/accounts/accounts-database';
import { EngineAnalytics, PRE_LOGIN_QUEUE } from '../../../../src-worker/analytics/analytics-service';
import { storedQueues, type QueueStorage } from '../../../../src-worker/analytics/queue-storage';
import { lazyStore } from '../../../../src-worker/db/lazy-store';
import { MemoryDatabases } from '../../../../src-worker/db/memory-store';
import { fakeFetch, type RecordedRequest } from '../fakes';

const WINDOWS_CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.6778.85 Safari/537.36';
const START = Date.UTC(2026, 10, 21, 9);

let storage: QueueStorage;
let online: boolean;
let status: (request: RecordedRequest) => Response;
let network: ReturnType<typeof fakeFetch>;
let onInvalidToken: Mock<(accountId: string) => Promise<void>>;

beforeEach(() => {
  vi.useFakeTimers({ now: START, toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
  storage = storedQueues(lazyStore(new MemoryDatabases(), ACCOUNTS_DATABASE, ACCOUNTS_SCHEMA));
  online = true;
  status = () => new Response(null, { status: 200 });
  network = fakeFetch((request) => status(request));
  onInvalidToken = vi.fn(async () => {});
});
afterEach(() => vi.useRealTimers());

function analytics() {
  return new EngineAnalytics({
    fetch: network.fetch,
    apiBase: 'https://gateway.example/api',
    environment: { userAgent: WINDOWS_CHROME, locale: 'en-GB', timeZone: 'Europe/Berlin' },
    storage,
    credentials: async (accountId) => (accountId === '7' ? { api: 'https://mail.example.com/api', token: 'token-7', trackingHeader: '0:1' } : undefined),
    deviceId: async () => 'local-device',
    onInvalidToken,
    isOnline: () => online,
  });
}

/** An engine whose account 7 is logged in and which is the writer. */
async function started() {
  const service = analytics();
  await service.setAccounts({ accountIds: ['7'], primaryAccountId: '7' });
  await service.start();
  return service;
}

const sentEvents = () => network.requests.flatMap((request) => (request.body as { events: AnalyticsEventRecord[] }).events);

describe('AnalyticsService', () => {
  test('accepts only names of the fixed list, and login events only for a known account', async () => {
    const service = await started();
    expect(await service.track({ eventName: 'rm_rf' as 'mail_sent' })).toEqual({ accepted: false, reason: 'unknown-event' });
    expect(await service.track({ eventName: 'mail_sent' })).toEqual({ accepted: false, reason: 'unknown-account' });
    expect(await service.track({ eventName: 'mail_sent', accountId: '8' })).toEqual({ accepted: false, reason: 'unknown-account' });
    expect(await service.track({ eventName: 'mail_sent', accountId: PRE_LOGIN_QUEUE })).toEqual({ accepted: false, reason: 'unknown-account' });
    expect(await service.track({ eventName: 'mail_sent', accountId: '7', attrs: { nested: {} as unknown as string } })).toEqual({ accepted: false, reason: 'invalid' });
    expect(await service.track({ eventName: 'mail_sent', accountId: '7' })).toEqual({ accepted: true, queue: '7' });
    expect(await service.track({ eventName: 'login_page_viewed' })).toEqual({ accepted: true, queue: PRE_LOGIN_QUEUE });
  });

  test('a logged-in batch goes to addEvents with the account’s headers and the base properties', async () => {
    const service = await started();
    await service.track({ eventName: 'thread_opened', accountId: '7', attrs: { folder: 'inbox', device: 'spoofed' }, hattrs: { thread: 't1' } });
    await vi.advanceTimersByTimeAsync(0);
    const [request] = network.requests;
    expect(request).toMatchObject({
      url: 'https://mail.example.com/api/analytics/addEvents',
      method: 'POST',
      headers: { 'x-tern-api-endpoint': 'https://mail.example.com/api', authorization: 'Bearer token-7', 'x-tern-tracking': '0:1' },
      body: { product: 'email', type: 'flock_account' },
    });
    expect(JSON.parse(request?.headers['x-tern-client'] ?? '')).toEqual({
      os: 'Windows', os_version: '10.0', app_version: '5.33.0', locale: 'en-GB', browser: 'Chrome', browser_version: '131.0.6778.85', client: 'web_mail',
    });
    expect(addEventsBodySchema.safeParse(request?.body).success).toBe(true);
    const [event] = sentEvents();
    expect(event).toEqual({
      eventName: 'thread_opened',
      eventTs: START,
      attrs: {
        folder: 'inbox',
        event_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        locale: 'en-GB', timezone: 'Europe/Berlin', app_version: '5.33.0', os: 'Windows', os_version: '10.0', browser: 'Chrome', browser_version: '131.0.6778.85',
        device_id: 'local-device', device: 'web', no_of_accounts: 1, account_ids: ['7'], primary_account_id: '7',
      },
      hattrs: { thread: 't1' },
    });
  });

  test('a pre-login batch goes to addPreAuthEvents without token headers, with an entity id', async () => {
    const service = analytics();
    await service.start();
    await service.track({ eventName: 'login_submitted' });
    await service.track({ eventName: 'login_failed', entityId: 'typed@example.com' });
    await vi.advanceTimersByTimeAsync(0);
    const [request] = network.requests;
    expect(request?.url).toBe('https://gateway.example/api/analytics/addPreAuthEvents');
    expect(request?.headers).not.toHaveProperty('authorization');
    expect(request?.headers).not.toHaveProperty('x-tern-tracking');
    expect(sentEvents().map((event) => [event.entityId, event.attrs.no_of_accounts, event.attrs.primary_account_id])).toEqual([
      ['local-device', 0, null],
      ['typed@example.com', 0, null],
    ]);
  });

  test('sends at most 100 events per batch and at most one batch every 5 s', async () => {
    const service = await started();
    for (let i = 0; i < 250; i++) await service.track({ eventName: 'thread_opened', accountId: '7', attrs: { i } });
    await vi.advanceTimersByTimeAsync(0);
    expect(network.requests.map((request) => (request.body as { events: unknown[] }).events.length)).toEqual([100]);
    await vi.advanceTimersByTimeAsync(4_999);
    expect(network.requests).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(network.requests.map((request) => (request.body as { events: unknown[] }).events.length)).toEqual([100, 100, 50]);
    expect(sentEvents().map((event) => event.attrs.i)).toEqual(Array.from({ length: 250 }, (_, i) => i));
  });

  test('queues are persisted 2 s after the last change and picked up by the next run', async () => {
    online = false;
    const first = await started();
    await first.track({ eventName: 'mail_sent', accountId: '7' });
    await vi.advanceTimersByTimeAsync(1_999);
    expect(await storage.load('7')).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect((await storage.load('7')).map((event) => event.eventName)).toEqual(['mail_sent']);

    online = true;
    await started(); // a new worker: loads and sends what the last one left
    await vi.advanceTimersByTimeAsync(0);
    expect(sentEvents().map((event) => event.eventName)).toEqual(['mail_sent']);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(await storage.load('7')).toEqual([]);
  });

  test('offline or 5xx: kept and retried; another failure: dropped', async () => {
    const service = await started();
    online = false;
    await service.track({ eventName: 'mail_sent', accountId: '7' });
    await vi.advanceTimersByTimeAsync(0);
    expect(network.requests).toHaveLength(0);
    online = true;
    status = () => new Response(null, { status: 503 });
    await vi.advanceTimersByTimeAsync(5_000);
    expect(network.requests).toHaveLength(1);
    status = () => Response.json({ error: 'InvalidRequestData' }, { status: 400 });
    await vi.advanceTimersByTimeAsync(10_000); // the wait grows after repeated failures
    expect(network.requests).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(network.requests).toHaveLength(2); // the 400 dropped it: nothing left to send
    await vi.advanceTimersByTimeAsync(2_000);
    expect(await storage.load('7')).toEqual([]);
  });

  test('a network error keeps the batch', async () => {
    network = fakeFetch(() => Promise.reject(new TypeError('Failed to fetch')));
    const service = await started();
    await service.track({ eventName: 'mail_sent', accountId: '7' });
    await vi.advanceTimersByTimeAsync(2_000);
    expect((await storage.load('7')).map((event) => event.eventName)).toEqual(['mail_sent']);
  });

  test('a 401 InvalidToken drops the batch and logs out the session it was sent with', async () => {
    status = () => Response.json({ error: 'InvalidToken', description: 'Your session has ended.' }, { status: 401 });
    const service = await started();
    await service.track({ eventName: 'mail_sent', accountId: '7' });
    await vi.advanceTimersByTimeAsync(0);
    expect(onInvalidToken).toHaveBeenCalledWith('7', 'token-7');
    await vi.advanceTimersByTimeAsync(60_000);
    expect(network.requests).toHaveLength(1);
  });

  test('an engine that is not the writer sends and persists nothing until it is elected', async () => {
    const service = analytics();
    await service.setAccounts({ accountIds: ['7'], primaryAccountId: '7' });
    await service.track({ eventName: 'mail_sent', accountId: '7' });
    await vi.advanceTimersByTimeAsync(10_000);
    expect(network.requests).toHaveLength(0);
    expect(await storage.load('7')).toEqual([]);
    await service.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(sentEvents().map((event) => event.eventName)).toEqual(['mail_sent']);
  });

  test('account changes update the base properties; a removed account’s queue goes', async () => {
    online = false;
    const service = await started();
    await service.track({ eventName: 'mail_sent', accountId: '7' });
    await vi.advanceTimersByTimeAsync(2_000);
    await service.setAccounts({ accountIds: ['3', '7'], primaryAccountId: '3' });
    expect(await service.baseProperties()).toMatchObject({ no_of_accounts: 2, account_ids: ['3', '7'], primary_account_id: '3' });
    await service.setAccounts({ accountIds: ['3'], primaryAccountId: '3' });
    expect(await storage.load('7')).toEqual([]);
    expect(await service.track({ eventName: 'mail_sent', accountId: '7' })).toEqual({ accepted: false, reason: 'unknown-account' });
  });

  test('a removed account’s last events (logout) are not dropped: they leave with the pre-login batch, without its token', async () => {
    const service = await started();
    await vi.advanceTimersByTimeAsync(10_000);
    await service.track({ eventName: 'logout', accountId: '7' });
    await service.setAccounts({ accountIds: [], primaryAccountId: null });
    await vi.advanceTimersByTimeAsync(10_000);
    const batch = network.requests.find((request) => (request.body as { events: AnalyticsEventRecord[] }).events.some((event) => event.eventName === 'logout'));
    expect(batch?.url).toBe('https://gateway.example/api/analytics/addPreAuthEvents');
    expect(batch?.headers.authorization).toBeUndefined();
  });
});
