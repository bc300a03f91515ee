import { expose, proxy, wrap } from 'comlink';
import { afterEach, describe, expect, test } from 'vitest';
import type { ListPatch, MailQueryService } from '../../../../shared/worker-mail-api';
import { applyListPatch, heldFromSnapshot } from '../../../../src-ui/state/thread-list/list-patch';
import { FakeMailServer } from '../fake-mail-server';
import { Profile, waitFor } from '../mail-test-kit';

const engines: { close(): void }[] = [];
const channels: MessageChannel[] = [];
afterEach(() => {
  engines.splice(0).forEach((engine) => engine.close());
  channels.splice(0).forEach((channel) => (channel.port1.close(), channel.port2.close()));
});

const HOUR = 3_600_000;
const T0 = Date.UTC(2026, 0, 1);

async function syncedEngine(profile: Profile) {
  await profile.addAccounts();
  const engine = await profile.engine();
  engines.push(engine);
  for (const server of profile.servers) {
    const runtime = await waitFor(() => engine.runtime(server.accountId), 'the runtime');
    await waitFor(() => runtime.sync.state.phase === 'idle' && runtime.sync.state.appliedTransactionId === server.latest, `the sync of ${server.accountId}`);
  }
  return engine;
}

function inboxOf(count: number) {
  const server = new FakeMailServer();
  server.standardFolders();
  const messages = Array.from({ length: count }, (_, i) => server.deliver({ subject: `Thread ${i}`, at: T0 + i * HOUR }));
  return { server, messages };
}

describe('live thread lists', () => {
  test('a folder window is newest first, and a change sends only the rows that changed', async () => {
    const { server, messages } = inboxOf(30);
    const engine = await syncedEngine(new Profile([server]));
    const patches: ListPatch[] = [];
    const scope = { kind: 'folder' as const, accountId: '7', folderId: server.folderOf('inbox').id };
    const snapshot = await engine.queries.watchThreadList({ scope, window: { offset: 0, limit: 20 } }, (patch) => void patches.push(patch));
    expect(snapshot.total).toBe(30);
    expect(snapshot.rows.map((row) => row.subject)).toEqual(Array.from({ length: 20 }, (_, i) => `Thread ${29 - i}`));

    // Read the 6th row: one optimistic patch with that row only, then one when confirmed (pending off).
    // No more than these two: the last patch of this test is the new mail's (patches arrive in order).
    const target = messages[24]!;
    await engine.commands.run({ command: { kind: 'markRead', accountId: '7', threadIds: [target.threadId], read: true } });
    await waitFor(() => patches.length >= 2, 'the optimistic and confirming patches');
    const read = patches.slice(0, 2);
    for (const patch of read) {
      expect(patch.rows).toBeUndefined();
      expect(patch.changed).toHaveLength(1);
      expect(patch.changed![0]).toMatchObject({ index: 5, row: { threadId: target.threadId, unreadCount: 0 } });
    }
    expect(read.map((patch) => patch.changed![0]!.row.pending)).toEqual([true, false]);

    // A change below the window sends nothing: once the sync has applied it, the next patch is the new mail's.
    server.change([messages[2]!.id], (message) => ({ ...message, starred: true }));
    server.announce();
    const runtime = await waitFor(() => engine.runtime('7'), 'the runtime');
    await waitFor(() => runtime.sync.state.phase === 'idle' && runtime.sync.state.appliedTransactionId === server.latest, 'the change below the window applied');

    // New mail on top shifts the whole window: one patch replacing it, with the new total.
    server.deliver({ subject: 'Brand new', at: T0 + 100 * HOUR });
    server.announce();
    await waitFor(() => patches.length >= 3, 'the new-mail patch');
    expect(patches).toHaveLength(3);
    const [fresh] = patches.slice(2);
    expect(fresh!.total).toBe(31);
    expect(fresh!.rows?.[0]).toMatchObject({ subject: 'Brand new', unreadCount: 1 });
    expect(fresh!.rows).toHaveLength(20);
  });

  test('moving the window answers the rows there; patches then follow the new window', async () => {
    const { server, messages } = inboxOf(30);
    const engine = await syncedEngine(new Profile([server]));
    const patches: ListPatch[] = [];
    const scope = { kind: 'folder' as const, accountId: '7', folderId: server.folderOf('inbox').id };
    const { subscriptionId } = await engine.queries.watchThreadList({ scope, window: { offset: 0, limit: 10 } }, (patch) => void patches.push(patch));
    const moved = await engine.queries.moveWindow({ subscriptionId, window: { offset: 20, limit: 10 } });
    expect(moved.rows.map((row) => row.subject)).toEqual(Array.from({ length: 10 }, (_, i) => `Thread ${9 - i}`));
    await engine.commands.run({ command: { kind: 'star', accountId: '7', threadIds: [messages[3]!.threadId], starred: true } });
    await waitFor(() => patches.length >= 1, 'a patch');
    expect(patches[0]!.changed).toEqual([{ index: 26, row: expect.objectContaining({ threadId: messages[3]!.threadId, starred: true }) }]);
  });

  test('a unified inbox merges two accounts by time; new mail lands in its place', async () => {
    const a = new FakeMailServer('7', 'token-7');
    const b = new FakeMailServer('8', 'token-8');
    for (const server of [a, b]) server.standardFolders();
    for (let i = 0; i < 6; i++) {
      a.deliver({ subject: `A${i}`, at: T0 + (2 * i) * HOUR }); // even hours
      b.deliver({ subject: `B${i}`, at: T0 + (2 * i + 1) * HOUR }); // odd hours
    }
    b.addFolder('Not the inbox'); // roles, not ids, pick each account's folder
    const engine = await syncedEngine(new Profile([a, b]));
    const patches: ListPatch[] = [];
    const snapshot = await engine.queries.watchThreadList(
      { scope: { kind: 'unified', accountIds: ['7', '8'], role: 'inbox' }, window: { offset: 0, limit: 8 } },
      (patch) => void patches.push(patch),
    );
    expect(snapshot.total).toBe(12);
    expect(snapshot.rows.map((row) => row.subject)).toEqual(['B5', 'A5', 'B4', 'A4', 'B3', 'A3', 'B2', 'A2']);
    expect(new Set(snapshot.rows.map((row) => row.key)).size).toBe(8);
    expect(snapshot.rows[0]).toMatchObject({ accountId: '8', key: `8:${snapshot.rows[0]!.threadId}` });

    a.deliver({ subject: 'A-late', at: T0 + 9.5 * HOUR });
    a.announce();
    await waitFor(() => patches.length === 1, 'the patch');
    expect(patches[0]!.total).toBe(13);
    // Applied the way the UI applies it (src-ui/thread-list/list-patch.ts).
    const held = applyListPatch(heldFromSnapshot(snapshot), patches[0]!);
    expect(held.rows.map((row) => row.subject)).toEqual(['B5', 'A5', 'A-late', 'B4', 'A4', 'B3', 'A3', 'B2']);
    expect(patches[0]!.changed?.map((change) => change.index)).toEqual([2, 3, 4, 5, 6, 7]); // the two rows above did not move
  });

  test('search and label scopes read the cache; folders and counts', async () => {
    const { server, messages } = inboxOf(8);
    server.change([messages[1]!.id], (message) => ({ ...message, keywords: ['Work'] }));
    const engine = await syncedEngine(new Profile([server]));
    const search = await engine.queries.watchThreadList({ scope: { kind: 'search', accountIds: ['7'], query: 'subject:"Thread 5"' }, window: { offset: 0, limit: 10 } }, () => {});
    expect(search.rows.map((row) => row.subject)).toEqual(['Thread 5']);
    const label = await engine.queries.watchThreadList({ scope: { kind: 'label', accountId: '7', label: 'Work' }, window: { offset: 0, limit: 10 } }, () => {});
    expect(label.rows.map((row) => row.subject)).toEqual(['Thread 1']);
    const folders = await engine.queries.listFolders({ accountId: '7' });
    expect(folders.map((folder) => folder.specialUse)).toEqual(['inbox', 'drafts', 'sent', 'archive', 'junk', 'trash']);
    expect(await engine.queries.counts({ accountIds: ['7'] })).toEqual([{ accountId: '7', inboxUnread: 8, complete: true }]);
    expect(await engine.queries.suggestAddresses({ accountIds: ['7'], prefix: 'car', limit: 5 })).toEqual([{ name: 'Carol', email: 'carol@example.com' }]);
    await expect(engine.queries.listFolders({ accountId: '99' })).rejects.toMatchObject({ name: 'AccountNotFound' });
  });

  test('a thread and its body: the body is fetched once, then served from MessageBody', async () => {
    const { server, messages } = inboxOf(3);
    const engine = await syncedEngine(new Profile([server]));
    const thread = await engine.queries.getThread({ accountId: '7', threadId: messages[1]!.threadId });
    expect(thread.messages.map((message) => message.id)).toEqual([messages[1]!.id]);
    const [one, two] = await Promise.all([
      engine.queries.getBody({ accountId: '7', messageId: messages[1]!.id }),
      engine.queries.getBody({ accountId: '7', messageId: messages[1]!.id }),
    ]);
    expect(one).toEqual(two);
    expect(one.html).toBe(`<p>Body of ${messages[1]!.id}</p>`);
    await engine.queries.getBody({ accountId: '7', messageId: messages[1]!.id });
    expect(server.requestsTo(`/api/messages/${messages[1]!.id}/body`)).toHaveLength(1);
  });

  test('over the real comlink boundary a tab gets snapshots and patches through a proxied callback', async () => {
    const { server } = inboxOf(5);
    const engine = await syncedEngine(new Profile([server]));
    const channel = new MessageChannel();
    channels.push(channel);
    expose(engine.queries, channel.port1);
    const tab = wrap<MailQueryService>(channel.port2);
    const patches: ListPatch[] = [];
    const scope = { kind: 'folder' as const, accountId: '7', folderId: server.folderOf('inbox').id };
    const snapshot = await tab.watchThreadList({ scope, window: { offset: 0, limit: 50 } }, proxy((patch: ListPatch) => void patches.push(patch)));
    expect(snapshot.rows).toHaveLength(5);
    expect(JSON.stringify(snapshot).length).toBeLessThan(100_000);
    server.deliver({ subject: 'Over the wire', at: T0 + 50 * HOUR });
    server.announce();
    await waitFor(() => patches.length === 1, 'the patch across the boundary');
    expect(patches[0]!.rows?.[0]?.subject ?? patches[0]!.changed?.[0]?.row.subject).toBe('Over the wire');
    await tab.unwatch({ subscriptionId: snapshot.subscriptionId });
  });
});
