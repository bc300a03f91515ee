// @vitest-environment happy-dom
import { createStore } from 'jotai';
import { afterEach, expect, test } from 'vitest';
import type { ListPatch } from '../../../../shared/worker-mail-api';
import { listScopeFor } from '../../../../src-ui/state/list-scope';
import { ACCOUNT_IDS_KEY, FIRST_WINDOW, firstScreenScope, rememberAccountIds, requestEarlyList } from '../../../../src-ui/engine/first-screen';
import { threadListAtom } from '../../../../src-ui/state/atoms';
import { createWorkerBridge, scopeKeyOf } from '../../../../src-ui/state/engine-feeds';
import { createFakeEngine, type FakeEngine } from '../fake-mail-engine';

afterEach(() => localStorage.clear());

const at = (pathname: string, search = '') => firstScreenScope({ pathname, search });

test('the address tells the list, the same one the mailbox route builds', () => {
  expect(at('/mail/unified/inbox')).toBeNull(); // the account ids are not known yet
  rememberAccountIds(['1001', '1002']);
  expect(localStorage.getItem(ACCOUNT_IDS_KEY)).toBe('["1001","1002"]');
  const unified = at('/mail/unified/inbox', '?thread=1001:5');
  expect(scopeKeyOf(unified!)).toBe(scopeKeyOf(listScopeFor({ kind: 'unified', role: 'inbox' }, {}, ['1001', '1002'])));
  expect(at('/')).toEqual(unified);
  expect(at('/mail/unified/sent')).toMatchObject({ kind: 'unified', role: 'sent' });
  const folder = at('/mail/1002/Work%20stuff');
  expect(scopeKeyOf(folder!)).toBe(scopeKeyOf(listScopeFor({ kind: 'folder', accountId: '1002', folderId: 'Work stuff' }, {}, ['1001', '1002'])));
  // A search, another screen, a role that is none: no guess.
  expect(at('/mail/unified/inbox', '?q=invoice')).toBeNull();
  expect(at('/login')).toBeNull();
  expect(at('/mail/unified/spam')).toBeNull();
  rememberAccountIds([]);
  expect(localStorage.getItem(ACCOUNT_IDS_KEY)).toBeNull();
});

function earlyListOn(engine: FakeEngine, scope: Parameters<typeof requestEarlyList>[0]['scope']) {
  const unwatched: string[] = [];
  let snapshot!: ReturnType<FakeEngine['mail']['watchThreadList']>;
  const early = requestEarlyList({
    scope,
    window: FIRST_WINDOW,
    watch: (onPatch) => (snapshot = engine.mail.watchThreadList({ scope, window: FIRST_WINDOW }, onPatch as (patch: ListPatch) => void)),
    unwatch: (subscriptionId) => void unwatched.push(subscriptionId),
  });
  return { early, unwatched, snapshot };
}

const watches = (engine: FakeEngine) => engine.calls.filter((call) => call.method === 'mail.watchThreadList').length;

test('the mailbox adopts the list asked at start-up instead of asking again, patches included', async () => {
  const engine = createFakeEngine();
  await engine.accounts.initialise();
  const inbox = engine.folderOf('1001', 'inbox');
  const scope = { kind: 'folder', accountId: '1001', folderId: inbox.id } as const;
  const { early, unwatched, snapshot } = earlyListOn(engine, scope);
  // New mail after the snapshot, before the app mounts: its patch is kept for the adopter.
  await snapshot;
  const arrived = engine.deliver({ accountId: '1001', subject: 'While the app loads', from: { name: 'Zed', email: 'zed@example.com' } });
  await engine.settle();
  expect((await snapshot).rows.map((row) => row.key)).not.toContain(arrived.key);

  const store = createStore();
  const bridge = createWorkerBridge({ engine: { ...engine, startup: { firstList: early } }, store });
  await bridge.openThreadList(scope, FIRST_WINDOW);
  expect(watches(engine)).toBe(1);
  expect(unwatched).toEqual([]);
  const held = store.get(threadListAtom).held!;
  expect(store.get(threadListAtom).status).toBe('ready');
  expect(held.rows[0]?.key).toBe(arrived.key);
  bridge.stop();
});

test('a start-up list for another address is dropped and the mailbox asks for its own', async () => {
  const engine = createFakeEngine();
  await engine.accounts.initialise();
  const inbox = engine.folderOf('1001', 'inbox');
  const sent = engine.folderOf('1001', 'sent');
  const { early, unwatched } = earlyListOn(engine, { kind: 'folder', accountId: '1001', folderId: inbox.id });
  const store = createStore();
  const bridge = createWorkerBridge({ engine: { ...engine, startup: { firstList: early } }, store });
  await bridge.openThreadList({ kind: 'folder', accountId: '1001', folderId: sent.id }, FIRST_WINDOW);
  expect(watches(engine)).toBe(2);
  await new Promise((resolve) => setTimeout(resolve, 0));
  expect(unwatched).toHaveLength(1);
  expect(early.adopt(() => undefined)).toBeNull();
  bridge.stop();
});

test('start shows the start-up list before any mailbox asks, and the mailbox keeps it', async () => {
  const engine = createFakeEngine();
  await engine.accounts.initialise();
  const scope = { kind: 'folder', accountId: '1001', folderId: engine.folderOf('1001', 'inbox').id } as const;
  const { early } = earlyListOn(engine, scope);
  const store = createStore();
  const bridge = createWorkerBridge({ engine: { ...engine, startup: { firstList: early, accounts: engine.accounts.initialise() } }, store });
  await bridge.start();
  await new Promise((resolve) => setTimeout(resolve, 0));
  // Ready before the mailbox mounted: its first render has rows.
  const shown = store.get(threadListAtom);
  expect(shown).toMatchObject({ scopeKey: scopeKeyOf(scope), status: 'ready' });
  expect(shown.held!.rows.length).toBeGreaterThan(0);
  await bridge.openThreadList(scope, FIRST_WINDOW);
  expect(store.get(threadListAtom)).toBe(shown);
  expect(watches(engine)).toBe(1);
  // Later opens are real opens again.
  bridge.closeThreadList(scope);
  await bridge.openThreadList(scope, FIRST_WINDOW);
  expect(watches(engine)).toBe(2);
  bridge.stop();
});
