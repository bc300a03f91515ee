// @vitest-environment happy-dom
/**
 * During an account's first sync the counts are of what has arrived so far ("71
 * conversations", Inbox 28, then 527 and 59 a moment later): the toolbar shows no total
 * until the list is complete, the sidebar no count until the account or folder is known.
 */
import { createStore } from 'jotai';
import { afterEach, expect, test, vi } from 'vitest';
import { inboxUnreadAtom } from '../../../src-ui/state/atoms';
import { createWorkerBridge } from '../../../src-ui/state/engine-feeds';
import { createFakeEngine } from './fake-mail-engine';
import { renderApp, step, unmountAll, waitFor } from './render-app';

afterEach(unmountAll);

test('bridge: an account whose counts are not complete has no inbox count until they are', async () => {
  const engine = createFakeEngine();
  let answer = { inboxUnread: 28, complete: false };
  let asked = 0;
  engine.mail.counts = async ({ accountIds }) => (asked++, accountIds.map((accountId) => ({ accountId, ...answer })));
  const store = createStore();
  // Every value the inbox count takes, so that "never 28" needs no waiting.
  const shown: (number | undefined)[] = [];
  store.sub(inboxUnreadAtom, () => void shown.push(store.get(inboxUnreadAtom)['1001']));
  const bridge = createWorkerBridge({ engine, store });
  await bridge.start();
  await vi.waitFor(() => expect(asked).toBeGreaterThan(0));
  answer = { inboxUnread: 59, complete: true };
  bridge.refreshMailboxes(['1001']); // debounced: the incomplete answer is taken first
  await vi.waitFor(() => expect(store.get(inboxUnreadAtom)['1001']).toBe(59), { timeout: 2000 });
  expect(shown).not.toContain(28);
  bridge.stop();
});

async function render(firstSync: boolean) {
  const engine = createFakeEngine({ loggedIn: ['alice@tern.test'] });
  if (firstSync) {
    const watch = engine.mail.watchThreadList.bind(engine.mail);
    engine.mail.watchThreadList = async (params, onPatch) => ({ ...(await watch(params, onPatch)), complete: false });
    const listFolders = engine.mail.listFolders.bind(engine.mail);
    engine.mail.listFolders = async (params) => (await listFolders(params)).map((folder) => ({ ...folder, mirrored: false }));
    const counts = engine.mail.counts.bind(engine.mail);
    engine.mail.counts = async (params) => (await counts(params)).map((count) => ({ ...count, complete: false }));
  }
  // The counts answered, then one settle: the same wait shows the counts when they are known,
  // so the first case is the proof that it is long enough for the second.
  let answered = 0;
  const counts = engine.mail.counts.bind(engine.mail);
  engine.mail.counts = async (params) => {
    const answer = await counts(params);
    answered++;
    return answer;
  };
  const view = await renderApp({ engine, path: '/mail/1001/1001' });
  await waitFor(() => expect(view.container.querySelectorAll('#thread-list [role="option"]').length).toBeGreaterThan(3));
  await waitFor(() => expect(answered).toBeGreaterThan(0));
  await step(() => undefined);
  return { toolbarCount: view.container.querySelector('.toolbar-count')?.textContent ?? '', sidebarCounts: view.container.querySelectorAll('nav .nav-count').length };
}

test('toolbar and sidebar: no total nor counts while the first sync runs; both once known', async () => {
  const known = await render(false);
  expect(known.toolbarCount).toMatch(/^\d[\d,]* conversations$/);
  expect(known.sidebarCounts).toBeGreaterThan(0);
  unmountAll();
  const syncing = await render(true);
  expect(syncing.toolbarCount).toBe('');
  expect(syncing.sidebarCounts).toBe(0);
});
