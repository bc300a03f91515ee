/**
 * One contract, two engines (STYLE.md item 7, like the worker's store contract): what every
 * SqlStore must do, run on SQLite and on a real PostgreSQL by sql-store.test.ts.
 */
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import type { SqlStore } from '../../../src-server/store/sql';
import { SCHEMA_VERSION } from '../../../src-server/store/open-store';
import { inChunks, placeholders } from '../../../src-server/store/sql-lists';

/** A fresh, migrated store per test; `tables` lists the user tables of the schema. */
export interface StoreUnderTest {
  open(): Promise<SqlStore>;
  tables(store: SqlStore): Promise<string[]>;
  version(store: SqlStore): Promise<number>;
}

export function describeSqlStoreContract(under: StoreUnderTest) {
  describe('the SqlStore contract', () => {
    let store: SqlStore;
    beforeEach(async () => {
      store = await under.open();
      await store.run('CREATE TABLE contract_items (id BIGINT PRIMARY KEY, label TEXT NOT NULL, at BIGINT NOT NULL, data BYTEA)'.replace('BYTEA', store.dialect === 'sqlite' ? 'BLOB' : 'BYTEA'));
    });
    afterEach(async () => {
      await store.run('DROP TABLE contract_items');
      await store.close();
    });

    test('the schema is migrated to the current version, with the tables of every migration', async () => {
      expect(await under.version(store)).toBe(SCHEMA_VERSION);
      const tables = await under.tables(store);
      for (const table of ['accounts', 'sessions', 'folders', 'threads', 'messages', 'txlog', 'drafts', 'outbox', 'uploads', 'message_bodies', 'fts_pending', 'fts_gone', 'analytics_events', 'preferences', 'account_plans', 'account_leases', 'jobs']) {
        expect(tables).toContain(table);
      }
    });

    test('? placeholders, epoch milliseconds as numbers, blobs as Buffers, quoted camelCase aliases', async () => {
      const at = Date.UTC(2026, 10, 29, 4, 0, 0, 123);
      await store.run('INSERT INTO contract_items (id, label, at, data) VALUES (?, ?, ?, ?)', [1, "it's ? not a placeholder", at, Buffer.from([0, 1, 255])]);
      const row = await store.get<{ itemId: number; label: string; at: number; data: Buffer }>(
        'SELECT id AS "itemId", label, at, data FROM contract_items WHERE id = ? AND label <> \'?\'',
        [1],
      );
      expect(row).toEqual({ itemId: 1, label: "it's ? not a placeholder", at, data: Buffer.from([0, 1, 255]) });
      const count = await store.get<{ n: number }>('SELECT COUNT(*) AS n FROM contract_items');
      expect(count?.n).toBe(1);
      expect(typeof count?.n).toBe('number');
    });

    test('a U+0000 in a bound string is dropped on both engines (PostgreSQL TEXT refuses it); a blob keeps its zero bytes', async () => {
      await store.run('INSERT INTO contract_items (id, label, at, data) VALUES (?, ?, ?, ?)', [1, 'nul\u0000byte\u0000', 1, Buffer.from([0, 0])]);
      expect(await store.get('SELECT label, data FROM contract_items WHERE id = ?', [1])).toEqual({ label: 'nulbyte', data: Buffer.from([0, 0]) });
      expect(await store.get('SELECT id FROM contract_items WHERE label = ?', ['nul\u0000byte'])).toEqual({ id: 1 });
    });

    test('run reports changed rows; ON CONFLICT DO NOTHING changes none; RETURNING gives the row', async () => {
      expect((await store.run('INSERT INTO contract_items (id, label, at) VALUES (?, ?, ?)', [1, 'a', 1])).changes).toBe(1);
      expect((await store.run('INSERT INTO contract_items (id, label, at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING', [1, 'b', 2])).changes).toBe(0);
      const updated = await store.get<{ label: string }>('UPDATE contract_items SET label = ? WHERE id = ? RETURNING label', ['c', 1]);
      expect(updated).toEqual({ label: 'c' });
      expect((await store.run('DELETE FROM contract_items WHERE id IN (?, ?)', [1, 2])).changes).toBe(1);
      expect(await store.get('SELECT id FROM contract_items WHERE id = ?', [1])).toBeUndefined();
    });

    test('a transaction commits when its body resolves and leaves nothing when it throws', async () => {
      await store.transaction(async (tx) => {
        await tx.run('INSERT INTO contract_items (id, label, at) VALUES (?, ?, ?)', [1, 'kept', 1]);
      });
      await expect(
        store.transaction(async (tx) => {
          await tx.run('INSERT INTO contract_items (id, label, at) VALUES (?, ?, ?)', [2, 'dropped', 2]);
          // The store itself inside the body is the transaction too.
          await store.run('UPDATE contract_items SET label = ? WHERE id = ?', ['changed', 1]);
          throw new Error('no');
        }),
      ).rejects.toThrow('no');
      expect(await store.all('SELECT id, label FROM contract_items ORDER BY id')).toEqual([{ id: 1, label: 'kept' }]);
    });

    test('a transaction started inside one joins it: one commit, one rollback', async () => {
      await expect(
        store.transaction(async () => {
          await store.transaction(async (inner) => inner.run('INSERT INTO contract_items (id, label, at) VALUES (?, ?, ?)', [1, 'inner', 1]));
          throw new Error('outer fails');
        }),
      ).rejects.toThrow('outer fails');
      expect(await store.all('SELECT id FROM contract_items')).toEqual([]);
    });

    test('statements from outside never land in an open transaction: they wait, and see it only once committed', async () => {
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      let inserted!: () => void;
      const insertedInside = new Promise<void>((resolve) => (inserted = resolve));
      const open = store.transaction(async (tx) => {
        await tx.run('INSERT INTO contract_items (id, label, at) VALUES (?, ?, ?)', [1, 'inside', 1]);
        inserted();
        await gate;
        throw new Error('rolled back');
      });
      await insertedInside;
      const outside = store.run('INSERT INTO contract_items (id, label, at) VALUES (?, ?, ?)', [2, 'outside', 2]);
      const seen = store.all<{ id: number }>('SELECT id FROM contract_items ORDER BY id');
      release();
      await expect(open).rejects.toThrow('rolled back');
      await outside;
      // The outside insert survived the rollback; the read saw no uncommitted row.
      expect((await seen).map((row) => row.id)).not.toContain(1);
      expect((await store.all<{ id: number }>('SELECT id FROM contract_items ORDER BY id')).map((row) => row.id)).toEqual([2]);
    });

    test('a counter bumped by concurrent transactions loses no increment', async () => {
      await store.run('INSERT INTO contract_items (id, label, at) VALUES (?, ?, ?)', [1, 'counter', 0]);
      await Promise.all(
        Array.from({ length: 20 }, () =>
          store.transaction(async (tx) => {
            const row = await tx.get<{ at: number }>('UPDATE contract_items SET at = at + 1 WHERE id = ? RETURNING at', [1]);
            await tx.run('INSERT INTO contract_items (id, label, at) VALUES (?, ?, ?)', [100 + row!.at, 'log', row!.at]);
          }),
        ),
      );
      const rows = await store.all<{ id: number }>('SELECT id FROM contract_items WHERE label = ? ORDER BY id', ['log']);
      expect(rows.map((row) => row.id)).toEqual(Array.from({ length: 20 }, (_, i) => 101 + i));
    });

    test('IN lists run in chunks padded to a few lengths match each row once; more distinct statements than SQLite keeps prepared all run right', async () => {
      await store.run(`INSERT INTO contract_items (id, label, at) VALUES ${Array.from({ length: 600 }, (_, i) => `(${i + 1}, 'item', ${i})`).join(', ')}`);
      for (const count of [1, 3, 5, 100, 257, 499, 500, 501, 600]) {
        const ids = Array.from({ length: count }, (_, i) => count - i);
        const lengths: number[] = [];
        const rows = await inChunks(ids, (chunk) => {
          lengths.push(chunk.length);
          return store.all<{ id: number }>(`SELECT id FROM contract_items WHERE id IN (${placeholders(chunk.length)})`, chunk);
        });
        expect(rows.map((row) => Number(row.id)).sort((a, b) => a - b)).toEqual(ids.reverse());
        for (const length of lengths) expect([1, 2, 4, 8, 16, 32, 64, 128, 256, 500]).toContain(length);
      }
      // 300 statements, then the first again: dropped from the cache, prepared anew.
      for (let round = 0; round < 2; round++) {
        for (let n = 0; n < 300; n += round === 0 ? 1 : 50) expect(Number((await store.get<{ n: number }>(`SELECT ${n} AS n`))!.n)).toBe(n);
      }
    });
  });
}
