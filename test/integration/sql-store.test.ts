/**
 * The SqlStore contract on both engines the gateway runs on: SQLite in a temp data dir, and
 * a real PostgreSQL started from Debian's package by the harness (support/engines.ts).
 */
import type { SqlStore } from '../../src-server/store/sql';
import { describeOnEngines } from './support/engines';
import { describeSqlStoreContract } from './support/sql-store-contract';

const tables = async (store: SqlStore) =>
  store.dialect === 'sqlite'
    ? (await store.all<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table'")).map((row) => row.name)
    : (await store.all<{ name: string }>("SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public'")).map((row) => row.name);

const version = async (store: SqlStore) =>
  store.dialect === 'sqlite'
    ? (await store.get<{ user_version: number }>('PRAGMA user_version'))!.user_version
    : (await store.get<{ version: number }>('SELECT version FROM schema_version'))!.version;

describeOnEngines('SqlStore', (engine) => describeSqlStoreContract({ open: () => engine.open(), tables, version }));
