import { describe, expect, test } from 'vitest';
import { deltaResponseSchema } from '../../../../shared/api/delta';
import { TernError } from '../../../../shared/errors';
import { accountDocument, DeltaReader, mailSources } from '../../../../src-server/mirror/delta-reader';
import { days, mirrorFixture, noState, record } from './mirror-fixture';

async function setup() {
  const fx = mirrorFixture();
  const [inbox] = await fx.store.syncFolderList(fx.accountId, [{ path: 'INBOX', name: 'INBOX', parentPath: null, delimiter: '/', specialUse: 'inbox' }]);
  const reader = new DeltaReader({ store: fx.sql, txlog: fx.txlog, sources: { ...mailSources(fx.materializer), preferences: accountDocument(() => undefined), plan: accountDocument(() => undefined), contacts: accountDocument(() => undefined), scheduled: accountDocument(() => undefined), rules: accountDocument(() => undefined), identities: accountDocument(() => undefined), labels: accountDocument(() => undefined), timers: accountDocument(() => undefined), templates: accountDocument(() => undefined) } });
  const batch = (fields: { added?: ReturnType<typeof record>[]; flagUpdates?: { uid: number; flags: string[]; modseq: null }[]; removedUids?: number[] }) =>
    fx.store.applyFolderBatch(fx.accountId, { folderId: inbox!.id, added: [], flagUpdates: [], removedUids: [], state: noState, ...fields });
  const idOfUid = (uid: number) => (fx.db.prepare('SELECT id FROM messages WHERE uid = ?').get(uid) as { id: number }).id;
  return { ...fx, inbox: inbox!, reader, batch, idOfUid };
}

describe('delta', () => {
  test('pages through the log in order with hasMore, and the pages add up to everything', async () => {
    const t = await setup();
    for (let uid = 1; uid <= 30; uid++) await t.batch({ added: [record({ uid, messageIdHeader: `<m${uid}@x>`, subject: `Topic ${uid}`, date: days(uid) })] });
    const seen = new Set<string>();
    let cursor = 0;
    let pages = 0;
    for (;;) {
      const page = await t.reader.read({ accountId: t.accountId, cursor, limit: 7 });
      expect(deltaResponseSchema.safeParse(page).success).toBe(true);
      const ids = page.changes.map((change) => change.txnId);
      expect(ids).toEqual([...ids].sort((a, b) => a - b));
      expect(ids.every((id) => id > cursor)).toBe(true);
      for (const change of page.changes) seen.add(`${change.object}:${change.op === 'delete' ? change.objectId : 'id' in change.data ? change.data.id : ''}`);
      pages++;
      cursor = page.cursor;
      if (!page.hasMore) break;
    }
    expect(cursor).toBe((await t.txlog.latest(t.accountId)));
    expect(pages).toBeGreaterThan(5);
    expect([...seen].filter((key) => key.startsWith('message:'))).toHaveLength(30);
    expect([...seen].filter((key) => key.startsWith('thread:'))).toHaveLength(30);
    expect(seen.has(`folder:${t.inbox.id}`)).toBe(true);
    // Nothing after the end.
    expect(await t.reader.read({ accountId: t.accountId, cursor, limit: 7 })).toEqual({ changes: [], cursor, hasMore: false });
  });

  test('repeats of one object in a page collapse to its current state at its last position', async () => {
    const t = await setup();
    await t.batch({ added: [record({ uid: 1, messageIdHeader: '<a@x>', subject: 'A' })] });
    const cursor = await t.txlog.latest(t.accountId);
    await t.batch({ flagUpdates: [{ uid: 1, flags: ['\\Seen'], modseq: null }] });
    await t.batch({ added: [record({ uid: 2, messageIdHeader: '<b@x>', subject: 'B' })] });
    await t.batch({ flagUpdates: [{ uid: 1, flags: ['\\Seen', '\\Flagged', '$Work'], modseq: null }] });
    const page = await t.reader.read({ accountId: t.accountId, cursor, limit: 100 });
    const messageChanges = page.changes.filter((change) => change.object === 'message');
    expect(messageChanges.map((change) => (change.op === 'upsert' && change.object === 'message' ? change.data.subject : '?'))).toEqual(['B', 'A']);
    const a = messageChanges[1]!;
    expect(a.op === 'upsert' && a.data).toMatchObject({ unread: false, starred: true, keywords: ['$Work'] });
    const entriesOfA = (await t.txlog.read(t.accountId, cursor, 100)).entries.filter((entry) => entry.object === 'message' && entry.objectId === t.idOfUid(1));
    expect(entriesOfA).toHaveLength(2);
    expect(a.txnId).toBe(entriesOfA[1]!.txnId);
    expect(new Set(page.changes.map((change) => `${change.object}:${change.op === 'delete' ? change.objectId : 'id' in change.data ? change.data.id : ''}`)).size).toBe(page.changes.length);
  });

  test('an object that no longer exists comes as a delete, its emptied thread too', async () => {
    const t = await setup();
    await t.batch({ added: [record({ uid: 1, messageIdHeader: '<a@x>', subject: 'A' })] });
    const messageId = t.idOfUid(1);
    const threadId = (t.db.prepare('SELECT thread_id AS id FROM messages WHERE id = ?').get(messageId) as { id: number }).id;
    await t.batch({ removedUids: [1] });
    const page = await t.reader.read({ accountId: t.accountId, cursor: 0, limit: 100 });
    expect(deltaResponseSchema.parse(page)).toEqual(page);
    expect(page.changes).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ op: 'delete', object: 'message', objectId: String(messageId) }),
        expect.objectContaining({ op: 'delete', object: 'thread', objectId: String(threadId) }),
        expect.objectContaining({ op: 'upsert', object: 'folder', data: expect.objectContaining({ total: 0, unread: 0 }) }),
      ]),
    );
  });

  test('folder counts follow adds, reads and removals; every commit is announced once', async () => {
    const t = await setup();
    await t.batch({ added: [record({ uid: 1, messageIdHeader: '<a@x>' }), record({ uid: 2, messageIdHeader: '<b@x>', flags: ['\\Seen'] })] });
    expect(await t.materializer.folder(t.accountId, t.inbox.id)).toMatchObject({ total: 2, unread: 1, specialUse: 'inbox', parentId: null });
    await t.batch({ flagUpdates: [{ uid: 1, flags: ['\\Seen'], modseq: null }] });
    expect(await t.materializer.folder(t.accountId, t.inbox.id)).toMatchObject({ total: 2, unread: 0 });
    await t.batch({ removedUids: [2] });
    expect(await t.materializer.folder(t.accountId, t.inbox.id)).toMatchObject({ total: 1, unread: 0 });
    // A batch that changes nothing (same flags again) logs and announces nothing.
    const latest = await t.txlog.latest(t.accountId);
    await t.batch({ flagUpdates: [{ uid: 1, flags: ['\\Seen'], modseq: null }] });
    expect((await t.txlog.latest(t.accountId))).toBe(latest);
    expect(t.announced.at(-1)).toBe(latest);
    expect(new Set(t.announced).size).toBe(t.announced.length);
  });

  test('a cursor ahead of the log asks the client to clear its cache', async () => {
    const t = await setup();
    const refusal = await t.reader.read({ accountId: t.accountId, cursor: 10_000, limit: 10 }).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(TernError);
    expect((refusal as TernError).name).toBe('ClearClientCache');
  });

  test('a UIDVALIDITY reset logs every message of the folder as deleted', async () => {
    const t = await setup();
    await t.batch({ added: [record({ uid: 1, messageIdHeader: '<a@x>' }), record({ uid: 2, messageIdHeader: '<b@x>' })] });
    const cursor = await t.txlog.latest(t.accountId);
    const ids = [t.idOfUid(1), t.idOfUid(2)];
    await t.store.resetFolder(t.accountId, t.inbox.id);
    const page = await t.reader.read({ accountId: t.accountId, cursor, limit: 100 });
    const deleted = page.changes.filter((change) => change.op === 'delete' && change.object === 'message').map((change) => change.op === 'delete' && change.objectId);
    expect(deleted.sort()).toEqual(ids.map(String).sort());
    expect(await t.store.folder(t.accountId, t.inbox.id)).toMatchObject({ uidvalidity: null, backfilled_to: null });
  });
});
