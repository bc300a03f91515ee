// Which database a test gateway runs on. The vitest config runs the gateway-level files
// twice: project `integration` on SQLite in the gateway's data dir, project
// `integration-postgres` with TERN_TEST_DATABASE=postgres, where each gateway gets a fresh
// database on the one PostgreSQL server that project's global setup started
// (postgres-global-setup.ts), so the test bodies are shared.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { openStore } from '../../../src-server/store/open-store';
import type { SqlStore } from '../../../src-server/store/sql';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The maintenance database of the project's PostgreSQL server (postgres://…/postgres); '' on SQLite runs. */
    postgresAdminUrl: string;
  }
}

export type TestDatabaseKind = 'sqlite' | 'postgres';

export function databaseUnderTest(): TestDatabaseKind {
  const chosen = process.env.TERN_TEST_DATABASE ?? 'sqlite';
  if (chosen !== 'sqlite' && chosen !== 'postgres') throw new Error(`TERN_TEST_DATABASE=${chosen}: expected sqlite or postgres`);
  return chosen;
}

/**
 * The gateway's database settings for loadConfig: nothing on SQLite (the data dir's file),
 * or TERN_DATABASE_URL of a new empty database on PostgreSQL. `name` only makes the
 * database recognisable in the server's log.
 */
export async function gatewayDatabaseEnv(name: string): Promise<Record<string, string>> {
  if (databaseUnderTest() === 'sqlite') return {};
  const adminUrl = inject('postgresAdminUrl');
  if (!adminUrl) throw new Error('TERN_TEST_DATABASE=postgres but no PostgreSQL server was started: run the integration-postgres project (its globalSetup starts one).');
  return { TERN_DATABASE_URL: await createDatabase(adminUrl, name) };
}

/** A new empty database on the server of `adminUrl` (a maintenance database's URL), by its URL. `name` only makes it recognisable. */
export async function createDatabase(adminUrl: string, name: string): Promise<string> {
  const database = `tern_${name.toLowerCase().replace(/[^a-z0-9]+/g, '_').slice(0, 30)}_${randomBytes(4).toString('hex')}`;
  await onServer(adminUrl, `CREATE DATABASE ${database}`);
  const url = new URL(adminUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

/** Drops databases createDatabase made (FORCE: a pool a test left open does not keep one alive). */
export async function dropDatabases(adminUrl: string, urls: readonly string[]): Promise<void> {
  for (const url of urls) await onServer(adminUrl, `DROP DATABASE IF EXISTS ${new URL(url).pathname.slice(1)} WITH (FORCE)`);
}

async function onServer(adminUrl: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/** A migrated, empty store on the engine under test, for a file that builds its stores itself; the caller closes it. */
export async function openTestStore(dataDir: string, name: string): Promise<SqlStore> {
  const env = await gatewayDatabaseEnv(name);
  return openStore({ databaseUrl: env.TERN_DATABASE_URL, dataDir, databaseFile: 'tern.sqlite' });
}
