import { afterEach, describe, expect, test } from 'vitest';
import type { CommandStatus, ListPatch, ThreadRow } from '../../../../shared/worker-mail-api';
import { withRead } from '../../../../src-worker/db/store';
import { FakeMailServer } from '../fake-mail-server';
import { manualClock, Profile, waitFor } from '../mail-test-kit';

const engines: { close(): void }[] = [];
afterEach(() => engines.splice(0).forEach((engine) => engine.close()));

async function started(profile: Profile, overrides: Parameters<Profile['engine']>[0] = {}) {
  const engine = await profile.engine(overrides);
  engines.push(engine);
  const runtime = await waitFor(() => engine.runtime(profile.servers[0]!.accountId), 'the runtime');
  await waitFor(() => runtime.sync.state.phase === 'idle' && runtime.sync.state.appliedTransactionId === profile.servers[0]!.latest, 'the first sync');
  return { engine, runtime };
}

function mailbox() {
  const server = new FakeMailServer();
  server.standardFolders();
  const threads = Array.from({ length: 5 }, (_, i) => server.deliver({ subject: `Thread ${i}`, at: Date.UTC(2026, 0, 1, i) }));
  return { server, threads, profile: new Profile([server]) };
}

/** Every status of every command, as a tab watching would see them. */
async function watch(engine: Awaited<ReturnType<Profile['engine']>>) {
  const seen: CommandStatus[] = [];
  await engine.commands.watchCommands((status) => void seen.push(status));
  return seen;
}

async function outboxRows(engine: Awaited<ReturnType<Profile['engine']>>, accountId = '7') {
  return withRead(await engine.databases.open(accountId), ['ProviderSyncbackRequest'], (tx) => tx.getAll('ProviderSyncbackRequest'));
}

async function inboxRow(engine: Awaited<ReturnType<Profile['engine']>>, server: FakeMailServer, threadId: string): Promise<ThreadRow | undefined> {
  const patches: ListPatch[] = [];
  const snapshot = await engine.queries.watchThreadList({ scope: { kind: 'folder', accountId: '7', folderId: server.folderOf('inbox').id }, window: { offset: 0, limit: 50 } }, (patch) => void patches.push(patch));
  await engine.queries.unwatch({ subscriptionId: snapshot.subscriptionId });
  return snapshot.rows.find((row) => row.threadId === threadId);
}

describe('outbox: optimistic commands', () => {
  test('a command shows at once, is sent with its idempotency key, and is confirmed by the delta', async () => {
    const { server, threads, profile } = mailbox();
    await profile.addAccounts();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    server.handlers.push(async ({ path }) => (path === '/api/threads/bulk' ? (await held, undefined) : undefined));
    const { engine } = await started(profile);
    const seen = await watch(engine);
    const threadId = threads[2]!.threadId;

    const { commandId } = await engine.commands.run({ command: { kind: 'markRead', accountId: '7', threadIds: [threadId], read: true } });
    // Before the gateway answered: read, and marked pending.
    expect(await inboxRow(engine, server, threadId)).toMatchObject({ unreadCount: 0, pending: true });
    expect(server.messages.get(threads[2]!.id)!.unread).toBe(true);

    release();
    await waitFor(() => seen.some((status) => status.status === 'done'), 'the confirmation');
    expect(seen.map((status) => [status.commandId, status.status])).toEqual([
      [commandId, 'pending'],
      [commandId, 'done'],
    ]);
    const bulk = server.requestsTo('/api/threads/bulk');
    expect(bulk).toHaveLength(1);
    expect(bulk[0]!.body).toEqual({ ids: [threadId], action: 'read' });
    expect(bulk[0]!.headers.get('idempotency-key')).toBe(commandId);
    expect(await inboxRow(engine, server, threadId)).toMatchObject({ unreadCount: 0, pending: false });
    expect(await outboxRows(engine)).toEqual([]);
  });

  test('a refused command is put back and its catalogue error reaches every tab', async () => {
    const { server, threads, profile } = mailbox();
    await profile.addAccounts();
    const { engine } = await started(profile);
    const [tabA, tabB] = [await watch(engine), await watch(engine)];
    const threadId = threads[4]!.threadId;
    expect(await inboxRow(engine, server, threadId)).toBeDefined();

    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    server.handlers.push(async ({ path }) => (path === '/api/threads/bulk' ? (await held, undefined) : undefined));
    await engine.commands.run({ command: { kind: 'move', accountId: '7', threadIds: [threadId], folderId: '999999' } });
    expect(await inboxRow(engine, server, threadId)).toBeUndefined(); // moved away, optimistically

    release();
    await waitFor(() => tabA.some((status) => status.status === 'failed'), 'the failure');
    for (const tab of [tabA, tabB]) {
      await waitFor(() => tab.length === 2, 'both statuses in each tab');
      expect(tab[1]).toMatchObject({ status: 'failed', kind: 'move', error: { name: 'TargetFolderNotExists', message: 'The destination folder does not exist.' } });
    }
    expect(await inboxRow(engine, server, threadId)).toMatchObject({ threadId, pending: false, unreadCount: 1 });
    expect(await outboxRows(engine)).toEqual([]);
  });

  test('commands left by a killed worker are replayed once by the next one, without double effects', async () => {
    const { server, threads, profile } = mailbox();
    await profile.addAccounts();
    // The first worker dies while its request is on the wire: the gateway never answers it.
    server.handlers.push(({ path }) => (path === '/api/threads/bulk' && server.requestsTo(path).length === 1 ? new Promise<Response>(() => {}) : undefined));
    const first = await started(profile);
    const threadId = threads[0]!.threadId;
    const { commandId } = await first.engine.commands.run({ command: { kind: 'star', accountId: '7', threadIds: [threadId], starred: true } });
    await waitFor(() => server.requestsTo('/api/threads/bulk').length === 1, 'the first attempt');
    first.engine.close(); // the kill: nothing of it runs any more

    // A new worker over the same IndexedDB: the star is still shown and the command still owed.
    const second = await started(profile);
    const seen = await watch(second.engine);
    await waitFor(() => seen.some((status) => status.commandId === commandId && status.status === 'done'), 'the replayed command to finish');
    const attempts = server.requestsTo('/api/threads/bulk');
    expect(attempts).toHaveLength(2);
    expect(attempts.map((attempt) => attempt.headers.get('idempotency-key'))).toEqual([commandId, commandId]);
    // One star on the gateway, one locally; nothing left in the outbox.
    expect([...server.messages.values()].filter((message) => message.starred)).toHaveLength(1);
    expect(await inboxRow(second.engine, server, threadId)).toMatchObject({ starred: true, pending: false });
    expect(await outboxRows(second.engine)).toEqual([]);
  });

  test('commands recorded offline wait for the network and then go out in order', async () => {
    const { server, threads, profile } = mailbox();
    await profile.addAccounts();
    const { engine } = await started(profile);
    let offline = true;
    server.handlers.push(({ path }) => (offline && path !== '/api/delta' ? Promise.reject(new TypeError('fetch failed')) : undefined));
    const threadId = threads[1]!.threadId;
    await engine.commands.run({ command: { kind: 'star', accountId: '7', threadIds: [threadId], starred: true } });
    await engine.commands.run({ command: { kind: 'star', accountId: '7', threadIds: [threadId], starred: false } });
    await waitFor(() => engine.online.last === false, 'the offline verdict');
    expect(await inboxRow(engine, server, threadId)).toMatchObject({ starred: false, pending: true });
    offline = false;
    await engine.online.isOnline({ force: true });
    await waitFor(async () => (await outboxRows(engine)).length === 0, 'the outbox to drain');
    const actions = server.requestsTo('/api/threads/bulk').filter((request) => request.headers.get('idempotency-key'));
    expect(actions.slice(-2).map((request) => (request.body as { action: string }).action)).toEqual(['star', 'unstar']);
    expect(server.messages.get(threads[1]!.id)!.starred).toBe(false);
  });
});

describe('outbox: drafts and undo send', () => {
  const draft = { accountId: '7', to: [{ name: 'Bo', email: 'bo@example.com' }], cc: [], bcc: [], subject: 'Hello', html: '<p>Hi</p>', attachmentIds: [] };

  test('a send is handed to the gateway at once with its undo window; undo takes it back there; after the window it says it left', async () => {
    const { server, profile } = mailbox();
    await profile.addAccounts();
    const { engine } = await started(profile);
    const { draftId } = await engine.commands.saveDraft({ draft });
    expect(draftId).toMatch(/^local-/);
    await waitFor(() => server.drafts.size === 1, 'the draft on the gateway');

    // The gateway holds it: a closed tab or a killed engine cannot lose or repeat it any more.
    const undone = await engine.commands.send({ accountId: '7', draftId, delayMs: 5_000 });
    await waitFor(() => server.held.size === 1, 'the send held by the gateway');
    expect(server.requestsTo('/api/send')[0]!.body).toMatchObject({ holdMs: 5_000, draftId: [...server.drafts.keys()][0], draftVersion: 1 });
    expect(await engine.commands.undoSend({ commandId: undone.commandId })).toBe(true);
    expect(server.requestsTo('/api/outbox/100/undo')).toHaveLength(1);
    expect(server.held.size).toBe(0);

    // Longer than the gateway allows is held for its longest window.
    const kept = await engine.commands.send({ accountId: '7', draftId, delayMs: 45_000 });
    await waitFor(() => server.held.size === 1, 'the second send held');
    expect(server.requestsTo('/api/send')[1]!.body).toMatchObject({ holdMs: 30_000 });
    server.releaseHeld();
    expect(await engine.commands.undoSend({ commandId: kept.commandId })).toBe(false);
    expect(server.sent.size).toBe(1);
  });

  test('a held send undone on another device: this engine hears it cancelled (not sent) and its draft is open again', async () => {
    const { server, profile } = mailbox();
    await profile.addAccounts();
    const clock = manualClock(Date.now());
    const { engine } = await started(profile, { clock });
    const seen: CommandStatus[] = [];
    await engine.commands.watchCommands((status) => void seen.push(status));
    const { draftId } = await engine.commands.saveDraft({ draft });
    await waitFor(() => server.drafts.size === 1, 'the draft on the gateway');
    const { commandId } = await engine.commands.send({ accountId: '7', draftId, delayMs: 10_000 });
    await waitFor(() => server.held.size === 1, 'the send held by the gateway');
    server.undoHeldElsewhere();
    // Its follow-up asks the gateway how it ended (the manual clock moves until it has).
    await waitFor(() => {
      clock.advance(5_000);
      return seen.some((status) => status.commandId === commandId && status.status !== 'pending');
    }, 'the send’s end');
    expect(seen.filter((status) => status.commandId === commandId && status.status !== 'pending')).toEqual([expect.objectContaining({ status: 'cancelled', draftId })]);
    expect(server.sent.size).toBe(0);
  });

  test('a send replayed after a kill is sent once (same idempotency key)', async () => {
    const { server, profile } = mailbox();
    await profile.addAccounts();
    server.handlers.push(server.dieDuring('POST', '/api/send'));
    const first = await started(profile);
    const { draftId } = await first.engine.commands.saveDraft({ draft });
    await first.engine.commands.send({ accountId: '7', draftId, delayMs: 0 });
    await waitFor(() => server.requestsTo('/api/send').length === 1, 'the send request');
    first.engine.close();

    const second = await started(profile);
    await waitFor(async () => server.requestsTo('/api/send').length === 2 && (await outboxRows(second.engine)).length === 0, 'the replayed send');
    expect(server.sent.size).toBe(1);
    expect([...server.messages.values()].filter((message) => message.folderId === server.folderOf('sent').id)).toHaveLength(1);
    const keys = server.requestsTo('/api/send').map((request) => (request.body as { idempotencyKey: string }).idempotencyKey);
    expect(keys[0]).toBe(keys[1]);
  });

  test('a draft create replayed after a kill updates the draft the first attempt made', async () => {
    const { server, profile } = mailbox();
    await profile.addAccounts();
    server.handlers.push(server.dieDuring('POST', '/api/drafts'));
    const first = await started(profile);
    const { draftId } = await first.engine.commands.saveDraft({ draft });
    await waitFor(() => server.requestsTo('/api/drafts').length === 1, 'the draft create');
    first.engine.close();

    const second = await started(profile);
    await waitFor(async () => (await outboxRows(second.engine)).length === 0, 'the replayed save');
    expect(server.drafts.size).toBe(1);
    expect(server.requestsTo('/api/drafts').map((request) => (request.body as { clientId?: string }).clientId)).toEqual([draftId, draftId]);
    expect([...server.drafts.values()][0]).toMatchObject({ clientId: draftId, version: 2, subject: 'Hello' });
  });
});

describe('outbox: labels', () => {
  test('a label shows on the row and in the label’s list before the gateway answers, is sent by its keyword, and stays once confirmed', async () => {
    const { server, threads, profile } = mailbox();
    await profile.addAccounts();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    server.handlers.push(async ({ path }) => (path === '/api/threads/bulk' ? (await held, undefined) : undefined));
    const { engine } = await started(profile);
    const seen = await watch(engine);
    const threadId = threads[1]!.threadId;
    const labelList = async () => {
      const snapshot = await engine.queries.watchThreadList({ scope: { kind: 'label', accountId: '7', label: 'work' }, window: { offset: 0, limit: 50 } }, () => undefined);
      await engine.queries.unwatch({ subscriptionId: snapshot.subscriptionId });
      return snapshot.rows.map((row) => row.threadId);
    };
    expect(await labelList()).toEqual([]);

    await engine.commands.run({ command: { kind: 'label', accountId: '7', threadIds: [threadId], keyword: 'work', add: true } });
    expect(await inboxRow(engine, server, threadId)).toMatchObject({ keywords: ['work'], pending: true });
    expect(await labelList()).toEqual([threadId]);
    expect(server.messages.get(threads[1]!.id)!.keywords).toEqual([]);

    release();
    await waitFor(() => seen.some((status) => status.status === 'done'), 'the confirmation');
    expect(server.requestsTo('/api/threads/bulk')[0]!.body).toEqual({ ids: [threadId], action: 'label', keyword: 'work' });
    expect(server.messages.get(threads[1]!.id)!.keywords).toEqual(['work']);
    expect(await inboxRow(engine, server, threadId)).toMatchObject({ keywords: ['work'], pending: false });

    await engine.commands.run({ command: { kind: 'label', accountId: '7', threadIds: [threadId], keyword: 'work', add: false } });
    expect((await inboxRow(engine, server, threadId))!.keywords).toBeUndefined();
    expect(await labelList()).toEqual([]);
    await expect(engine.commands.run({ command: { kind: 'label', accountId: '7', threadIds: [threadId], keyword: 'has space', add: true } })).rejects.toMatchObject({ name: 'InvalidRequestData' });
  });
});
