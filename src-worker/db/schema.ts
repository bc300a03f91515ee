/**
 * A database schema as a list of small upgrade steps, one per version (step i makes
 * version i + 1). The IndexedDB store runs the steps after the stored version; the
 * in-memory store reads the shape the steps describe. One list, so they cannot drift.
 */
import type { StoredRow } from './store';

export interface IndexSpec {
  readonly name: string;
  /** A column, or several for a compound key. */
  readonly keyPath: string | readonly string[];
  /** For a column holding an array: one index entry per element. */
  readonly multiEntry?: boolean;
}

/** What an upgrade step may do. Every table's primary key is `id`. */
export interface SchemaEditor<T extends string> {
  createTable(table: T, indexes?: readonly IndexSpec[]): void;
  deleteTable(table: T): void;
  createIndex(table: T, index: IndexSpec): void;
  deleteIndex(table: T, name: string): void;
  /** Rewrites every stored row: return a row to replace it, null to delete it, undefined to keep it. */
  rewriteRows(table: T, rewrite: (row: StoredRow) => StoredRow | null | undefined): void;
}

export interface SchemaStep<T extends string> {
  /** The version this step produces. */
  readonly version: number;
  readonly apply: (editor: SchemaEditor<T>) => void;
}

export interface DatabaseSchema<T extends string> {
  /** Every table of the latest version. */
  readonly tables: readonly T[];
  /** Steps for versions 1..N in order. */
  readonly steps: readonly SchemaStep<T>[];
}

export function latestVersion(schema: DatabaseSchema<string>): number {
  return schema.steps.length;
}

/** Tables and their indexes at `version` (the latest by default), as the steps leave them. */
export function describeSchema<T extends string>(schema: DatabaseSchema<T>, version = latestVersion(schema)): Map<T, IndexSpec[]> {
  const tables = new Map<T, IndexSpec[]>();
  const indexesOf = (table: T) => {
    const indexes = tables.get(table);
    if (!indexes) throw new Error(`Schema step uses table ${table} before creating it.`);
    return indexes;
  };
  const recorder: SchemaEditor<T> = {
    createTable: (table, indexes = []) => void tables.set(table, [...indexes]),
    deleteTable: (table) => void tables.delete(table),
    createIndex: (table, index) => void indexesOf(table).push(index),
    deleteIndex: (table, name) => void tables.set(table, indexesOf(table).filter((index) => index.name !== name)),
    rewriteRows: (table) => void indexesOf(table),
  };
  for (const step of schema.steps.slice(0, version)) step.apply(recorder);
  return tables;
}

/** Checks the steps are numbered 1..N and end with exactly the declared tables. */
export function assertSchemaConsistent(schema: DatabaseSchema<string>): void {
  schema.steps.forEach((step, i) => {
    if (step.version !== i + 1) throw new Error(`Schema step ${i} declares version ${step.version}, expected ${i + 1}.`);
  });
  const built = [...describeSchema(schema).keys()].sort();
  const declared = [...schema.tables].sort();
  if (built.join() !== declared.join()) throw new Error(`Schema steps build [${built}] but declare [${declared}].`);
}
