import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { MIGRATIONS } from './migrations';

export type Db = Database.Database;

/**
 * Opens (creating if needed) the gateway's SQLite store in `dataDir` and brings its schema
 * up to date. WAL lets readers (delta, lists) go on while the mirror writes.
 */
export function openDatabase(dataDir: string, fileName = 'tern.sqlite'): Db {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  if (fileName === ':memory:') return configure(new Database(':memory:'));
  const path = join(dataDir, fileName);
  // Created 0600 before SQLite opens it: SQLite would make it 0644 (umask permitting), and it
  // gives the -wal and -shm files the database file's own mode. mkdir's mode does nothing for
  // a data dir that already existed, so files a previous version left open are narrowed too.
  closeSync(openSync(path, 'a', 0o600));
  const db = configure(new Database(path));
  for (const file of [path, `${path}-wal`, `${path}-shm`]) if (existsSync(file)) chmodSync(file, 0o600);
  return db;
}

function configure(db: Db): Db {
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  // A checkpoint (copying the WAL into the database, with an fsync) every 64 MB of WAL rather
  // than SQLite's 4 MB: a cold mirror writes hundreds of MB, and at 4 MB the fsyncs alone held
  // the event loop for 0.1-0.6 s per 10k messages (~5 s per 100k). The WAL file is cut back
  // to that size after a checkpoint.
  db.pragma('wal_autocheckpoint = 16384');
  db.pragma('journal_size_limit = 67108864');
  db.pragma('foreign_keys = ON');
  migrate(db);
  return db;
}

function migrate(db: Db): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > MIGRATIONS.length) {
    throw new Error(`The database is at schema version ${current}, newer than this gateway knows (${MIGRATIONS.length}).`);
  }
  for (let version = current; version < MIGRATIONS.length; version++) {
    db.transaction(() => {
      db.exec(MIGRATIONS[version]!);
      db.pragma(`user_version = ${version + 1}`);
    })();
  }
}
