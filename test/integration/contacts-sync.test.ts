// Issue 18 point 5: contacts roam. The whole engine (createEngine, as a SharedWorker runs it)
// twice — a laptop and a phone, each its own fake-indexeddb, signed in to one account through
// POST /api/login — against the REAL gateway (HTTP + websocket) in front of the harness's
// Dovecot. A card made on one reaches the other through the transaction log, the websocket,
// delta and the changes stream, with no pull asked for; both tabs of a browser hear it; the
// composer's suggestions follow. Edits made while the laptop cannot reach the gateway wait in
// its database, and go out in order once it is back; then the phone has them too.
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { afterAll, beforeAll, expect, test } from 'vitest';
import WebSocket from 'ws';
import type { ContactBook } from '../../shared/worker-contacts-api';
import type { WorkerApi } from '../../shared/worker-api';
import { idbStoreFactory } from '../../src-worker/db/idb-store';
import { createEngine } from '../../src-worker/engine';
import type { WebSocketLike } from '../../src-worker/sync/push-socket';
import { eventually } from './support/gateway-fixture';
import { ALICE, startWritesFixture, type WritesFixture } from './support/mail-writes-fixture';

let fx: WritesFixture;
const browsers: { api: WorkerApi; close: () => void }[] = [];

beforeAll(async () => {
  fx = await startWritesFixture({ name: 'contacts-sync', count: 5 });
});

afterAll(async () => {
  for (const browser of browsers) browser.close();
  await fx?.close();
});

/** One browser: its engine over its own IndexedDB, and a network switch (offline: every request fails as fetch does). */
async function browser(name: string) {
  const net = { online: true, listeners: new Set<(online: boolean) => void>() };
  const sockets = new Set<WebSocket>();
  const api = createEngine({
    stores: idbStoreFactory(new IDBFactory()),
    fetch: (input, init) => (net.online ? fetch(input, init) : Promise.reject(new TypeError('Failed to fetch'))),
    apiBase: `${fx.baseUrl}/api`,
    statusUrl: `${fx.baseUrl}/status.png`,
    // Node 20 has no global WebSocket: the `ws` package speaks the same interface.
    connectSocket: (url) => {
      const socket = new WebSocket(url);
      sockets.add(socket);
      return socket as unknown as WebSocketLike;
    },
    browserOnline: {
      onLine: () => net.online,
      subscribe: (listener) => {
        net.listeners.add(listener);
        return () => net.listeners.delete(listener);
      },
    },
    openChannel: () => ({ postMessage: () => {}, addEventListener: () => {}, close: () => {} }),
    engineId: name,
    firstScreenWaitMs: 0,
    environment: { userAgent: 'node', locale: 'en-GB', timeZone: 'UTC' },
    estimateStorage: async () => ({ usage: 0, quota: 1 }),
  });
  browsers.push({ api, close: () => sockets.forEach((socket) => socket.terminate()) });
  const added = await api.accounts.add({ email: ALICE.email, password: ALICE.password });
  if (added.kind !== 'added') throw new Error(`login of ${name}: ${JSON.stringify(added)}`);
  const accountId = added.account.accountId;
  /** A tab's live view of the book: the latest push. */
  const tab = async () => {
    const seen: { book: ContactBook | null } = { book: null };
    await api.contacts.watch({ accountId }, (book) => void (seen.book = book));
    return seen;
  };
  const setOnline = (online: boolean) => {
    net.online = online;
    for (const listener of [...net.listeners]) listener(online);
  };
  return { api, accountId, tab, offline: () => setOnline(false), online: () => setOnline(true) };
}

const names = (book: ContactBook | null) => (book?.cards ?? []).map((card) => `${card.firstName} ${card.lastName}${card.unsynced ? '*' : ''}`.trim()).sort();
const onGateway = async () => (await fx.ctx.contacts.changes(fx.alice.accountId, '', 1000)).contacts.map((card) => `${card.firstName} ${card.lastName}`.trim()).sort();

test('a card made on one browser reaches the other and both of its tabs by push, no pull asked; an edit there comes back; the suggestions follow', async () => {
  const laptop = await browser('laptop');
  const phone = await browser('phone');
  const [phoneTab1, phoneTab2] = [await phone.tab(), await phone.tab()];
  const laptopTab = await laptop.tab();

  const card = await laptop.api.contacts.save({ accountId: laptop.accountId, card: { firstName: 'Roam', lastName: 'Ing', emails: ['roam@kite.test'] } });
  await eventually(() => names(phoneTab1.book).includes('Roam Ing') && names(phoneTab2.book).includes('Roam Ing'), 10_000, 'the card in both phone tabs');
  expect(await phone.api.mail.suggestAddresses({ accountIds: [phone.accountId], prefix: 'ing', limit: 5 })).toEqual([{ name: 'Roam Ing', email: 'roam@kite.test' }]);

  await phone.api.contacts.save({ accountId: phone.accountId, id: card.id, card: { firstName: 'Roaming', lastName: 'Ing', emails: ['roam@kite.test'] } });
  await eventually(() => names(laptopTab.book).includes('Roaming Ing'), 10_000, 'the phone edit on the laptop');
  expect(await laptop.api.mail.suggestAddresses({ accountIds: [laptop.accountId], prefix: 'roa', limit: 5 })).toEqual([{ name: 'Roaming Ing', email: 'roam@kite.test' }]);
  expect(await onGateway()).toContain('Roaming Ing');
});

test('edits made offline wait on the laptop, go out in order when it is back, and reach the phone', async () => {
  const laptop = await browser('laptop-2');
  const phone = await browser('phone-2');
  const phoneTab = await phone.tab();
  await eventually(async () => (await laptop.api.contacts.list({ accountId: laptop.accountId })).cards.length > 0, 10_000, 'the book pulled at sign-in');

  laptop.offline();
  const kay = await laptop.api.contacts.save({ accountId: laptop.accountId, card: { firstName: 'Kay', emails: ['kay@kite.test'] } });
  await laptop.api.contacts.save({ accountId: laptop.accountId, id: kay.id, card: { firstName: 'Kay', lastName: 'Offline', emails: ['kay@kite.test'] } });
  const lou = await laptop.api.contacts.save({ accountId: laptop.accountId, card: { firstName: 'Lou', emails: ['lou@kite.test'] } });
  await laptop.api.contacts.remove({ accountId: laptop.accountId, ids: [lou.id] });
  const waiting = await laptop.api.contacts.list({ accountId: laptop.accountId });
  expect(names(waiting)).toContain('Kay Offline*');
  expect(names(waiting)).not.toContain('Lou');
  expect(await onGateway()).not.toContain('Kay Offline');

  laptop.online();
  // Lou's delete is the last change queued: once the gateway has its tombstone, the queue went out.
  await eventually(async () => (await fx.ctx.contacts.changes(fx.alice.accountId, '', 1000)).deleted.includes(lou.id), 15_000, 'the queue sent');
  expect(await onGateway()).toContain('Kay Offline');
  expect(await onGateway()).not.toContain('Lou');
  await eventually(async () => (await laptop.api.contacts.list({ accountId: laptop.accountId })).cards.every((card) => !card.unsynced), 10_000, 'every card confirmed');
  // The queue went out in order, Lou's create before its delete: a push between the two shows the phone Lou for a
  // moment, so the phone's book is checked once it has the laptop's last change (Lou gone), not at Kay's arrival.
  await eventually(() => names(phoneTab.book).includes('Kay Offline') && !names(phoneTab.book).includes('Lou'), 10_000, 'the offline edits on the phone, Lou deleted');
  expect(names(phoneTab.book)).toContain('Kay Offline');
  expect(names(phoneTab.book)).not.toContain('Lou');
});
