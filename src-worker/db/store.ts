/**
 * The local store: a small interface over one database of tables with indexes, with an
 * IndexedDB implementation (idb-store.ts) and an in-memory one (memory-store.ts) that
 * pass the same contract tests (STYLE.md item 7). Code outside src-worker/db reaches the
 * tables only through `withRead` / `withWrite` (item 8).
 */
import { TernError } from '../../shared/errors';
import type { DatabaseSchema } from './schema';

/** An IndexedDB key as we use them: no Dates or binary (datetimes are stored as epoch ms). */
export type Key = string | number | readonly Key[];

/** A row: `id` is the primary key of every table. Values must be structured-cloneable. */
export interface StoredRow {
  readonly id: string;
  readonly [column: string]: unknown;
}

/** A key range; bounds are inclusive unless marked open. No bounds means every key. */
export interface KeyRange {
  readonly lower?: Key;
  readonly upper?: Key;
  readonly lowerOpen?: boolean;
  readonly upperOpen?: boolean;
}

/** Which rows of a table, in which order, how many. */
export interface Query {
  /** An index name from the schema; the primary key when absent. */
  readonly index?: string;
  readonly range?: KeyRange;
  /** 'prev' lists the highest keys first (e.g. newest threads). */
  readonly direction?: 'next' | 'prev';
  readonly limit?: number;
}

export interface ReadTransaction<T extends string = string> {
  /** One row by primary key. */
  get(table: T, id: string): Promise<StoredRow | undefined>;
  /** Rows in key order; a multiEntry index yields a row once per matching entry. */
  getAll(table: T, query?: Query): Promise<StoredRow[]>;
  /** Primary keys of the rows `getAll` would return. */
  getAllKeys(table: T, query?: Query): Promise<string[]>;
  /** How many entries match (direction and limit are ignored). */
  count(table: T, query?: Pick<Query, 'index' | 'range'>): Promise<number>;
  /**
   * Rows by primary key, in the order of `ids` (undefined where there is none). The reads
   * are issued together and answered together: one wait for a batch, not one per row.
   */
  getMany(table: T, ids: readonly string[]): Promise<(StoredRow | undefined)[]>;
}

export interface WriteTransaction<T extends string = string> extends ReadTransaction<T> {
  /** Inserts or replaces a row by its id. */
  put(table: T, row: StoredRow): Promise<void>;
  /** Deletes rows by id; unknown ids are ignored. */
  delete(table: T, ids: string | readonly string[]): Promise<void>;
  /** Deletes every row of the table. */
  clear(table: T): Promise<void>;
  /**
   * Bulk writes: queued without a promise per row. Later requests of the transaction see
   * them (requests run in the order issued); a row that cannot be stored throws here or
   * fails the commit, which then keeps none of the transaction's changes.
   */
  queuePut(table: T, row: StoredRow): void;
  /** Queued like `queuePut`: deletes rows by id; unknown ids are ignored. */
  queueDelete(table: T, ids: string | readonly string[]): void;
}

/** An open write transaction, before it is committed or aborted. */
export interface PendingWrite<T extends string> {
  readonly tx: WriteTransaction<T>;
  /** Resolves once the changes are durable; rejects with a storage error otherwise. */
  commit(): Promise<void>;
  /** Drops every change of the transaction. */
  abort(): void;
}

/** Why a store was closed; carried as `detail.reason` of DatabaseClosed. */
export type CloseReason = 'closed' | 'version-change' | 'logged-out';

export interface LocalStore<T extends string = string> {
  /** The database name (the account id for mail databases). */
  readonly name: string;
  /** Table names of the schema. */
  readonly tables: readonly T[];
  /** Set once closed; every later transaction fails with DatabaseClosed. */
  readonly closeReason: CloseReason | null;
  /** Low level: call withRead instead. */
  beginRead(tables: readonly T[]): ReadTransaction<T>;
  /** Low level: call withWrite instead. */
  beginWrite(tables: readonly T[]): PendingWrite<T>;
  /** Closes the store; open transactions fail. */
  close(reason?: CloseReason): void;
}

/**
 * Runs `body` in a read transaction over `tables`. Await only this transaction's
 * requests inside `body`: IndexedDB ends a transaction at the first unrelated await.
 */
export async function withRead<T extends string, R>(
  store: LocalStore<T>,
  tables: readonly T[],
  body: (tx: ReadTransaction<T>) => Promise<R>,
): Promise<R> {
  return body(store.beginRead(tables));
}

/**
 * Runs `body` in one atomic write transaction over `tables`: every change is kept once
 * it resolves, none if it throws. The same rule on awaits as `withRead` holds.
 */
export async function withWrite<T extends string, R>(
  store: LocalStore<T>,
  tables: readonly T[],
  body: (tx: WriteTransaction<T>) => Promise<R>,
): Promise<R> {
  const pending = store.beginWrite(tables);
  let result: R;
  try {
    result = await body(pending.tx);
  } catch (error) {
    pending.abort();
    throw error;
  }
  await pending.commit();
  return result;
}

/** Every key equal to `key`. */
export function only(key: Key): KeyRange {
  return { lower: key, upper: key };
}

/**
 * Every compound key starting with `prefix`, e.g. `prefixRange(['inbox'])` for
 * `[folderId, timestamp]` entries of the inbox. `[]` sorts after every number and
 * string, so `[...prefix, []]` is above every key with that prefix.
 */
export function prefixRange(prefix: readonly Key[]): KeyRange {
  return { lower: prefix, upper: [...prefix, []] };
}

/** The error every transaction on a closed store fails with. */
export function closedError(name: string, reason: CloseReason): TernError {
  return new TernError('DatabaseClosed', { detail: { database: name, reason } });
}

/** Opens and deletes databases by name: IndexedDB (idbStoreFactory) or memory (MemoryDatabases). */
export interface StoreFactory {
  /**
   * Opens a database, creating it or running the upgrade steps it lacks. Rejects with
   * StoredVersionTooNewError when the stored version is newer than the schema.
   */
  open<T extends string>(name: string, schema: DatabaseSchema<T>): Promise<LocalStore<T>>;
  /** Deletes a database; its open connections close with reason 'version-change'. */
  delete(name: string): Promise<void>;
}
