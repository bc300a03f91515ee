/**
 * The settings service as tabs reach it: the engine's `settings` over a real MessageChannel,
 * loaded from the gateway once the account runs, a change made in one tab seen by another
 * and sent to the gateway as PATCH /api/preferences.
 */
import { proxy } from 'comlink';
import { beforeAll, expect, test, vi } from 'vitest';
import { registerErrorTransfer } from '../../../../shared/error-transfer';
import { DEFAULT_PREFERENCES, type PreferencesDoc } from '../../../../shared/preferences';
import type { AccountSettings, WorkerApi } from '../../../../shared/worker-api';
import { MemoryDatabases } from '../../../../src-worker/db/memory-store';
import { createEngine } from '../../../../src-worker/engine';
import { fakeBroadcastHub, fakeFetch, loginResponse } from '../fakes';
import { tabChannels } from '../tab-channels';

beforeAll(() => registerErrorTransfer());
const connectTab = tabChannels();

test('signed in: the gateway preferences reach every tab; a change in one tab reaches the other and the gateway', async () => {
  let doc: PreferencesDoc = { revision: 2, values: { ...DEFAULT_PREFERENCES, theme: 'dark' }, updatedAt: 5 };
  const network = fakeFetch((request) => {
    if (request.url.endsWith('/login')) return loginResponse({ mailId: '7', email: 'ann@example.com', token: 'token-7' });
    if (request.url.endsWith('/api/plan')) return { plan: 'paid', features: ['spellChecker'] };
    if (request.url.endsWith('/api/preferences') && request.method === 'PATCH') {
      doc = { revision: doc.revision + 1, values: { ...doc.values, ...(request.body as { values: object }).values }, updatedAt: 6 };
      return doc;
    }
    if (request.url.endsWith('/api/preferences')) return doc;
    return new Response(null, { status: 204 });
  });
  const api = createEngine({
    stores: new MemoryDatabases(),
    fetch: network.fetch,
    apiBase: 'https://gateway.example/api',
    environment: { userAgent: 'curl/8.5', locale: 'en-GB', timeZone: 'UTC' },
    estimateStorage: async () => ({ usage: 0, quota: 1 }),
    openChannel: fakeBroadcastHub().open,
    engineId: 'engine-1',
    firstScreenWaitMs: 0,
  });
  const tab = connectTab(api);
  const other = connectTab(api);
  const seen: (readonly AccountSettings[])[] = [];
  await other.settings.watch(proxy((settings: readonly AccountSettings[]) => void seen.push(settings)));

  await tab.accounts.add({ email: 'ann@example.com', password: 'Correct-Horse-9!' });
  await vi.waitFor(() => expect(seen.at(-1)?.[0]).toMatchObject({ accountId: '7', revision: 2, preferences: { theme: 'dark' } }));

  const updated = await tab.settings.update({ accountId: '7', values: { viewMode: 'list' } });
  expect(updated).toMatchObject({ revision: 3, unsynced: false, preferences: { theme: 'dark', viewMode: 'list' } });
  const patch = network.requests.find((request) => request.method === 'PATCH');
  expect(patch).toMatchObject({ url: 'https://mail.example.com/api/preferences', body: { values: { viewMode: 'list' } } });
  await vi.waitFor(() => expect(seen.at(-1)?.[0]?.preferences.viewMode).toBe('list'));

  // An object value (the priority inbox's model) is settled once confirmed too: the copy read back is equal, not the same object.
  const model = { weights: { repliesToSender: 2.4, directlyToYou: 1, yourThread: 2, knownContact: 1.5, notAPerson: -2.5, bulkMail: -3.2 }, bias: -1.4, trained: 1 };
  const learned = await tab.settings.update({ accountId: '7', values: { priorityModel: model } });
  expect(learned).toMatchObject({ unsynced: false, preferences: { priorityModel: model } });
});
