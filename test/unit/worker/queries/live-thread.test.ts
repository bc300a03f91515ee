import { afterEach, describe, expect, test } from 'vitest';
import type { ThreadPush } from '../../../../shared/worker-mail-api';
import { FakeMailServer } from '../fake-mail-server';
import { Profile, waitFor } from '../mail-test-kit';

const engines: { close(): void }[] = [];
afterEach(() => engines.splice(0).forEach((engine) => engine.close()));

const HOUR = 3_600_000;
const T0 = Date.UTC(2026, 0, 1);

async function syncedEngine(server: FakeMailServer) {
  const profile = new Profile([server]);
  await profile.addAccounts();
  const engine = await profile.engine();
  engines.push(engine);
  const runtime = await waitFor(() => engine.runtime(server.accountId), 'the runtime');
  const synced = () => waitFor(() => runtime.sync.state.phase === 'idle' && runtime.sync.state.appliedTransactionId === server.latest, 'the sync');
  await synced();
  return { engine, synced };
}

/** A conversation of two messages and one other thread, synced; the conversation watched. */
async function watched(folder: 'inbox' | 'trash' = 'inbox') {
  const server = new FakeMailServer();
  server.standardFolders();
  const first = server.deliver({ subject: 'Plans', at: T0, folder });
  const second = server.deliver({ subject: 'Re: Plans', at: T0 + HOUR, threadId: first.threadId, folder });
  const other = server.deliver({ subject: 'Elsewhere', at: T0 + 2 * HOUR });
  const { engine, synced } = await syncedEngine(server);
  const pushes: ThreadPush[] = [];
  const snapshot = await engine.queries.watchThread({ accountId: '7', threadId: first.threadId }, (push) => void pushes.push(push));
  return { server, engine, synced, pushes, snapshot, first, second, other };
}

const lastView = (pushes: readonly ThreadPush[]) => {
  const last = pushes.at(-1);
  return last?.kind === 'changed' ? last.thread : null;
};

describe('the open thread is a live query', () => {
  test('the snapshot is the thread as getThread reads it', async () => {
    const { engine, snapshot, first } = await watched();
    expect(snapshot.thread).toEqual(await engine.queries.getThread({ accountId: '7', threadId: first.threadId }));
    expect(snapshot.thread.messages.map((message) => message.subject)).toEqual(['Plans', 'Re: Plans']);
  });

  test('a flag changed by a command is pushed at once (optimistic), then as confirmed', async () => {
    const { engine, pushes, first } = await watched();
    await engine.commands.run({ command: { kind: 'star', accountId: '7', threadIds: [first.threadId], starred: true } });
    await waitFor(() => lastView(pushes)?.row.starred === true && lastView(pushes)?.row.pending === false, 'the confirmed star');
    expect(pushes[0]).toMatchObject({ kind: 'changed', thread: { row: { starred: true, pending: true } } });
    expect(lastView(pushes)!.messages.some((message) => message.starred)).toBe(true);
  });

  test('a flag changed on the server (another device) is pushed after the sync', async () => {
    const { server, pushes, second, synced } = await watched();
    server.change([second.id], (message) => ({ ...message, unread: false }));
    server.announce();
    await synced();
    await waitFor(() => lastView(pushes)?.messages[1]?.unread === false, 'the read message');
    expect(lastView(pushes)!.row.unreadCount).toBe(1);
  });

  test('a new message in the thread is pushed with it; a change of another thread pushes nothing', async () => {
    const { server, pushes, first, other, synced } = await watched();
    server.change([other.id], (message) => ({ ...message, starred: true }));
    server.deliver({ subject: 'Re: Re: Plans', at: T0 + 3 * HOUR, threadId: first.threadId });
    server.announce();
    await synced();
    await waitFor(() => lastView(pushes)?.messages.length === 3, 'the third message');
    expect(lastView(pushes)!.messages.map((message) => message.subject)).toEqual(['Plans', 'Re: Plans', 'Re: Re: Plans']);
    expect(pushes.every((push) => push.kind === 'changed' && push.thread.row.threadId === first.threadId)).toBe(true);
    expect(pushes).toHaveLength(1);
  });

  test('a thread deleted on the server is pushed as gone, once, and the subscription ends', async () => {
    const { server, engine, pushes, first, second, synced } = await watched();
    server.change([first.id, second.id], () => null);
    server.announce();
    await synced();
    await waitFor(() => pushes.at(-1)?.kind === 'gone', 'gone');
    expect(pushes.filter((push) => push.kind === 'gone')).toHaveLength(1);
    // Nothing more comes for it.
    const count = pushes.length;
    server.deliver({ subject: 'Later', at: T0 + 5 * HOUR });
    server.announce();
    await synced();
    expect(pushes).toHaveLength(count);
    expect(await engine.queries.getThread({ accountId: '7', threadId: first.threadId }).catch((error: Error) => error.name)).toBe('ThreadNotFound');
  });

  test('a thread deleted for good by a command (in Trash) is gone at once; unwatch ends the pushes', async () => {
    const first = await watched('trash');
    await first.engine.commands.run({ command: { kind: 'delete', accountId: '7', threadIds: [first.first.threadId] } });
    await waitFor(() => first.pushes.at(-1)?.kind === 'gone', 'gone');

    const second = await watched();
    await second.engine.queries.unwatch({ subscriptionId: second.snapshot.subscriptionId });
    await second.engine.commands.run({ command: { kind: 'star', accountId: '7', threadIds: [second.first.threadId], starred: true } });
    await second.synced();
    expect(second.pushes).toEqual([]);
  });
});
