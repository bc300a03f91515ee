import { describe, expect, test } from 'vitest';
import type { FolderListing } from '../../../../src-server/mirror/mirror-store';
import { mirrorFixture, noState, record } from './mirror-fixture';

const listing = (path: string): FolderListing => ({ path, name: path.split('/').at(-1)!, parentPath: path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : null, delimiter: '/', specialUse: null });

async function setup() {
  const fx = mirrorFixture();
  const [inbox, archive] = await fx.store.syncFolderList(fx.accountId, [listing('INBOX'), listing('Archive')]);
  const add = (folderId: number, uid: number, messageIdHeader: string) =>
    fx.store.applyFolderBatch(fx.accountId, { folderId, added: [record({ uid, messageIdHeader })], flagUpdates: [], removedUids: [], state: { ...noState, uidvalidity: 7 } });
  const rowOf = (messageIdHeader: string) => fx.db.prepare('SELECT id, folder_id, uid, thread_id FROM messages WHERE message_id_header = ?').get(messageIdHeader) as { id: number; folder_id: number; uid: number; thread_id: number } | undefined;
  return { ...fx, inbox: inbox!.id, archive: archive!.id, add, rowOf };
}

describe('mirror store', () => {
  test('a MOVE with COPYUID keeps the message id and logs the message, its thread and both folders', async () => {
    const t = await setup();
    await t.add(t.inbox, 5, '<m@x>');
    await t.add(t.archive, 1, '<other@x>');
    const before = t.rowOf('<m@x>')!;
    const cursor = await t.txlog.latest(t.accountId);
    const moved = await t.store.applyMove({ accountId: t.accountId, fromFolderId: t.inbox, toFolderId: t.archive, uidValidity: 7, uidMap: new Map([[5, 2]]) });
    expect(moved).toEqual([before.id]);
    expect(t.rowOf('<m@x>')).toEqual({ ...before, folder_id: t.archive, uid: 2 });
    const logged = (await t.txlog.read(t.accountId, cursor, 10)).entries.map((entry) => `${entry.object}:${entry.objectId}`);
    expect(logged).toEqual([`message:${before.id}`, `thread:${before.thread_id}`, `folder:${t.inbox}`, `folder:${t.archive}`]);
    expect(t.announced.at(-1)).toBe((await t.txlog.latest(t.accountId)));
    // The source's next step reports the old UID gone: nothing left to delete.
    const latest = await t.txlog.latest(t.accountId);
    await t.store.applyFolderBatch(t.accountId, { folderId: t.inbox, added: [], flagUpdates: [], removedUids: [5], state: { ...noState, uidvalidity: 7 } });
    expect((await t.txlog.latest(t.accountId))).toBe(latest);
  });

  test('a MOVE into a folder mirrored under another UIDVALIDITY is left to the sync', async () => {
    const t = await setup();
    await t.add(t.inbox, 5, '<m@x>');
    await t.add(t.archive, 1, '<other@x>');
    expect(await t.store.applyMove({ accountId: t.accountId, fromFolderId: t.inbox, toFolderId: t.archive, uidValidity: 8, uidMap: new Map([[5, 2]])})).toEqual([]);
    expect(t.rowOf('<m@x>')?.folder_id).toBe(t.inbox);
  });

  test('a folder gone from LIST is deleted with its messages, each logged', async () => {
    const t = await setup();
    await t.add(t.archive, 1, '<a@x>');
    const row = t.rowOf('<a@x>')!;
    const cursor = await t.txlog.latest(t.accountId);
    const folders = await t.store.syncFolderList(t.accountId, [listing('INBOX'), listing('Projects'), listing('Projects/2026')]);
    expect(folders.map((folder) => folder.path)).toEqual(['INBOX', 'Projects', 'Projects/2026']);
    expect(t.rowOf('<a@x>')).toBeUndefined();
    const logged = (await t.txlog.read(t.accountId, cursor, 10)).entries.map((entry) => `${entry.object}:${entry.objectId}`);
    expect(logged).toEqual(expect.arrayContaining([`message:${row.id}`, `thread:${row.thread_id}`, `folder:${t.archive}`]));
    const materialized = await t.materializer.folders(t.accountId);
    const child = materialized.find((folder) => folder.path === 'Projects/2026')!;
    expect(child.parentId).toBe(materialized.find((folder) => folder.path === 'Projects')!.id);
  });
});
