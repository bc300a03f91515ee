/**
 * Folder unread counts move with a command, before the gateway answers: the sidebar's
 * counts are the server's with the pending commands laid over them, and a refused command
 * puts them back with its rows.
 */
import { afterEach, expect, test } from 'vitest';
import type { DeltaResponse } from '../../../../shared/api/delta';
import type { CommandStatus } from '../../../../shared/worker-mail-api';
import { FakeMailServer } from '../fake-mail-server';
import { Profile, waitFor } from '../mail-test-kit';

const engines: { close(): void }[] = [];
afterEach(() => engines.splice(0).forEach((engine) => engine.close()));

/**
 * A gateway whose folders carry their real counts, logged with the messages that change
 * them, as the real mirror logs them (the shared fake sends folders once, with zeros).
 */
class CountingServer extends FakeMailServer {
  override delta(cursor: number, limit: number): DeltaResponse {
    const page = super.delta(cursor, limit);
    const last = page.changes.at(-1);
    if (!last || !page.changes.some((change) => change.object === 'message')) return page;
    const others = page.changes.filter((change) => change.object !== 'folder');
    const folders = [...this.folders.values()].map((folder) => {
      const messages = [...this.messages.values()].filter((message) => message.folderId === folder.id);
      return { txnId: last.txnId, op: 'upsert' as const, object: 'folder' as const, data: { ...folder, total: messages.length, unread: messages.filter((message) => message.unread).length } };
    });
    return { ...page, changes: [...others, ...folders] };
  }
}

async function setUp() {
  const server = new CountingServer();
  server.standardFolders();
  const threads = Array.from({ length: 4 }, (_, i) => server.deliver({ subject: `Thread ${i}`, at: Date.UTC(2026, 0, 1, i) }));
  server.deliver({ subject: 'Old news', at: Date.UTC(2025, 0, 1), folder: 'archive' });
  const profile = new Profile([server]);
  await profile.addAccounts();
  const engine = await profile.engine();
  engines.push(engine);
  const runtime = await waitFor(() => engine.runtime(server.accountId), 'the runtime');
  await waitFor(() => runtime.sync.state.phase === 'idle' && runtime.sync.state.appliedTransactionId === server.latest, 'the first sync');
  const statuses: CommandStatus[] = [];
  await engine.commands.watchCommands((status) => void statuses.push(status));
  /** Unread per special folder and the inbox's unread threads, as the sidebar asks for them. */
  const unread = async () => {
    const folders = await engine.queries.listFolders({ accountId: server.accountId });
    const [counts] = await engine.queries.counts({ accountIds: [server.accountId] });
    return { ...Object.fromEntries(folders.map((folder) => [folder.specialUse, folder.unread])), inboxThreads: counts!.inboxUnread };
  };
  /** Holds the gateway's answers to commands until `release`; `refuse` makes it answer with an error. */
  let release!: () => void;
  let refuse = false;
  const held = new Promise<void>((resolve) => (release = resolve));
  server.handlers.push(async ({ path }) => {
    if (path !== '/api/threads/bulk') return undefined;
    await held;
    return refuse ? Response.json({ error: 'ThreadNotFound', description: 'The conversation could not be found.' }, { status: 404 }) : undefined;
  });
  return { server, engine, threads, statuses, unread, release, refuse: () => (refuse = true) };
}

test('archiving and marking read change the counts before the gateway answers; the confirmation keeps them', async () => {
  const { engine, server, threads, statuses, unread, release } = await setUp();
  expect(await unread()).toMatchObject({ inbox: 4, archive: 1, inboxThreads: 4 });

  await engine.commands.run({ command: { kind: 'archive', accountId: server.accountId, threadIds: [threads[0]!.threadId] } });
  await engine.commands.run({ command: { kind: 'markRead', accountId: server.accountId, threadIds: [threads[1]!.threadId], read: true } });
  // Nothing has reached the gateway's state yet.
  expect([...server.messages.values()].filter((message) => message.unread)).toHaveLength(5);
  expect(await unread()).toMatchObject({ inbox: 2, archive: 2, inboxThreads: 2 });

  release();
  await waitFor(() => statuses.filter((status) => status.status === 'done').length === 2, 'both confirmations');
  expect(await unread()).toMatchObject({ inbox: 2, archive: 2, inboxThreads: 2 });
});

test('a refused command puts its counts back', async () => {
  const { engine, server, threads, statuses, unread, release, refuse } = await setUp();
  await engine.commands.run({ command: { kind: 'archive', accountId: server.accountId, threadIds: [threads[2]!.threadId] } });
  expect(await unread()).toMatchObject({ inbox: 3, archive: 2, inboxThreads: 3 });
  refuse();
  release();
  await waitFor(() => statuses.some((status) => status.status === 'failed'), 'the failure');
  expect(await unread()).toMatchObject({ inbox: 4, archive: 1, inboxThreads: 4 });
});
