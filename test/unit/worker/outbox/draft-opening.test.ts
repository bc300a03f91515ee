/**
 * Reopening a draft from its message in Drafts ("Edit draft"): the message's id is not the
 * draft's. The engine asks the gateway which draft the message is, hands the composer
 * everything it holds (Bcc and attachments, which the mirrored message does not show), and
 * the saves and the send that follow name the gateway's draft — also after an Undo.
 */
import { afterEach, expect, test } from 'vitest';
import type { CommandStatus } from '../../../../shared/worker-mail-api';
import { withRead } from '../../../../src-worker/db/store';
import { FakeMailServer } from '../fake-mail-server';
import { manualClock, Profile, waitFor } from '../mail-test-kit';

const engines: { close(): void }[] = [];
afterEach(() => engines.splice(0).forEach((engine) => engine.close()));

const FILE = 'f'.repeat(32);

/** An account whose Drafts folder holds one draft saved earlier (another session, another browser). */
async function withSavedDraft(clock = manualClock(Date.now())) {
  const server = new FakeMailServer();
  server.standardFolders();
  server.drafts.set('555', {
    version: 3,
    clientId: null,
    subject: 'Walkthrough draft',
    to: [{ name: 'Bob Kite', email: 'bob@kite.test' }],
    cc: [{ name: 'Henry Wilson', email: 'henry@tern.test' }],
    bcc: [{ name: '', email: 'secret@kite.test' }],
    html: '<div class="tern-body"><p>Hello Bob</p></div>',
    attachmentIds: [FILE],
  });
  const message = server.deliver({ subject: 'Walkthrough draft', at: Date.UTC(2026, 0, 2), folder: 'drafts', unread: false });
  server.draftOfMessage.set(message.id, '555');
  const profile = new Profile([server]);
  await profile.addAccounts();
  const engine = await profile.engine({ clock });
  engines.push(engine);
  const runtime = await waitFor(() => engine.runtime('7'), 'the runtime');
  await waitFor(() => runtime.sync.state.phase === 'idle' && runtime.sync.state.appliedTransactionId === server.latest, 'the first sync');
  return { server, engine, clock, messageId: message.id };
}

test('a draft opened from its message comes with Bcc and attachments, under the gateway’s draft id', async () => {
  const { engine, messageId } = await withSavedDraft();
  const draft = await engine.commands.openDraft({ accountId: '7', messageId });
  expect(draft).toEqual({
    accountId: '7',
    draftId: '555',
    to: [{ name: 'Bob Kite', email: 'bob@kite.test' }],
    cc: [{ name: 'Henry Wilson', email: 'henry@tern.test' }],
    bcc: [{ name: '', email: 'secret@kite.test' }],
    subject: 'Walkthrough draft',
    html: '<div class="tern-body"><p>Hello Bob</p></div>',
    attachments: [{ attachmentId: FILE, fileName: 'ffff.pdf', size: 1234 }],
    revision: 0,
  });
  expect(draft.draftId).not.toBe(messageId);
});

test('edited, sent, undone and sent again: every save and send names the draft, and Bcc stays', async () => {
  const { server, engine, clock, messageId } = await withSavedDraft();
  const seen: CommandStatus[] = [];
  await engine.commands.watchCommands((status) => void seen.push(status));
  const opened = await engine.commands.openDraft({ accountId: '7', messageId });
  const { draftId } = await engine.commands.saveDraft({
    draft: { accountId: '7', draftId: opened.draftId, to: opened.to, cc: opened.cc, bcc: opened.bcc, subject: opened.subject, html: '<p>Hello Bob, edited</p>', attachmentIds: [FILE] },
  });
  expect(draftId).toBe('555');
  await waitFor(() => server.drafts.get('555')!.version === 4, 'the update');
  expect(server.drafts.get('555')).toMatchObject({ bcc: [{ name: '', email: 'secret@kite.test' }], html: '<p>Hello Bob, edited</p>', attachmentIds: [FILE] });

  const undone = await engine.commands.send({ accountId: '7', draftId, delayMs: 5_000 });
  clock.advance(2_000);
  expect(await engine.commands.undoSend({ commandId: undone.commandId })).toBe(true);
  const kept = await engine.commands.send({ accountId: '7', draftId, delayMs: 5_000 });
  await waitFor(() => server.held.size === 1, 'the send held by the gateway');
  server.releaseHeld();
  // The engine asks the gateway how it ended (its follow-up, after its delay): the manual clock moves until it has.
  await waitFor(() => {
    clock.advance(5_000);
    return seen.some((status) => status.commandId === kept.commandId && status.status !== 'pending');
  }, 'the send’s outcome');
  expect(seen.find((status) => status.commandId === kept.commandId && status.status !== 'pending')).toMatchObject({ status: 'done' });
  // The undone send may have reached the gateway (and been taken back there) or not; the kept one did, naming the draft.
  expect(server.requestsTo('/api/send').at(-1)!.body).toEqual(expect.objectContaining({ draftId: '555', draftVersion: 4, holdMs: 5_000 }));
  expect(server.sent.size).toBe(1);
  expect(server.requestsTo(`/api/drafts/${messageId}`)).toEqual([]);
});

test('a save still waiting in the outbox is newer than the gateway’s copy: its fields win', async () => {
  const { server, engine, messageId } = await withSavedDraft();
  // The gateway is unreachable for saves: the edit waits in the outbox.
  server.handlers.push(({ method, path }) => (method === 'PUT' && path === '/api/drafts/555' ? Promise.reject(new TypeError('fetch failed')) : undefined));
  await engine.commands.saveDraft({
    draft: { accountId: '7', draftId: '555', to: [{ name: '', email: 'bob@kite.test' }], cc: [], bcc: [], subject: 'Walkthrough draft v2', html: '<p>Newer</p>', attachmentIds: [] },
  });
  await waitFor(async () => {
    const rows = await withRead(await engine.databases.open('7'), ['ProviderSyncbackRequest'], (tx) => tx.getAll('ProviderSyncbackRequest'));
    return rows.length === 1;
  }, 'the waiting save');
  const draft = await engine.commands.openDraft({ accountId: '7', messageId });
  expect(draft).toMatchObject({ draftId: '555', subject: 'Walkthrough draft v2', html: '<p>Newer</p>', cc: [], bcc: [], attachments: [] });
});

test('a message that is no draft of the gateway is refused with the catalogue error', async () => {
  const { server, engine } = await withSavedDraft();
  const other = [...server.messages.values()].find((message) => !server.draftOfMessage.has(message.id));
  const inbox = other ?? server.deliver({ subject: 'Not a draft', at: 1 });
  await expect(engine.commands.openDraft({ accountId: '7', messageId: inbox.id })).rejects.toMatchObject({ name: 'DraftDoesNotExist' });
});
