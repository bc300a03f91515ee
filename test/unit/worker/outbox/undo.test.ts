/**
 * Undo of moves: the engine answers a move (archive, trash, spam, move) with the command
 * that puts each message back into the folder it came from, and that command is itself
 * optimistic, confirmed or reverted like any other.
 */
import { afterEach, describe, expect, test } from 'vitest';
import type { CommandStatus, MailCommand, ThreadRow } from '../../../../shared/worker-mail-api';
import { mailCommandSchema } from '../../../../src-worker/outbox/command-params';
import { commandEffects, type PlanFolders, type PlanMessage } from '../../../../shared/command-effects';
import { gatewayRequests, inverseOf } from '../../../../src-worker/outbox/command-plan';
import { FakeMailServer } from '../fake-mail-server';
import { Profile, waitFor } from '../mail-test-kit';

const FOLDERS: PlanFolders = {
  ids: { inbox: '1', sent: '2', archive: '3', trash: '4', junk: '5', drafts: '6' },
  roleOf: (id) => (({ '1': 'inbox', '2': 'sent', '3': 'archive', '4': 'trash', '5': 'junk', '6': 'drafts' }) as const)[id as '1'] ?? null,
};

/** A thread: a message in the inbox, the user's reply in Sent, a later message in a custom folder (id 9). */
const THREAD: PlanMessage[] = [
  { id: '101', folderId: '1', date: 1 },
  { id: '102', folderId: '2', date: 2 },
  { id: '103', folderId: '9', date: 3 },
];
const OTHER: PlanMessage[] = [{ id: '201', folderId: '9', date: 5 }];

function undoOf(command: MailCommand, threads: Record<string, PlanMessage[]>) {
  const map = new Map(Object.entries(threads));
  const before = new Map(Object.entries(threads).flatMap(([threadId, list]) => list.map((message) => [message.id, { ...message, threadId }] as const)));
  return inverseOf(command, commandEffects(command, map, FOLDERS), before);
}

describe('the inverse of a command', () => {
  test('archive from the inbox puts back only what it moved: the inbox message, not the reply in Sent', () => {
    const undo = undoOf({ kind: 'archive', accountId: '7', threadIds: ['10'] }, { '10': THREAD });
    expect(undo).toEqual({ kind: 'restore', accountId: '7', threadIds: ['10'], placements: [{ messageId: '101', folderId: '1' }] });
  });

  test('trash puts every message back into its own folder (inbox, Sent, a custom folder), one request per folder', () => {
    const undo = undoOf({ kind: 'trash', accountId: '7', threadIds: ['10', '20'] }, { '10': THREAD, '20': OTHER });
    expect(undo).toMatchObject({ kind: 'restore', threadIds: ['10', '20'] });
    const placements = undo?.kind === 'restore' ? [...undo.placements] : [];
    expect(placements.sort((a, b) => a.messageId.localeCompare(b.messageId))).toEqual([
      { messageId: '101', folderId: '1' },
      { messageId: '102', folderId: '2' },
      { messageId: '103', folderId: '9' },
      { messageId: '201', folderId: '9' },
    ]);
    expect(gatewayRequests(undo!)).toEqual([
      { scope: 'messages', action: { ids: ['101'], action: 'move', folderId: '1' } },
      { scope: 'messages', action: { ids: ['102'], action: 'move', folderId: '2' } },
      { scope: 'messages', action: { ids: ['103', '201'], action: 'move', folderId: '9' } },
    ]);
  });

  test('spam and move are undone too; read, star and delete forever are not', () => {
    expect(undoOf({ kind: 'spam', accountId: '7', threadIds: ['10'] }, { '10': THREAD })).toMatchObject({ placements: [{ messageId: '101', folderId: '1' }, { messageId: '103', folderId: '9' }] });
    expect(undoOf({ kind: 'move', accountId: '7', threadIds: ['10'], folderId: '3' }, { '10': THREAD })).toMatchObject({ placements: [{ messageId: '101', folderId: '1' }, { messageId: '103', folderId: '9' }] });
    expect(undoOf({ kind: 'markRead', accountId: '7', threadIds: ['10'], read: true }, { '10': THREAD })).toBeUndefined();
    expect(undoOf({ kind: 'star', accountId: '7', threadIds: ['10'], starred: true }, { '10': THREAD })).toBeUndefined();
    const inTrash = [{ id: '301', folderId: '4', date: 1 }];
    expect(undoOf({ kind: 'delete', accountId: '7', threadIds: ['30'] }, { '30': inTrash })).toBeUndefined();
    // Nothing moves (archiving what is already archived): nothing to undo.
    expect(undoOf({ kind: 'archive', accountId: '7', threadIds: ['30'] }, { '30': [{ id: '301', folderId: '3', date: 1 }] })).toBeUndefined();
  });

  test('not spam takes only the Spam messages to the Inbox, is sent as the gateway\'s notspam, is accepted from a tab and is undone', () => {
    const spammed: PlanMessage[] = [
      { id: '401', folderId: '5', date: 1 },
      { id: '402', folderId: '2', date: 2 },
      { id: '403', folderId: '5', date: 3 },
    ];
    const command: MailCommand = { kind: 'notspam', accountId: '7', threadIds: ['40'] };
    expect(commandEffects(command, new Map([['40', spammed]]), FOLDERS)).toEqual({ '401': { folderId: '1' }, '403': { folderId: '1' } });
    expect(gatewayRequests(command)).toEqual([{ scope: 'threads', action: { ids: ['40'], action: 'notspam' } }]);
    expect(mailCommandSchema.parse(command)).toEqual(command);
    expect(undoOf(command, { '40': spammed })).toEqual({ kind: 'restore', accountId: '7', threadIds: ['40'], placements: [{ messageId: '401', folderId: '5' }, { messageId: '403', folderId: '5' }] });
  });

  test('a restore moves only messages that are elsewhere now, and its requests stay within the bulk limit', () => {
    const restore: MailCommand = { kind: 'restore', accountId: '7', threadIds: ['10'], placements: [{ messageId: '101', folderId: '1' }, { messageId: '102', folderId: '2' }] };
    expect(commandEffects(restore, new Map([['10', [{ id: '101', folderId: '3', date: 1 }, { id: '102', folderId: '2', date: 2 }]]]), FOLDERS)).toEqual({ '101': { folderId: '1' } });
    const many: MailCommand = { ...restore, placements: Array.from({ length: 2500 }, (_, i) => ({ messageId: String(1000 + i), folderId: '1' })) };
    expect(gatewayRequests(many).map((request) => request.action.ids.length)).toEqual([1000, 1000, 500]);
  });
});

const engines: { close(): void }[] = [];
afterEach(() => engines.splice(0).forEach((engine) => engine.close()));

describe('undo through the engine', () => {
  async function setUp() {
    const server = new FakeMailServer();
    server.standardFolders();
    const threads = Array.from({ length: 3 }, (_, i) => server.deliver({ subject: `Thread ${i}`, at: Date.UTC(2026, 0, 1, i) }));
    const profile = new Profile([server]);
    await profile.addAccounts();
    const engine = await profile.engine();
    engines.push(engine);
    const runtime = await waitFor(() => engine.runtime('7'), 'the runtime');
    await waitFor(() => runtime.sync.state.phase === 'idle' && runtime.sync.state.appliedTransactionId === server.latest, 'the first sync');
    const seen: CommandStatus[] = [];
    await engine.commands.watchCommands((status) => void seen.push(status));
    const inbox = async (): Promise<readonly ThreadRow[]> => {
      const snapshot = await engine.queries.watchThreadList({ scope: { kind: 'folder', accountId: '7', folderId: server.folderOf('inbox').id }, window: { offset: 0, limit: 50 } }, () => undefined);
      await engine.queries.unwatch({ subscriptionId: snapshot.subscriptionId });
      return snapshot.rows;
    };
    return { server, threads, engine, seen, inbox };
  }

  test('archive, confirmed by the gateway, then undo: the message moves back to the inbox on the gateway under the same id', async () => {
    const { server, threads, engine, seen, inbox } = await setUp();
    const target = threads[1]!;
    const archived = await engine.commands.run({ command: { kind: 'archive', accountId: '7', threadIds: [target.threadId] } });
    expect(archived.undo).toEqual({ kind: 'restore', accountId: '7', threadIds: [target.threadId], placements: [{ messageId: target.id, folderId: server.folderOf('inbox').id }] });
    await waitFor(() => seen.some((status) => status.commandId === archived.commandId && status.status === 'done'), 'the archive to be confirmed');
    expect(server.messages.get(target.id)!.folderId).toBe(server.folderOf('archive').id);
    expect((await inbox()).map((row) => row.threadId)).not.toContain(target.threadId);

    const undone = await engine.commands.run({ command: archived.undo! });
    // Optimistic: back in the inbox before the gateway answers.
    expect((await inbox()).find((row) => row.threadId === target.threadId)).toBeDefined();
    await waitFor(() => seen.some((status) => status.commandId === undone.commandId && status.status === 'done'), 'the undo to be confirmed');
    expect(server.messages.get(target.id)!.folderId).toBe(server.folderOf('inbox').id);
    expect(server.requestsTo('/api/messages/bulk').map((request) => request.body)).toEqual([{ ids: [target.id], action: 'move', folderId: server.folderOf('inbox').id }]);
    expect(await inbox()).toContainEqual(expect.objectContaining({ threadId: target.threadId, pending: false }));
  });

  test('a refused undo is reverted with the catalogue sentence: the thread stays archived', async () => {
    const { server, threads, engine, seen, inbox } = await setUp();
    const target = threads[0]!;
    const archived = await engine.commands.run({ command: { kind: 'archive', accountId: '7', threadIds: [target.threadId] } });
    await waitFor(() => seen.some((status) => status.commandId === archived.commandId && status.status === 'done'), 'the archive');
    server.handlers.push(({ path }) =>
      path === '/api/messages/bulk' ? Response.json({ error: 'MessageNotFound', description: 'The message could not be found.' }, { status: 404 }) : undefined,
    );
    const undone = await engine.commands.run({ command: archived.undo! });
    await waitFor(() => seen.some((status) => status.commandId === undone.commandId && status.status === 'failed'), 'the refusal');
    expect(seen.find((status) => status.commandId === undone.commandId && status.status === 'failed')).toMatchObject({
      kind: 'restore',
      error: { name: 'MessageNotFound', message: 'The message could not be found.' },
    });
    expect((await inbox()).map((row) => row.threadId)).not.toContain(target.threadId);
    expect(server.messages.get(target.id)!.folderId).toBe(server.folderOf('archive').id);
  });
});
