import { afterEach, expect, test } from 'vitest';
import type { CommandStatus, ListPatch } from '../../../../shared/worker-mail-api';
import { MAIL_CHANNEL } from '../../../../src-worker/boundary/mail-relay';
import { FakeMailServer } from '../fake-mail-server';
import { fakeBroadcastHub } from '../fakes';
import { Profile, waitFor } from '../mail-test-kit';

const engines: { close(): void }[] = [];
afterEach(() => engines.splice(0).forEach((engine) => engine.close()));

test('without a SharedWorker: a command in a non-writer engine is sent by the writer, and both engines hear the outcome', async () => {
  const server = new FakeMailServer();
  server.standardFolders();
  const message = server.deliver({ subject: 'Hello', at: Date.UTC(2026, 0, 1) });
  const profile = new Profile([server]);
  await profile.addAccounts();
  const hub = fakeBroadcastHub();
  const writer = await profile.engine({ relay: { channel: hub.open(MAIL_CHANNEL), engineId: 'writer' } });
  // The other tab's engine waits for the writer lock forever: it never syncs or sends.
  const follower = await profile.engine({ relay: { channel: hub.open(MAIL_CHANNEL), engineId: 'follower' }, writerElected: new Promise<void>(() => {}) });
  engines.push(writer, follower);
  const runtime = await waitFor(() => writer.runtime('7'), 'the writer runtime');
  await waitFor(() => runtime.sync.state.phase === 'idle' && runtime.sync.state.appliedTransactionId === server.latest, 'the first sync');
  expect(follower.runtime('7')).toBeUndefined();

  const patches: ListPatch[] = [];
  await follower.queries.watchThreadList({ scope: { kind: 'folder', accountId: '7', folderId: server.folderOf('inbox').id }, window: { offset: 0, limit: 10 } }, (patch) => void patches.push(patch));
  const statuses: CommandStatus[] = [];
  await follower.commands.watchCommands((status) => void statuses.push(status));
  const { commandId } = await follower.commands.run({ command: { kind: 'markRead', accountId: '7', threadIds: [message.threadId], read: true } });

  await waitFor(() => statuses.some((status) => status.commandId === commandId && status.status === 'done'), 'the outcome in the follower');
  expect(server.requestsTo('/api/threads/bulk')).toHaveLength(1);
  expect(server.messages.get(message.id)!.unread).toBe(false);
  await waitFor(() => patches.some((patch) => patch.changed?.some((change) => change.row.unreadCount === 0 && !change.row.pending)), 'the confirmed row in the follower');
  // Delta pages' rows stay in the engine that wrote them: the others are told which threads changed.
  const relayed = hub.posted.map((post) => post.message as { type: string; change?: { threadIds: string[]; messages?: unknown } }).filter((post) => post.type === 'mail-change');
  expect(relayed.some((post) => post.change!.threadIds.includes(message.threadId))).toBe(true);
  expect(relayed.filter((post) => post.change!.messages !== undefined)).toEqual([]);
});
