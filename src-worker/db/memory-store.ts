/**
 * The LocalStore in memory: same contract as IndexedDB (clones on the way in and out,
 * atomic writes, scope checks, key order, upgrades by the same schema steps). For tests
 * and for running the engine headless without IndexedDB.
 */
import { TernError } from '../../shared/errors';
import { compareKeys, isInRange, isValidKey } from './key-order';
import { latestVersion, type DatabaseSchema, type IndexSpec, type SchemaEditor } from './schema';
import { StoredVersionTooNewError } from './storage-errors';
import { closedError, type CloseReason, type Key, type LocalStore, type PendingWrite, type Query, type ReadTransaction, type StoreFactory, type StoredRow, type WriteTransaction } from './store';

interface MemoryDatabase {
  version: number;
  readonly rows: Map<string, Map<string, StoredRow>>;
  readonly indexes: Map<string, IndexSpec[]>;
  readonly connections: Set<MemoryStore<string>>;
  /** Write transactions run one at a time, as IndexedDB runs overlapping readwrite ones. */
  writeQueue: Promise<void>;
}

/** Databases by name, like one browser profile's IndexedDB. */
export class MemoryDatabases implements StoreFactory {
  private readonly databases = new Map<string, MemoryDatabase>();

  /** Opens (creating or upgrading) a database; a newer stored version rejects like IndexedDB's VersionError. */
  async open<T extends string>(name: string, schema: DatabaseSchema<T>): Promise<LocalStore<T>> {
    const target = latestVersion(schema);
    let db = this.databases.get(name);
    if (db && db.version > target) throw new StoredVersionTooNewError(name);
    if (!db) {
      db = { version: 0, rows: new Map(), indexes: new Map(), connections: new Set(), writeQueue: Promise.resolve() };
      this.databases.set(name, db);
    }
    if (db.version < target) {
      for (const connection of db.connections) connection.close('version-change');
      for (const step of schema.steps.slice(db.version)) step.apply(memoryEditor(db));
      db.version = target;
    }
    const store = new MemoryStore<T>(name, schema.tables, db);
    db.connections.add(store);
    return store;
  }

  /** Deletes a database, closing its open connections first (they see version-change). */
  async delete(name: string): Promise<void> {
    const db = this.databases.get(name);
    for (const connection of db?.connections ?? []) connection.close('version-change');
    this.databases.delete(name);
  }

  /** Stored version of a database; 0 when there is none. */
  versionOf(name: string): number {
    return this.databases.get(name)?.version ?? 0;
  }
}

function memoryEditor(db: MemoryDatabase): SchemaEditor<string> {
  const table = (name: string) => {
    const rows = db.rows.get(name);
    if (!rows) throw new Error(`No table ${name}.`);
    return rows;
  };
  return {
    createTable: (name, indexes = []) => {
      db.rows.set(name, new Map());
      db.indexes.set(name, [...indexes]);
    },
    deleteTable: (name) => void (db.rows.delete(name), db.indexes.delete(name)),
    createIndex: (name, index) => {
      table(name);
      db.indexes.get(name)?.push(index);
    },
    deleteIndex: (name, index) => void db.indexes.set(name, (db.indexes.get(name) ?? []).filter((spec) => spec.name !== index)),
    rewriteRows: (name, rewrite) => {
      for (const [id, row] of table(name)) {
        const next = rewrite(structuredClone(row));
        if (next === null) table(name).delete(id);
        else if (next !== undefined) table(name).set(id, structuredClone(next));
      }
    },
  };
}

/** The index keys of a row, as IndexedDB computes them (invalid keys are left out). */
function indexKeys(row: StoredRow, spec: IndexSpec): Key[] {
  if (typeof spec.keyPath !== 'string') {
    const key = spec.keyPath.map((path) => row[path]);
    return isValidKey(key) ? [key] : [];
  }
  const value = row[spec.keyPath];
  if (spec.multiEntry && Array.isArray(value)) {
    const keys = value.filter(isValidKey);
    return keys.filter((key, i) => keys.findIndex((other) => compareKeys(other, key) === 0) === i);
  }
  return isValidKey(value) ? [value] : [];
}

const DELETED = Symbol('deleted');
type Overlay = Map<string, Map<string, StoredRow | typeof DELETED>>;

class MemoryStore<T extends string> implements LocalStore<T> {
  closeReason: CloseReason | null = null;

  constructor(
    readonly name: string,
    readonly tables: readonly T[],
    private readonly db: MemoryDatabase,
  ) {}

  beginRead(tables: readonly T[]): ReadTransaction<T> {
    this.checkOpen(tables);
    // Reads see committed rows only, never another transaction's pending changes.
    return this.transactionOps(new Set(tables), null, Promise.resolve());
  }

  beginWrite(tables: readonly T[]): PendingWrite<T> {
    this.checkOpen(tables);
    const overlay: Overlay = new Map();
    let release!: () => void;
    const turn = this.db.writeQueue;
    this.db.writeQueue = new Promise((resolve) => (release = resolve));
    let finished = false;
    const finish = () => {
      finished = true;
      release();
    };
    const queued: Promise<void>[] = [];
    return {
      tx: this.transactionOps(new Set(tables), overlay, turn, () => finished, queued),
      commit: async () => {
        await turn;
        if (finished) return;
        // Queued writes fail the commit, as a failed IndexedDB request aborts its transaction.
        const failure = (await Promise.allSettled(queued)).find((outcome) => outcome.status === 'rejected');
        if (failure) {
          finish();
          throw failure.reason;
        }
        if (this.closeReason !== null) {
          finish();
          throw closedError(this.name, this.closeReason);
        }
        for (const [table, changes] of overlay) {
          const rows = this.rowsOf(table);
          for (const [id, row] of changes) {
            if (row === DELETED) rows.delete(id);
            else rows.set(id, row);
          }
        }
        finish();
      },
      abort: () => {
        if (!finished) void turn.then(finish);
      },
    };
  }

  close(reason: CloseReason = 'closed'): void {
    if (this.closeReason === null) this.closeReason = reason;
    this.db.connections.delete(this);
  }

  private checkOpen(tables: readonly T[]): void {
    if (this.closeReason !== null) throw closedError(this.name, this.closeReason);
    for (const table of tables) this.rowsOf(table);
  }

  private rowsOf(table: string): Map<string, StoredRow> {
    const rows = this.db.rows.get(table);
    if (!rows) throw new TernError('DatabaseError', { detail: { database: this.name, cause: 'NotFoundError', message: `No table ${table}.` } });
    return rows;
  }

  private transactionOps(scope: Set<T>, overlay: Overlay | null, turn: Promise<void>, finished = () => false, queued: Promise<void>[] = []): WriteTransaction<T> {
    const usable = (table: T) => {
      if (this.closeReason !== null) throw closedError(this.name, this.closeReason);
      if (finished()) throw new TernError('DatabaseError', { detail: { database: this.name, cause: 'TransactionInactiveError', message: 'The transaction has finished.' } });
      if (!scope.has(table)) throw new TernError('DatabaseError', { detail: { database: this.name, cause: 'NotFoundError', message: `Table ${table} is outside the transaction.` } });
    };
    const enter = async (table: T) => {
      await turn;
      usable(table);
    };
    const current = (table: T): Map<string, StoredRow> => {
      const changes = overlay?.get(table);
      if (!changes?.size) return this.rowsOf(table);
      const merged = new Map(this.rowsOf(table));
      for (const [id, row] of changes) {
        if (row === DELETED) merged.delete(id);
        else merged.set(id, row);
      }
      return merged;
    };
    const rowOf = (table: T, id: string): StoredRow | undefined => {
      const changed = overlay?.get(table)?.get(id);
      if (changed === DELETED) return undefined;
      return changed ?? this.rowsOf(table).get(id);
    };
    const entriesOf = (table: T, query: Query | undefined): { key: Key; row: StoredRow }[] => {
      const rows = [...current(table).values()];
      const spec = query?.index ? this.db.indexes.get(table)?.find((index) => index.name === query.index) : undefined;
      if (query?.index && !spec) throw new TernError('DatabaseError', { detail: { database: this.name, cause: 'NotFoundError', message: `No index ${query.index} on ${table}.` } });
      const entries = rows.flatMap((row) => (spec ? indexKeys(row, spec) : [row.id]).map((key) => ({ key, row })));
      const matching = entries.filter((entry) => isInRange(entry.key, query?.range));
      matching.sort((a, b) => compareKeys(a.key, b.key) || compareKeys(a.row.id, b.row.id));
      if (query?.direction === 'prev') matching.reverse();
      return matching.slice(0, query?.limit ?? matching.length);
    };
    const cloneRow = (row: StoredRow): StoredRow => {
      if (typeof row.id !== 'string' || !isValidKey(row.id)) {
        throw new TernError('DatabaseError', { detail: { database: this.name, cause: 'DataError', message: 'A row needs a string id.' } });
      }
      try {
        return structuredClone(row);
      } catch (error) {
        throw new TernError('DatabaseError', { detail: { database: this.name, cause: 'DataCloneError', message: String(error) } });
      }
    };
    // What IndexedDB refuses at once when a request is made, not later.
    const checkQueued = (table: T) => {
      usable(table);
      write(table);
    };
    const queue = (request: Promise<void>) => {
      request.catch(() => {}); // reported by commit
      queued.push(request);
    };
    const write = (table: T) => {
      if (!overlay) throw new TernError('DatabaseError', { detail: { database: this.name, cause: 'ReadOnlyError', message: 'A read transaction cannot write.' } });
      let changes = overlay.get(table);
      if (!changes) overlay.set(table, (changes = new Map()));
      return changes;
    };
    return {
      get: async (table, id) => {
        await enter(table);
        const row = rowOf(table, id);
        return row === undefined ? undefined : structuredClone(row);
      },
      getMany: async (table, ids) => {
        await enter(table);
        return ids.map((id) => {
          const row = rowOf(table, id);
          return row === undefined ? undefined : structuredClone(row);
        });
      },
      getAll: async (table, query) => (await enter(table), entriesOf(table, query).map((entry) => structuredClone(entry.row))),
      getAllKeys: async (table, query) => (await enter(table), entriesOf(table, query).map((entry) => entry.row.id)),
      count: async (table, query) => (await enter(table), entriesOf(table, query && { index: query.index, range: query.range }).length),
      put: async (table, row) => {
        // Cloned when called, as IndexedDB does: a change to the object afterwards is not stored.
        const copy = cloneRow(row);
        await enter(table);
        write(table).set(copy.id, copy);
      },
      delete: async (table, ids) => {
        await enter(table);
        for (const id of typeof ids === 'string' ? [ids] : ids) write(table).set(id, DELETED);
      },
      queuePut: (table, row) => {
        checkQueued(table);
        const copy = cloneRow(row);
        queue(
          (async () => {
            await enter(table);
            write(table).set(copy.id, copy);
          })(),
        );
      },
      queueDelete: (table, ids) => {
        checkQueued(table);
        const list = typeof ids === 'string' ? [ids] : [...ids];
        queue(
          (async () => {
            await enter(table);
            for (const id of list) write(table).set(id, DELETED);
          })(),
        );
      },
      clear: async (table) => {
        await enter(table);
        for (const id of current(table).keys()) write(table).set(id, DELETED);
      },
    };
  }
}
