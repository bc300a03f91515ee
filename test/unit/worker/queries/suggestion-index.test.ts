/**
 * Recipient suggestions from memory (issue 18): the index of one account (matching, order,
 * removed suggestions, cards), and the accounts' indexes over a real (fake-indexeddb) Contact
 * table kept current from delta pages' ranked rows and the address book's changes.
 */
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { expect, test } from 'vitest';
import type { Contact } from '../../../../shared/contacts';
import { idbStoreFactory } from '../../../../src-worker/db/idb-store';
import { MAIL_SCHEMA } from '../../../../src-worker/db/mail-schema';
import { withWrite } from '../../../../src-worker/db/store';
import { createChangeFeed } from '../../../../src-worker/mail-store/change-feed';
import { writeCard, writeContactLists } from '../../../../src-worker/mail-store/contact-cards';
import { SuggestionIndex } from '../../../../src-worker/queries/suggestion-index';
import { SuggestionIndexes } from '../../../../src-worker/queries/suggestion-indexes';

const card = (id: string, firstName: string, lastName: string, emails: string[], company = ''): Contact => ({ id, firstName, lastName, emails, phones: [], company, notes: '', createdAt: 0, updatedAt: 0 });
const cardRow = (contact: Contact, deleted = false) => ({ id: `card:${contact.id}`, email: contact.emails[0] ?? '', is_personal_contact: 1, card: contact, deleted: deleted ? 1 : 0 });
const seenRow = (email: string, name: string, rank: number, lastAt = 0, forgotten = false) => ({ id: email, email, name, mailComposeRank: rank, last_seen_at: lastAt, ...(forgotten ? { forgotten: 1 } : {}) });
const emails = (index: SuggestionIndex, needle: string, limit = 10) => index.people(needle, limit).map((candidate) => candidate.address.email);

test('the address written to most comes first after one letter, a card breaks ties, non-human addresses last, a removed suggestion stays out unless a card holds it', () => {
  const index = new SuggestionIndex();
  for (const row of [
    seenRow('ann@kite.test', 'Ann Lee', 50, 5),
    seenRow('amy@kite.test', 'Amy', 900, 9),
    seenRow('alerts@kite.test', 'Alerts', 5000, 9),
    seenRow('abe@kite.test', 'Abe', 70, 1, true),
    seenRow('al@kite.test', 'Al', 0, 1, true),
    cardRow(card('1', 'Al', 'Bo', ['al@kite.test'])),
    // Zed is found by his company's first letter; a deleted card names no one.
    cardRow(card('2', 'Zed', '', ['zed@kite.test'], 'Acme')),
    cardRow(card('3', 'Gone', '', ['ann@kite.test']), true),
  ])
    index.put(row);
  const found = index.people('a', 10);
  expect(found.map((candidate) => candidate.address.email)).toEqual(['amy@kite.test', 'ann@kite.test', 'al@kite.test', 'zed@kite.test', 'alerts@kite.test']);
  expect(found.find((candidate) => candidate.address.email === 'al@kite.test')!.address.name).toBe('Al Bo');
  expect(found.find((candidate) => candidate.address.email === 'ann@kite.test')!.address.name).toBe('Ann Lee');
  // The limit keeps the best.
  expect(emails(index, 'a', 2)).toEqual(['amy@kite.test', 'ann@kite.test']);
});

test('matches words of names and parts of the address; every typed word must match; nothing for an unknown letter', () => {
  const index = new SuggestionIndex();
  index.put(seenRow('jo.smith+news@kite.example', 'Johanna S.', 3));
  index.put(seenRow('pat@yarrow.example', 'Pat Doe', 2));
  expect(emails(index, 'smi')).toEqual(['jo.smith+news@kite.example']);
  expect(emails(index, 'kite')).toEqual(['jo.smith+news@kite.example']);
  expect(emails(index, 'joh')).toEqual(['jo.smith+news@kite.example']);
  expect(emails(index, 'jo.smith+n')).toEqual(['jo.smith+news@kite.example']);
  expect(emails(index, 'pat d')).toEqual(['pat@yarrow.example']);
  expect(emails(index, 'pat s')).toEqual([]);
  expect(emails(index, 'example')).toEqual([]); // the top-level label is no word of its own
  expect(emails(index, 'q')).toEqual([]);
});

test('kept current row by row: a new rank reorders, a card edit renames and moves an address, a delete and a removed suggestion take it out', () => {
  const index = new SuggestionIndex();
  index.put(seenRow('bo@kite.test', 'Bo', 1));
  index.put(seenRow('bea@kite.test', 'Bea', 2));
  expect(emails(index, 'b')).toEqual(['bea@kite.test', 'bo@kite.test']);
  index.put(seenRow('bo@kite.test', 'Bo', 3));
  expect(emails(index, 'b')).toEqual(['bo@kite.test', 'bea@kite.test']);

  index.put(cardRow(card('7', 'Robert', 'Kite', ['bo@kite.test'])));
  expect(index.people('rob', 5).map((candidate) => candidate.address)).toEqual([{ name: 'Robert Kite', email: 'bo@kite.test' }]);
  // The card now holds another address: the old one is Bo's again, the new one is found by Robert.
  index.put(cardRow(card('7', 'Robert', 'Kite', ['rob@kite.test'])));
  expect(index.people('rob', 5).map((candidate) => candidate.address)).toEqual([{ name: 'Robert Kite', email: 'rob@kite.test' }]);
  expect(index.people('bo', 5).map((candidate) => candidate.address)).toEqual([{ name: 'Bo', email: 'bo@kite.test' }]);
  index.put(cardRow(card('7', 'Robert', 'Kite', ['rob@kite.test']), true));
  expect(emails(index, 'rob')).toEqual([]);

  index.put(seenRow('bea@kite.test', 'Bea', 2, 0, true));
  expect(emails(index, 'b')).toEqual(['bo@kite.test']);
  index.remove('bo@kite.test');
  expect(emails(index, 'b')).toEqual([]);
  expect(index.size).toBe(0);
});

test('a list is suggested by a word of its name with its members\' first addresses; one with no address is not', () => {
  const index = new SuggestionIndex();
  index.put(cardRow(card('1', 'Al', 'Bo', ['al@kite.test', 'al2@kite.test'])));
  index.put(cardRow(card('2', 'No', 'Mail', [])));
  index.setLists([
    { id: 'l1', name: 'Kite Crew', memberIds: ['1', '2', 'gone'], createdAt: 0, updatedAt: 0 },
    { id: 'l2', name: 'Crew of nobody', memberIds: ['2'], createdAt: 0, updatedAt: 0 },
  ]);
  expect(index.listsFor('cr')).toEqual([{ name: 'Kite Crew', email: 'list:l1', members: [{ name: 'Al Bo', email: 'al@kite.test' }] }]);
});

test('the accounts\' indexes: built from the table, told of ranked rows by delta pages and of the book\'s changes, rebuilt after a cache clear; two accounts merged', async () => {
  const factory = idbStoreFactory(new IDBFactory());
  const open = (accountId: string) => factory.open(`suggest-${accountId}`, MAIL_SCHEMA);
  const changes = createChangeFeed();
  const indexes = new SuggestionIndexes({ open, changes });
  const one = await open('1');
  await withWrite(one, ['Contact', 'JSONBlob'], async (tx) => {
    tx.queuePut('Contact', seenRow('cy@kite.test', 'Cy', 4));
    writeCard(tx, { card: card('9', 'Cleo', 'Park', ['cleo@kite.test']), deleted: false, unsynced: false });
    writeContactLists(tx, { lists: [{ id: 'l', name: 'Climbers', memberIds: ['9'], createdAt: 0, updatedAt: 0 }], cursor: '' });
  });
  await withWrite(await open('2'), ['Contact'], async (tx) => tx.queuePut('Contact', seenRow('cy@kite.test', 'Cy Two', 9)));
  const suggest = async (accountIds = ['1']) => (await indexes.suggest({ accountIds, prefix: ' C ', limit: 8 })).map((address) => address.email);

  expect(await suggest()).toEqual(['cy@kite.test', 'cleo@kite.test', 'list:l']);
  expect(await indexes.suggest({ accountIds: ['1'], prefix: '  ', limit: 8 })).toEqual([]);
  // The same address in two accounts: its better rank counts.
  expect((await indexes.suggest({ accountIds: ['1', '2'], prefix: 'c', limit: 8 }))[0]).toEqual({ name: 'Cy Two', email: 'cy@kite.test' });

  // A delta page ranked a new person: the rows as committed (not written here: the index takes them as they come).
  changes.emit({ accountId: '1', threadIds: ['t'], foldersChanged: false, contacts: [seenRow('cas@kite.test', 'Cas', 40)] });
  expect(await suggest()).toEqual(['cas@kite.test', 'cy@kite.test', 'cleo@kite.test', 'list:l']);

  // The book removed Cleo's card and its list here: read again by key.
  await withWrite(one, ['Contact', 'JSONBlob'], async (tx) => {
    writeCard(tx, { card: card('9', 'Cleo', 'Park', ['cleo@kite.test']), deleted: true, unsynced: true });
    writeContactLists(tx, { lists: [], cursor: '' });
  });
  expect(await suggest()).toContain('cleo@kite.test'); // not told yet
  indexes.bookChanged('1', { keys: ['card:9'], lists: true });
  expect(await suggest()).toEqual(['cas@kite.test', 'cy@kite.test']);

  // A cache clear: the table is read again (Cas was never written to it).
  changes.emit({ accountId: '1', threadIds: [], foldersChanged: true, everything: true });
  expect(indexes.size('1')).toBeNull();
  expect(await suggest()).toEqual(['cy@kite.test']);
});
