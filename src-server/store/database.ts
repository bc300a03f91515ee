import { mkdirSync } from 'node:fs';
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
  const db = new Database(fileName === ':memory:' ? ':memory:' : join(dataDir, fileName));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
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
