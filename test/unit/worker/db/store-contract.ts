/**
 * One contract, two stores (STYLE.md item 7): every LocalStore implementation must pass
 * these. Called from store-contract.test.ts with a fresh StoreFactory per test.
 */
import { beforeEach, describe, expect, test } from 'vitest';
import { TernError } from '../../../../shared/errors';
import type { DatabaseSchema } from '../../../../src-worker/db/schema';
import { StoredVersionTooNewError } from '../../../../src-worker/db/storage-errors';
import { only, prefixRange, withRead, withWrite, type LocalStore, type StoreFactory } from '../../../../src-worker/db/store';

type Table = 'Item' | 'Note';

const v1: DatabaseSchema<Table> = {
  tables: ['Item', 'Note'],
  steps: [
    {
      version: 1,
      apply(db) {
        db.createTable('Item', [
          { name: 'folder_ts', keyPath: ['folder', 'ts'] },
          { name: 'tags', keyPath: 'tags', multiEntry: true },
          { name: 'flag', keyPath: 'flag' },
        ]);
        db.createTable('Note');
      },
    },
  ],
};

const v2: DatabaseSchema<Table> = {
  tables: ['Item', 'Note'],
  steps: [
    ...v1.steps,
    {
      version: 2,
      apply(db) {
        db.createIndex('Note', { name: 'size', keyPath: 'size' });
        db.rewriteRows('Note', (row) => (row.drop ? null : { ...row, size: String(row.text ?? '').length }));
      },
    },
  ],
};

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => expect.unreachable('expected a rejection'),
    (error: unknown) => error,
  );
}

export function describeStoreContract(label: string, makeFactory: () => StoreFactory): void {
  describe(`LocalStore contract: ${label}`, () => {
    let factory: StoreFactory;
    let store: LocalStore<Table>;
    beforeEach(async () => {
      factory = makeFactory();
      store = await factory.open('contract', v1);
    });
    const seed = () =>
      withWrite(store, ['Item'], async (tx) => {
        await tx.put('Item', { id: 'a', folder: 'inbox', ts: 30, tags: ['x', 'y'], flag: 1 });
        await tx.put('Item', { id: 'b', folder: 'inbox', ts: 10, tags: ['y'], flag: 0 });
        await tx.put('Item', { id: 'c', folder: 'sent', ts: 20, tags: [], flag: true });
        await tx.put('Item', { id: 'd', folder: 'inbox', ts: 20 });
      });

    test('puts, gets and deletes rows by id', async () => {
      await seed();
      expect(await withRead(store, ['Item'], (tx) => tx.get('Item', 'b'))).toMatchObject({ id: 'b', ts: 10 });
      expect(await withRead(store, ['Item'], (tx) => tx.get('Item', 'zz'))).toBeUndefined();
      await withWrite(store, ['Item'], (tx) => tx.delete('Item', ['a', 'b', 'unknown']));
      expect(await withRead(store, ['Item'], (tx) => tx.getAllKeys('Item'))).toEqual(['c', 'd']);
    });

    test('stores and returns copies, never the caller’s objects', async () => {
      const row = { id: 'a', nested: { n: 1 } };
      await withWrite(store, ['Note'], (tx) => tx.put('Note', row));
      row.nested.n = 2;
      const first = await withRead(store, ['Note'], (tx) => tx.get('Note', 'a'));
      (first as unknown as { nested: { n: number } }).nested.n = 3;
      expect(await withRead(store, ['Note'], (tx) => tx.get('Note', 'a'))).toEqual({ id: 'a', nested: { n: 1 } });
    });

    test('lists by primary key, in either direction, with a limit', async () => {
      await seed();
      await withRead(store, ['Item'], async (tx) => {
        expect((await tx.getAll('Item')).map((row) => row.id)).toEqual(['a', 'b', 'c', 'd']);
        expect(await tx.getAllKeys('Item', { direction: 'prev', limit: 2 })).toEqual(['d', 'c']);
        expect(await tx.getAllKeys('Item', { range: { lower: 'b', upper: 'd', upperOpen: true } })).toEqual(['b', 'c']);
        expect(await tx.count('Item')).toBe(4);
      });
    });

    test('a compound index lists one folder newest first', async () => {
      await seed();
      const newest = await withRead(store, ['Item'], (tx) => tx.getAll('Item', { index: 'folder_ts', range: prefixRange(['inbox']), direction: 'prev', limit: 2 }));
      expect(newest.map((row) => row.id)).toEqual(['a', 'd']);
      expect(await withRead(store, ['Item'], (tx) => tx.count('Item', { index: 'folder_ts', range: prefixRange(['inbox']) }))).toBe(3);
    });

    test('a multiEntry index finds a row by any element', async () => {
      await seed();
      await withRead(store, ['Item'], async (tx) => {
        expect(await tx.getAllKeys('Item', { index: 'tags', range: only('y') })).toEqual(['a', 'b']);
        expect(await tx.getAllKeys('Item', { index: 'tags', range: only('x') })).toEqual(['a']);
      });
    });

    test('rows without a valid key for an index are left out of it (booleans are not keys)', async () => {
      await seed();
      expect(await withRead(store, ['Item'], (tx) => tx.getAllKeys('Item', { index: 'flag' }))).toEqual(['b', 'a']);
    });

    test('a failed write transaction changes nothing', async () => {
      await seed();
      const failure = new Error('stop');
      await expect(
        withWrite(store, ['Item'], async (tx) => {
          await tx.delete('Item', 'a');
          await tx.put('Item', { id: 'e', folder: 'inbox', ts: 1 });
          throw failure;
        }),
      ).rejects.toBe(failure);
      expect(await withRead(store, ['Item'], (tx) => tx.getAllKeys('Item'))).toEqual(['a', 'b', 'c', 'd']);
    });

    test('a write transaction reads its own changes', async () => {
      await seed();
      const seen = await withWrite(store, ['Item'], async (tx) => {
        await tx.put('Item', { id: 'e', folder: 'inbox', ts: 99 });
        await tx.delete('Item', 'a');
        const keys = await tx.getAllKeys('Item', { index: 'folder_ts', range: prefixRange(['inbox']), direction: 'prev' });
        await tx.clear('Item');
        return { keys, afterClear: await tx.count('Item') };
      });
      expect(seen).toEqual({ keys: ['e', 'd', 'b'], afterClear: 0 });
    });

    test('getMany answers rows in the order asked, undefined where there is none, and sees the transaction’s changes', async () => {
      await seed();
      expect(await withRead(store, ['Item'], (tx) => tx.getMany('Item', []))).toEqual([]);
      const rows = await withWrite(store, ['Item'], async (tx) => {
        tx.queueDelete('Item', 'b');
        tx.queuePut('Item', { id: 'e', folder: 'sent', ts: 5 });
        return tx.getMany('Item', ['e', 'zz', 'a', 'b', 'a']);
      });
      expect(rows.map((row) => row?.id)).toEqual(['e', undefined, 'a', undefined, 'a']);
      expect(rows[2]).toMatchObject({ folder: 'inbox', ts: 30 });
    });

    test('queued writes are seen by later requests (indexes too) and kept by the commit', async () => {
      await seed();
      const row = { id: 'e', folder: 'inbox', ts: 99, tags: ['z'] };
      const seen = await withWrite(store, ['Item'], async (tx) => {
        tx.queuePut('Item', row);
        tx.queueDelete('Item', ['a', 'unknown']);
        row.ts = 1; // stored as it was when queued
        return {
          newest: await tx.getAllKeys('Item', { index: 'folder_ts', range: prefixRange(['inbox']), direction: 'prev' }),
          tagged: await tx.getAllKeys('Item', { index: 'tags', range: only('z') }),
        };
      });
      expect(seen).toEqual({ newest: ['e', 'd', 'b'], tagged: ['e'] });
      expect(await withRead(store, ['Item'], (tx) => tx.getAllKeys('Item'))).toEqual(['b', 'c', 'd', 'e']);
      expect(await withRead(store, ['Item'], (tx) => tx.get('Item', 'e'))).toMatchObject({ ts: 99 });
    });

    test('a queued write that cannot be stored fails the transaction, and none of its changes are kept', async () => {
      await seed();
      const error = await rejection(
        withWrite(store, ['Item'], async (tx) => {
          tx.queueDelete('Item', 'a');
          tx.queuePut('Item', { id: 'f', folder: 'inbox', ts: 1, fn: () => 1 });
        }),
      );
      expect(error).toBeInstanceOf(TernError);
      expect((error as TernError).name).toBe('DatabaseError');
      expect(await withRead(store, ['Item'], (tx) => tx.getAllKeys('Item'))).toEqual(['a', 'b', 'c', 'd']);
    });

    test('concurrent read-modify-write transactions do not lose updates', async () => {
      await withWrite(store, ['Note'], (tx) => tx.put('Note', { id: 'counter', n: 0 }));
      const increment = () =>
        withWrite(store, ['Note'], async (tx) => {
          const row = await tx.get('Note', 'counter');
          await tx.put('Note', { id: 'counter', n: Number(row?.n) + 1 });
        });
      await Promise.all([increment(), increment(), increment()]);
      expect(await withRead(store, ['Note'], (tx) => tx.get('Note', 'counter'))).toEqual({ id: 'counter', n: 3 });
    });

    test('a table outside the transaction, or an unknown index, is a DatabaseError', async () => {
      const outside = await rejection(withRead(store, ['Item'], (tx) => tx.get('Note', 'x')));
      expect(outside).toBeInstanceOf(TernError);
      expect((outside as TernError).name).toBe('DatabaseError');
      const index = await rejection(withRead(store, ['Item'], (tx) => tx.getAll('Item', { index: 'nope' })));
      expect((index as TernError).name).toBe('DatabaseError');
    });

    test('a closed store fails with DatabaseClosed and says why', async () => {
      store.close('logged-out');
      const error = await rejection(withRead(store, ['Item'], (tx) => tx.get('Item', 'a')));
      expect(error).toBeInstanceOf(TernError);
      expect(error).toMatchObject({ name: 'DatabaseClosed', detail: { database: 'contract', reason: 'logged-out' } });
    });

    test('an upgrade keeps rows, runs the rewrite and closes older connections', async () => {
      await withWrite(store, ['Note'], async (tx) => {
        await tx.put('Note', { id: 'n1', text: 'hello' });
        await tx.put('Note', { id: 'n2', text: 'gone', drop: true });
      });
      const upgraded = await factory.open('contract', v2);
      expect(store.closeReason).toBe('version-change');
      await withRead(upgraded, ['Note'], async (tx) => {
        expect(await tx.getAll('Note')).toEqual([{ id: 'n1', text: 'hello', size: 5 }]);
        expect(await tx.getAllKeys('Note', { index: 'size', range: only(5) })).toEqual(['n1']);
      });
      upgraded.close();
    });

    test('a stored version newer than the schema is refused', async () => {
      (await factory.open('newer', v2)).close();
      await expect(factory.open('newer', v1)).rejects.toBeInstanceOf(StoredVersionTooNewError);
    });

    test('deleting a database closes its connections and drops its rows', async () => {
      await seed();
      await factory.delete('contract');
      expect(store.closeReason).toBe('version-change');
      const fresh = await factory.open('contract', v1);
      expect(await withRead(fresh, ['Item'], (tx) => tx.count('Item'))).toBe(0);
      fresh.close();
    });
  });
}
