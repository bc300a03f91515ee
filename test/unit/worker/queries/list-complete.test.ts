/**
 * ListSnapshot.complete: an empty list is "empty" only once its accounts have caught up
 * with the gateway. Before (a first login, the sync not run yet), a tab shows loading
 * rows, never "Your inbox is empty" (src-ui/thread-list/list-patch.ts listDisplay).
 */
import { afterEach, expect, test } from 'vitest';
import type { ListPatch } from '../../../../shared/worker-mail-api';
import { applyListPatch, heldFromSnapshot, listDisplay } from '../../../../src-ui/state/thread-list/list-patch';
import { FakeMailServer } from '../fake-mail-server';
import { Profile, waitFor } from '../mail-test-kit';

const engines: { close(): void }[] = [];
afterEach(() => engines.splice(0).forEach((engine) => engine.close()));

const T0 = Date.UTC(2026, 0, 1);

async function coldEngine(server: FakeMailServer) {
  const profile = new Profile([server]);
  await profile.addAccounts();
  let elect!: () => void;
  // The engine syncs nothing until the test says so: the lists are opened before the first pull.
  const engine = await profile.engine({ writerElected: new Promise<void>((resolve) => (elect = resolve)) });
  engines.push(engine);
  return { engine, startSync: () => elect() };
}

test('before the first sync a list is not complete; after it, an empty folder is known empty and a full one shows its rows', async () => {
  const server = new FakeMailServer();
  server.standardFolders();
  for (let i = 0; i < 5; i++) server.deliver({ subject: `Thread ${i}`, at: T0 + i * 60_000 });
  const { engine, startSync } = await coldEngine(server);

  const watch = async (role: 'inbox' | 'archive') => {
    const patches: ListPatch[] = [];
    const scope = { kind: 'folder' as const, accountId: server.accountId, folderId: server.folderOf(role).id };
    const snapshot = await engine.queries.watchThreadList({ scope, window: { offset: 0, limit: 20 } }, (patch) => void patches.push(patch));
    return { snapshot, patches, held: () => patches.reduce(applyListPatch, heldFromSnapshot(snapshot)) };
  };
  const inbox = await watch('inbox');
  const archive = await watch('archive');
  // Nothing synced: both lists are empty and not known to be.
  for (const list of [inbox, archive]) {
    expect(list.snapshot.total).toBe(0);
    expect(list.snapshot.complete).toBe(false);
    expect(listDisplay('ready', heldFromSnapshot(list.snapshot))).toBe('loading');
  }
  // The inbox's unread count is not known either (the sidebar shows none yet).
  expect(await engine.queries.counts({ accountIds: [server.accountId] })).toEqual([{ accountId: server.accountId, inboxUnread: 0, complete: false }]);

  startSync();
  await waitFor(() => inbox.held().total === 5 && inbox.held().complete, 'the inbox rows, complete');
  expect(await engine.queries.counts({ accountIds: [server.accountId] })).toEqual([{ accountId: server.accountId, inboxUnread: 5, complete: true }]);
  // The archive's rows did not change (none): the patch that says it is known empty still comes.
  await waitFor(() => archive.held().complete, 'the archive known empty');
  expect(archive.held().total).toBe(0);
  expect(listDisplay('ready', archive.held())).toBe('empty');
  expect(listDisplay('ready', inbox.held())).toBe('rows');

  // A later change (new mail while the folder is shown) never turns a known list back to unknown.
  const before = archive.patches.length;
  server.deliver({ subject: 'Late', at: T0 + 10 * 60_000 });
  server.announce();
  await waitFor(() => inbox.held().total === 6, 'the new mail');
  expect(archive.patches.slice(before).every((patch) => patch.complete !== false)).toBe(true);
  expect(archive.held().complete).toBe(true);
});

test('a warm start (an account synced before) answers complete at once, before its sync runs', async () => {
  const server = new FakeMailServer();
  server.standardFolders();
  server.deliver({ subject: 'Only', at: T0 });
  const profile = new Profile([server]);
  await profile.addAccounts();
  const first = await profile.engine();
  const runtime = await waitFor(() => first.runtime(server.accountId), 'the runtime');
  await waitFor(() => runtime.sync.state.phase === 'idle' && runtime.sync.state.appliedTransactionId === server.latest, 'the first sync');
  await waitFor(async () => ((await profile.repository.get(server.accountId))?.appliedTransactionId ?? 0) === server.latest, 'the stored cursor');
  first.close();

  const second = await profile.engine({ writerElected: new Promise<void>(() => {}) });
  engines.push(second);
  const scope = { kind: 'folder' as const, accountId: server.accountId, folderId: server.folderOf('trash').id };
  const snapshot = await second.queries.watchThreadList({ scope, window: { offset: 0, limit: 20 } }, () => undefined);
  expect(snapshot.total).toBe(0);
  expect(snapshot.complete).toBe(true);
});

test('a folder the gateway has not read from the mail server yet (mirrored: false) is not known empty, even with the sync caught up', async () => {
  const server = new FakeMailServer();
  server.standardFolders();
  const archive = server.folderOf('archive');
  server.updateFolder(archive.id, { mirrored: false });
  const { engine, startSync } = await coldEngine(server);
  const patches: ListPatch[] = [];
  const scope = { kind: 'folder' as const, accountId: server.accountId, folderId: archive.id };
  const snapshot = await engine.queries.watchThreadList({ scope, window: { offset: 0, limit: 20 } }, (patch) => void patches.push(patch));
  const held = () => patches.reduce(applyListPatch, heldFromSnapshot(snapshot));
  startSync();
  const runtime = await waitFor(() => engine.runtime(server.accountId), 'the runtime');
  await waitFor(() => runtime.sync.state.phase === 'idle' && runtime.sync.state.appliedTransactionId === server.latest, 'the sync');
  await new Promise((resolve) => setTimeout(resolve, 50));
  expect(held().complete).toBe(false);
  expect(listDisplay('ready', held())).toBe('loading');

  // The gateway's first read of the folder: it holds nothing, and now that is known.
  server.updateFolder(archive.id, { mirrored: true });
  server.announce();
  await waitFor(() => held().complete, 'the archive known empty');
  expect(listDisplay('ready', held())).toBe('empty');
});
