// Bulk actions and emptying Trash/Junk against real Dovecot: every action changes the
// server (checked with a separate IMAP client, by Message-ID) and reaches /api/delta by
// the latestTxnId the reply names; moves keep message ids.
import type { ImapFlow } from 'imapflow';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { BulkActionResult, EmptyFolderResult } from '../../shared/api/actions';
import type { DeltaChange } from '../../shared/api/delta';
import type { Folder, MessageMeta } from '../../shared/api/mail';
import { ALICE, changesSince, countIn, startWritesFixture, type WritesFixture } from './support/mail-writes-fixture';

let fx: WritesFixture;
let imap: ImapFlow;
let folders: Map<string, Folder>;
const FOLDERS = ['INBOX', 'Drafts', 'Sent', 'Archive', 'Junk', 'Trash', 'Projects'];

beforeAll(async () => {
  fx = await startWritesFixture({ name: 'actions', count: 300 });
  await fx.ctx.mirrors.get(fx.alice.accountId)!.whenFullyMirrored;
  imap = await fx.imap(ALICE);
  folders = new Map((await fx.ctx.materializer.folders(fx.alice.accountId)).map((folder) => [folder.path, folder]));
});
afterAll(async () => {
  await imap?.logout().catch(() => undefined);
  await fx?.close();
});

type Reply = BulkActionResult & { error?: string; detail?: { missing?: string[] } };
const bulk = (scope: 'messages' | 'threads', body: unknown) => fx.api<Reply>(fx.alice, 'POST', `/api/${scope}/bulk`, body);
const meta = async (id: string | number) => (await fx.ctx.materializer.message(fx.alice.accountId, Number(id)))!;
const folderId = (path: string) => folders.get(path)!.id;

/** Mirrored messages of a folder with a Message-ID, optionally filtered. */
async function messagesIn(path: string, where = '1 = 1'): Promise<MessageMeta[]> {
  const rows = await fx.ctx.store.all<{ id: number }>(
    `SELECT m.id FROM messages m JOIN folders f ON f.id = m.folder_id WHERE m.account_id = ? AND f.path = ? AND m.message_id_header IS NOT NULL AND ${where} ORDER BY m.id`,
    [fx.alice.accountId, path],
  );
  return Promise.all(rows.map((row) => meta(row.id)));
}

/** Where a message is on the server, and its flags there: what another mail program sees. */
async function onServer(messageIdHeader: string): Promise<{ folder: string; flags: string[] }[]> {
  const found = [];
  for (const path of FOLDERS) {
    await imap.mailboxOpen(path);
    const uids = await imap.search({ header: { 'message-id': messageIdHeader } }, { uid: true });
    for (const uid of Array.isArray(uids) ? uids : []) {
      const message = await imap.fetchOne(String(uid), { flags: true }, { uid: true });
      found.push({ folder: path, flags: [...(message ? message.flags! : [])].filter((flag) => flag !== '\\Recent').sort() });
    }
  }
  return found;
}

/** Runs an action and returns the reply and the delta changes up to its latestTxnId. */
async function act(scope: 'messages' | 'threads', body: Record<string, unknown>) {
  const cursor = await fx.ctx.txlog.latest(fx.alice.accountId);
  const reply = await bulk(scope, body);
  expect(reply.status, reply.text).toBe(200);
  const changes = (await changesSince(fx, fx.alice, cursor)).filter((change) => change.txnId <= reply.body.latestTxnId);
  return { reply: reply.body, changes };
}

const upserted = (changes: DeltaChange[], id: string) => {
  const change = changes.filter((c) => c.op === 'upsert' && c.object === 'message' && c.data.id === id).at(-1);
  return change && change.op === 'upsert' && change.object === 'message' ? change.data : undefined;
};

describe('message actions', () => {
  test('read, unread, star, unstar change the server’s flags and arrive in the delta', async () => {
    const targets = (await messagesIn('INBOX', 'm.unseen = 1')).slice(0, 3);
    expect(targets).toHaveLength(3);
    const ids = targets.map((message) => message.id);
    const steps: [string, (m: MessageMeta) => boolean, (flags: string[]) => boolean][] = [
      ['read', (m) => !m.unread, (flags) => flags.includes('\\Seen')],
      ['star', (m) => m.starred, (flags) => flags.includes('\\Flagged')],
      ['unstar', (m) => !m.starred, (flags) => !flags.includes('\\Flagged')],
      ['unread', (m) => m.unread, (flags) => !flags.includes('\\Seen')],
    ];
    for (const [action, inDelta, onImap] of steps) {
      const { reply, changes } = await act('messages', { ids, action });
      expect(reply.messageIds.sort()).toEqual([...ids].sort());
      for (const target of targets) {
        const data = upserted(changes, target.id);
        expect(data && inDelta(data), `${action} of ${target.id} in the delta`).toBe(true);
        const [copy] = await onServer(target.messageIdHeader!);
        expect(copy && onImap(copy.flags), `${action} on the server: ${JSON.stringify(copy)}`).toBe(true);
      }
    }
  });

  test('move keeps the message’s id; archive, spam, notspam and trash land where they should', async () => {
    const [target] = await messagesIn('INBOX');
    const header = target!.messageIdHeader!;
    const route: [Record<string, unknown>, string][] = [
      [{ action: 'move', folderId: folderId('Projects') }, 'Projects'],
      [{ action: 'archive' }, 'Archive'],
      [{ action: 'spam' }, 'Junk'],
      [{ action: 'notspam' }, 'INBOX'],
      [{ action: 'trash' }, 'Trash'],
    ];
    for (const [body, path] of route) {
      const { changes } = await act('messages', { ids: [target!.id], ...body });
      expect((await onServer(header)).map((copy) => copy.folder), String(body.action)).toEqual([path]);
      expect(upserted(changes, target!.id)?.folderId, `${String(body.action)}: same id, new folder`).toBe(folderId(path));
      expect(changes.some((change) => change.op === 'delete' && change.objectId === target!.id)).toBe(false);
    }
    // Delete from Trash is for ever: gone from the server, a delete in the delta.
    const { changes } = await act('messages', { ids: [target!.id], action: 'delete' });
    expect(await onServer(header)).toEqual([]);
    expect(changes).toContainEqual(expect.objectContaining({ op: 'delete', object: 'message', objectId: target!.id }));
  });

  test('delete of a message outside Trash moves it to Trash instead', async () => {
    const [target] = await messagesIn('Archive');
    await act('messages', { ids: [target!.id], action: 'delete' });
    expect((await onServer(target!.messageIdHeader!)).map((copy) => copy.folder)).toEqual(['Trash']);
    expect((await meta(target!.id)).folderId).toBe(folderId('Trash'));
  });
});

describe('thread actions', () => {
  async function threadAcross(paths: string[]): Promise<number> {
    const having = paths.map(() => `SUM(CASE WHEN f.path = ? THEN 1 ELSE 0 END) > 0`).join(' AND ');
    const row = await fx.ctx.store.get<{ id: number }>(
      `SELECT m.thread_id AS id FROM messages m JOIN folders f ON f.id = m.folder_id WHERE m.account_id = ? GROUP BY m.thread_id HAVING ${having} LIMIT 1`,
      [fx.alice.accountId, ...paths],
    );
    if (!row) throw new Error(`The seeded mailbox has no thread across ${paths.join(' and ')}`);
    return row.id;
  }
  const members = async (threadId: number) => Promise.all((await fx.ctx.materializer.thread(fx.alice.accountId, threadId))!.messageIds.map(meta));

  test('archive takes the INBOX messages and leaves your replies in Sent', async () => {
    const threadId = await threadAcross(['INBOX', 'Sent']);
    const before = await members(threadId);
    const { changes } = await act('threads', { ids: [String(threadId)], action: 'archive' });
    for (const message of before) {
      const expected = message.folderId === folderId('INBOX') ? 'Archive' : [...folders.values()].find((f) => f.id === message.folderId)!.path;
      expect((await onServer(message.messageIdHeader!)).map((copy) => copy.folder)).toEqual([expected]);
    }
    const thread = changes.filter((change) => change.op === 'upsert' && change.object === 'thread' && change.data.id === String(threadId)).at(-1);
    expect(thread && thread.op === 'upsert' && thread.object === 'thread' && thread.data.folderIds).not.toContain(folderId('INBOX'));
  });

  test('trash takes the whole conversation, your replies included', async () => {
    const threadId = await threadAcross(['INBOX', 'Sent']);
    const before = (await members(threadId)).filter((message) => !message.draft);
    await act('threads', { ids: [String(threadId)], action: 'trash' });
    for (const message of before) expect((await onServer(message.messageIdHeader!)).map((copy) => copy.folder)).toEqual(['Trash']);
  });

  test('read marks every message of the thread read on the server', async () => {
    const threadId = await threadAcross(['INBOX']);
    await act('threads', { ids: [String(threadId)], action: 'read' });
    for (const message of await members(threadId)) {
      for (const copy of await onServer(message.messageIdHeader!)) expect(copy.flags).toContain('\\Seen');
      expect((await meta(message.id)).unread).toBe(false);
    }
  });
});

describe('refusals', () => {
  test('unknown ids, folders and actions are catalogue errors, and nothing is applied', async () => {
    const [known] = await messagesIn('INBOX', 'm.unseen = 1');
    const missing = await bulk('messages', { ids: [known!.id, '987654321'], action: 'read' });
    expect([missing.status, missing.body.error, missing.body.detail?.missing]).toEqual([404, 'MessageNotFound', ['987654321']]);
    expect((await onServer(known!.messageIdHeader!))[0]!.flags).not.toContain('\\Seen');

    expect((await bulk('threads', { ids: ['987654321'], action: 'read' })).body.error).toBe('ThreadNotFound');
    const noFolder = await bulk('messages', { ids: [known!.id], action: 'move', folderId: '987654321' });
    expect([noFolder.status, noFolder.body.error]).toEqual([404, 'TargetFolderNotExists']);
    for (const body of [
      { ids: [known!.id], action: 'move' },
      { ids: [known!.id], action: 'read', folderId: folderId('Archive') },
      { ids: [known!.id], action: 'explode' },
      { ids: [], action: 'read' },
      { ids: ['abc'], action: 'read' },
      { ids: Array.from({ length: 1001 }, (_, i) => String(i + 1)), action: 'read' },
    ]) {
      const reply = await bulk('messages', body);
      expect([reply.status, reply.body.error], JSON.stringify(body).slice(0, 80)).toEqual([400, 'InvalidParameter']);
    }
    const foreign = await fx.api<Reply>(fx.bob, 'POST', '/api/messages/bulk', { ids: [known!.id], action: 'trash' });
    expect([foreign.status, foreign.body.error]).toEqual([404, 'MessageNotFound']);
    expect((await onServer(known!.messageIdHeader!)).map((copy) => copy.folder)).toEqual(['INBOX']);
  });
});

describe('emptying', () => {
  test('Trash empties on the server and in the delta; INBOX cannot be emptied', async () => {
    const trashed = await messagesIn('Trash');
    expect(trashed.length).toBeGreaterThan(0);
    const cursor = await fx.ctx.txlog.latest(fx.alice.accountId);
    const reply = await fx.api<EmptyFolderResult>(fx.alice, 'POST', '/api/empty/trash');
    expect(reply.status).toBe(200);
    expect(reply.body.removed).toBe(trashed.length);
    expect(await countIn(imap, 'Trash')).toBe(0);
    const changes = await changesSince(fx, fx.alice, cursor);
    for (const message of trashed) expect(changes).toContainEqual(expect.objectContaining({ op: 'delete', object: 'message', objectId: message.id }));
    const trash = changes.filter((change) => change.op === 'upsert' && change.object === 'folder' && change.data.id === folderId('Trash')).at(-1);
    expect(trash && trash.op === 'upsert' && trash.object === 'folder' && trash.data.total).toBe(0);

    const inbox = await fx.api<{ error: string }>(fx.alice, 'POST', `/api/folders/${folderId('INBOX')}/empty`);
    expect([inbox.status, inbox.body.error]).toEqual([404, 'InvalidOperation']);
    expect((await fx.api<{ error: string }>(fx.alice, 'POST', '/api/folders/987654321/empty')).body.error).toBe('FolderNotFound');
  });

  test('/api/empty/spam (the UI\'s Empty Spam) empties Junk and nothing else', async () => {
    const raw = ['From: Spammer <spam@kite.test>', 'To: alice@tern.test', 'Subject: Empty Spam probe', `Date: ${new Date().toUTCString()}`, '', 'Win.', ''].join('\r\n');
    await imap.append('Junk', raw);
    const inboxBefore = await countIn(imap, 'INBOX');
    const junkBefore = await countIn(imap, 'Junk');
    const reply = await fx.api<EmptyFolderResult>(fx.alice, 'POST', '/api/empty/spam');
    expect(reply.status).toBe(200);
    expect(reply.body.removed).toBe(junkBefore);
    expect(await countIn(imap, 'Junk')).toBe(0);
    expect(await countIn(imap, 'INBOX')).toBe(inboxBefore);
  });

  test('Junk empties through its folder id', async () => {
    const junk = await messagesIn('Junk');
    const reply = await fx.api<EmptyFolderResult>(fx.alice, 'POST', `/api/folders/${folderId('Junk')}/empty`);
    expect(reply.body.removed).toBe(junk.length);
    expect(await countIn(imap, 'Junk')).toBe(0);
    expect((await fx.ctx.materializer.folder(fx.alice.accountId, Number(folderId('Junk'))))!.total).toBe(0);
  });
});
