/**
 * The LocalStore over IndexedDB, through idb's promise wrappers. The factory is injected
 * so tests (fake-indexeddb) and the engine choose it; idb itself only wraps.
 */
import { unwrap, wrap, type IDBPDatabase, type IDBPIndex, type IDBPObjectStore, type IDBPTransaction } from 'idb';
import { TernError } from '../../shared/errors';
import { latestVersion, type DatabaseSchema, type SchemaEditor } from './schema';
import { StoredVersionTooNewError, toStorageError } from './storage-errors';
import { closedError, type CloseReason, type KeyRange, type LocalStore, type PendingWrite, type Query, type ReadTransaction, type StoreFactory, type StoredRow, type WriteTransaction } from './store';

export interface IdbStoreOptions<T extends string> {
  readonly name: string;
  readonly schema: DatabaseSchema<T>;
  /** Defaults to the global `indexedDB`. */
  readonly factory?: IDBFactory;
}

// Table names are plain strings to idb: our schema is data, not an idb DBSchema type.
type Tx = IDBPTransaction<unknown, string[], IDBTransactionMode>;
type UpgradeTx = IDBPTransaction<unknown, string[], 'versionchange'>;
type WriteStore = IDBPObjectStore<unknown, string[], string, 'readwrite'>;
type Source = IDBPObjectStore<unknown, string[], string, IDBTransactionMode> | IDBPIndex<unknown, string[], string, string, IDBTransactionMode>;

/**
 * Opens (creating or upgrading) a database. A stored version newer than the schema
 * rejects with StoredVersionTooNewError; other failures with a catalogue error.
 */
export async function openIdbStore<T extends string>(options: IdbStoreOptions<T>): Promise<LocalStore<T>> {
  const { name, schema } = options;
  const factory = options.factory ?? globalThis.indexedDB;
  if (!factory) throw new TernError('DatabaseError', { detail: { database: name, cause: 'IndexedDB is not available' } });
  let request: IDBOpenDBRequest;
  try {
    request = factory.open(name, latestVersion(schema));
  } catch (error) {
    throw toStorageError(error, name, null);
  }
  let upgradeError: unknown;
  request.addEventListener('upgradeneeded', (event) => {
    const transaction = request.transaction;
    if (!transaction) return;
    runSteps(schema, wrap(request.result), wrap(transaction) as unknown as UpgradeTx, event.oldVersion).catch((error: unknown) => {
      upgradeError = error;
      try {
        transaction.abort();
      } catch {
        // Already finished: the open request reports the failure.
      }
    });
  });
  try {
    const db = await wrap(request);
    if (!db) throw new Error('IndexedDB returned no database.');
    return new IdbStore(db, name, schema.tables);
  } catch (error) {
    if ((error as { name?: unknown })?.name === 'VersionError') throw new StoredVersionTooNewError(name);
    throw toStorageError(upgradeError ?? error, name, null);
  }
}

/** The StoreFactory over an IndexedDB factory (the global `indexedDB` by default). */
export function idbStoreFactory(factory?: IDBFactory): StoreFactory {
  return {
    open: (name, schema) => openIdbStore({ name, schema, ...(factory ? { factory } : {}) }),
    delete: (name) => deleteIdbDatabase(name, factory),
  };
}

/** Deletes a database; resolves once every connection has closed. */
export async function deleteIdbDatabase(name: string, factory: IDBFactory | undefined = globalThis.indexedDB): Promise<void> {
  if (!factory) return;
  await wrap(factory.deleteDatabase(name)).catch((error: unknown) => {
    throw toStorageError(error, name, null);
  });
}

/** Runs the steps after `oldVersion` inside the versionchange transaction, one after another. */
async function runSteps<T extends string>(schema: DatabaseSchema<T>, db: IDBPDatabase, tx: UpgradeTx, oldVersion: number): Promise<void> {
  for (const step of schema.steps.slice(oldVersion)) {
    const rewrites: Promise<void>[] = [];
    const editor: SchemaEditor<T> = {
      createTable: (table, indexes = []) => {
        const store = db.createObjectStore(table, { keyPath: 'id' });
        for (const index of indexes) store.createIndex(index.name, index.keyPath as string | string[], { multiEntry: index.multiEntry ?? false });
      },
      deleteTable: (table) => db.deleteObjectStore(table),
      createIndex: (table, index) =>
        void tx.objectStore(table).createIndex(index.name, index.keyPath as string | string[], { multiEntry: index.multiEntry ?? false }),
      deleteIndex: (table, name) => tx.objectStore(table).deleteIndex(name),
      rewriteRows: (table, rewrite) => {
        rewrites.push(
          (async () => {
            for (let cursor = await tx.objectStore(table).openCursor(); cursor; cursor = await cursor.continue()) {
              const next = rewrite(cursor.value as StoredRow);
              if (next === null) await cursor.delete();
              else if (next !== undefined) await cursor.update(next);
            }
          })(),
        );
      },
    };
    step.apply(editor);
    await Promise.all(rewrites);
  }
}

function toIdbRange(range: KeyRange | undefined): IDBKeyRange | undefined {
  if (!range || (range.lower === undefined && range.upper === undefined)) return undefined;
  if (range.lower !== undefined && range.upper !== undefined) {
    return IDBKeyRange.bound(range.lower, range.upper, range.lowerOpen ?? false, range.upperOpen ?? false);
  }
  return range.lower !== undefined ? IDBKeyRange.lowerBound(range.lower, range.lowerOpen ?? false) : IDBKeyRange.upperBound(range.upper, range.upperOpen ?? false);
}

class IdbStore<T extends string> implements LocalStore<T> {
  closeReason: CloseReason | null = null;

  constructor(
    private readonly db: IDBPDatabase,
    readonly name: string,
    readonly tables: readonly T[],
  ) {
    // Another connection wants to upgrade or delete this database (a newer tab, a reset
    // elsewhere): close at once so it is not blocked; our next transaction reopens.
    db.addEventListener('versionchange', () => this.close('version-change'));
    db.addEventListener('close', () => {
      this.closeReason ??= 'closed';
    });
  }

  beginRead(tables: readonly T[]): ReadTransaction<T> {
    return this.transactionOps(this.open(tables, 'readonly'));
  }

  beginWrite(tables: readonly T[]): PendingWrite<T> {
    const tx = this.open(tables, 'readwrite');
    // The outcome is reported by commit(); this keeps an abort from surfacing as unhandled.
    tx.done.catch(() => {});
    return {
      tx: this.transactionOps(tx),
      commit: async () => {
        try {
          // commit() only ends the transaction sooner; Safari before 15 lacks it and commits on its own.
          (tx as { commit?: () => void }).commit?.();
          await tx.done;
        } catch (error) {
          throw toStorageError(error, this.name, this.closeReason);
        }
      },
      abort: () => {
        try {
          tx.abort();
        } catch {
          // Already committed or aborted.
        }
      },
    };
  }

  close(reason: CloseReason = 'closed'): void {
    if (this.closeReason === null) this.closeReason = reason;
    this.db.close();
  }

  private open(tables: readonly T[], mode: IDBTransactionMode): Tx {
    if (this.closeReason !== null) throw closedError(this.name, this.closeReason);
    try {
      // Relaxed: a write commits once the browser has it, without waiting for the disk to
      // flush (issue 13: a sync writes a transaction per page). Everything here can be synced
      // again from the gateway, and unsent commands are re-sent on the next start if a crash
      // of the whole OS drops their last transaction.
      return mode === 'readwrite' ? this.db.transaction([...tables] as string[], mode, { durability: 'relaxed' }) : this.db.transaction([...tables] as string[], mode);
    } catch (error) {
      throw toStorageError(error, this.name, this.closeReason);
    }
  }

  private transactionOps(tx: Tx): WriteTransaction<T> {
    const guard = async <R>(work: () => Promise<R>): Promise<R> => {
      try {
        return await work();
      } catch (error) {
        throw toStorageError(error, this.name, this.closeReason);
      }
    };
    const writable = (table: T) => tx.objectStore(table as string) as unknown as WriteStore;
    // Bulk requests go to IndexedDB itself: idb's promise (and its two listeners) per request
    // is most of what a row costs in the worker when thousands are written in one page.
    const raw = unwrap(tx) as IDBTransaction;
    const rawStores = new Map<string, IDBObjectStore>();
    const rawStore = (table: T) => {
      let store = rawStores.get(table);
      if (!store) rawStores.set(table, (store = raw.objectStore(table as string)));
      return store;
    };
    const rawWrite = (work: () => void) => {
      try {
        work();
      } catch (error) {
        throw toStorageError(error, this.name, this.closeReason);
      }
    };
    const source = (table: T, query: Query | undefined): Source => {
      const store = tx.objectStore(table as string);
      return query?.index ? store.index(query.index) : store;
    };
    // getAll has no direction: a 'prev' query walks a cursor instead.
    const collectRows = async (table: T, query: Query | undefined) => {
      const rows: StoredRow[] = [];
      const limit = query?.limit ?? Infinity;
      for (let cursor = await source(table, query).openCursor(toIdbRange(query?.range), 'prev'); cursor && rows.length < limit; cursor = await cursor.continue()) {
        rows.push(cursor.value as StoredRow);
      }
      return rows;
    };
    // Newest-first keys (live lists) need no row: a key cursor never reads or clones the values.
    const collectKeys = async (table: T, query: Query | undefined) => {
      const keys: string[] = [];
      const limit = query?.limit ?? Infinity;
      for (let cursor = await source(table, query).openKeyCursor(toIdbRange(query?.range), 'prev'); cursor && keys.length < limit; cursor = await cursor.continue()) {
        keys.push(cursor.primaryKey as string);
      }
      return keys;
    };
    return {
      get: (table, id) => guard(async () => (await tx.objectStore(table as string).get(id)) as StoredRow | undefined),
      getAll: (table, query) =>
        guard(async () =>
          query?.direction === 'prev'
            ? collectRows(table, query)
            : ((await source(table, query).getAll(toIdbRange(query?.range), query?.limit)) as StoredRow[]),
        ),
      getAllKeys: (table, query) =>
        guard(async () => {
          if (query?.direction === 'prev') return collectKeys(table, query);
          const s = source(table, query);
          return (await s.getAllKeys(toIdbRange(query?.range), query?.limit)) as string[];
        }),
      count: (table, query) => guard(() => source(table, query).count(toIdbRange(query?.range))),
      getMany: (table, ids) =>
        guard(
          () =>
            new Promise<(StoredRow | undefined)[]>((resolve, reject) => {
              if (ids.length === 0) return resolve([]);
              const store = rawStore(table);
              const requests = ids.map((id) => store.get(id));
              // Requests finish in the order issued: the last one's answer means all are in.
              // A failed one aborts the transaction, and the last one then fails too.
              const last = requests[requests.length - 1]!;
              last.onsuccess = () => resolve(requests.map((request) => request.result as StoredRow | undefined));
              last.onerror = () => reject(last.error);
            }),
        ),
      // Only beginWrite hands these out; IndexedDB itself refuses them on a readonly transaction.
      put: (table, row) => guard(async () => void (await writable(table).put(row))),
      delete: (table, ids) =>
        guard(async () => {
          const store = writable(table);
          await Promise.all((typeof ids === 'string' ? [ids] : ids).map((id) => store.delete(id)));
        }),
      clear: (table) => guard(() => writable(table).clear()),
      // No listener: a failed request aborts the transaction, and commit() reports it.
      queuePut: (table, row) => rawWrite(() => void rawStore(table).put(row)),
      queueDelete: (table, ids) =>
        rawWrite(() => {
          const store = rawStore(table);
          for (const id of typeof ids === 'string' ? [ids] : ids) store.delete(id);
        }),
    };
  }
}
