/**
 * The mirror's stores on both engines (DESIGN §7): every statement of MirrorStore, the
 * thread resolver, the Materializer, FolderQueries, ThreadQueries and DeltaReader runs here
 * on SQLite and on a real PostgreSQL, so a construct only SQLite accepts fails the second run.
 */
import { afterEach, beforeEach, expect, test } from 'vitest';
import { AccountLeases } from '../../../src-server/cluster/account-leases';
import type { FolderListing } from '../../../src-server/mirror/mirror-store';
import type { SqlStore } from '../../../src-server/store/sql';
import { days, noState, record, T0 } from '../../unit/server/mirror/mirror-fixture';
import { describeOnEngines } from '../support/engines';
import { insertAccount, messageId, mirrorOnStore, threadOfMessage } from '../support/mirror-on-store';

const listing = (path: string, specialUse: FolderListing['specialUse'] = null): FolderListing => {
  const cut = path.lastIndexOf('/');
  return { path, name: cut === -1 ? path : path.slice(cut + 1), parentPath: cut === -1 ? null : path.slice(0, cut), delimiter: '/', specialUse };
};
const FOLDERS = [listing('INBOX', 'inbox'), listing('Sent', 'sent'), listing('Trash', 'trash'), listing('Projects'), listing('Projects/2026')];
const logged = (entries: readonly { object: string; objectId: number }[]) => entries.map((entry) => `${entry.object}:${entry.objectId}`);

describeOnEngines('the mirror stores', (engine) => {
  let store: SqlStore;
  let fx: ReturnType<typeof mirrorOnStore> & { accountId: number; folder: (path: string) => number; step: (path: string, batch: Partial<Batch>) => Promise<void> };
  type Batch = Parameters<typeof fx.mirror.applyFolderBatch>[1];

  beforeEach(async () => {
    store = await engine.open();
    const services = mirrorOnStore(store);
    const accountId = await insertAccount(store, 'alice@tern.test');
    const rows = await services.mirror.syncFolderList(accountId, FOLDERS);
    const folder = (path: string) => rows.find((row) => row.path === path)!.id;
    const step = (path: string, batch: Partial<Batch>) =>
      services.mirror.applyFolderBatch(accountId, { folderId: folder(path), added: [], flagUpdates: [], removedUids: [], state: noState, ...batch });
    fx = { ...services, accountId, folder, step };
  });
  afterEach(() => store.close());

  test('the folder list follows LIST: added, changed, removed with its messages; the folder queries read it', async () => {
    const { accountId, folders } = fx;
    const listed = await folders.list(accountId);
    expect(listed.separator).toBe('/');
    expect(listed.folders.map((folder) => folder.path)).toEqual(['INBOX', 'Sent', 'Trash', 'Projects', 'Projects/2026']);
    expect(listed.folders.find((folder) => folder.path === 'Projects/2026')).toMatchObject({ parentId: String(fx.folder('Projects')), total: 0, unread: 0, mirrored: false });
    expect((await fx.materializer.folders(accountId)).map((folder) => folder.path)).toEqual(FOLDERS.map((folder) => folder.path));
    expect((await folders.row(accountId, fx.folder('Sent'))).special_use).toBe('sent');
    expect((await folders.byPath(accountId, 'Projects/2026'))?.id).toBe(fx.folder('Projects/2026'));
    expect((await folders.subtree(accountId, await folders.row(accountId, fx.folder('Projects')))).map((row) => row.path)).toEqual(['Projects', 'Projects/2026']);
    expect((await folders.special(accountId, 'trash'))?.path).toBe('Trash');
    const other = await insertAccount(store, 'bob@tern.test');
    await expect(folders.row(other, fx.folder('INBOX'))).rejects.toThrow(/folder could not be found/);
    await expect(folders.folder(other, fx.folder('INBOX'))).rejects.toThrow(/folder could not be found/);

    await fx.step('Projects/2026', { added: [record({ uid: 1, messageIdHeader: '<doomed@x>' })] });
    const doomed = (await messageId(store, fx.folder('Projects/2026'), 1))!;
    const cursor = await fx.txlog.latest(accountId);
    const after = await fx.mirror.syncFolderList(accountId, [...FOLDERS.slice(0, 3), listing('Projects', 'archive')]);
    expect(after.map((row) => row.path)).toEqual(['INBOX', 'Sent', 'Trash', 'Projects']);
    expect(await fx.materializer.message(accountId, doomed)).toBeNull();
    const entries = logged((await fx.txlog.read(accountId, cursor, 100)).entries);
    expect(entries).toEqual(expect.arrayContaining([`message:${doomed}`, `folder:${fx.folder('Projects')}`, `folder:${fx.folder('Projects/2026')}`]));
    expect(await fx.materializer.folder(accountId, fx.folder('Projects'))).toMatchObject({ specialUse: 'archive' });
    // Unchanged: no transaction id spent.
    const latest = await fx.txlog.latest(accountId);
    await fx.mirror.syncFolderList(accountId, after.map((row) => listing(row.path, row.special_use)));
    expect(await fx.txlog.latest(accountId)).toBe(latest);
  });

  test('threads join by References across folders, by subject within 30 days, and merge when a message links two', async () => {
    const { accountId } = fx;
    // The reply in Sent first, its original later: one thread either way.
    await fx.step('Sent', { added: [record({ uid: 1, messageIdHeader: '<r@x>', inReplyTo: '<o@x>', references: ['<o@x>'], subject: 'Re: Plan', date: days(1) })] });
    await fx.step('INBOX', { added: [record({ uid: 1, messageIdHeader: '<o@x>', subject: 'Plan', date: days(0) })] });
    const plan = await threadOfMessage(store, '<o@x>');
    expect(await threadOfMessage(store, '<r@x>')).toBe(plan);
    expect(await fx.materializer.thread(accountId, plan)).toMatchObject({ subject: 'Plan', messageCount: 2, folderIds: [String(fx.folder('INBOX')), String(fx.folder('Sent'))] });
    // Subject fallback: a header-less reply joins; a header-less reply first, its root later, too.
    await fx.step('INBOX', { added: [record({ uid: 2, messageIdHeader: '<b1@x>', subject: 'Budget', date: days(2) })] });
    await fx.step('INBOX', { added: [record({ uid: 3, messageIdHeader: '<b2@x>', subject: 'AW: Budget', date: days(9) })] });
    expect(await threadOfMessage(store, '<b2@x>')).toBe(await threadOfMessage(store, '<b1@x>'));
    await fx.step('INBOX', { added: [record({ uid: 4, messageIdHeader: '<n2@x>', subject: 'Re: Notes', date: days(20) })] });
    await fx.step('INBOX', { added: [record({ uid: 5, messageIdHeader: '<n1@x>', subject: 'Notes', date: days(12) })] });
    expect(await threadOfMessage(store, '<n1@x>')).toBe(await threadOfMessage(store, '<n2@x>'));
    // Two replies to originals not mirrored yet, then a message naming both: the lower thread id survives.
    await fx.step('INBOX', { added: [record({ uid: 6, messageIdHeader: '<a2@x>', references: ['<a1@x>'], subject: 'Re: A', date: days(30) })] });
    await fx.step('INBOX', { added: [record({ uid: 7, messageIdHeader: '<c2@x>', references: ['<c1@x>'], subject: 'Re: C', date: days(31) })] });
    const threadOfA = await threadOfMessage(store, '<a2@x>');
    const [first, second] = [threadOfA, await threadOfMessage(store, '<c2@x>')].sort((a, b) => a - b) as [number, number];
    const moved = (await messageId(store, fx.folder('INBOX'), threadOfA === second ? 6 : 7))!;
    const cursor = await fx.txlog.latest(accountId);
    await fx.step('Sent', { added: [record({ uid: 2, messageIdHeader: '<both@x>', references: ['<a1@x>', '<c1@x>'], subject: 'Re: A and C', date: days(25) })] });
    for (const id of ['<a2@x>', '<c2@x>', '<both@x>']) expect(await threadOfMessage(store, id)).toBe(first);
    expect(await fx.materializer.thread(accountId, second)).toBeNull();
    expect(logged((await fx.txlog.read(accountId, cursor, 100)).entries)).toEqual(expect.arrayContaining([`thread:${first}`, `thread:${second}`, `message:${moved}`]));
    // The merged thread spans all three; an original arriving later finds it through the moved refs.
    expect(await store.get('SELECT first_at, last_at FROM threads WHERE id = ?', [first])).toEqual({ first_at: days(25), last_at: days(31) });
    expect((await fx.materializer.thread(accountId, first))!.messageCount).toBe(3);
    await fx.step('INBOX', { added: [record({ uid: 8, messageIdHeader: '<c1@x>', subject: 'C', date: days(24) })] });
    expect(await threadOfMessage(store, '<c1@x>')).toBe(first);
    const detail = await fx.threads.detail(accountId, first);
    expect(detail.messages.map((message) => message.messageIdHeader)).toEqual(['<c1@x>', '<both@x>', '<a2@x>', '<c2@x>']);
  });

  test('one fetched batch threads as a whole: two threads it began merged by a later message of it, ids past the existing ones', async () => {
    const { accountId } = fx;
    await fx.step('INBOX', { added: [record({ uid: 1, messageIdHeader: '<old@x>', subject: 'Old', date: days(1) })] });
    const old = await threadOfMessage(store, '<old@x>');
    const cursor = await fx.txlog.latest(accountId);
    // Newest first, as the mirror fetches: two replies whose originals are not mirrored, then a message naming both, then one original.
    await fx.step('INBOX', {
      added: [
        record({ uid: 10, messageIdHeader: '<p2@x>', references: ['<p1@x>'], subject: 'Re: P', date: days(9) }),
        record({ uid: 9, messageIdHeader: '<q2@x>', references: ['<q1@x>'], subject: 'Re: Q', date: days(8) }),
        record({ uid: 8, messageIdHeader: '<pq@x>', references: ['<p1@x>', '<q1@x>'], subject: 'Re: P and Q', date: days(7) }),
        record({ uid: 7, messageIdHeader: '<q1@x>', subject: 'Q', date: days(3) }),
        record({ uid: 6, messageIdHeader: '<r@x>', subject: 'Re: Old', date: days(2) }),
      ],
    });
    const merged = await threadOfMessage(store, '<p2@x>');
    for (const id of ['<q2@x>', '<pq@x>', '<q1@x>']) expect(await threadOfMessage(store, id)).toBe(merged);
    expect(merged).toBeGreaterThan(old);
    // The header-less reply joined the older thread by its subject, and widened its span.
    expect(await threadOfMessage(store, '<r@x>')).toBe(old);
    const threads = await store.all<{ id: number; first_at: number; last_at: number }>('SELECT id, first_at, last_at FROM threads ORDER BY id');
    expect(threads).toEqual([
      { id: old, first_at: days(1), last_at: days(2) },
      { id: merged, first_at: days(3), last_at: days(9) },
    ]);
    expect((await fx.threads.detail(accountId, merged)).messages.map((message) => message.messageIdHeader)).toEqual(['<q1@x>', '<pq@x>', '<q2@x>', '<p2@x>']);
    const entries = logged((await fx.txlog.read(accountId, cursor, 100)).entries);
    expect(entries.filter((entry) => entry.startsWith('message:'))).toHaveLength(5);
    expect(entries).toEqual(expect.arrayContaining([`thread:${merged}`, `thread:${old}`]));
    // A thread begun later gets an id past all of these.
    await fx.step('Sent', { added: [record({ uid: 1, messageIdHeader: '<new@x>', subject: 'New', date: days(4) })] });
    expect(await threadOfMessage(store, '<new@x>')).toBeGreaterThan(merged);
  });

  test('flags, expunges, a MOVE, exact attachment sizes and a UIDVALIDITY reset: rows, counts and the log follow', async () => {
    const { accountId, mirror, materializer } = fx;
    const inbox = fx.folder('INBOX');
    const attachment = { index: 0, part: '2', filename: 'a.pdf', contentType: 'application/pdf', contentId: null, size: 1204, encoding: 'base64' };
    await fx.step('INBOX', {
      added: [
        record({ uid: 1, messageIdHeader: '<1@x>', subject: 'one', date: days(1) }),
        record({ uid: 2, messageIdHeader: '<2@x>', subject: 'two', date: days(2), flags: ['\\Seen'], attachments: [attachment] }),
        record({ uid: 3, messageIdHeader: '<3@x>', inReplyTo: '<1@x>', subject: 'Re: one', date: days(3) }),
      ],
      state: { ...noState, uidvalidity: 7 },
    });
    // A UID mirrored already (a step that saw it before) inserts nothing: no message is logged, only its thread.
    const latest = await fx.txlog.latest(accountId);
    await fx.step('INBOX', { added: [record({ uid: 1, messageIdHeader: '<1@x>' })], state: { ...noState, uidvalidity: 7 } });
    expect(logged((await fx.txlog.read(accountId, latest, 10)).entries)).toEqual([`thread:${await threadOfMessage(store, '<1@x>')}`]);
    expect(await mirror.mirroredUids(inbox)).toEqual([1, 2, 3]);
    expect(await mirror.messageCount(inbox)).toBe(3);
    expect((await mirror.folderByPath(accountId, 'INBOX'))?.uidvalidity).toBe(7);
    expect(await materializer.folder(accountId, inbox)).toMatchObject({ total: 3, unread: 2, mirrored: true });
    expect(await fx.threads.count(accountId, inbox)).toEqual({ total: 2, unread: 1 });

    await fx.step('INBOX', {
      flagUpdates: [
        { uid: 1, flags: ['\\Flagged'], modseq: '8' },
        { uid: 1, flags: ['\\Seen', '\\Flagged', '$Work'], modseq: '9' },
        { uid: 3, flags: ['\\Seen'], modseq: '9' },
      ],
      removedUids: [3],
      state: { ...noState, uidvalidity: 7 },
    });
    const one = (await messageId(store, inbox, 1))!;
    expect(await materializer.message(accountId, one)).toMatchObject({ unread: false, starred: true, keywords: ['$Work'] });
    expect(await materializer.messageRow(accountId, one)).toMatchObject({ modseq: '9' });
    expect(await materializer.folder(accountId, inbox)).toMatchObject({ total: 2, unread: 0 });
    // The thread lost its reply: its span shrinks back to the message left.
    expect(await store.get('SELECT first_at, last_at FROM threads WHERE id = ?', [await threadOfMessage(store, '<1@x>')])).toEqual({ first_at: days(1), last_at: days(1) });

    const two = (await messageId(store, inbox, 2))!;
    await mirror.exactAttachmentSizes(accountId, two, new Map([[0, 1200]]));
    expect((await materializer.message(accountId, two))!.attachments[0]!.size).toBe(1200);
    expect(JSON.parse((await materializer.messageRow(accountId, two))!.attachments_json)[0]).toMatchObject({ part: '2', size: 1200 });

    await fx.step('Trash', { state: { ...noState, uidvalidity: 5 } });
    expect(await mirror.applyMove({ accountId, fromFolderId: inbox, toFolderId: fx.folder('Trash'), uidValidity: 4, uidMap: new Map([[2, 10]]) })).toEqual([]);
    expect(await mirror.applyMove({ accountId, fromFolderId: inbox, toFolderId: fx.folder('Trash'), uidValidity: 5, uidMap: new Map([[2, 10]]) })).toEqual([two]);
    expect(await materializer.messageRow(accountId, two)).toMatchObject({ folder_id: fx.folder('Trash'), uid: 10, modseq: null });

    const cursor = await fx.txlog.latest(accountId);
    await mirror.resetFolder(accountId, inbox);
    expect(await mirror.folder(accountId, inbox)).toMatchObject({ uidvalidity: null, uidnext: null, highest_modseq: null, backfilled_to: null });
    expect(await mirror.mirroredUids(inbox)).toEqual([]);
    const page = await fx.delta.read({ accountId, cursor, limit: 100 });
    expect(page.changes).toEqual(expect.arrayContaining([expect.objectContaining({ op: 'delete', object: 'message', objectId: String(one) })]));
    expect(page.changes).toContainEqual(expect.objectContaining({ op: 'upsert', object: 'folder', data: expect.objectContaining({ id: String(inbox), total: 0, mirrored: false }) }));
  });

  test('two accounts mirrored at once: each log is gap-free and increasing, announced after commit, and delta reads it back', async () => {
    const bob = await insertAccount(store, 'bob@tern.test');
    const [bobInbox] = await fx.mirror.syncFolderList(bob, [listing('INBOX', 'inbox')]);
    const announced = new Map<number, number[]>([[fx.accountId, []], [bob, []]]);
    for (const [account, seen] of announced) fx.push.subscribe(account, (id) => seen.push(id));
    const batches = (accountId: number, folderId: number) =>
      Array.from({ length: 12 }, (_, i) =>
        fx.mirror.applyFolderBatch(accountId, {
          folderId,
          added: [record({ uid: 2 * i + 1, messageIdHeader: `<${accountId}-${i}a@x>`, subject: `s${i}`, date: days(i) }), record({ uid: 2 * i + 2, messageIdHeader: `<${accountId}-${i}b@x>`, inReplyTo: `<${accountId}-${i}a@x>`, date: days(i) + 1 })],
          flagUpdates: [],
          removedUids: [],
          state: noState,
        }),
      );
    await Promise.all([...batches(fx.accountId, fx.folder('INBOX')), ...batches(bob, bobInbox!.id)]);
    for (const accountId of [fx.accountId, bob]) {
      const rows = await store.all<{ id: number }>('SELECT id FROM txlog WHERE account_id = ? ORDER BY id', [accountId]);
      const latest = await fx.txlog.latest(accountId);
      expect(rows.map((row) => row.id)).toEqual(Array.from({ length: latest }, (_, i) => i + 1));
      // Each commit announced once, after it (the order of two commits' announcements is not promised on PostgreSQL).
      const seen = announced.get(accountId)!;
      expect(seen).toHaveLength(12);
      expect(Math.max(...seen)).toBe(latest);
      // A fresh client pages through it all: every message of the account, none of the other's.
      let cursor = 0;
      const messages = new Set<string>();
      for (let more = true; more; ) {
        const page = await fx.delta.read({ accountId, cursor, limit: 9 });
        for (const change of page.changes) if (change.object === 'message' && change.op === 'upsert') messages.add(change.data.id);
        cursor = page.cursor;
        more = page.hasMore;
      }
      expect(cursor).toBe(latest);
      expect(messages.size).toBe(24);
    }
    await expect(fx.delta.read({ accountId: bob, cursor: 10_000, limit: 10 })).rejects.toMatchObject({ name: 'ClearClientCache' });
  });

  test('a mirror writing under a lease it has lost writes nothing; the new holder writes', async () => {
    const { accountId } = fx;
    let now = 1_000_000;
    const leases = new AccountLeases({ store, now: () => now });
    const token = (await leases.acquire(accountId, 'node-a', 10_000))!;
    const mine = fx.mirror.fenced((id) => leases.check(id, token));
    await mine.applyFolderBatch(accountId, { folderId: fx.folder('INBOX'), added: [record({ uid: 1, messageIdHeader: '<1@x>' })], flagUpdates: [], removedUids: [], state: noState });
    // node-a stalled past its lease; node-b took the account over.
    now += 20_000;
    const taken = (await leases.acquire(accountId, 'node-b', 10_000))!;
    expect(taken).toBeGreaterThan(token);
    const latest = await fx.txlog.latest(accountId);
    const announced: number[] = [];
    fx.push.subscribe(accountId, (id) => announced.push(id));
    const late = { folderId: fx.folder('INBOX'), added: [record({ uid: 2, messageIdHeader: '<2@x>' })], flagUpdates: [{ uid: 1, flags: ['\\Seen'], modseq: null }], removedUids: [], state: noState };
    await expect(mine.applyFolderBatch(accountId, late)).rejects.toMatchObject({ name: 'StaleLeaseError' });
    expect(await messageId(store, fx.folder('INBOX'), 2)).toBeUndefined();
    expect((await fx.materializer.folder(accountId, fx.folder('INBOX')))!.unread).toBe(1);
    expect(await store.get('SELECT id FROM threads WHERE id > (SELECT MAX(thread_id) FROM messages)')).toBeUndefined();
    expect(await fx.txlog.latest(accountId)).toBe(latest);
    expect(announced).toEqual([]);
    await fx.mirror.fenced((id) => leases.check(id, taken)).applyFolderBatch(accountId, late);
    expect(await messageId(store, fx.folder('INBOX'), 2)).toBeDefined();
    expect(announced).toEqual([await fx.txlog.latest(accountId)]);
  });

  test('thread list pages walk a folder larger than one scan chunk: no gap, no repeat, ties kept on one page', async () => {
    const { accountId } = fx;
    const inbox = fx.folder('INBOX');
    // 180 threads; 40 of them share one time in the middle (across the walk's chunk boundary), and every tenth has a second, older message.
    const added = [];
    for (let i = 0; i < 180; i++) {
      const at = i >= 70 && i < 110 ? T0 + 70 * 1000 : T0 + i * 1000;
      added.push(record({ uid: i + 1, messageIdHeader: `<t${i}@x>`, subject: `t${i}`, date: at }));
      if (i % 10 === 0) added.push(record({ uid: 1000 + i, messageIdHeader: `<t${i}-old@x>`, inReplyTo: `<t${i}@x>`, subject: `Re: t${i}`, date: at - 500 }));
    }
    await fx.step('INBOX', { added });
    const pages: { ids: string[]; times: number[] }[] = [];
    let before: number | undefined;
    for (;;) {
      const page = await fx.threads.page({ accountId, folderId: inbox, before, limit: 25 });
      pages.push({ ids: page.threads.map((thread) => thread.id), times: page.threads.map((thread) => thread.lastMessageAt) });
      if (page.nextBefore === null) break;
      before = page.nextBefore;
    }
    const ids = pages.flatMap((page) => page.ids);
    expect(new Set(ids).size).toBe(180);
    expect(ids).toHaveLength(180);
    const times = pages.flatMap((page) => page.times);
    expect(times).toEqual([...times].sort((a, b) => b - a));
    // The 40 ties land on one page.
    expect(pages.filter((page) => page.times.includes(T0 + 70 * 1000))).toHaveLength(1);
    const summaries = await fx.threads.summaries(accountId, ids.map(Number));
    expect(summaries).toHaveLength(180);
    expect(summaries.filter((thread) => thread.messageCount === 2)).toHaveLength(18);
    await expect(fx.threads.page({ accountId: accountId + 1, folderId: inbox, before: undefined, limit: 5 })).rejects.toThrow(/folder could not be found/);
    await expect(fx.threads.detail(accountId, 999_999)).rejects.toThrow(/conversation could not be found/);
  });
});
