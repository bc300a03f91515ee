/**
 * The engine's priority inbox (src-worker/priority/, issue 17 point 4) over a mailbox synced
 * by delta pages: what the scorer is told of each message (reply rate from the Contact rows,
 * To vs Cc, a thread you wrote in, bulk mail), what a scan marks and how far it records, and
 * the Inbox's order with an Important section first (queries/thread-list-reader.ts).
 */
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { describe, expect, test } from 'vitest';
import type { MessageMeta } from '../../../../shared/api/mail';
import type { PreferencePatch } from '../../../../shared/preferences';
import { idbStoreFactory } from '../../../../src-worker/db/idb-store';
import { MAIL_SCHEMA, type MailTable } from '../../../../src-worker/db/mail-schema';
import { withRead, withWrite, type LocalStore } from '../../../../src-worker/db/store';
import { addPending } from '../../../../src-worker/mail-store/settings-rows';
import { messageFromRow, threadFromRow } from '../../../../src-worker/mail-store/mail-rows';
import { reconcileConfirmed } from '../../../../src-worker/outbox/action-store';
import { gatherPriorityInputs, replyRateOf } from '../../../../src-worker/priority/priority-inputs';
import { PriorityScanner, wantsVerdicts } from '../../../../src-worker/priority/priority-scan';
import { EnginePriority } from '../../../../src-worker/priority/priority-service';
import { ThreadListReader } from '../../../../src-worker/queries/thread-list-reader';
import { DeltaApplier } from '../../../../src-worker/sync/delta-applier';
import { FakeMailServer } from '../fake-mail-server';
import { manualClock } from '../mail-test-kit';

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 0, 20, 12);
const at = (daysAgo: number) => NOW - daysAgo * DAY;
const factory = idbStoreFactory(new IDBFactory());
let databases = 0;
const ann = { name: 'Ann', email: 'ann@example.com' };
const dan = { name: 'Dan', email: 'dan@example.com' };

async function sync(server: FakeMailServer, store: LocalStore<MailTable>, from = 0): Promise<number> {
  const applier = new DeltaApplier({ accountId: '7', store: async () => store, reconcile: reconcileConfirmed });
  let cursor = from;
  for (;;) {
    const page = server.delta(cursor, 50);
    await applier.apply(page, { fromCursor: cursor, latestKnown: page.cursor });
    cursor = page.cursor;
    if (!page.hasMore) return cursor;
  }
}

/**
 * Ann's mailbox: Dan wrote twice and Ann answered the first (in its thread, from Sent); a
 * newsletter with List-Unsubscribe; Eve copied Ann only; a stranger wrote to Ann directly.
 */
async function mailbox() {
  const server = new FakeMailServer();
  server.standardFolders();
  const danFirst = server.deliver({ subject: 'Budget', at: at(3), from: 'Dan' });
  const reply = server.deliver({ subject: 'Re: Budget', at: at(2.5), folder: 'sent', threadId: danFirst.threadId, unread: false });
  server.change([reply.id], (message) => ({ ...message, from: [ann], to: [dan] }));
  const danSecond = server.deliver({ subject: 'Lunch?', at: at(1), from: 'Dan' });
  const news = server.deliver({ subject: 'Weekly deals', at: at(0.9), from: 'News' });
  server.change([news.id], (message) => ({ ...message, unsubscribe: { http: 'https://shop.test/u', mailto: null, oneClick: true } }));
  const eve = server.deliver({ subject: 'FYI', at: at(0.8), from: 'Eve' });
  server.change([eve.id], (message) => ({ ...message, to: [{ name: 'Bob', email: 'bob@example.com' }], cc: [ann] }));
  const stranger = server.deliver({ subject: 'Hello', at: at(0.7), from: 'Fay' });
  const list = server.deliver({ subject: 'Digest', at: at(0.75), from: 'Gil' });
  server.change([list.id], (message) => ({ ...message, bulk: true })); // List-Id, without List-Unsubscribe
  const old = server.deliver({ subject: 'Last month', at: at(30), from: 'Dan' });
  const store = await factory.open(`priority-${++databases}`, MAIL_SCHEMA);
  const cursor = await sync(server, store);
  return { server, store, cursor, danFirst, danSecond, news, eve, stranger, old, list };
}

const own = new Set(['ann@example.com']);

async function inputsOf(store: LocalStore<MailTable>, messages: readonly MessageMeta[]) {
  return withRead(store, ['Thread', 'Message', 'Contact', 'Category'], async (tx) => {
    const threads = new Map((await tx.getAll('Thread')).map((row) => [row.id, threadFromRow(row).summary]));
    const sent = (await tx.getAll('Category')).find((row) => row.special_use === 'sent')!.id;
    const stored = (await tx.getMany('Message', messages.map((meta) => meta.id))).map((row) => messageFromRow(row!).meta);
    return gatherPriorityInputs(tx, stored, threads, { own, sentFolderId: sent, now: NOW });
  });
}

function scanner(store: LocalStore<MailTable>, settled = true) {
  const marks: string[][] = [];
  const saved: PreferencePatch[] = [];
  const clock = manualClock(NOW);
  const scan = new PriorityScanner({
    open: async () => store,
    accountAddresses: async () => ['ann@example.com'],
    active: () => true,
    settled: async () => settled,
    mark: async (_accountId, threadIds) => void marks.push([...threadIds]),
    savePreferences: async (_accountId, patch) => {
      saved.push(patch);
      await withWrite(store, ['JSONBlob'], (tx) => addPending(tx, patch));
    },
    clock,
  });
  return { scan, marks, saved, clock };
}

const turnOn = (store: LocalStore<MailTable>, patch: PreferencePatch = { priorityInbox: true }) => withWrite(store, ['JSONBlob'], (tx) => addPending(tx, patch));

describe('the priority inbox in the engine', () => {
  test('inputs come from the cache: reply rate from the Contact row, To vs Cc, your thread, List-Unsubscribe as bulk', async () => {
    const { store, danFirst, danSecond, news, eve, stranger, list } = await mailbox();
    const inputs = await inputsOf(store, [danFirst, danSecond, news, eve, stranger, list]);
    // The gateway's bulk (List-Id, Precedence) survives the cache and is bulk to the scorer.
    expect(inputs.get(list.id)!.bulk).toBe(true);
    // Dan wrote three times (once last month, which weighs less now), Ann answered once: about a third.
    expect(inputs.get(danSecond.id)!.senderReplyRate).toBeGreaterThan(0.33);
    expect(inputs.get(danSecond.id)!.senderReplyRate).toBeLessThan(0.45);
    expect(inputs.get(danFirst.id)).toMatchObject({ from: 'dan@example.com', toYou: true, threadHasYourReply: true, bulk: false });
    expect(inputs.get(danFirst.id)!.contactRank).toBeGreaterThan(0.5);
    expect(inputs.get(danSecond.id)!.threadHasYourReply).toBe(false);
    expect(inputs.get(news.id)).toMatchObject({ bulk: true, senderReplyRate: 0, threadHasYourReply: false });
    expect(inputs.get(eve.id)!.toYou).toBe(false);
    expect(inputs.get(stranger.id)).toMatchObject({ toYou: true, senderReplyRate: 0, contactRank: expect.any(Number) });
    expect(replyRateOf(undefined)).toBe(0);
  });

  test('a scan marks the threads of the important new Inbox mail, records how far it scored, and scores nothing twice', async () => {
    const { server, store, cursor, danFirst, danSecond } = await mailbox();
    const off = scanner(store);
    expect(await off.scan.scan('7')).toEqual({ scored: 0, marked: [] }); // the priority inbox is off: no verdicts
    // Off, but notifying of important mail only: verdicts are wanted (the notifier reads $Important).
    await turnOn(store, { notifyMail: 'important' });
    const notifying = scanner(store, false);
    await notifying.scan.scan('7');
    expect(notifying.clock.pending()).toHaveLength(1); // it goes on to wait for the first sync, as when on
    expect(off.clock.pending()).toHaveLength(0);
    expect(wantsVerdicts({ priorityInbox: false, notifyMail: 'important' })).toBe(true);
    expect(wantsVerdicts({ priorityInbox: false, notifyMail: 'inbox' })).toBe(false);
    await turnOn(store);
    const waiting = scanner(store, false);
    expect((await waiting.scan.scan('7')).scored).toBe(0); // first sync not caught up yet
    expect(waiting.clock.pending()).toHaveLength(1); // it looks again later

    const { scan, marks, saved } = scanner(store);
    const first = await scan.scan('7');
    // The week's six messages from others (not last month's, not Ann's own reply).
    expect(first.scored).toBe(6);
    expect([...first.marked].sort()).toEqual([danFirst.threadId, danSecond.threadId].sort());
    expect(marks).toEqual([first.marked]);
    expect(saved).toEqual([{ priorityScoredThrough: at(0.7) }]);

    // Nothing new: nothing scored. New mail: only it.
    expect(await scan.scan('7')).toEqual({ scored: 0, marked: [] });
    const later = server.deliver({ subject: 'Again', at: at(0.1), from: 'Dan' });
    await sync(server, store, cursor);
    expect(await scan.scan('7')).toEqual({ scored: 1, marked: [later.threadId] });
  });

  test('explain gives the reasons, "marked" when $Important disagrees with the scorer; learning moves the roaming model', async () => {
    const { server, store, cursor, danFirst, news } = await mailbox();
    server.change([news.id], (message) => ({ ...message, keywords: ['$important'] })); // another program marked it
    await sync(server, store, cursor);
    const saved: PreferencePatch[] = [];
    const priority = new EnginePriority({
      open: async () => store,
      accountAddresses: async () => ['ann@example.com'],
      savePreferences: async (_accountId, patch) => {
        saved.push(patch);
        await withWrite(store, ['JSONBlob'], (tx) => addPending(tx, patch));
      },
      clock: manualClock(NOW),
    });
    const dan = await priority.explain({ accountId: '7', threadId: danFirst.threadId });
    // Not marked (no scan ran) though the scorer would: nothing speaks against it.
    expect(dan).toMatchObject({ important: false, marked: true, reasons: [] });
    expect(dan.score).toBeGreaterThan(0.5);
    // Marked elsewhere though bulk: what speaks for it is that it was sent to Ann directly (and a little, that she has heard from it).
    const marked = await priority.explain({ accountId: '7', threadId: news.threadId });
    expect(marked).toMatchObject({ important: true, marked: true, reasons: ['directlyToYou', 'knownContact'] });
    await expect(priority.explain({ accountId: '7', threadId: '999999' })).rejects.toMatchObject({ name: 'ThreadNotFound' });

    await priority.learn({ accountId: '7', threadIds: [news.threadId], important: false });
    await priority.learn({ accountId: '7', threadIds: [news.threadId], important: false });
    expect(saved).toHaveLength(2);
    const model = saved[1]!.priorityModel!;
    expect(model.trained).toBe(2);
    expect(model.weights.bulkMail).toBeLessThan(-3);
    const after = await priority.explain({ accountId: '7', threadId: news.threadId });
    expect(after.score).toBeLessThan(marked.score);
  });

  test('the Inbox in priority order: the $Important threads first, then the rest, each newest first, every thread once across windows', async () => {
    const server = new FakeMailServer();
    server.standardFolders();
    const messages = Array.from({ length: 40 }, (_, i) => server.deliver({ subject: `T${i}`, at: at(40 - i) }));
    const importantOnes = [3, 17, 18, 35].map((i) => messages[i]!);
    server.change(importantOnes.map((message) => message.id), (message) => ({ ...message, keywords: ['$Important'] }));
    // An important thread archived: not in the Inbox's list at all.
    const archived = server.deliver({ subject: 'Archived', at: at(0.5), folder: 'archive' });
    server.change([archived.id], (message) => ({ ...message, keywords: ['$Important'] }));
    const store = await factory.open(`priority-${++databases}`, MAIL_SCHEMA);
    await sync(server, store);
    const reader = new ThreadListReader(async () => store, { search: async () => ({ threads: [], matchedMessages: 0, truncated: false }), senderThreads: async () => [] });
    const inbox = server.folderOf('inbox').id;
    const scope = { kind: 'folder' as const, accountId: '7', folderId: inbox, priority: true };
    const whole = await reader.window(scope, { offset: 0, limit: 200 });
    expect(whole.total).toBe(40);
    expect(whole.important).toBe(4);
    const subjects = (keys: readonly string[]) => keys.map((key) => messages.find((message) => `7:${message.threadId}` === key)?.subject);
    expect(subjects(whole.keys.slice(0, 4))).toEqual(['T35', 'T18', 'T17', 'T3']);
    expect(subjects(whole.keys.slice(4, 7))).toEqual(['T39', 'T38', 'T37']);
    expect(new Set(whole.keys).size).toBe(40);
    // Windows that cut through the section's end add up to the whole list.
    const parts: string[] = [];
    for (let offset = 0; offset < 40; offset += 3) parts.push(...(await reader.window(scope, { offset, limit: 3 })).keys);
    expect(parts).toEqual(whole.keys);
    // The unified Inbox sections the same way for the accounts that have it on, and not for the others.
    const unified = await reader.window({ kind: 'unified', accountIds: ['7'], role: 'inbox', priority: ['7'] }, { offset: 2, limit: 4 });
    expect(unified).toMatchObject({ total: 40, important: 4, keys: whole.keys.slice(2, 6) });
    const off = await reader.window({ kind: 'unified', accountIds: ['7'], role: 'inbox', priority: [] }, { offset: 0, limit: 3 });
    expect(subjects(off.keys)).toEqual(['T39', 'T38', 'T37']);
    // The plain folder is newest first, as ever, without sections.
    const plain = await reader.window({ kind: 'folder', accountId: '7', folderId: inbox }, { offset: 0, limit: 3 });
    expect(subjects(plain.keys)).toEqual(['T39', 'T38', 'T37']);
    expect(plain.important).toBeUndefined();
  });
});
