import { afterEach, describe, expect, test } from 'vitest';
import type { ListPatch, ListScope, ThreadRow } from '../../../../shared/worker-mail-api';
import { applyListPatch, heldFromSnapshot } from '../../../../src-ui/state/thread-list/list-patch';
import { FakeMailServer } from '../fake-mail-server';
import { Profile, waitFor } from '../mail-test-kit';

const engines: { close(): void }[] = [];
afterEach(() => engines.splice(0).forEach((engine) => engine.close()));

const HOUR = 3_600_000;
const T0 = Date.UTC(2026, 0, 1);

async function synced(servers: FakeMailServer[], timeoutMs = 3000) {
  const profile = new Profile(servers);
  await profile.addAccounts();
  const engine = await profile.engine();
  engines.push(engine);
  for (const server of servers) {
    const runtime = await waitFor(() => engine.runtime(server.accountId), 'the runtime');
    await waitFor(() => runtime.sync.state.phase === 'idle' && runtime.sync.state.appliedTransactionId === server.latest, 'the sync', timeoutMs);
  }
  return engine;
}

type Engine = Awaited<ReturnType<typeof synced>>;

/** A live search list as a tab holds it: the snapshot with every patch applied. */
async function watchSearch(engine: Engine, query: string, accountIds: readonly string[] = ['7']) {
  const scope: ListScope = { kind: 'search', accountIds, query };
  const patches: ListPatch[] = [];
  const snapshot = await engine.queries.watchThreadList({ scope, window: { offset: 0, limit: 50 } }, (patch) => void patches.push(patch));
  return {
    snapshot,
    patches,
    subjects: () => patches.reduce(applyListPatch, heldFromSnapshot(snapshot)).rows.map((row: ThreadRow) => row.subject),
  };
}

const subjects = async (engine: Engine, query: string, accountIds?: readonly string[]) => {
  const list = await watchSearch(engine, query, accountIds);
  await engine.queries.unwatch({ subscriptionId: list.snapshot.subscriptionId });
  return list.snapshot.rows.map((row) => row.subject);
};

describe('search over the cached mail', () => {
  test('answers from the index the engine built after the first sync, with the gateway’s operators', async () => {
    const server = new FakeMailServer();
    server.standardFolders();
    server.deliver({ subject: 'Quarterly report', at: T0, from: 'Alice' });
    server.deliver({ subject: 'Lunch on Friday', at: T0 + HOUR, from: 'Bob' });
    server.deliver({ subject: 'Quarterly numbers, final', at: T0 + 2 * HOUR, from: 'Carol', unread: false });
    server.deliver({ subject: 'Old quarterly plan', at: T0 + 3 * HOUR, folder: 'trash' });
    const engine = await synced([server]);
    await waitFor(() => engine.search.size('7') === 4, 'the index, warmed after the first sync');

    expect(await subjects(engine, 'quarterly')).toEqual(['Quarterly numbers, final', 'Quarterly report']);
    expect(await subjects(engine, 'quart')).toEqual(['Quarterly numbers, final', 'Quarterly report']); // the last word is a prefix
    expect(await subjects(engine, '"quart"')).toEqual([]); // …unless quoted
    expect(await subjects(engine, 'quarterly is:unread')).toEqual(['Quarterly report']);
    expect(await subjects(engine, 'from:alice')).toEqual(['Quarterly report']);
    expect(await subjects(engine, 'in:trash quarterly')).toEqual(['Old quarterly plan']);
    expect(await subjects(engine, 'quarterly -final')).toEqual(['Quarterly report']);
    expect(await subjects(engine, '')).toEqual([]);
  });

  test('a live search follows new mail and commands without a rebuild', async () => {
    const server = new FakeMailServer();
    server.standardFolders();
    const report = server.deliver({ subject: 'Quarterly report', at: T0 });
    server.deliver({ subject: 'Something else', at: T0 + HOUR });
    const engine = await synced([server]);
    const unread = await watchSearch(engine, 'is:unread quarterly');
    expect(unread.subjects()).toEqual(['Quarterly report']);

    // New mail matching the query appears in the open list.
    server.deliver({ subject: 'Quarterly review', at: T0 + 2 * HOUR });
    server.announce();
    await waitFor(() => unread.subjects().length === 2, 'the new match');
    expect(unread.subjects()).toEqual(['Quarterly review', 'Quarterly report']);

    // Reading a thread takes it out of an is:unread search at once (optimistically).
    await engine.commands.run({ command: { kind: 'markRead', accountId: '7', threadIds: [report.threadId], read: true } });
    await waitFor(() => unread.subjects().length === 1, 'the read thread to leave');
    expect(unread.subjects()).toEqual(['Quarterly review']);
    expect(engine.search.size('7')).toBe(3);
  });

  test('across accounts, merged by time', async () => {
    const a = new FakeMailServer('7', 'token-7');
    const b = new FakeMailServer('8', 'token-8');
    for (const server of [a, b]) server.standardFolders();
    a.deliver({ subject: 'Invoice 1', at: T0 });
    b.deliver({ subject: 'Invoice 2', at: T0 + HOUR });
    a.deliver({ subject: 'Invoice 3', at: T0 + 2 * HOUR });
    const engine = await synced([a, b]);
    expect(await subjects(engine, 'invoice', ['7', '8'])).toEqual(['Invoice 3', 'Invoice 2', 'Invoice 1']);
    await expect(engine.queries.watchThreadList({ scope: { kind: 'search', accountIds: ['99'], query: 'invoice' }, window: { offset: 0, limit: 5 } }, () => {})).rejects.toMatchObject({
      name: 'AccountNotFound',
    });
  });

  test('a search cut at the 1,000-match limit says so, and says it no longer is once the query narrows', async () => {
    const server = new FakeMailServer();
    server.standardFolders();
    for (let i = 0; i < 1001; i++) server.deliver({ subject: `Receipt ${i}`, at: T0 + i * HOUR, unread: i >= 1000 });
    const engine = await synced([server], 20_000);
    await waitFor(() => engine.search.size('7') === 1001, 'the index', 10_000);

    const all = await watchSearch(engine, 'receipt');
    expect(all.snapshot.truncated).toBe(true);
    expect(all.snapshot.total).toBe(1000); // the newest 1,000: the oldest is left out
    expect(heldFromSnapshot(all.snapshot).truncated).toBe(true);
    const few = await watchSearch(engine, 'receipt is:unread');
    expect(few.snapshot.truncated).toBeUndefined();
    expect(few.snapshot.total).toBe(1);
    await engine.queries.unwatch({ subscriptionId: few.snapshot.subscriptionId });
    await engine.queries.unwatch({ subscriptionId: all.snapshot.subscriptionId });
  }, 30_000);

  test('"search the server": the gateway’s search answers the list, asked once per query; cached rows where the cache has them', async () => {
    const server = new FakeMailServer();
    server.standardFolders();
    const paper = server.deliver({ subject: 'Scanned letter', at: T0 });
    server.deliver({ subject: 'Quarterly report', at: T0 + HOUR });
    const engine = await synced([server]);
    // "invoice" is only in the letter's text: the cache's index (subjects, senders, snippets) does not find it, the gateway does.
    server.serverSearchHits.set('invoice', [paper.id]);
    expect(await subjects(engine, 'invoice')).toEqual([]);
    const scope: ListScope = { kind: 'search', accountIds: ['7'], query: 'invoice', server: true };
    const patches: ListPatch[] = [];
    const snapshot = await engine.queries.watchThreadList({ scope, window: { offset: 0, limit: 50 } }, (patch) => void patches.push(patch));
    expect(snapshot.rows.map((row) => row.subject)).toEqual(['Scanned letter']);
    expect(snapshot.truncated).toBeUndefined();
    await engine.queries.moveWindow({ subscriptionId: snapshot.subscriptionId, window: { offset: 0, limit: 40 } });
    expect(server.serverSearches).toEqual(['invoice']);
    await engine.queries.unwatch({ subscriptionId: snapshot.subscriptionId });
  });
});

