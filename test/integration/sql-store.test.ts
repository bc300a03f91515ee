/**
 * The SqlStore contract on both engines the gateway runs on: SQLite in a temp data dir, and
 * a real PostgreSQL started from Debian's package by the harness (one server for the file,
 * one fresh database per test).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { openStore } from '../../src-server/store/open-store';
import type { SqlStore } from '../../src-server/store/sql';
import { startPostgres, type PostgresServer } from '../harness/postgres-server';
import { describeSqlStoreContract } from './support/sql-store-contract';

let postgres: PostgresServer;
let scratch: string;
let databases = 0;
beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'tern-sql-'));
  postgres = await startPostgres({ dir: join(scratch, 'postgres') });
});
afterAll(async () => {
  await postgres?.stop();
  await rm(scratch, { recursive: true, force: true });
});

describeSqlStoreContract('SQLite', () => ({
  open: async () => openStore({ dataDir: await mkdtemp(join(scratch, 'sqlite-')), databaseFile: 'tern.sqlite' }),
  tables: async (store: SqlStore) => (await store.all<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table'")).map((row) => row.name),
  version: async (store: SqlStore) => (await store.get<{ user_version: number }>('PRAGMA user_version'))!.user_version,
}));

describeSqlStoreContract('PostgreSQL', () => ({
  open: async () => openStore({ databaseUrl: await postgres.createDatabase(`contract_${++databases}`), dataDir: scratch, databaseFile: 'unused' }),
  tables: async (store: SqlStore) => (await store.all<{ name: string }>("SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public'")).map((row) => row.name),
  version: async (store: SqlStore) => (await store.get<{ version: number }>('SELECT version FROM schema_version'))!.version,
}));
