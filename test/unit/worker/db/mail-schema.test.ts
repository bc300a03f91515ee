import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { describe, expect, test } from 'vitest';
import { idbStoreFactory } from '../../../../src-worker/db/idb-store';
import { MAIL_SCHEMA, MAIL_TABLES, type MailTable } from '../../../../src-worker/db/mail-schema';
import { describeSchema, type DatabaseSchema } from '../../../../src-worker/db/schema';
import { only, prefixRange, withRead, withWrite, type LocalStore, type StoredRow } from '../../../../src-worker/db/store';
import { hashMessageIdHeader } from '../../../../src-worker/model/message-id-hash';

const NOW = Date.UTC(2026, 10, 21, 9, 0);

/** The schema as a browser that last ran version `version` had it. */
const schemaAt = (version: number): DatabaseSchema<MailTable> => ({
  tables: [...describeSchema(MAIL_SCHEMA, version).keys()],
  steps: MAIL_SCHEMA.steps.slice(0, version),
});

/** Rows as version `version` wrote them, for the tables that version had. */
function rowsWrittenAt(version: number): Partial<Record<MailTable, StoredRow[]>> {
  const needSync = version >= 4 ? { needSync: 0 } : {};
  const hash = version >= 5 ? { message_id_header_hash: hashMessageIdHeader('<m1@example.com>') } : {};
  return {
    Thread: [{ id: 't1', client_id: 't1', account_id: '7', last_message_received_timestamp: NOW, category_timestamps: [['inbox', NOW]], ...needSync }],
    Message: [{ id: 'm1', client_id: 'm1', account_id: '7', thread_id: 't1', folder_id: 'inbox', message_id_header: '<M1@example.com>', ...needSync, ...hash }],
    MessageBody: [{ id: 'm1', html: '<p>hi</p>' }],
    Category: [{ id: 'inbox', client_id: 'inbox', account_id: '7', name: 'Inbox' }],
    ...(version >= 2 ? { Log: [{ id: 'local-log', timestamp: version < 8 ? new Date(NOW).toISOString() : NOW, logs: 'hello', type: 'Info' }] } : {}),
    ...(version >= 12 ? { SearchThread: [{ id: 's1', client_id: 'local-s1', last_message_received_timestamp: NOW }] } : {}),
    ...(version >= 14
      ? { EmailLabels: [{ id: 'work', account_id: '7', name: 'Work' }, ...(version < 16 ? [{ id: 'sys', account_id: '7', is_system: 1 }] : [])] }
      : {}),
  };
}

/** Object stores and indexes as IndexedDB itself reports them. */
function shapeOf(db: IDBDatabase) {
  const tx = db.transaction([...db.objectStoreNames], 'readonly');
  return Object.fromEntries(
    [...db.objectStoreNames].map((name) => {
      const store = tx.objectStore(name);
      const indexes = [...store.indexNames].map((index) => {
        const { keyPath, multiEntry } = store.index(index);
        return { name: index, keyPath, multiEntry };
      });
      return [name, indexes.sort((a, b) => a.name.localeCompare(b.name))];
    }),
  );
}

async function rawOpen(factory: IDBFactory, name: string): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const request = factory.open(name);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

describe('mail database schema', () => {
  test('has the 23 tables of the spec and 19 versions', () => {
    expect(MAIL_TABLES).toHaveLength(23);
    expect(MAIL_SCHEMA.steps.map((step) => step.version)).toEqual(Array.from({ length: 19 }, (_, i) => i + 1));
    expect(describeSchema(MAIL_SCHEMA, 11).has('SearchThread')).toBe(false);
    expect(describeSchema(MAIL_SCHEMA, 12).has('SearchThread')).toBe(true);
    expect(describeSchema(MAIL_SCHEMA, 12).has('EmailTrackingInfo')).toBe(false);
    expect(describeSchema(MAIL_SCHEMA, 13).has('EmailTrackingInfo')).toBe(true);
    const clientIdIndex = (version: number) => describeSchema(MAIL_SCHEMA, version).get('SearchThread')?.some((index) => index.name === 'client_id');
    expect([clientIdIndex(18), clientIdIndex(19)]).toEqual([false, true]);
  });

  test('indexes the fields the spec lists', () => {
    const names = (table: MailTable) => describeSchema(MAIL_SCHEMA).get(table)?.map((index) => index.name);
    expect(names('Thread')).toEqual(
      expect.arrayContaining(['needSync', 'account_id', 'last_message_received_timestamp', 'category_timestamps', 'label_timestamps', 'email_label_timestamps', 'email_labels']),
    );
    expect(names('Message')).toEqual(expect.arrayContaining(['needSync', 'account_id', 'thread_id', 'folder_id', 'message_id_header_hash', 'draft_server_id', 'email_labels']));
  });

  test('a new database has exactly the shape the steps describe', async () => {
    const factory = new IDBFactory();
    (await idbStoreFactory(factory).open('42', MAIL_SCHEMA)).close();
    const db = await rawOpen(factory, '42');
    expect(db.version).toBe(19);
    const expected = Object.fromEntries(
      [...describeSchema(MAIL_SCHEMA)].map(([table, indexes]) => [
        table,
        indexes.map(({ name, keyPath, multiEntry }) => ({ name, keyPath, multiEntry: multiEntry ?? false })).sort((a, b) => a.name.localeCompare(b.name)),
      ]),
    );
    expect(shapeOf(db)).toEqual(expected);
    db.close();
  });

  test.each(Array.from({ length: 18 }, (_, i) => i + 1))('upgrades from version %i to 19 keeping the data', async (version) => {
    const stores = idbStoreFactory(new IDBFactory());
    const old = await stores.open('7', schemaAt(version));
    const written = rowsWrittenAt(version);
    const tables = Object.keys(written) as MailTable[];
    await withWrite(old, tables, async (tx) => {
      for (const table of tables) for (const row of written[table] ?? []) await tx.put(table, row);
    });
    old.close();

    const store: LocalStore<MailTable> = await stores.open('7', MAIL_SCHEMA);
    await withRead(store, MAIL_TABLES, async (tx) => {
      expect(await tx.get('MessageBody', 'm1')).toEqual({ id: 'm1', html: '<p>hi</p>' });
      expect(await tx.get('Category', 'inbox')).toMatchObject({ name: 'Inbox' });
      // v4 backfilled needSync, so both rows are in the index.
      expect(await tx.getAllKeys('Thread', { index: 'needSync', range: only(0) })).toEqual(['t1']);
      expect(await tx.getAllKeys('Message', { index: 'needSync', range: only(0) })).toEqual(['m1']);
      // v5 hashed the Message-ID of messages stored before it.
      const hash = hashMessageIdHeader('<m1@example.com>') as number;
      expect(await tx.getAllKeys('Message', { index: 'message_id_header_hash', range: only(hash) })).toEqual(['m1']);
      expect(await tx.getAllKeys('Thread', { index: 'category_timestamps', range: prefixRange(['inbox']) })).toEqual(['t1']);
      if (version >= 2) {
        // v8 turned ISO log timestamps into epoch ms.
        expect(await tx.getAll('Log', { index: 'timestamp', range: { upper: NOW } })).toEqual([{ id: 'local-log', timestamp: NOW, logs: 'hello', type: 'Info' }]);
      }
      if (version >= 12) expect(await tx.getAllKeys('SearchThread', { index: 'client_id', range: only('local-s1') })).toEqual(['s1']);
      // v16 removed system labels stored among user labels.
      if (version >= 14) expect(await tx.getAllKeys('EmailLabels')).toEqual(['work']);
      expect(await tx.count('InvoiceBuilderTemplatesMeta')).toBe(0);
    });
    store.close();
  });
});
