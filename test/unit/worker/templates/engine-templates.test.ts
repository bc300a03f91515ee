/**
 * Templates as tabs reach them (issue 14 point 3): the engine pulls the gateway's changes
 * stream from the Account's emailTemplateCursor once the account runs, shows them with the
 * account's settings in every tab, saves through PUT and deletes through DELETE, each followed
 * by a pull from the cursor it had reached (not from the start); a bad template is refused
 * here without a request.
 */
import { proxy } from 'comlink';
import { beforeAll, expect, test, vi } from 'vitest';
import { registerErrorTransfer } from '../../../../shared/error-transfer';
import { DEFAULT_PREFERENCES } from '../../../../shared/preferences';
import type { Template } from '../../../../shared/templates';
import type { AccountSettings } from '../../../../shared/worker-api';
import { MemoryDatabases } from '../../../../src-worker/db/memory-store';
import { createEngine } from '../../../../src-worker/engine';
import { fakeBroadcastHub, fakeFetch, loginResponse } from '../fakes';
import { tabChannels } from '../tab-channels';

beforeAll(() => registerErrorTransfer());
const connectTab = tabChannels();

/** A gateway's template stream: every change appended; the cursor is the index of the last one read. */
function templateStream() {
  const log: ({ kind: 'put'; template: Template } | { kind: 'delete'; id: string })[] = [];
  return {
    log,
    changes(since: string) {
      const from = since === '' ? 0 : Number(since);
      const page = log.slice(from);
      return {
        templates: page.flatMap((entry) => (entry.kind === 'put' ? [entry.template] : [])),
        deleted: page.flatMap((entry) => (entry.kind === 'delete' ? [entry.id] : [])),
        cursor: page.length > 0 ? String(log.length) : since,
        hasMore: false,
      };
    },
  };
}

test('pulled at sign-in, saved and deleted through the gateway, every tab sees them; the cursor moves on; a bad template sends nothing', async () => {
  const stream = templateStream();
  stream.log.push({ kind: 'put', template: { id: 'hello', name: 'Hello', subject: 'Hi', bodyHtml: '<p>Hi {{first_name}}</p>', createdAt: 1, updatedAt: 1 } });
  const network = fakeFetch((request) => {
    const url = new URL(request.url);
    if (url.pathname.endsWith('/login')) return loginResponse({ mailId: '7', email: 'ann@example.com', token: 'token-7' });
    if (url.pathname === '/api/plan') return { plan: 'paid', features: ['templates'] };
    if (url.pathname === '/api/preferences') return { revision: 0, values: DEFAULT_PREFERENCES, updatedAt: 0 };
    if (url.pathname === '/api/templates') return stream.changes(url.searchParams.get('since') ?? '');
    const put = /^\/api\/templates\/(.+)$/.exec(url.pathname);
    if (put && request.method === 'PUT') {
      const template = { id: put[1]!, ...(request.body as object), createdAt: 2, updatedAt: 2 } as Template;
      stream.log.push({ kind: 'put', template });
      return template;
    }
    if (put && request.method === 'DELETE') {
      stream.log.push({ kind: 'delete', id: put[1]! });
      return { ok: true };
    }
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
  const names = () => seen.at(-1)?.[0]?.templates.map((template) => template.name);

  await tab.accounts.add({ email: 'ann@example.com', password: 'Correct-Horse-9!' });
  await vi.waitFor(() => expect(names()).toEqual(['Hello']));
  await vi.waitFor(async () => expect((await tab.accounts.list()).find((account) => account.accountId === '7')).toBeDefined());

  const { templateId } = await tab.settings.saveTemplate({ accountId: '7', template: { name: 'Apology', subject: 'Sorry', bodyHtml: '<p>Sorry</p>' } });
  await vi.waitFor(() => expect(names()).toEqual(['Apology', 'Hello']));
  await tab.settings.deleteTemplate({ accountId: '7', templateId: 'hello' });
  await vi.waitFor(() => expect(names()).toEqual(['Apology']));
  expect(seen.at(-1)?.[0]?.templates[0]).toMatchObject({ id: templateId, subject: 'Sorry' });
  // Each pull after a change asked from the cursor the last one reached.
  const sinces = network.requests.filter((request) => new URL(request.url).pathname === '/api/templates').map((request) => new URL(request.url).searchParams.get('since'));
  expect(sinces.slice(0, 1)).toEqual(['']);
  expect(sinces.slice(-2)).toEqual(['1', '2']);

  const requests = network.requests.length;
  await expect(tab.settings.saveTemplate({ accountId: '7', template: { name: '  ', bodyHtml: '' } })).rejects.toMatchObject({ name: 'InvalidParameter' });
  await expect(tab.settings.saveTemplate({ accountId: '7', template: { name: 'Big', bodyHtml: 'x'.repeat(20_001) } })).rejects.toMatchObject({ name: 'TemplateTooLarge' });
  expect(network.requests.length).toBe(requests);
});
