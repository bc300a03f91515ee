import 'fake-indexeddb/auto';
import { IDBDatabase, IDBFactory, IDBIndex, IDBObjectStore } from 'fake-indexeddb';
import { afterEach, expect, test, vi } from 'vitest';
import { idbStoreFactory } from '../../../../src-worker/db/idb-store';
import type { DatabaseSchema } from '../../../../src-worker/db/schema';
import { prefixRange, withRead, withWrite } from '../../../../src-worker/db/store';

// What only the IndexedDB store has to get right (the shared contract is store-contract.ts).
afterEach(() => vi.restoreAllMocks());

const schema: DatabaseSchema<'Thread'> = {
  tables: ['Thread'],
  steps: [{ version: 1, apply: (db) => db.createTable('Thread', [{ name: 'by_folder', keyPath: 'stamps', multiEntry: true }]) }],
};

test('newest-first key reads walk a key cursor: no row is read or cloned', async () => {
  const store = await idbStoreFactory(new IDBFactory()).open('keys', schema);
  await withWrite(store, ['Thread'], async (tx) => {
    for (let i = 0; i < 6; i++) await tx.put('Thread', { id: `t${i}`, stamps: [['inbox', i]], body: 'x'.repeat(1000) });
  });
  const valueCursors = [vi.spyOn(IDBIndex.prototype, 'openCursor'), vi.spyOn(IDBObjectStore.prototype, 'openCursor')];
  const keyCursors = [vi.spyOn(IDBIndex.prototype, 'openKeyCursor'), vi.spyOn(IDBObjectStore.prototype, 'openKeyCursor')];

  const [byIndex, byKey] = await withRead(store, ['Thread'], async (tx) => [
    await tx.getAllKeys('Thread', { index: 'by_folder', range: prefixRange(['inbox']), direction: 'prev', limit: 4 }),
    await tx.getAllKeys('Thread', { direction: 'prev', limit: 2 }),
  ]);

  expect(byIndex).toEqual(['t5', 't4', 't3', 't2']);
  expect(byKey).toEqual(['t5', 't4']);
  expect(valueCursors.map((spy) => spy.mock.calls.length)).toEqual([0, 0]);
  expect(keyCursors.map((spy) => spy.mock.calls.length)).toEqual([1, 1]);

  // Rows newest first still come with their values.
  const rows = await withRead(store, ['Thread'], (tx) => tx.getAll('Thread', { index: 'by_folder', range: prefixRange(['inbox']), direction: 'prev', limit: 1 }));
  expect(rows).toEqual([expect.objectContaining({ id: 't5', body: 'x'.repeat(1000) })]);
  store.close();
});

test('writes ask for relaxed durability (no disk flush per sync page), reads ask for nothing', async () => {
  const store = await idbStoreFactory(new IDBFactory()).open('durability', schema);
  const opened = vi.spyOn(IDBDatabase.prototype, 'transaction');
  await withWrite(store, ['Thread'], (tx) => tx.put('Thread', { id: 't1', stamps: [] }));
  await withRead(store, ['Thread'], (tx) => tx.get('Thread', 't1'));
  expect(opened.mock.calls.map((call) => [call[1], call[2]])).toEqual([
    ['readwrite', { durability: 'relaxed' }],
    ['readonly', undefined],
  ]);
  store.close();
});
