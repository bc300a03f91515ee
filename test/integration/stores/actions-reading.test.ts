/**
 * The stores of bulk actions and reading on both engines (issue 12 point 1): action targets,
 * folder roles, a MOVE's rows re-pointed (move-identity), the body cache and a folder
 * RENAME's rows re-pointed (folder-rehome). Every query they run is run here at least once,
 * so SQL only SQLite accepts fails the PostgreSQL run.
 */
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import type { MessageBody } from '../../../shared/api/mail';
import { TernError } from '../../../shared/errors';
import { ActionTargets } from '../../../src-server/actions/action-targets';
import { FolderRoles } from '../../../src-server/actions/folder-roles';
import { MoveRehomer } from '../../../src-server/actions/move-identity';
import { PushHub } from '../../../src-server/push/push-hub';
import { BodyCache } from '../../../src-server/reading/body-cache';
import { FolderRehomer } from '../../../src-server/reading/folder-rehome';
import type { SqlStore } from '../../../src-server/store/sql';
import { TransactionLog } from '../../../src-server/store/transaction-log';
import { describeOnEngines } from '../support/engines';

type Append = Pick<TransactionLog, 'append'>;

/** The transaction log on the store's engine. */
const txlogOn = (store: SqlStore): Append => new TransactionLog(store);

const insertId = async (store: SqlStore, sql: string, params: (string | number | Buffer | null)[]) => (await store.get<{ id: number }>(`${sql} RETURNING id`, params))!.id;

/** Mirror rows written as the mirror writes them, through the store. */
function seeder(store: SqlStore) {
  let uid = 0;
  return {
    account: (email: string) =>
      insertId(
        store,
        `INSERT INTO accounts (email, name, imap_host, imap_port, imap_security, smtp_host, smtp_port, smtp_security, secret, created_at)
         VALUES (?, '', 'localhost', 143, 'none', 'localhost', 25, 'none', ?, 0)`,
        [email, Buffer.alloc(0)],
      ),
    folder: (accountId: number, path: string, specialUse: string | null = null, uidvalidity = 7) => {
      const cut = path.lastIndexOf('/');
      return insertId(store, 'INSERT INTO folders (account_id, path, name, parent_path, delimiter, special_use, uidvalidity) VALUES (?, ?, ?, ?, ?, ?, ?)', [
        accountId,
        path,
        cut === -1 ? path : path.slice(cut + 1),
        cut === -1 ? null : path.slice(0, cut),
        '/',
        specialUse,
        uidvalidity,
      ]);
    },
    thread: (accountId: number) => insertId(store, "INSERT INTO threads (account_id, subject_key, last_at) VALUES (?, '', 0)", [accountId]),
    message: (accountId: number, folderId: number, threadId: number, fields: { uid?: number; date?: number } = {}) =>
      insertId(store, "INSERT INTO messages (account_id, folder_id, uid, thread_id, date, received_at, modseq) VALUES (?, ?, ?, ?, ?, ?, '5')", [
        accountId,
        folderId,
        fields.uid ?? ++uid,
        threadId,
        fields.date ?? 1000,
        fields.date ?? 1000,
      ]),
  };
}

const txlogRows = (store: SqlStore, accountId: number) =>
  store.all<{ id: number; object: string; objectId: number }>('SELECT id, object, object_id AS "objectId" FROM txlog WHERE account_id = ? ORDER BY id', [accountId]);

async function refusal(promise: Promise<unknown>): Promise<TernError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(TernError);
  return error as TernError;
}

const body = (messageId: number, text = 'hello'): MessageBody => ({ messageId: String(messageId), html: null, text, attachments: [], headers: {} });

describeOnEngines('Action and reading stores', (engine) => {
  let store: SqlStore;
  let seed: ReturnType<typeof seeder>;
  let alice: number;
  let bob: number;
  beforeEach(async () => {
    store = await engine.open();
    seed = seeder(store);
    alice = await seed.account('alice@tern.test');
    bob = await seed.account('bob@kite.test');
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    await store.close();
  });

  test('action targets: the named messages or every message of the named threads, only the account’s', async () => {
    const inbox = await seed.folder(alice, 'INBOX', 'inbox');
    const thread = await seed.thread(alice);
    const other = await seed.thread(alice);
    const first = await seed.message(alice, inbox, thread, { uid: 11, date: 5000 });
    const second = await seed.message(alice, inbox, thread, { uid: 12 });
    await seed.message(alice, inbox, other);
    const bobs = await seed.message(bob, await seed.folder(bob, 'INBOX'), await seed.thread(bob));
    const targets = new ActionTargets(store);

    expect(await targets.messages(alice, [first, first])).toEqual([{ id: first, folderId: inbox, uid: 11, threadId: thread, date: 5000 }]);
    const ofThread = await targets.threads(alice, [thread]);
    expect(ofThread.map((row) => row.id).sort((a, b) => a - b)).toEqual([first, second]);
    expect((await refusal(targets.messages(alice, [first, bobs]))).name).toBe('MessageNotFound');
    const unknown = await refusal(targets.threads(alice, [thread, 999_999]));
    expect(unknown.name).toBe('ThreadNotFound');
    expect(unknown.detail).toEqual({ missing: ['999999'] });
  });

  test('folder roles: by SPECIAL-USE first, then by the usual names; a conventional path when none is mirrored', async () => {
    const inbox = await seed.folder(alice, 'INBOX', 'inbox');
    const bin = await seed.folder(alice, 'Bin');
    const junk = await seed.folder(alice, 'Spam');
    const marked = await seed.folder(alice, 'Gelöscht', 'trash');
    await seed.folder(bob, 'Archive', 'archive');
    const roles = new FolderRoles(store);

    expect(await roles.folders(alice)).toEqual([
      { id: inbox, path: 'INBOX', specialUse: 'inbox' },
      { id: bin, path: 'Bin', specialUse: null },
      { id: junk, path: 'Spam', specialUse: null },
      { id: marked, path: 'Gelöscht', specialUse: 'trash' },
    ]);
    expect((await roles.role(alice, 'trash'))?.id).toBe(marked);
    expect((await roles.role(alice, 'junk'))?.id).toBe(junk);
    expect(await roles.pathOf(alice, 'archive')).toBe('Archive');
    expect(await roles.pathOf(alice, 'junk')).toBe('Spam');
    expect((await roles.byId(alice, bin))?.path).toBe('Bin');
    expect(await roles.byId(bob, bin)).toBeUndefined();
    expect((await roles.byPath(alice, 'Spam'))?.id).toBe(junk);
  });

  test('a MOVE with COPYUID re-points the rows (ids kept) and logs messages, threads and both folders', async () => {
    const inbox = await seed.folder(alice, 'INBOX', 'inbox');
    const archive = await seed.folder(alice, 'Archive', 'archive', 42);
    const thread = await seed.thread(alice);
    const moved = await seed.message(alice, inbox, thread, { uid: 1 });
    const already = await seed.message(alice, inbox, thread, { uid: 2 });
    await seed.message(alice, archive, thread, { uid: 200 }); // the destination's sync got there first
    const push = new PushHub();
    const announced: number[] = [];
    push.subscribe(alice, (id) => announced.push(id));
    const rehomer = new MoveRehomer({ store, txlog: txlogOn(store), push });

    const uidMap = new Map([
      [1, 100],
      [2, 200],
      [3, 300],
    ]);
    expect(await rehomer.rehome({ accountId: alice, fromFolderId: inbox, toFolderId: archive, uidValidity: 41, uidMap })).toEqual([]);
    expect(await rehomer.rehome({ accountId: alice, fromFolderId: inbox, toFolderId: archive, uidValidity: 42, uidMap })).toEqual([moved]);
    const row = await store.get('SELECT folder_id AS "folderId", uid, modseq FROM messages WHERE id = ?', [moved]);
    expect(row).toEqual({ folderId: archive, uid: 100, modseq: null });
    expect(await store.get('SELECT folder_id AS "folderId", uid FROM messages WHERE id = ?', [already])).toEqual({ folderId: inbox, uid: 2 });
    expect(await txlogRows(store, alice)).toEqual([
      { id: 1, object: 'message', objectId: moved },
      { id: 2, object: 'thread', objectId: thread },
      { id: 3, object: 'folder', objectId: inbox },
      { id: 4, object: 'folder', objectId: archive },
    ]);
    expect(announced).toEqual([4]);
  });

  test('body cache: put then get; the words are kept and queued for the index; too large is served, not kept', async () => {
    const inbox = await seed.folder(alice, 'INBOX');
    const thread = await seed.thread(alice);
    const small = await seed.message(alice, inbox, thread);
    const large = await seed.message(alice, inbox, thread);
    await store.run('DELETE FROM fts_pending');
    const cache = new BodyCache(store, { maxEntriesPerAccount: 10, maxBodyBytes: 200 });

    expect(await cache.get(alice, small)).toBeNull();
    await cache.put({ accountId: alice, messageId: small, body: body(small), searchText: 'first words' });
    await cache.put({ accountId: alice, messageId: small, body: body(small, 'again'), searchText: 'second words' });
    await cache.put({ accountId: alice, messageId: large, body: body(large, 'x'.repeat(300)), searchText: 'large words' });
    await cache.put({ accountId: bob, messageId: small, body: body(small), searchText: 'not bob’s' }); // skipped: not his message
    expect(await cache.get(alice, small)).toEqual(body(small, 'again'));
    expect(await cache.get(bob, small)).toBeNull();
    expect(await cache.get(alice, large)).toBeNull();
    expect(await store.all('SELECT message_id AS id, words FROM message_body_words ORDER BY message_id')).toEqual([
      { id: small, words: 'second words' },
      { id: large, words: 'large words' },
    ]);
    expect(await store.all('SELECT message_id AS id FROM fts_pending ORDER BY message_id')).toEqual([{ id: small }, { id: large }]);
  });

  test('body cache: every 64th write trims the account to its newest entries', async () => {
    const inbox = await seed.folder(alice, 'INBOX');
    const thread = await seed.thread(alice);
    const ids = [];
    for (let i = 0; i < 5; i++) ids.push(await seed.message(alice, inbox, thread));
    const bobs = await seed.message(bob, await seed.folder(bob, 'INBOX'), await seed.thread(bob));
    const cache = new BodyCache(store, { maxEntriesPerAccount: 3, maxBodyBytes: 10_000 });
    const now = vi.spyOn(Date, 'now');
    now.mockReturnValue(1);
    await new BodyCache(store).put({ accountId: bob, messageId: bobs, body: body(bobs), searchText: '' }); // oldest of all, another account's
    // Writes 0..63 cycle through the five messages: the last (63, 62, 61) cached ids[3], ids[2], ids[1].
    for (let write = 0; write < 63; write++) {
      now.mockReturnValue(1000 + write);
      await cache.put({ accountId: alice, messageId: ids[write % 5]!, body: body(ids[write % 5]!), searchText: '' });
    }
    expect((await store.get<{ n: number }>('SELECT COUNT(*) AS n FROM message_bodies WHERE account_id = ?', [alice]))?.n).toBe(5);
    now.mockReturnValue(1000 + 63);
    await cache.put({ accountId: alice, messageId: ids[3]!, body: body(ids[3]!), searchText: '' });
    const kept = await store.all<{ id: number }>('SELECT message_id AS id FROM message_bodies WHERE account_id = ? ORDER BY message_id', [alice]);
    expect(kept.map((row) => row.id)).toEqual([ids[1], ids[2], ids[3]]);
    expect(await cache.get(bob, bobs)).toEqual(body(bobs));
  });

  test('a folder RENAME re-points the folder and its subfolders (ids kept) and logs each', async () => {
    const projects = await seed.folder(alice, 'Projects');
    const year = await seed.folder(alice, 'Projects/2026');
    const deeper = await seed.folder(alice, 'Projects/2026/Q1');
    const lookalike = await seed.folder(alice, 'Projects-old');
    await seed.folder(alice, 'Taken');
    const push = new PushHub();
    const announced: number[] = [];
    push.subscribe(alice, (id) => announced.push(id));
    const rehomer = new FolderRehomer({ store, txlog: txlogOn(store), push });

    expect(await rehomer.rename({ accountId: alice, fromPath: 'Projects', toPath: 'Projects', separator: '/' })).toEqual([]);
    expect(await rehomer.rename({ accountId: alice, fromPath: 'Projects', toPath: 'Taken', separator: '/' })).toEqual([]);
    expect(await rehomer.rename({ accountId: alice, fromPath: 'Projects', toPath: 'Archive/Work', separator: '/' })).toEqual([projects, year, deeper]);
    const rows = await store.all('SELECT id, path, name, parent_path AS "parentPath" FROM folders WHERE account_id = ? ORDER BY id', [alice]);
    expect(rows.slice(0, 4)).toEqual([
      { id: projects, path: 'Archive/Work', name: 'Work', parentPath: 'Archive' },
      { id: year, path: 'Archive/Work/2026', name: '2026', parentPath: 'Archive/Work' },
      { id: deeper, path: 'Archive/Work/2026/Q1', name: 'Q1', parentPath: 'Archive/Work/2026' },
      { id: lookalike, path: 'Projects-old', name: 'Projects-old', parentPath: null },
    ]);
    expect(await txlogRows(store, alice)).toEqual([
      { id: 1, object: 'folder', objectId: projects },
      { id: 2, object: 'folder', objectId: year },
      { id: 3, object: 'folder', objectId: deeper },
    ]);
    expect(announced).toEqual([3]);
  });
});
