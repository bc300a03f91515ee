import { decayedRank } from '../../../../shared/contact-rank';
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { describe, expect, test } from 'vitest';
import type { MessageMeta, ThreadSummary } from '../../../../shared/api/mail';
import { idbStoreFactory } from '../../../../src-worker/db/idb-store';
import { MAIL_SCHEMA, type MailTable } from '../../../../src-worker/db/mail-schema';
import { withRead, type LocalStore, type WriteTransaction } from '../../../../src-worker/db/store';
import { reconcileConfirmed } from '../../../../src-worker/outbox/action-store';
import { DeltaApplier, type AppliedPage } from '../../../../src-worker/sync/delta-applier';
import { messageFromRow, threadFromRow } from '../../../../src-worker/mail-store/mail-rows';
import { FakeMailServer } from '../fake-mail-server';

/** The store with every read of a write transaction counted, by method and table. */
function countingReads(store: LocalStore<MailTable>) {
  const reads = new Map<string, number>();
  let wrote = false;
  /** Reads made after the transaction queued its first write: each one waits for the writes before it. */
  const late: string[] = [];
  const count = (key: string) => {
    if (wrote) late.push(key);
    reads.set(key, (reads.get(key) ?? 0) + 1);
  };
  const counted: LocalStore<MailTable> = {
    get name() {
      return store.name;
    },
    get tables() {
      return store.tables;
    },
    get closeReason() {
      return store.closeReason;
    },
    beginRead: (tables) => store.beginRead(tables),
    close: (reason) => store.close(reason),
    beginWrite(tables) {
      const pending = store.beginWrite(tables);
      const tx = pending.tx;
      wrote = false;
      const wrapped: WriteTransaction<MailTable> = {
        ...tx,
        queuePut: (table, row) => ((wrote = true), tx.queuePut(table, row)),
        queueDelete: (table, ids) => ((wrote = true), tx.queueDelete(table, ids)),
        get: (table, id) => (count(`get ${table}`), tx.get(table, id)),
        getAll: (table, query) => (count(`getAll ${table}${query?.index ? `.${query.index}` : ''}`), tx.getAll(table, query)),
        getAllKeys: (table, query) => (count(`getAllKeys ${table}${query?.index ? `.${query.index}` : ''}`), tx.getAllKeys(table, query)),
        getMany: (table, ids) => (count(`getMany ${table}`), tx.getMany(table, ids)),
      };
      return { ...pending, tx: wrapped };
    },
  };
  return {
    store: counted,
    reads,
    late,
    clear: () => {
      reads.clear();
      late.length = 0;
    },
  };
}

async function setup() {
  const server = new FakeMailServer();
  server.standardFolders();
  const raw = await idbStoreFactory(new IDBFactory()).open('7', MAIL_SCHEMA);
  const { store, reads, late, clear } = countingReads(raw);
  const applier = new DeltaApplier({ accountId: '7', store: async () => store, reconcile: reconcileConfirmed });
  const pull = async (): Promise<AppliedPage> => {
    const { appliedTransactionId } = await applier.state();
    const page = server.delta(appliedTransactionId, 2000);
    const applied = await applier.apply(page, { fromCursor: appliedTransactionId, latestKnown: page.cursor });
    if (!applied) throw new Error('the page did not follow the stored cursor');
    return applied;
  };
  return { server, raw, reads, late, clear, pull };
}

/** What the account database holds, in the gateway's shapes. */
async function stored(store: LocalStore<MailTable>) {
  return withRead(store, ['Message', 'Thread', 'ThreadCount', 'Contact'], async (tx) => ({
    messages: (await tx.getAll('Message')).map((row) => messageFromRow(row).meta),
    threads: (await tx.getAll('Thread')).map((row) => threadFromRow(row).summary),
    counts: Object.fromEntries((await tx.getAll('ThreadCount')).map((row) => [row.id, { total: row.total, unread: row.unread }])),
    // Search ranks as of the first test message (shared/contact-rank.ts): a fresh received-from is 1, a copy 0.2.
    contacts: Object.fromEntries((await tx.getAll('Contact')).map((row) => [row.id, Math.round(decayedRank(Number(row.mailSearchRank), Date.UTC(2026, 0, 1)) * 10) / 10])),
  }));
}

/** ThreadCount as the gateway counts it: threads per folder, and those with an unread message there. */
function expectedCounts(server: FakeMailServer, threads: readonly ThreadSummary[]) {
  const counts: Record<string, { total: number; unread: number }> = {};
  for (const thread of threads) {
    const messages = thread.messageIds.map((id) => server.messages.get(id)!);
    for (const folderId of thread.folderIds) {
      const count = (counts[folderId] ??= { total: 0, unread: 0 });
      count.total++;
      if (messages.some((message) => message.folderId === folderId && message.unread)) count.unread++;
    }
  }
  return counts;
}

const byId = <T extends { id: string }>(list: readonly T[]) => [...list].sort((a, b) => Number(a.id) - Number(b.id));

describe('delta applier', () => {
  test('a page of new, changed, moved and deleted rows is written with one batch of reads, not one read per row', async () => {
    const { server, raw, reads, late, clear, pull } = await setup();
    const at = (minute: number) => Date.UTC(2026, 0, 1) + minute * 60_000;
    const first: MessageMeta[] = [];
    for (let i = 0; i < 8; i++) first.push(server.deliver({ subject: `Topic ${i}`, at: at(i), from: i % 2 ? 'Dan' : 'Eve' }));
    // Two conversations of two messages, the replies in the same page.
    server.deliver({ subject: 'Re: Topic 0', at: at(20), threadId: first[0]!.threadId, from: 'Ann' });
    server.deliver({ subject: 'Re: Topic 1', at: at(21), threadId: first[1]!.threadId, from: 'Ann', unread: false });
    await pull();
    clear();

    // Page 2: a new conversation, a reply to an old one, one message read, one moved, one deleted.
    server.deliver({ subject: 'Fresh', at: at(30), from: 'Fay' });
    server.deliver({ subject: 'Re: Topic 2', at: at(31), threadId: first[2]!.threadId, from: 'Fay' });
    server.change([first[3]!.id], (message) => ({ ...message, unread: false }));
    server.change([first[4]!.id], (message) => ({ ...message, folderId: server.folderOf('archive').id }));
    server.change([first[5]!.id], () => null); // its thread is gone with it
    server.change([first[0]!.id], () => null); // its thread keeps the reply
    const applied = await pull();

    const now = await stored(raw);
    expect(byId(now.messages)).toEqual(byId([...server.messages.values()]));
    const threads = [...new Set([...server.messages.values()].map((message) => message.threadId))].map((id) => server.thread(id)!);
    expect(byId(now.threads)).toEqual(byId(threads));
    expect(now.counts).toEqual(expectedCounts(server, threads));
    // Ann is on every message (to: 10 × 0.2) and sent two (2 × 1, as sender and copy at once: the heavier); changed messages are not new ones.
    expect(now.contacts).toMatchObject({ 'fay@example.com': 2, 'ann@example.com': 4, 'eve@example.com': 4, 'dan@example.com': 4 });

    // The search index gets the rows as written.
    expect([...applied.messages.removed].sort()).toEqual([first[0]!.id, first[5]!.id].sort());
    expect(applied.messages.put.map((message) => message.meta.id).sort()).toEqual(
      [...server.messages.values()].filter((message) => message.date >= at(30) || [first[3]!.id, first[4]!.id].includes(message.id)).map((message) => message.id).sort(),
    );

    // No read per row: one batch per table; index reads only for the conversations whose
    // other messages came in an earlier page (Topic 0's reply, Topic 2's first message).
    // All of them before the first write, so none waits behind the page's writes.
    expect(Object.fromEntries(reads)).toEqual({
      'getAll ProviderSyncbackRequest.status': 3,
      'get JSONBlob': 1,
      'getMany Message': 1,
      'getMany Thread': 1,
      'getAll Message.thread_id': 2,
      'getAll ThreadCount': 1,
      'getAll Category': 1,
      'getMany Contact': 1,
    });
    expect(late).toEqual([]);
  });

  test('big pages ask which rows exist with one key read, also when many stored keys lie between', async () => {
    const { server, raw, reads, late, clear, pull } = await setup();
    const at = (minute: number) => Date.UTC(2026, 0, 1) + minute * 60_000;
    const first = Array.from({ length: 400 }, (_, i) => server.deliver({ subject: `Note ${i}`, at: at(i), from: `P${i % 7}` }));
    await pull();
    clear();
    // Every twelfth message changes: 34 ids spread over 400 stored ones, more than a key
    // read takes at once, so the ids past its last key are read one by one. 6 arrive.
    server.change(
      first.filter((_, i) => i % 12 === 0).map((message) => message.id),
      (message) => ({ ...message, unread: false }),
    );
    for (let i = 0; i < 6; i++) server.deliver({ subject: `Later ${i}`, at: at(500 + i), from: 'Zed', threadId: i < 3 ? first[i * 12]!.threadId : undefined });
    await pull();

    const now = await stored(raw);
    expect(byId(now.messages)).toEqual(byId([...server.messages.values()]));
    const threads = [...new Set([...server.messages.values()].map((message) => message.threadId))].map((id) => server.thread(id)!);
    expect(byId(now.threads)).toEqual(byId(threads));
    expect(now.counts).toEqual(expectedCounts(server, threads));
    // Changed messages are not new: their senders are not counted twice.
    // P0 sent 58 of the 400, Zed 6; Ann is copied on all 406 (× 0.2); the 8 hours between add under 0.5 %.
    expect(now.contacts).toMatchObject({ 'p0@example.com': 58.1, 'zed@example.com': 6, 'ann@example.com': 81.3 });
    expect(Object.fromEntries([...reads].filter(([key]) => key.startsWith('get') && / (Message|Thread)$/.test(key)))).toEqual({
      'getAllKeys Message': 1,
      'getMany Message': 1,
      'getAllKeys Thread': 1,
      'getMany Thread': 1,
    });
    expect(late).toEqual([]);
  });

  test('a message that moves to another conversation leaves the old one counted right', async () => {
    const { server, raw, pull } = await setup();
    const one = server.deliver({ subject: 'One', at: Date.UTC(2026, 0, 1) });
    const two = server.deliver({ subject: 'Two', at: Date.UTC(2026, 0, 2) });
    const reply = server.deliver({ subject: 'Re: One', at: Date.UTC(2026, 0, 3), threadId: one.threadId });
    await pull();
    // The gateway re-threads the reply into "Two".
    server.messages.set(reply.id, { ...reply, threadId: two.threadId });
    server.log.push(
      { txnId: server.latest + 1, object: 'message', objectId: reply.id },
      { txnId: server.latest + 2, object: 'thread', objectId: one.threadId },
      { txnId: server.latest + 3, object: 'thread', objectId: two.threadId },
    );
    const applied = await pull();
    expect(applied.threadIds).toEqual(expect.arrayContaining([one.threadId, two.threadId]));
    const now = await stored(raw);
    expect(byId(now.threads)).toEqual(byId([server.thread(one.threadId)!, server.thread(two.threadId)!]));
    expect(now.counts).toEqual({ [server.folderOf('inbox').id]: { total: 2, unread: 2 } });
  });
});
