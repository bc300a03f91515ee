import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { openDatabase } from './database';
import { MIGRATIONS } from './migrations';
import { POSTGRES_MIGRATIONS } from './migrations-postgres';
import { PostgresStore } from './postgres-store';
import type { SqlStore } from './sql';
import { SqliteStore } from './sqlite-store';

export interface StoreLocation {
  /** TERN_DATABASE_URL: a postgres:// URL selects PostgreSQL; unset means SQLite in the data dir. */
  readonly databaseUrl?: string | undefined;
  readonly dataDir: string;
  /** The SQLite file in the data dir (':memory:' for a throwaway one). */
  readonly databaseFile: string;
}

/** Opens the gateway's store on the engine `location` names and brings its schema up to date. */
export async function openStore(location: StoreLocation): Promise<SqlStore> {
  // The data dir holds the key file, the spool and the uploads on either engine: on
  // PostgreSQL nothing else would create it before the key file is written.
  mkdirSync(location.dataDir, { recursive: true, mode: 0o700 });
  if (location.databaseUrl) {
    const store = PostgresStore.connect(location.databaseUrl);
    try {
      await migratePostgres(store);
    } catch (error) {
      await store.close();
      throw error;
    }
    return store;
  }
  const db = openDatabase(location.dataDir, location.databaseFile);
  return new SqliteStore(db, location.databaseFile === ':memory:' ? ':memory:' : join(location.dataDir, location.databaseFile));
}

/** Any number the gateway's nodes agree on: the lock that lets one node at a time migrate. */
const MIGRATION_LOCK = 7_466_101;

/**
 * Applies the versions the database has not seen, all in one transaction (PostgreSQL's DDL
 * is transactional). Several nodes may start at once: the advisory lock makes the others
 * wait, then find the schema current.
 */
async function migratePostgres(store: SqlStore): Promise<void> {
  await store.transaction(async (tx) => {
    await tx.run('SELECT pg_advisory_xact_lock(?)', [MIGRATION_LOCK]);
    await tx.run('CREATE TABLE IF NOT EXISTS schema_version (version BIGINT NOT NULL)');
    const row = await tx.get<{ version: number }>('SELECT version FROM schema_version');
    const current = row?.version ?? 0;
    if (current > POSTGRES_MIGRATIONS.length) {
      throw new Error(`The database is at schema version ${current}, newer than this gateway knows (${POSTGRES_MIGRATIONS.length}).`);
    }
    for (let version = current; version < POSTGRES_MIGRATIONS.length; version++) await tx.run(POSTGRES_MIGRATIONS[version]!);
    if (!row) await tx.run('INSERT INTO schema_version (version) VALUES (?)', [POSTGRES_MIGRATIONS.length]);
    else if (current < POSTGRES_MIGRATIONS.length) await tx.run('UPDATE schema_version SET version = ?', [POSTGRES_MIGRATIONS.length]);
  });
}

/** Both lists describe the same versions (a unit test holds them equal). */
export const SCHEMA_VERSION = MIGRATIONS.length;
