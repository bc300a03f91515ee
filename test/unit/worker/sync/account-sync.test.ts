import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { describe, expect, test } from 'vitest';
import type { DeltaResponse } from '../../../../shared/api/delta';
import { TernError } from '../../../../shared/errors';
import { MAIL_SCHEMA } from '../../../../src-worker/db/mail-schema';
import { idbStoreFactory } from '../../../../src-worker/db/idb-store';
import { withRead, withWrite } from '../../../../src-worker/db/store';
import { reconcileConfirmed } from '../../../../src-worker/outbox/action-store';
import { createAccountSync, type AccountSyncDeps } from '../../../../src-worker/sync/account-sync';
import { DeltaApplier } from '../../../../src-worker/sync/delta-applier';
import { FakeMailServer } from '../fake-mail-server';
import { onlineStub } from '../fakes';
import { manualClock, waitFor } from '../mail-test-kit';

async function setup(options: { failPage?: (cursor: number) => boolean; delta?: AccountSyncDeps['delta']; pageSize?: number; beforeApply?: (page: DeltaResponse) => Promise<void> } = {}) {
  const server = new FakeMailServer();
  server.standardFolders();
  for (let i = 0; i < 30; i++) server.deliver({ subject: `Message ${i}`, at: Date.UTC(2026, 0, 1) + i * 60_000 });
  const store = await idbStoreFactory(new IDBFactory()).open('7', MAIL_SCHEMA);
  let pages = 0;
  const applier = new DeltaApplier({
    accountId: '7',
    store: async () => store,
    reconcile: async (params) => {
      pages++;
      // Runs inside the page's transaction, after its changes: failing here must undo them all.
      if (options.failPage?.(params.cursor)) throw new TernError('DatabaseError', { detail: { cause: 'injected' } });
      return reconcileConfirmed(params);
    },
  });
  const clock = manualClock();
  const online = onlineStub();
  const deltaCalls: number[] = [];
  const beforeApply = options.beforeApply;
  const sync = createAccountSync({
    delta:
      options.delta ??
      (async ({ cursor, limit }) => {
        deltaCalls.push(cursor);
        return server.delta(cursor, limit);
      }),
    applier: beforeApply ? { state: () => applier.state(), apply: async (page, params) => (await beforeApply(page), applier.apply(page, params)) } : applier,
    online: online.status,
    clock,
    random: () => 1,
    pageSize: options.pageSize ?? 20,
    onPage: () => {},
  });
  const counts = () =>
    withRead(store, ['Message', 'Thread', 'JSONBlob'], async (tx) => ({
      messages: await tx.count('Message'),
      threads: await tx.count('Thread'),
      applied: Number((await tx.get('JSONBlob', 'sync-state'))?.appliedTransactionId ?? 0),
    }));
  return { server, store, applier, clock, online, sync, counts, deltaCalls, pages: () => pages };
}

describe('account sync', () => {
  test('pulls every delta page from the stored cursor, one transaction per page', async () => {
    const { server, sync, counts, deltaCalls } = await setup();
    await sync.pull();
    // 6 folders + 30 × (message, thread) = 66 log entries in pages of 20.
    expect(deltaCalls).toEqual([0, 20, 40, 60]);
    expect(await counts()).toEqual({ messages: 30, threads: 30, applied: server.latest });
    expect(sync.state).toMatchObject({ phase: 'idle', appliedTransactionId: 66, failures: 0 });
  });

  test('a page that fails to apply leaves the cursor and the rows as they were before it', async () => {
    let failures = 0;
    // The third page (entries 41..60) breaks inside its transaction, once.
    const { sync, counts, clock } = await setup({ failPage: (cursor) => cursor === 60 && failures++ === 0 });
    await expect(sync.pull()).rejects.toMatchObject({ name: 'DatabaseError' });
    // Pages 1 and 2 (40 entries: 6 folders, 17 messages and their threads) are in; page 3 left no trace.
    expect(await counts()).toEqual({ messages: 17, threads: 17, applied: 40 });
    expect(sync.state).toMatchObject({ phase: 'backoff', appliedTransactionId: 40, failures: 1 });
    // The retry after the backoff starts at the stored cursor and finishes the job.
    clock.advance(1_000);
    await waitFor(() => sync.state.phase === 'idle', 'the retried pull');
    expect(await counts()).toEqual({ messages: 30, threads: 30, applied: 66 });
  });

  test('the next page is fetched while one is written', async () => {
    let releaseWrite!: () => void;
    const writing = new Promise<void>((resolve) => (releaseWrite = resolve));
    let applying = 0;
    const { server, sync, counts, deltaCalls } = await setup({
      beforeApply: async () => {
        if (++applying === 1) await writing; // the first page's write takes a while
      },
    });
    const pull = sync.pull();
    await waitFor(() => deltaCalls.length === 2, 'the request for page 2');
    expect(deltaCalls).toEqual([0, 20]);
    expect((await counts()).applied).toBe(0); // page 1 is not written yet
    releaseWrite();
    await pull;
    expect(deltaCalls).toEqual([0, 20, 40, 60]);
    expect(await counts()).toEqual({ messages: 30, threads: 30, applied: server.latest });
  });

  test('a page fetched ahead is dropped when the stored cursor moved meanwhile', async () => {
    let reset: (() => Promise<void>) | null = null;
    const { server, sync, counts, deltaCalls, store } = await setup({
      beforeApply: async (page) => {
        // Another engine empties the sync state just before page 2 is written.
        if (page.cursor !== 40 || !reset) return;
        const once = reset;
        reset = null;
        await once();
      },
    });
    reset = () => withWrite(store, ['JSONBlob'], (tx) => tx.put('JSONBlob', { id: 'sync-state', appliedTransactionId: 0, cursor: 0 }));
    await sync.pull();
    // Page 3 (from 40) was asked for ahead, then dropped: the pull went on from the stored 0.
    expect(deltaCalls).toEqual([0, 20, 40, 0, 20, 40, 60]);
    expect(await counts()).toEqual({ messages: 30, threads: 30, applied: server.latest });
  });

  test('websocket announcements during a pull make exactly one more pull', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const server = new FakeMailServer();
    server.standardFolders();
    const calls: number[] = [];
    const { sync, counts } = await setup({
      pageSize: 1000,
      delta: async ({ cursor, limit }) => {
        calls.push(cursor);
        const page = server.delta(cursor, limit); // read before the new mail: the pull is already on its way
        if (calls.length === 1) await gate;
        return page;
      },
    });
    const first = sync.pull();
    await waitFor(() => calls.length === 1, 'the first delta request');
    server.deliver({ subject: 'New', at: Date.UTC(2026, 0, 2) });
    for (let i = 0; i < 5; i++) sync.announce(server.latest);
    release();
    await first;
    await waitFor(() => calls.length === 2 && sync.state.phase === 'idle', 'the follow-up pull');
    expect(calls).toEqual([0, 6]);
    expect(sync.state.appliedTransactionId).toBe(8);
    expect((await counts()).messages).toBe(1);
    // An announcement of what is already applied costs nothing: a pull asked for after it is
    // the only request (had the announcement started one, this would queue a second).
    sync.announce(8);
    await sync.pull();
    expect(calls).toEqual([0, 6, 8]);
  });

  test('failed pulls back off, doubling to the cap, and a success resets the count', async () => {
    let failing = true;
    const server = new FakeMailServer();
    const calls: number[] = [];
    const { sync, clock } = await setup({
      delta: async ({ cursor, limit }) => {
        calls.push(cursor);
        if (failing) throw new TernError('InternalServerError');
        return server.delta(cursor, limit);
      },
    });
    await expect(sync.pull()).rejects.toMatchObject({ name: 'InternalServerError' });
    const delays: number[] = [clock.pending()[0]!];
    for (let i = 0; i < 7; i++) {
      clock.advance(delays.at(-1)!);
      await waitFor(() => calls.length === i + 2 && sync.state.phase === 'backoff', `failure ${i + 2}`);
      delays.push(clock.pending()[0]!);
    }
    expect(delays).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 32_000, 60_000, 60_000]);
    failing = false;
    clock.advance(60_000);
    await waitFor(() => sync.state.phase === 'idle', 'recovery');
    expect(sync.state.failures).toBe(0);
  });

  test('offline (no answer and the status image unreachable): waits for the network, then pulls', async () => {
    const server = new FakeMailServer();
    server.standardFolders();
    let reachable = false;
    const { sync, online, clock } = await setup({
      delta: async ({ cursor, limit }) => {
        if (!reachable) throw new TernError('OperationFailed', { detail: { network: true } });
        return server.delta(cursor, limit);
      },
    });
    online.set(false);
    await expect(sync.pull()).rejects.toMatchObject({ name: 'OperationFailed' });
    expect(sync.state.phase).toBe('offline');
    expect(clock.pending()).toEqual([]); // no timer burns attempts while offline
    reachable = true;
    online.set(true);
    await waitFor(() => sync.state.phase === 'idle', 'the pull after the network came back');
    expect(sync.state.appliedTransactionId).toBe(6);
  });

  test('a dead session stops the loop and says so', async () => {
    const ended: string[] = [];
    const { sync, clock } = await setup({ delta: async () => Promise.reject(new TernError('InvalidToken')) });
    const signedOut = createAccountSync({
      delta: async () => Promise.reject(new TernError('InvalidToken')),
      applier: { state: async () => ({ appliedTransactionId: 0, cursor: 0 }), apply: async () => null },
      online: onlineStub().status,
      clock,
      onPage: () => {},
      onSessionEnded: (error) => ended.push(error.name),
    });
    await expect(signedOut.pull()).rejects.toMatchObject({ name: 'InvalidToken' });
    expect(signedOut.state.phase).toBe('signed-out');
    expect(ended).toEqual(['InvalidToken']);
    expect(clock.pending()).toEqual([]);
    await signedOut.pull(); // no more requests
    sync.stop();
  });

  test('an unchanged mailbox costs one round trip and no write', async () => {
    const { sync, deltaCalls, pages } = await setup({ pageSize: 1000 });
    await sync.pull();
    const written = pages();
    await sync.pull();
    expect(deltaCalls).toEqual([0, 66]);
    expect(pages()).toBe(written);
  });
});

export type { DeltaResponse };
