import Database from 'better-sqlite3';
import { describe, expect, test } from 'vitest';
import { BodyCache } from '../../../../src-server/reading/body-cache';
import { FtsIndexer } from '../../../../src-server/search/fts-indexer';
import { LocalSearch } from '../../../../src-server/search/local-search';
import { parseSearch } from '../../../../src-server/search/search-query';
import { MIGRATIONS } from '../../../../src-server/store/migrations';
import { SqliteStore } from '../../../../src-server/store/sqlite-store';
import { days } from '../mirror/mirror-fixture';
import { readingFixture } from '../reading/reading-fixture';

async function setup() {
  const fx = await readingFixture();
  const local = new LocalSearch(fx.sql);
  const all = [fx.folder('INBOX'), fx.folder('Sent'), fx.folder('Projects')];
  const find = async (q: string, folderIds = all) => (await local.run({ accountId: fx.accountId, search: parseSearch(q), folderIds, limit: 100 })).map((hit) => hit.id);
  return { ...fx, local, find };
}

describe('the full-text index follows the mirror', () => {
  test('new messages are found by subject, sender, recipients and snippet words, with prefixes and diacritics folded', async () => {
    const fx = await setup();
    const a = await fx.add('INBOX', { subject: 'Quarterly budget review', from: [{ name: 'Jürgen Groß', email: 'juergen@alpen.example' }], snippet: 'Let us meet on Thursday' });
    const b = await fx.add('Sent', { subject: 'Lunch', from: [{ name: 'Alice', email: 'alice@tern.test' }], to: [{ name: 'Bob', email: 'bob@example.com' }], cc: [{ name: 'Carol', email: 'carol@example.com' }], snippet: 'Pizza?' });
    expect(await fx.find('quarterly')).toEqual([a]);
    expect(await fx.find('budg rev')).toEqual([a]);
    expect(await fx.find('jurgen')).toEqual([a]);
    expect(await fx.find('from:juergen@alpen.example')).toEqual([a]);
    expect(await fx.find('thursday')).toEqual([a]);
    expect(await fx.find('to:carol')).toEqual([b]);
    expect(await fx.find('to:bob@example.com')).toEqual([b]);
    expect(await fx.find('from:bob')).toEqual([]);
    expect(await fx.find('subject:pizza')).toEqual([]);
    expect(await fx.find('"meet on thursday"')).toEqual([a]);
    expect(await fx.find('"thursday on meet"')).toEqual([]);
  });

  test('letters without a decomposition fold in the index and the query: malgorzata finds Małgorzata', async () => {
    const fx = await setup();
    const a = await fx.add('INBOX', { subject: 'Spotkanie w Łodzi', from: [{ name: 'Małgorzata Wiśniewska', email: 'm.wisniewska@wisla.test' }], snippet: 'Søren, Straße, Æsir' });
    await fx.add('INBOX', { subject: 'Other', from: [{ name: 'Bob', email: 'bob@example.com' }], snippet: 'nothing' });
    expect(await fx.find('malgorzata')).toEqual([a]);
    expect(await fx.find('Małgorzata')).toEqual([a]);
    expect(await fx.find('from:malg')).toEqual([a]);
    expect(await fx.find('subject:lodzi')).toEqual([a]);
    expect(await fx.find('soren strasse aesir')).toEqual([a]);
    expect(await fx.find('"Straße"')).toEqual([a]);
  });

  test('a changed snippet is re-indexed, a flag change costs nothing, a deleted message leaves the index', async () => {
    const fx = await setup();
    const id = await fx.add('INBOX', { subject: 'Hello', snippet: 'first words' });
    await fx.sql.run("UPDATE messages SET snippet = 'second words' WHERE id = ?", [id]);
    expect(await fx.find('first')).toEqual([]);
    expect(await fx.find('second')).toEqual([id]);
    await fx.sql.run(`UPDATE messages SET flags = '["\\Seen"]', unseen = 0 WHERE id = ?`, [id]);
    expect(await fx.find('second')).toEqual([id]);
    await fx.store.applyFolderBatch(fx.accountId, {
      folderId: fx.folder('INBOX'),
      added: [],
      flagUpdates: [],
      removedUids: [(await fx.sql.get<{ uid: number }>('SELECT uid FROM messages WHERE id = ?', [id]))!.uid],
      state: { uidvalidity: 1, uidnext: 1000, highestModseq: null, backfilledTo: 0 },
    });
    expect(await fx.find('second')).toEqual([]);
    expect((await fx.sql.get<{ n: number }>('SELECT COUNT(*) AS n FROM messages_fts'))?.n).toBe(0);
    expect(await fx.local.indexer.backlog()).toBe(0);
  });

  test('body words enter the index when a body is cached, and stay searchable', async () => {
    const fx = await setup();
    const id = await fx.add('INBOX', { subject: 'Notes', snippet: 'short' });
    expect(await fx.find('zanzibar')).toEqual([]);
    await new BodyCache(fx.sql).put({ accountId: fx.accountId, messageId: id, body: { messageId: String(id), html: null, text: 'x', attachments: [], headers: {} }, searchText: 'deep in the text: zanzibar' });
    expect(await fx.find('zanzibar')).toEqual([id]);
  });

  test('the indexer works through a backlog in bounded batches; body words survive a re-index', async () => {
    const fx = await setup();
    const ids: number[] = [];
    for (let i = 0; i < 7; i++) ids.push(await fx.add('INBOX', { subject: `batch ${i}` }));
    expect(await fx.local.indexer.backlog()).toBe(7);
    expect(await fx.local.indexer.flush(3)).toBe(4);
    expect(await fx.local.indexer.flush(3)).toBe(1);
    expect(await fx.local.indexer.flush(3)).toBe(0);
    await new BodyCache(fx.sql).put({ accountId: fx.accountId, messageId: ids[0]!, body: { messageId: String(ids[0]), html: null, text: 'x', attachments: [], headers: {} }, searchText: 'kumquat' });
    await fx.sql.run("UPDATE messages SET snippet = 'changed' WHERE id = ?", [ids[0]!]);
    expect(await fx.find('kumquat changed')).toEqual([ids[0]]);
  });

  test('operators filter by flags, attachments, dates and folders; newest first', async () => {
    const fx = await setup();
    const unread = await fx.add('INBOX', { subject: 'one', date: days(1) });
    const starred = await fx.add('INBOX', { subject: 'two', date: days(2), flags: ['\\Flagged', '\\Seen'] });
    const attached = await fx.add('Projects', {
      subject: 'three',
      date: days(3),
      flags: ['\\Seen'],
      attachments: [{ index: 0, filename: 'a.pdf', size: 10, contentType: 'application/pdf', contentId: null, part: '2', encoding: 'base64' }],
    });
    expect(await fx.find('is:unread')).toEqual([unread]);
    expect(await fx.find('is:read')).toEqual([attached, starred]);
    expect(await fx.find('is:starred')).toEqual([starred]);
    expect(await fx.find('is:unstarred')).toEqual([attached, unread]);
    expect(await fx.find('has:attachment')).toEqual([attached]);
    // days(1) is 2026-10-02 09:00 UTC: after: takes its whole day, before: stops at its start.
    expect(await fx.find('after:2026-10-03')).toEqual([attached, starred]);
    expect(await fx.find('before:2026-10-04')).toEqual([starred, unread]);
    expect(await fx.find('after:2026-10-03 before:2026-10-04')).toEqual([starred]);
    expect(await fx.find('is:read', [fx.folder('INBOX')])).toEqual([starred]);
  });

  test('matches are capped at the limit, newest first', async () => {
    const fx = await setup();
    const ids: number[] = [];
    for (let i = 0; i < 12; i++) ids.push(await fx.add('INBOX', { subject: `report ${i}`, date: days(i) }));
    const hits = await fx.local.run({ accountId: fx.accountId, search: parseSearch('report'), folderIds: [fx.folder('INBOX')], limit: 5 });
    expect(hits.map((hit) => hit.id)).toEqual(ids.slice(-5).reverse());
  });

  test('the migrations index messages mirrored before them, and keep body words indexed by the first index', async () => {
    const db = new Database(':memory:');
    const firstIndex = MIGRATIONS.findIndex((sql) => sql.includes('CREATE VIRTUAL TABLE messages_fts'));
    const secondIndex = MIGRATIONS.findIndex((sql) => sql.includes('CREATE TABLE fts_pending'));
    const insert = (id: number, subject: string) =>
      db.exec(`INSERT INTO messages (id, account_id, folder_id, uid, thread_id, subject, from_json, to_json, cc_json, date, received_at, snippet)
               VALUES (${id}, 1, 1, ${id}, 1, '${subject}', '[{"name":"Ann","email":"ann@x.org"}]', '[]', '[{"name":"","email":"cc@x.org"}]', 0, 0, 'snip')`);
    for (const sql of MIGRATIONS.slice(0, firstIndex)) db.exec(sql);
    db.exec(`INSERT INTO accounts (id, email, imap_host, imap_port, imap_security, smtp_host, smtp_port, smtp_security, secret, created_at)
             VALUES (1, 'a@x', 'h', 1, 'none', 'h', 1, 'none', x'', 0);
             INSERT INTO folders (id, account_id, path, name) VALUES (1, 1, 'INBOX', 'INBOX');
             INSERT INTO threads (id, account_id, subject_key, last_at) VALUES (1, 1, 'x', 0);`);
    insert(1, 'Old mail');
    for (const sql of MIGRATIONS.slice(firstIndex, secondIndex)) db.exec(sql);
    // A database that ran the first index: a message mirrored and a body read under it.
    insert(2, 'Middle mail');
    db.exec(`UPDATE messages_fts SET body = 'kumquat' WHERE rowid = 2`);
    for (const sql of MIGRATIONS.slice(secondIndex)) db.exec(sql);
    expect(await new FtsIndexer(new SqliteStore(db, ':memory:')).flush()).toBe(0);
    const match = (expression: string) => db.prepare('SELECT rowid FROM messages_fts WHERE messages_fts MATCH ? ORDER BY rowid').all(expression);
    expect(match('sender : "ann x org"')).toEqual([{ rowid: 1 }, { rowid: 2 }]);
    expect(match('recipients : "cc"')).toEqual([{ rowid: 1 }, { rowid: 2 }]);
    expect(match('subject : "old"')).toEqual([{ rowid: 1 }]);
    expect(match('body : "kumquat"')).toEqual([{ rowid: 2 }]);
    expect(db.prepare("SELECT name FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'messages_fts%' ORDER BY name").pluck().all()).toEqual([
      'messages_fts_queue_delete',
      'messages_fts_queue_insert',
      'messages_fts_queue_update',
    ]);
  });
});
