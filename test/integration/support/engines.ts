/**
 * Runs a store's tests on both engines the gateway supports (DESIGN §7): SQLite in a temp
 * data dir and a real PostgreSQL from the harness, a fresh database for every `open()`. The
 * server is the project run's (postgres-global-setup.ts, provided as postgresAdminUrl: one
 * initdb and start for all files instead of one per file, ~2.5 s each); a project without one
 * gets a server of the file's own, started on first use. The file's databases are dropped
 * after it. A store's contract is written once:
 *
 *   describeOnEngines('AccountStore', (engine) => {
 *     let store: SqlStore;
 *     beforeEach(async () => (store = await engine.open()));
 *     afterEach(() => store.close());
 *     test('…', async () => { … });
 *   });
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, inject } from 'vitest';
import { openStore } from '../../../src-server/store/open-store';
import type { SqlDialect, SqlStore } from '../../../src-server/store/sql';
import { startPostgres, type PostgresServer } from '../../harness/postgres-server';
import { createDatabase, dropDatabases } from './database-choice';

export interface Engine {
  readonly dialect: SqlDialect;
  /** A fresh, migrated, empty store; the test closes it. */
  open(): Promise<SqlStore>;
  /** A data dir of its own (for what lives beside the database: secret.key, uploads). */
  dataDir(): Promise<string>;
}

let scratch: Promise<string> | null = null;
let postgres: Promise<PostgresServer> | null = null;
let databases = 0;
/** Databases this file made on the project's server. */
const made: string[] = [];

const scratchDir = () => (scratch ??= mkdtemp(join(tmpdir(), 'tern-engines-')));
const postgresServer = () => (postgres ??= scratchDir().then((dir) => startPostgres({ dir: join(dir, 'postgres') })));

async function newPostgresDatabase(): Promise<string> {
  const shared = inject('postgresAdminUrl');
  if (!shared) return (await postgresServer()).createDatabase(`tern_${process.pid}_${++databases}`);
  const url = await createDatabase(shared, 'store');
  made.push(url);
  return url;
}

afterAll(async () => {
  const server = postgres;
  const dir = scratch;
  postgres = null;
  scratch = null;
  const shared = inject('postgresAdminUrl');
  if (shared) await dropDatabases(shared, made.splice(0));
  await (await server?.catch(() => null))?.stop();
  if (dir) await rm(await dir, { recursive: true, force: true });
});

const ENGINES: readonly Engine[] = [
  {
    dialect: 'sqlite',
    dataDir: async () => mkdtemp(join(await scratchDir(), 'data-')),
    open: async () => openStore({ dataDir: await mkdtemp(join(await scratchDir(), 'sqlite-')), databaseFile: 'tern.sqlite' }),
  },
  {
    dialect: 'postgres',
    dataDir: async () => mkdtemp(join(await scratchDir(), 'data-')),
    open: async () => openStore({ databaseUrl: await newPostgresDatabase(), dataDir: await scratchDir(), databaseFile: 'unused' }),
  },
];

/** `body` once per engine, in a describe named for it. */
export function describeOnEngines(name: string, body: (engine: Engine) => void): void {
  for (const engine of ENGINES) describe(`${name} on ${engine.dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL'}`, () => body(engine));
}
