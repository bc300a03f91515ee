// The worker engine, headless in Node over fake-indexeddb, against the REAL gateway and the
// harness's Dovecot + Postfix: two accounts logged in through POST /api/login, the initial
// sync, new mail over SMTP reaching a live list through the websocket and delta, commands
// reaching IMAP, and a refused command put back with its catalogue error.
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import type { ImapFlow } from 'imapflow';
import { createTransport } from 'nodemailer';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import WebSocket from 'ws';
import { accountFromLogin } from '../../shared/account';
import type { CommandStatus, ListPatch, ListSnapshot, ThreadRow } from '../../shared/worker-mail-api';
import { ACCOUNTS_DATABASE, ACCOUNTS_SCHEMA } from '../../src-worker/accounts/accounts-database';
import { AccountRepository } from '../../src-worker/accounts/account-repository';
import { createGatewayLogin } from '../../src-worker/accounts/gateway-login';
import { AccountDatabases } from '../../src-worker/db/account-databases';
import { idbStoreFactory } from '../../src-worker/db/idb-store';
import { lazyStore } from '../../src-worker/db/lazy-store';
import { withRead } from '../../src-worker/db/store';
import { createMailEngine, type MailEngine } from '../../src-worker/mail-engine';
import type { WebSocketLike } from '../../src-worker/sync/push-socket';
import { applyListPatch, heldFromSnapshot, type HeldList } from '../../src-ui/state/thread-list/list-patch';
import { eventually } from './support/gateway-fixture';
import { ALICE, BOB, countIn, startWritesFixture, type WritesFixture } from './support/mail-writes-fixture';

/** 1,000 by default; TERN_WORKER_SYNC_COUNT=10000 for the 10k figure. */
const COUNT = Number(process.env.TERN_WORKER_SYNC_COUNT ?? 1000);

let fx: WritesFixture;
let engine: MailEngine;
let databases: AccountDatabases;
let imap: ImapFlow;
const ids = { alice: '', bob: '' };
const statuses: CommandStatus[] = [];

beforeAll(async () => {
  fx = await startWritesFixture({ name: 'worker-sync', count: COUNT });
  const mirrorStarted = performance.now();
  await fx.ctx.mirrors.get(fx.alice.accountId)!.whenFullyMirrored;
  console.log(`[worker-sync] gateway mirrored ${COUNT} messages in ${Math.round(performance.now() - mirrorStarted)} ms (before the worker starts)`);

  const stores = idbStoreFactory(new IDBFactory());
  const repository = new AccountRepository(lazyStore(stores, ACCOUNTS_DATABASE, ACCOUNTS_SCHEMA));
  databases = new AccountDatabases({ factory: stores, tabId: 'node', channel: { postMessage: () => {}, addEventListener: () => {}, close: () => {} } });
  const login = createGatewayLogin({ fetch, apiBase: `${fx.baseUrl}/api` });
  for (const user of [ALICE, BOB]) {
    const outcome = await login.login(user);
    if (outcome.kind !== 'logged-in') throw new Error(`login of ${user.email}: ${outcome.step}`);
    await repository.save(accountFromLogin(outcome.login), { accountId: outcome.login.mailId, justLoggedIn: true, webSocketKind: 'wsFlock', trackingHeader: '0:1' });
    ids[user === ALICE ? 'alice' : 'bob'] = outcome.login.mailId;
  }
  engine = createMailEngine({
    databases,
    accounts: repository,
    fetch,
    // Node 20 has no global WebSocket: the `ws` package speaks the same interface.
    connectSocket: (url) => new WebSocket(url) as unknown as WebSocketLike,
    statusUrl: `${fx.baseUrl}/status.png`,
  });
  await engine.commands.watchCommands((status) => void statuses.push(status));
  imap = await fx.imap(ALICE);
});

afterAll(async () => {
  engine?.close();
  await imap?.logout().catch(() => undefined);
  await fx?.close();
});

const api = <T>(accountId: string, path: string) => fx.api<T>(accountId === ids.alice ? fx.alice : fx.bob, 'GET', path).then((reply) => reply.body);
const store = (accountId: string) => databases.open(accountId);

async function caughtUp(accountId: string) {
  const runtime = await eventually(() => engine.runtime(accountId), 10_000, 'the runtime');
  const latest = await fx.ctx.txlog.latest(Number(accountId));
  await eventually(
    () => runtime.sync.state.phase === 'idle' && runtime.sync.state.appliedTransactionId >= latest,
    120_000,
    `the sync of ${accountId}`,
  );
  return runtime;
}

function watchList(scope: Parameters<MailEngine['queries']['watchThreadList']>[0]['scope'], limit = 50) {
  const patches: { patch: ListPatch; at: number }[] = [];
  let held: HeldList | null = null;
  const ready = engine.queries.watchThreadList({ scope, window: { offset: 0, limit } }, (patch) => {
    patches.push({ patch, at: performance.now() });
    if (held) held = applyListPatch(held, patch);
  });
  return ready.then((snapshot: ListSnapshot) => {
    held = heldFromSnapshot(snapshot);
    return { snapshot, patches, rows: (): readonly ThreadRow[] => held?.rows ?? [] };
  });
}

function smtpSend(message: { from: string; to: string; subject: string; text: string }) {
  const transport = createTransport({ host: fx.servers.host, port: fx.servers.ports.smtp, secure: false, ignoreTLS: true });
  return transport.sendMail(message).finally(() => transport.close());
}

const inboxOf = async (accountId: string) => (await engine.queries.listFolders({ accountId })).find((folder) => folder.specialUse === 'inbox')!;

describe('worker engine against the real gateway', () => {
  test('initial sync of two accounts fills IndexedDB with what the gateway has', async () => {
    const started = performance.now();
    const firstRows = engine.syncAccounts().then(async () => {
      const inbox = await eventually(async () => (await engine.queries.listFolders({ accountId: ids.alice })).find((folder) => folder.specialUse === 'inbox'), 10_000, 'folders');
      await eventually(async () => (await withRead(await store(ids.alice), ['Thread'], (tx) => tx.count('Thread', { index: 'category_timestamps', range: { lower: [inbox.id], upper: [inbox.id, []] } }))) > 0, 10_000, 'inbox rows');
      return performance.now() - started;
    });
    await caughtUp(ids.alice);
    const syncMs = performance.now() - started;
    await caughtUp(ids.bob);
    console.log(`[worker-sync] ${COUNT} messages: first inbox rows in IndexedDB after ${Math.round(await firstRows)} ms; whole mailbox synced in ${Math.round(syncMs)} ms`);

    for (const accountId of [ids.alice, ids.bob]) {
      const { folders } = await api<{ folders: { id: string; total: number }[] }>(accountId, '/api/folders');
      const local = await withRead(await store(accountId), ['Message', 'Category', 'ThreadCount'], async (tx) => ({
        messages: (await tx.getAll('Message')).filter((row) => row.local_deleted !== 1).length,
        folders: await tx.count('Category'),
        counts: new Map((await tx.getAll('ThreadCount')).map((row) => [row.id, row])),
      }));
      expect(local.folders).toBe(folders.length);
      expect(local.messages).toBe(folders.reduce((sum, folder) => sum + folder.total, 0));
      for (const folder of folders) {
        const server = await api<{ total: number; unread: number }>(accountId, `/api/threads/count?folderId=${folder.id}`);
        expect(Number(local.counts.get(folder.id)?.total ?? 0), `threads in folder ${folder.id}`).toBe(server.total);
      }
    }
    const inbox = await inboxOf(ids.alice);
    const server = await api<{ total: number; unread: number }>(ids.alice, `/api/threads/count?folderId=${inbox.id}`);
    expect(await engine.queries.counts({ accountIds: [ids.alice] })).toEqual([{ accountId: ids.alice, inboxUnread: server.unread, complete: true }]);
  });

  test('mail delivered over SMTP appears in the live unified inbox through the websocket and delta', async () => {
    await caughtUp(ids.alice);
    const list = await watchList({ kind: 'unified', accountIds: [ids.alice, ids.bob], role: 'inbox' });
    for (const [to, accountId] of [[ALICE.email, ids.alice], [BOB.email, ids.bob]] as const) {
      const subject = `Live probe for ${to} ${Date.now()}`;
      await smtpSend({ from: 'Carol <carol@example.com>', to, subject, text: 'Is this here yet?' });
      const accepted = performance.now();
      await eventually(() => list.rows()[0]?.subject === subject, 10_000, `the new row for ${to}`);
      const patched = list.patches.find(({ patch }) => (patch.rows ?? patch.changed?.map((change) => change.row) ?? []).some((row) => row.subject === subject))!;
      console.log(`[worker-sync] SMTP accepted → live list patch for ${to}: ${Math.round(patched.at - accepted)} ms`);
      expect(list.rows()[0]).toMatchObject({ accountId, unreadCount: 1, pending: false });
      expect(patched.at - accepted).toBeLessThan(5_000);
    }
  });

  test('mark read, star and archive from the engine reach IMAP', async () => {
    await caughtUp(ids.alice);
    const inbox = await inboxOf(ids.alice);
    const list = await watchList({ kind: 'folder', accountId: ids.alice, folderId: inbox.id });
    const target = list.rows().find((row) => row.unreadCount > 0 && row.messageCount === 1);
    expect(target, 'an unread single-message thread in the inbox').toBeDefined();
    const [message] = (await engine.queries.getThread({ accountId: ids.alice, threadId: target!.threadId })).messages;
    const header = message!.messageIdHeader!;
    const uidIn = async (folder: string) => {
      await imap.mailboxOpen(folder);
      const found = await imap.search({ header: { 'message-id': header } }, { uid: true });
      return Array.isArray(found) ? found[0] : undefined;
    };
    const flagsOf = async () => {
      const uid = await uidIn('INBOX');
      return uid === undefined ? [] : [...((await imap.fetchOne(String(uid), { flags: true }, { uid: true })) || { flags: new Set<string>() }).flags!];
    };
    const done = (commandId: string) => eventually(() => statuses.find((status) => status.commandId === commandId && status.status !== 'pending'), 15_000, 'the command outcome');

    const read = await engine.commands.run({ command: { kind: 'markRead', accountId: ids.alice, threadIds: [target!.threadId], read: true } });
    expect(list.rows().find((row) => row.key === target!.key)).toBeDefined();
    expect(await done(read.commandId)).toMatchObject({ status: 'done' });
    expect(await flagsOf()).toContain('\\Seen');

    const star = await engine.commands.run({ command: { kind: 'star', accountId: ids.alice, threadIds: [target!.threadId], starred: true } });
    expect(await done(star.commandId)).toMatchObject({ status: 'done' });
    expect(await flagsOf()).toContain('\\Flagged');
    await eventually(() => list.rows().find((row) => row.key === target!.key)?.starred === true && !list.rows().find((row) => row.key === target!.key)?.pending, 5_000, 'the starred row');

    const archivedBefore = await countIn(imap, 'Archive');
    const pressed = performance.now();
    const patchesBefore = list.patches.length;
    const archive = await engine.commands.run({ command: { kind: 'archive', accountId: ids.alice, threadIds: [target!.threadId] } });
    // Gone from the live inbox at once, before the gateway answered.
    await eventually(() => !list.rows().some((row) => row.key === target!.key), 1_000, 'the row to leave the inbox');
    console.log(`[worker-sync] archive command → optimistic list patch: ${Math.round(list.patches[patchesBefore]!.at - pressed)} ms`);
    expect(await done(archive.commandId)).toMatchObject({ status: 'done' });
    expect(await uidIn('INBOX')).toBeUndefined();
    expect(await uidIn('Archive')).toBeDefined();
    expect(await countIn(imap, 'Archive')).toBe(archivedBefore + 1);
    expect(list.rows().some((row) => row.key === target!.key)).toBe(false);
  });

  test('a command the gateway refuses is put back with its catalogue error', async () => {
    await caughtUp(ids.alice);
    const inbox = await inboxOf(ids.alice);
    const list = await watchList({ kind: 'folder', accountId: ids.alice, folderId: inbox.id });
    const target = list.rows()[0]!;
    const move = await engine.commands.run({ command: { kind: 'move', accountId: ids.alice, threadIds: [target.threadId], folderId: '987654321' } });
    const outcome = await eventually(() => statuses.find((status) => status.commandId === move.commandId && status.status !== 'pending'), 15_000, 'the refusal');
    expect(outcome).toMatchObject({ status: 'failed', kind: 'move', error: { name: 'TargetFolderNotExists', message: 'The destination folder does not exist.' } });
    await eventually(() => list.rows().find((row) => row.key === target.key && !row.pending), 5_000, 'the row back in the inbox');
    expect(await withRead(await store(ids.alice), ['ProviderSyncbackRequest'], (tx) => tx.count('ProviderSyncbackRequest'))).toBe(0);
  });
});
