/**
 * Ranks rebuilt from the cached mailbox (mail-store/rank-rebuild.ts) against the tally that
 * ranks mail as delta pages bring it: the same mail gives the same ranks; a database synced
 * from its first page needs no rebuild; mail the tally ranks while a rebuild reads is
 * neither lost nor counted twice; a removed suggestion stays removed.
 */
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { expect, test } from 'vitest';
import { idbStoreFactory } from '../../../../src-worker/db/idb-store';
import { MAIL_SCHEMA, type MailTable } from '../../../../src-worker/db/mail-schema';
import { withRead, withWrite, type LocalStore, type StoredRow } from '../../../../src-worker/db/store';
import { MailWriter } from '../../../../src-worker/mail-store/mail-writer';
import { PendingEffects } from '../../../../src-worker/mail-store/outbox-rows';
import { ranksCurrent, rebuildRanks } from '../../../../src-worker/mail-store/rank-rebuild';
import { reconcileConfirmed } from '../../../../src-worker/outbox/action-store';
import { DeltaApplier } from '../../../../src-worker/sync/delta-applier';
import { FakeMailServer } from '../fake-mail-server';

const at = (day: number) => Date.UTC(2026, 0, 1) + day * 86_400_000;
const factory = idbStoreFactory(new IDBFactory());
let databases = 0;

/** A mailbox synced by delta pages (the tally ranks it), and a copy of its mail and folders without any rank. */
async function mailbox() {
  const server = new FakeMailServer();
  server.standardFolders();
  for (let i = 0; i < 30; i++) server.deliver({ subject: `In ${i}`, at: at(i), from: ['Eve', 'Dan', 'Fay'][i % 3] });
  for (let i = 0; i < 6; i++) server.deliver({ subject: `Sent ${i}`, at: at(40 + i), folder: 'sent', unread: false });
  server.deliver({ subject: 'Alert', at: at(50), from: 'No-Reply' });
  const synced = await factory.open(`ranks-${++databases}`, MAIL_SCHEMA);
  const applier = new DeltaApplier({ accountId: '7', store: async () => synced, reconcile: reconcileConfirmed });
  for (let cursor = 0; ; ) {
    const page = server.delta(cursor, 10);
    await applier.apply(page, { fromCursor: cursor, latestKnown: page.cursor });
    cursor = page.cursor;
    if (!page.hasMore) break;
  }
  const copy = await factory.open(`ranks-${++databases}`, MAIL_SCHEMA);
  const rows = await withRead(synced, ['Message', 'Category'], async (tx) => ({ messages: await tx.getAll('Message'), folders: await tx.getAll('Category') }));
  await withWrite(copy, ['Message', 'Category'], async (tx) => {
    for (const row of rows.messages) tx.queuePut('Message', row);
    for (const row of rows.folders) tx.queuePut('Category', row);
  });
  return { server, synced, copy };
}

const ranks = async (store: LocalStore<MailTable>) =>
  Object.fromEntries(
    (await withRead(store, ['Contact'], (tx) => tx.getAll('Contact'))).map((row: StoredRow) => [
      row.id,
      { compose: Number(Number(row.mailComposeRank).toPrecision(12)), search: Number(Number(row.mailSearchRank).toPrecision(12)), sent: row.is_searched_or_sent, lastAt: row.last_seen_at, forgotten: row.forgotten ?? 0 },
    ]),
  );

test('the rebuild gives the ranks the tally gave the same mail; a database synced from its first page is current, a copy without ranks is not until rebuilt', async () => {
  const { synced, copy } = await mailbox();
  expect(await ranksCurrent(synced)).toBe(true);
  expect(await ranksCurrent(copy)).toBe(false);
  const result = await rebuildRanks(copy);
  expect(result).toEqual({ messages: 37, addresses: 5 });
  expect(await ranksCurrent(copy)).toBe(true);
  const tallied = await ranks(synced);
  expect(Object.keys(tallied).sort()).toEqual(['ann@example.com', 'dan@example.com', 'eve@example.com', 'fay@example.com', 'no-reply@example.com']);
  expect(await ranks(copy)).toEqual(tallied);
  // Ann was written to (Sent) and is on every message: the highest compose rank.
  expect(Object.entries(tallied).sort((a, b) => b[1].compose - a[1].compose)[0]![0]).toBe('ann@example.com');
});

test('rebuilt over stale ranks: a removed suggestion stays removed; mail ranked by the tally while the rebuild reads is counted once', async () => {
  const { server, synced, copy } = await mailbox();
  await withWrite(copy, ['Contact'], async (tx) => {
    // Made by an older rule: replaced by the rebuild.
    tx.queuePut('Contact', { id: 'eve@example.com', email: 'eve@example.com', name: 'Eve', mailComposeRank: 1e9, mailSearchRank: 1e9, forgotten: 1 });
  });
  // New mail arrives between the rebuild's snapshot and its reads: the tally ranks it in the copy and in the synced mailbox alike.
  const late = server.deliver({ subject: 'Late', at: at(60), from: 'Eve' });
  const tally = async (store: LocalStore<MailTable>) =>
    withWrite(store, ['Thread', 'Message', 'MessageBody', 'Category', 'ThreadCount', 'Contact', 'ProviderSyncbackRequest', 'JSONBlob'], async (tx) => {
      const writer = new MailWriter(tx, '7', await PendingEffects.load(tx));
      await writer.prefetch([{ object: 'message', op: 'upsert', data: late }] as never);
      await writer.putMessage(late);
      await writer.finish();
    });
  await tally(synced);
  // IndexedDB runs transactions over the same tables in the order they were made: the
  // rebuild's read of the mailbox, then the tally's write, then the rebuild's write.
  const rebuilding = rebuildRanks(copy);
  await tally(copy);
  // The late message was not in what the rebuild read: it left it to the tally.
  expect((await rebuilding).messages).toBe(37);
  const rebuilt = await ranks(copy);
  const expected = await ranks(synced);
  expect(rebuilt['eve@example.com']).toEqual({ ...expected['eve@example.com'], forgotten: 1 });
  expect({ ...rebuilt, 'eve@example.com': null }).toEqual({ ...expected, 'eve@example.com': null });
});
