/**
 * The gateway's search on both engines (DESIGN §7): FTS5 on SQLite, a tsvector document on
 * PostgreSQL. Messages are inserted as the mirror inserts them, so the queue triggers of the
 * schema feed the indexer; then the same queries must find the same messages on both.
 */
import { afterEach, beforeEach, expect, test } from 'vitest';
import { LocalSearch } from '../../../src-server/search/local-search';
import { MessageLookup } from '../../../src-server/search/message-lookup';
import { parseSearch } from '../../../src-server/search/search-query';
import type { SqlStore } from '../../../src-server/store/sql';
import { describeOnEngines } from '../support/engines';

const DAY = 86_400_000;
const T0 = Date.UTC(2026, 9, 1, 9, 0, 0);

interface Address {
  readonly name: string;
  readonly email: string;
}

interface MessageFields {
  readonly folder?: 'INBOX' | 'Archive';
  readonly uid?: number;
  readonly subject?: string;
  readonly from?: Address[];
  readonly to?: Address[];
  readonly cc?: Address[];
  readonly snippet?: string;
  readonly day?: number;
  readonly flags?: string[];
  readonly attachments?: { contentId: string | null; size: number }[];
  readonly messageIdHeader?: string;
}

describeOnEngines('search', (engine) => {
  let store: SqlStore;
  let local: LocalSearch;
  let accountId: number;
  let folders: Record<'INBOX' | 'Archive', number>;
  let threadId: number;
  let uid = 0;

  beforeEach(async () => {
    store = await engine.open();
    local = new LocalSearch(store);
    const account = await store.get<{ id: number }>(
      `INSERT INTO accounts (email, name, imap_host, imap_port, imap_security, smtp_host, smtp_port, smtp_security, secret, created_at)
       VALUES ('alice@tern.test', 'Alice', 'localhost', 143, 'none', 'localhost', 25, 'none', ?, 0) RETURNING id`,
      [Buffer.alloc(0)],
    );
    accountId = account!.id;
    const folder = async (path: string) =>
      (await store.get<{ id: number }>('INSERT INTO folders (account_id, path, name) VALUES (?, ?, ?) RETURNING id', [accountId, path, path]))!.id;
    folders = { INBOX: await folder('INBOX'), Archive: await folder('Archive') };
    threadId = (await store.get<{ id: number }>("INSERT INTO threads (account_id, subject_key, last_at) VALUES (?, 'x', 0) RETURNING id", [accountId]))!.id;
  });
  afterEach(() => store.close());

  /** Mirrors one message row (the triggers queue it for the index) and returns its id. */
  const add = async (fields: MessageFields = {}): Promise<number> => {
    const at = T0 + (fields.day ?? 0) * DAY;
    const flags = fields.flags ?? [];
    const row = await store.get<{ id: number }>(
      `INSERT INTO messages (account_id, folder_id, uid, thread_id, message_id_header, subject, from_json, to_json, cc_json, date, received_at, flags, unseen, attachments_json, snippet)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
      [
        accountId,
        folders[fields.folder ?? 'INBOX'],
        fields.uid ?? ++uid,
        threadId,
        fields.messageIdHeader ?? null,
        fields.subject ?? '',
        JSON.stringify(fields.from ?? [{ name: 'Bob', email: 'bob@example.com' }]),
        JSON.stringify(fields.to ?? [{ name: 'Alice', email: 'alice@tern.test' }]),
        JSON.stringify(fields.cc ?? []),
        at,
        at,
        JSON.stringify(flags),
        flags.includes('\\Seen') ? 0 : 1,
        JSON.stringify((fields.attachments ?? []).map((part, index) => ({ index, filename: `f${index}`, contentType: 'application/pdf', part: String(index + 2), encoding: 'base64', ...part }))),
        fields.snippet ?? '',
      ],
    );
    return row!.id;
  };

  const find = async (q: string, scope: ('INBOX' | 'Archive')[] = ['INBOX', 'Archive'], limit = 100) =>
    (await local.run({ accountId, search: parseSearch(q), folderIds: scope.map((path) => folders[path]), limit })).map((hit) => hit.id);

  test('words, prefixes and phrases; every word must match; newest first', async () => {
    const budget = await add({ subject: 'Quarterly budget review', snippet: 'Let us meet on Thursday', day: 1 });
    const lunch = await add({ subject: 'Lunch on Thursday', snippet: 'Pizza?', day: 2 });
    expect(await find('quarterly')).toEqual([budget]);
    expect(await find('budg rev')).toEqual([budget]);
    expect(await find('thursday')).toEqual([lunch, budget]);
    expect(await find('thurs pizza')).toEqual([lunch]);
    expect(await find('"meet on thursday"')).toEqual([budget]);
    expect(await find('"thursday on meet"')).toEqual([]);
    // A quoted word is whole: no prefix.
    expect(await find('"quarter"')).toEqual([]);
    expect(await find('nothing-like-this')).toEqual([]);
  });

  test("either engine's query syntax typed in the box is just text", async () => {
    const id = await add({ subject: 'Budget OR NEAR review', snippet: 'a & b | c' });
    for (const q of ["budget' | 'x", 'budget & !review', 'budget <-> (review', 'NEAR(budget review)', 'subject:"budget" OR x*', "'''", '\\ * <2> :*']) {
      await expect(find(q), q).resolves.toEqual(expect.any(Array));
    }
    expect(await find("budget' & 'review")).toEqual([id]);
    expect(await find('"a & b | c"')).toEqual([id]);
  });

  test('a phrase stays within one column, as FTS5 phrases do', async () => {
    const id = await add({ subject: 'alpha beta', from: [{ name: 'Gamma', email: 'g@x.test' }], snippet: 'delta epsilon' });
    expect(await find('"alpha beta"')).toEqual([id]);
    expect(await find('"beta gamma"')).toEqual([]);
    expect(await find('"alice tern test delta"')).toEqual([]);
    expect(await find('beta gamma')).toEqual([id]);
  });

  test('from:, to: and subject: look in their own column; addresses match as phrases', async () => {
    const a = await add({ subject: 'Plans', from: [{ name: 'Jürgen Groß', email: 'juergen@alpen.example' }], snippet: 'about bob' });
    const b = await add({
      subject: 'Lunch',
      from: [{ name: 'Alice', email: 'alice@tern.test' }],
      to: [{ name: 'Bob', email: 'bob@example.com' }],
      cc: [{ name: 'Carol', email: 'carol@example.com' }],
      snippet: 'Pizza?',
    });
    expect(await find('from:juergen@alpen.example')).toEqual([a]);
    expect(await find('from:jurg')).toEqual([a]);
    expect(await find('to:carol')).toEqual([b]);
    expect(await find('to:bob@example.com')).toEqual([b]);
    expect(await find('from:bob')).toEqual([]);
    expect(await find('bob')).toEqual([b, a]);
    expect(await find('subject:pizza')).toEqual([]);
    expect(await find('subject:lun')).toEqual([b]);
    expect(await find('subject:"lunch" to:bob')).toEqual([b]);
  });

  test('diacritics, ł, ø, æ and ß fold in the index and the query', async () => {
    const a = await add({ subject: 'Spotkanie w Łodzi', from: [{ name: 'Małgorzata Wiśniewska', email: 'm.wisniewska@wisla.test' }], snippet: 'Søren, Straße, Æsir, café' });
    await add({ subject: 'Other', snippet: 'nothing' });
    expect(await find('malgorzata')).toEqual([a]);
    expect(await find('Małgorzata')).toEqual([a]);
    expect(await find('MAŁGORZATA')).toEqual([a]);
    expect(await find('from:wisniewska')).toEqual([a]);
    expect(await find('subject:lodzi')).toEqual([a]);
    expect(await find('soren strasse aesir cafe')).toEqual([a]);
    expect(await find('"Straße"')).toEqual([a]);
    expect(await find('CAFÉ')).toEqual([a]);
  });

  test('a changed subject is found by its new words only; a deleted message leaves the index', async () => {
    const id = await add({ subject: 'Old title', snippet: 'same' });
    const other = await add({ subject: 'Keep me', snippet: 'same' });
    expect(await find('old')).toEqual([id]);
    await store.run('UPDATE messages SET subject = ? WHERE id = ?', ['Renamed heading', id]);
    expect(await find('old')).toEqual([]);
    expect(await find('renamed head')).toEqual([id]);
    await store.run('DELETE FROM messages WHERE id = ?', [id]);
    expect(await find('same')).toEqual([other]);
    expect(await local.indexer.backlog()).toBe(0);
    expect((await store.get<{ n: number }>('SELECT COUNT(*) AS n FROM messages_fts'))?.n).toBe(1);
  });

  test('body words, stored when a body is read, are searched with the rest', async () => {
    const id = await add({ subject: 'Notes', snippet: 'short' });
    expect(await find('zanzibar')).toEqual([]);
    // As reading/body-cache.ts stores them.
    await store.transaction(async () => {
      await store.run('INSERT INTO message_body_words (message_id, words) VALUES (?, ?) ON CONFLICT (message_id) DO UPDATE SET words = excluded.words', [id, 'deep in the text: Zanzibar']);
      await store.run('INSERT INTO fts_pending (message_id) VALUES (?) ON CONFLICT (message_id) DO NOTHING', [id]);
    });
    expect(await find('zanzibar')).toEqual([id]);
    expect(await find('"the text zanzibar"')).toEqual([id]);
    // A later change of the row keeps them.
    await store.run('UPDATE messages SET snippet = ? WHERE id = ?', ['changed', id]);
    expect(await find('zanzibar changed')).toEqual([id]);
  });

  test('the indexer works through its queues in bounded batches', async () => {
    const ids: number[] = [];
    for (let i = 0; i < 7; i++) ids.push(await add({ subject: `batch ${i}` }));
    expect(await local.indexer.backlog()).toBe(7);
    expect(await local.indexer.flush(3)).toBe(4);
    expect(await local.indexer.flush(3)).toBe(1);
    await store.run(`DELETE FROM messages WHERE id IN (?, ?)`, [ids[0]!, ids[6]!]);
    // Both are queued to leave the index (the one never indexed has left fts_pending).
    expect(await store.all('SELECT message_id AS id FROM fts_pending')).toEqual([]);
    expect(await local.indexer.backlog()).toBe(2);
    expect(await local.indexer.flush(3)).toBe(0);
    expect(await find('batch')).toEqual(ids.slice(1, 6).reverse());
  });

  test('two indexers at once (two gateway nodes) index every message once', async () => {
    const ids: number[] = [];
    for (let i = 0; i < 60; i++) ids.push(await add({ subject: `parallel ${i}`, day: i }));
    const other = new LocalSearch(store).indexer;
    // Four batches of 7 at once (on PostgreSQL, on four pooled connections): each takes messages no other took.
    await Promise.all([local.indexer.flush(7), other.flush(7), local.indexer.flush(7), other.flush(7)]);
    expect((await store.get<{ n: number }>('SELECT COUNT(*) AS n FROM messages_fts'))?.n).toBe(28);
    expect(await local.indexer.backlog()).toBe(32);
    await Promise.all([local.indexer.flush(), other.flush()]);
    expect(await local.indexer.backlog()).toBe(0);
    expect((await store.get<{ n: number }>('SELECT COUNT(*) AS n FROM messages_fts'))?.n).toBe(60);
    expect(await find('parallel')).toEqual([...ids].reverse());
  });

  // Only PostgreSQL has a second connection: on SQLite one transaction at a time is the design.
  test.runIf(engine.dialect === 'postgres')('an indexer does not wait for the messages another node is indexing', async () => {
    for (let i = 0; i < 14; i++) await add({ subject: `shared ${i}` });
    const other = new LocalSearch(store).indexer;
    let claimed!: () => void;
    let release!: () => void;
    const didClaim = new Promise<void>((resolve) => (claimed = resolve));
    const held = new Promise<void>((resolve) => (release = resolve));
    // The first node's batch, its queue rows taken and not yet committed.
    const first = store.transaction(async () => {
      await local.indexer.flush(7);
      claimed();
      await held;
    });
    await didClaim;
    let left: number;
    try {
      // The other node takes the next 7 at once (it still sees the first one's 7 as queued); waiting for a lock is an error here.
      left = await store.transaction(async (tx) => {
        await tx.run("SET LOCAL lock_timeout = '2s'");
        return other.flush(7);
      });
    } finally {
      release();
      await first;
    }
    expect(left).toBe(7);
    expect(await local.indexer.backlog()).toBe(0);
    expect((await store.get<{ n: number }>('SELECT COUNT(*) AS n FROM messages_fts'))?.n).toBe(14);
  });

  // Only PostgreSQL has a second connection: on SQLite the indexer waits for the writer's transaction.
  test.runIf(engine.dialect === 'postgres')('a message changed while another connection indexes is indexed as it was changed', async () => {
    const id = await add({ subject: 'old words' });
    let updated!: () => void;
    let release!: () => void;
    const didUpdate = new Promise<void>((resolve) => (updated = resolve));
    const held = new Promise<void>((resolve) => (release = resolve));
    // A mirror write, still open while the indexer runs on another pooled connection.
    const writer = store.transaction(async (tx) => {
      await tx.run('UPDATE messages SET subject = ? WHERE id = ?', ['new words', id]);
      updated();
      await held;
    });
    await didUpdate;
    let backlog: number;
    try {
      backlog = await local.indexer.flush();
    } finally {
      release();
      await writer;
    }
    // The queue row the writer's trigger touched was locked: that pass left it rather than index the old subject.
    expect(backlog).toBe(1);
    expect(await find('new')).toEqual([id]);
    expect(await find('old')).toEqual([]);
  });

  test('flags, attachments, dates and folders filter; the limit keeps the newest', async () => {
    const unread = await add({ subject: 'one', day: 1 });
    const starred = await add({ subject: 'two', day: 2, flags: ['\\Flagged', '\\Seen'] });
    const attached = await add({ folder: 'Archive', subject: 'three', day: 3, flags: ['\\Seen'], attachments: [{ contentId: null, size: 10 }] });
    const inline = await add({ subject: 'four', day: 4, flags: ['\\Seen'], attachments: [{ contentId: '<logo>', size: 100 }] });
    const big = await add({ subject: 'five', day: 5, flags: ['\\Seen'], attachments: [{ contentId: '<photo>', size: 50_000 }] });
    expect(await find('is:unread')).toEqual([unread]);
    expect(await find('is:read')).toEqual([big, inline, attached, starred]);
    expect(await find('is:starred')).toEqual([starred]);
    expect(await find('is:unstarred')).toEqual([big, inline, attached, unread]);
    expect(await find('has:attachment')).toEqual([big, attached]);
    // days(1) is 2026-10-02 09:00 UTC: after: takes its whole day, before: stops at its start.
    expect(await find('after:2026-10-03 before:2026-10-05')).toEqual([attached, starred]);
    expect(await find('is:read', ['INBOX'])).toEqual([big, inline, starred]);
    expect(await find('is:read tw', ['INBOX'])).toEqual([starred]);
    expect(await find('is:read', ['INBOX', 'Archive'], 2)).toEqual([big, inline]);
  });

  test('the server search finds mirrored messages by UID, Message-ID and id', async () => {
    const lookup = new MessageLookup(store);
    const a = await add({ uid: 10, messageIdHeader: '<a@x>' });
    const copy = await add({ folder: 'Archive', uid: 10, messageIdHeader: '<a@x>' });
    const b = await add({ uid: 11, day: 1 });
    expect((await lookup.byUids(folders.INBOX, [10, 11, 12])).sort((x, y) => x.uid - y.uid)).toEqual([
      { id: a, uid: 10 },
      { id: b, uid: 11 },
    ]);
    // More UIDs than one statement binds.
    const many = Array.from({ length: 1200 }, (_, i) => i + 1);
    expect((await lookup.byUids(folders.Archive, many)).map((row) => row.id)).toEqual([copy]);
    expect((await lookup.byMessageId(accountId, '<a@x>')).sort((x, y) => x - y)).toEqual([a, copy]);
    expect(await lookup.byMessageId(accountId, '<none@x>')).toEqual([]);
    expect(await lookup.hits(accountId, [b, a])).toEqual(
      expect.arrayContaining([
        { id: a, threadId, folderId: folders.INBOX, receivedAt: T0 },
        { id: b, threadId, folderId: folders.INBOX, receivedAt: T0 + DAY },
      ]),
    );
    expect(await lookup.hits(accountId + 1, [a])).toEqual([]);
  });
});
