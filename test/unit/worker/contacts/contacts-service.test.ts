/**
 * The engine's address book against the real gateway app (every route, SQLite in memory):
 * two browsers (a fake-indexeddb each) signed in to one account. A card made on one reaches
 * the other through the changes stream; edits made offline wait in the database, survive a
 * new engine, and go out in order once online; a change the gateway refuses is taken back.
 */
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { ContactBook } from '../../../../shared/worker-contacts-api';
import { GatewayClient } from '../../../../src-worker/api/gateway-client';
import { createContactsGateway } from '../../../../src-worker/contacts/contacts-gateway';
import { EngineContacts } from '../../../../src-worker/contacts/contacts-service';
import { MAIL_SCHEMA } from '../../../../src-worker/db/mail-schema';
import { idbStoreFactory } from '../../../../src-worker/db/idb-store';
import { withRead, withWrite } from '../../../../src-worker/db/store';
import { createChangeFeed } from '../../../../src-worker/mail-store/change-feed';
import { SuggestionIndexes } from '../../../../src-worker/queries/suggestion-indexes';
import { signInTestApp, startTestApp, type TestApp } from '../../server/http/gateway-app-fixture';
import { waitFor } from '../mail-test-kit';

let gateway: TestApp;
beforeAll(async () => {
  gateway = await startTestApp();
});
afterAll(async () => gateway.close());

const ACCOUNT = '1';

/** One browser: its own IndexedDB, a network switch, and engines made over them (a restart makes another). */
async function browser() {
  const { headers } = await signInTestApp(gateway, 'alice@tern.test');
  const token = headers.authorization.slice(7);
  const factory = idbStoreFactory(new IDBFactory());
  const net = { online: true, listeners: new Set<(online: boolean) => void>() };
  const fetch = (async (input: string | URL | Request, init?: RequestInit) => {
    if (!net.online) throw new TypeError('Failed to fetch');
    const url = new URL(String(input));
    const reply = await gateway.app.inject({
      method: (init?.method ?? 'GET') as 'GET',
      url: url.pathname + url.search,
      headers: init?.headers as Record<string, string>,
      ...(typeof init?.body === 'string' ? { payload: init.body } : {}),
    });
    return new Response(reply.statusCode === 204 ? null : reply.body, { status: reply.statusCode, headers: { 'content-type': 'application/json' } });
  }) as typeof globalThis.fetch;
  // The engine's recipient suggestions over the same database, told what the book changed.
  const changes = createChangeFeed();
  const suggestions = new SuggestionIndexes({ open: (accountId) => factory.open(accountId, MAIL_SCHEMA), changes });
  const engine = () =>
    new EngineContacts({
      bookChanged: (accountId, change) => suggestions.bookChanged(accountId, change),
      accountIds: async () => [ACCOUNT],
      open: (accountId) => factory.open(accountId, MAIL_SCHEMA),
      gateway: async () => createContactsGateway(new GatewayClient({ fetch, session: () => ({ api: 'http://gateway.test/api', token }), requestId: () => 'w_test', retries: 0 })),
      online: {
        isOnline: async () => net.online,
        subscribe: (listener) => {
          net.listeners.add(listener);
          return () => net.listeners.delete(listener);
        },
      },
    });
  return {
    engine,
    factory,
    changes,
    suggest: async (prefix: string) => (await suggestions.suggest({ accountIds: [ACCOUNT], prefix, limit: 8 })).map((address) => `${address.name} <${address.email}>`),
    contacts: engine(),
    offline: () => void (net.online = false),
    online: () => {
      net.online = true;
      for (const listener of [...net.listeners]) listener(true);
    },
  };
}

const names = (book: ContactBook) => book.cards.map((card) => `${card.firstName}${card.unsynced ? '*' : ''}`);
const gatewayCards = async () => (await gateway.ctx.contacts.changes(1, '', 1000)).contacts;

describe('engine contacts', () => {
  test('a card made in one browser is there at once, confirmed by the gateway, and reaches the other; an edit there comes back; delete and its undo', async () => {
    const laptop = await browser();
    const phone = await browser();
    const seen: ContactBook[] = [];
    await phone.contacts.watch({ accountId: ACCOUNT }, (book) => seen.push(book));

    const card = await laptop.contacts.save({ accountId: ACCOUNT, card: { firstName: 'Ann', emails: ['Ann@Kite.test'] } });
    expect(card).toMatchObject({ firstName: 'Ann', emails: ['ann@kite.test'], unsynced: true });
    await waitFor(async () => names(await laptop.contacts.list({ accountId: ACCOUNT })).join() === 'Ann', 'the laptop card confirmed');
    expect((await gatewayCards()).map((c) => c.id)).toContain(card.id);

    await phone.contacts.pull(ACCOUNT);
    await waitFor(() => seen.some((book) => names(book).includes('Ann')), 'the phone watcher told of Ann');
    await phone.contacts.save({ accountId: ACCOUNT, id: card.id, card: { firstName: 'Anne', lastName: 'Lee', emails: ['ann@kite.test'] } });
    await waitFor(async () => (await gateway.ctx.contacts.get(1, card.id)).firstName === 'Anne', 'the phone edit on the gateway');
    await laptop.contacts.pull(ACCOUNT);
    expect((await laptop.contacts.list({ accountId: ACCOUNT })).cards.find((c) => c.id === card.id)).toMatchObject({ firstName: 'Anne', lastName: 'Lee', unsynced: false });

    await laptop.contacts.remove({ accountId: ACCOUNT, ids: [card.id] });
    expect((await laptop.contacts.list({ accountId: ACCOUNT })).cards.map((c) => c.id)).not.toContain(card.id);
    await laptop.contacts.restore({ accountId: ACCOUNT, ids: [card.id] });
    expect((await laptop.contacts.list({ accountId: ACCOUNT })).cards.find((c) => c.id === card.id)).toMatchObject({ firstName: 'Anne' });
    await waitFor(async () => (await laptop.contacts.list({ accountId: ACCOUNT })).cards.every((c) => !c.unsynced), 'delete and restore confirmed');
    expect((await gateway.ctx.contacts.get(1, card.id)).firstName).toBe('Anne');
  });

  test('offline edits wait in the database, survive a new engine and go out in order once online; bad input is refused here and queues nothing', async () => {
    const laptop = await browser();
    await laptop.contacts.pull(ACCOUNT);
    laptop.offline();
    const bo = await laptop.contacts.save({ accountId: ACCOUNT, card: { firstName: 'Bo', emails: ['bo@kite.test'] } });
    await laptop.contacts.save({ accountId: ACCOUNT, id: bo.id, card: { firstName: 'Bo', company: 'Kite', emails: ['bo@kite.test'] } });
    const cy = await laptop.contacts.save({ accountId: ACCOUNT, card: { firstName: 'Cy', emails: ['cy@kite.test'] } });
    await laptop.contacts.remove({ accountId: ACCOUNT, ids: [cy.id] });
    await expect(laptop.contacts.save({ accountId: ACCOUNT, card: { firstName: 'Bad', emails: ['not an address'] } })).rejects.toMatchObject({ name: 'InvalidRequestData' });
    expect(names(await laptop.contacts.list({ accountId: ACCOUNT }))).toContain('Bo*');
    expect((await gatewayCards()).map((c) => c.id)).not.toContain(bo.id);

    // The worker is killed and started again, still offline; then the network comes back.
    laptop.contacts.stop();
    const restarted = laptop.engine();
    await restarted.pull(ACCOUNT); // queued again: offline
    laptop.online();
    // The delete of Cy is the last change queued: once the gateway lacks Cy, the queue went out.
    const cyCreated = async () => (await gateway.ctx.contacts.changes(1, '', 1000)).deleted.includes(cy.id);
    await waitFor(async () => (await cyCreated()) && (await restarted.list({ accountId: ACCOUNT })).cards.every((c) => !c.unsynced), 'the queue sent');
    const onGateway = await gatewayCards();
    expect(onGateway.find((c) => c.id === bo.id)).toMatchObject({ firstName: 'Bo', company: 'Kite' });
    expect(onGateway.map((c) => c.id)).not.toContain(cy.id);
    expect(names(await restarted.list({ accountId: ACCOUNT }))).not.toContain('Bad');
  });

  test('an edit made while the card\'s creation is on its way to the gateway is not lost', async () => {
    const laptop = await browser();
    await laptop.contacts.pull(ACCOUNT);
    const ivy = await laptop.contacts.save({ accountId: ACCOUNT, card: { firstName: 'Ivy', emails: ['ivy@kite.test'] } });
    // No wait: the sender has the creation on the wire (the gateway answers through the same loop).
    await laptop.contacts.save({ accountId: ACCOUNT, id: ivy.id, card: { firstName: 'Ivy', lastName: 'Holm', emails: ['ivy@kite.test'] } });
    await waitFor(async () => (await laptop.contacts.list({ accountId: ACCOUNT })).cards.every((c) => !c.unsynced), 'both confirmed');
    expect((await gateway.ctx.contacts.get(1, ivy.id)).lastName).toBe('Holm');
    expect((await laptop.contacts.list({ accountId: ACCOUNT })).cards.find((c) => c.id === ivy.id)?.lastName).toBe('Holm');
  });

  test('a merge the gateway refuses (one card was deleted on another device meanwhile) is taken back, and the tabs are told why', async () => {
    const laptop = await browser();
    const phone = await browser();
    const dee = await laptop.contacts.save({ accountId: ACCOUNT, card: { firstName: 'Dee', emails: ['dee@kite.test'] } });
    const dee2 = await laptop.contacts.save({ accountId: ACCOUNT, card: { firstName: 'Dee', lastName: 'Two', emails: ['Dee+x@kite.test'] } });
    await waitFor(async () => (await laptop.contacts.list({ accountId: ACCOUNT })).cards.every((c) => !c.unsynced), 'both confirmed');
    await phone.contacts.pull(ACCOUNT);
    laptop.offline();
    await laptop.contacts.merge({ accountId: ACCOUNT, ids: [dee.id, dee2.id] });
    expect((await laptop.contacts.list({ accountId: ACCOUNT })).cards.filter((c) => c.firstName === 'Dee')).toHaveLength(1);
    await phone.contacts.remove({ accountId: ACCOUNT, ids: [dee2.id] });
    await waitFor(async () => (await phone.contacts.list({ accountId: ACCOUNT })).cards.every((c) => !c.unsynced), 'the phone delete confirmed');
    laptop.online();
    const book = await waitFor(async () => {
      const now = await laptop.contacts.list({ accountId: ACCOUNT });
      return now.refused ? now : null;
    }, 'the refusal');
    expect(book.refused).toMatchObject({ name: 'InvalidOperation' });
    // Taken back: the first card as the gateway has it (not merged), the deleted one gone.
    expect(book.cards.filter((c) => c.firstName === 'Dee').map((c) => [c.id, c.lastName, c.emails, c.unsynced])).toEqual([[dee.id, '', ['dee@kite.test'], false]]);
  });

  test('a removed suggestion is marked forgotten on the address row; a card is never touched by it', async () => {
    const laptop = await browser();
    const card = await laptop.contacts.save({ accountId: ACCOUNT, card: { firstName: 'Eli', emails: ['eli@kite.test'] } });
    const store = await laptop.factory.open(ACCOUNT, MAIL_SCHEMA);
    await withWrite(store, ['Contact'], (tx) => tx.put('Contact', { id: 'fay@kite.test', email: 'fay@kite.test', name: 'Fay', mailComposeRank: 5 }));
    await laptop.contacts.forgetSuggestion({ accountIds: [ACCOUNT], email: ' Fay@Kite.test ' });
    await laptop.contacts.forgetSuggestion({ accountIds: [ACCOUNT], email: 'nobody@kite.test' });
    const rows = await withRead(store, ['Contact'], async (tx) => [await tx.get('Contact', 'fay@kite.test'), await tx.get('Contact', `card:${card.id}`)]);
    expect(rows[0]).toMatchObject({ forgotten: 1, mailComposeRank: 5 });
    expect(rows[1]?.forgotten).toBeUndefined();
    await expect(laptop.contacts.forgetSuggestion({ accountIds: ['nope'], email: 'fay@kite.test' })).rejects.toMatchObject({ name: 'AccountNotFound' });
  });

  test('the composer\'s suggestions follow the book: a card saved, renamed, pulled from another browser, merged, deleted and restored; a removed suggestion', async () => {
    const laptop = await browser();
    const phone = await browser();
    await laptop.contacts.pull(ACCOUNT);
    await phone.contacts.pull(ACCOUNT);
    expect(await laptop.suggest('gus')).toEqual([]); // built now, before the cards
    const gus = await laptop.contacts.save({ accountId: ACCOUNT, card: { firstName: 'Gus', lastName: 'Vale', emails: ['gus@vale.test'] } });
    expect(await laptop.suggest('gus')).toEqual(['Gus Vale <gus@vale.test>']);
    await laptop.contacts.save({ accountId: ACCOUNT, id: gus.id, card: { firstName: 'Gustav', lastName: 'Vale', emails: ['gus@vale.test'] } });
    expect(await laptop.suggest('vale')).toEqual(['Gustav Vale <gus@vale.test>']);

    // Made on the phone, pulled by the laptop.
    expect(await phone.suggest('vale')).toEqual([]);
    await waitFor(async () => (await laptop.contacts.list({ accountId: ACCOUNT })).cards.every((c) => !c.unsynced), 'the laptop cards confirmed');
    await phone.contacts.pull(ACCOUNT);
    expect(await phone.suggest('vale')).toEqual(['Gustav Vale <gus@vale.test>']);
    const twin = await phone.contacts.save({ accountId: ACCOUNT, card: { firstName: 'Gus', lastName: 'Twin', emails: ['Gus+home@vale.test'] } });
    await waitFor(async () => (await phone.contacts.list({ accountId: ACCOUNT })).cards.every((c) => !c.unsynced), 'the twin confirmed');
    await laptop.contacts.pull(ACCOUNT);
    expect(await laptop.suggest('gus')).toEqual(['Gus Twin <gus+home@vale.test>', 'Gustav Vale <gus@vale.test>']);

    // Merged: one card named as the first, its address once (gus+home is gus by the spec's equivalence).
    await laptop.contacts.merge({ accountId: ACCOUNT, ids: [gus.id, twin.id] });
    expect(await laptop.suggest('twin')).toEqual([]);
    expect(await laptop.suggest('gus')).toEqual(['Gustav Vale <gus@vale.test>']);
    await laptop.contacts.remove({ accountId: ACCOUNT, ids: [gus.id] });
    expect(await laptop.suggest('gus')).toEqual([]);
    await laptop.contacts.restore({ accountId: ACCOUNT, ids: [gus.id] });
    expect(await laptop.suggest('vale')).toEqual(['Gustav Vale <gus@vale.test>']);

    // An address a delta page ranked (no card), then removed from the suggestions.
    const store = await laptop.factory.open(ACCOUNT, MAIL_SCHEMA);
    const hal = { id: 'hal@vale.test', email: 'hal@vale.test', name: 'Hal', mailComposeRank: 5 };
    await withWrite(store, ['Contact'], (tx) => tx.put('Contact', hal));
    laptop.changes.emit({ accountId: ACCOUNT, threadIds: ['t1'], foldersChanged: false, contacts: [hal] });
    expect(await laptop.suggest('hal')).toEqual(['Hal <hal@vale.test>']);
    await laptop.contacts.forgetSuggestion({ accountIds: [ACCOUNT], email: 'Hal@Vale.test' });
    expect(await laptop.suggest('hal')).toEqual([]);
  });
});
