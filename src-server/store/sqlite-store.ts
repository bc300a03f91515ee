import { AsyncLocalStorage } from 'node:async_hooks';
import Database from 'better-sqlite3';
import type { SqlExecutor, SqlRunResult, SqlStore, SqlValue } from './sql';
import { withoutNul } from './text-values';

type Statement = Database.Statement<unknown[], unknown>;

/** Prepared statements kept for reuse: every fixed statement of the gateway, and the list lengths in use. */
const STATEMENT_CACHE = 256;

/**
 * The SqlStore on better-sqlite3: one connection, synchronous underneath. A transaction's
 * body may await between its statements, so while one is open every other caller waits for
 * it to end (statements from outside would otherwise land inside it, and commit or roll
 * back with it). Inside a transaction's body the store itself is the transaction too (an
 * AsyncLocalStorage tells), so a helper called from the body needs no `tx` argument, and a
 * transaction started inside one joins it.
 */
export class SqliteStore implements SqlStore {
  readonly dialect = 'sqlite' as const;
  private readonly statements = new Map<string, Statement>();
  private readonly inside = new AsyncLocalStorage<true>();
  /** Resolves when the open transaction ends; null while none is open. */
  private open: Promise<void> | null = null;
  private readonly tx: SqlExecutor;

  constructor(
    /** The connection; the store owns it from now on (migrated by the caller). */
    readonly db: Database.Database,
    readonly location: string,
  ) {
    this.tx = {
      dialect: this.dialect,
      all: async <Row>(sql: string, params?: readonly SqlValue[]) => this.allNow<Row>(sql, params),
      get: async <Row>(sql: string, params?: readonly SqlValue[]) => this.getNow<Row>(sql, params),
      run: async (sql: string, params?: readonly SqlValue[]) => this.runNow(sql, params),
    };
  }

  async all<Row>(sql: string, params: readonly SqlValue[] = []): Promise<Row[]> {
    while (this.busy()) await this.open;
    return this.allNow<Row>(sql, params);
  }

  async get<Row>(sql: string, params: readonly SqlValue[] = []): Promise<Row | undefined> {
    while (this.busy()) await this.open;
    return this.getNow<Row>(sql, params);
  }

  async run(sql: string, params: readonly SqlValue[] = []): Promise<SqlRunResult> {
    while (this.busy()) await this.open;
    return this.runNow(sql, params);
  }

  async transaction<T>(body: (tx: SqlExecutor) => Promise<T>): Promise<T> {
    if (this.inside.getStore()) return body(this.tx); // joins the transaction it runs in
    while (this.busy()) await this.open;
    let end!: () => void;
    this.open = new Promise((resolve) => (end = resolve));
    try {
      this.db.exec('BEGIN IMMEDIATE');
      const result = await this.inside.run(true, () => body(this.tx));
      this.db.exec('COMMIT');
      return result;
    } catch (error) {
      if (this.db.inTransaction) this.db.exec('ROLLBACK');
      throw error;
    } finally {
      this.open = null;
      end();
    }
  }

  async close(): Promise<void> {
    while (this.busy()) await this.open;
    this.statements.clear();
    this.db.close();
  }

  /**
   * Whether another caller's transaction is open (never inside one's own body). Each caller
   * checks it in a loop right before its statement, with no await in between: a check in a
   * helper function would leave a gap in which a transaction could begin.
   */
  private busy(): boolean {
    return this.open !== null && !this.inside.getStore();
  }

  /**
   * The prepared statement of `sql`, from a cache of the most recently used ones. Bounded:
   * statements are built per list length (IN lists, multi-row INSERTs), and each holds its
   * compiled program in SQLite's memory until it is dropped from here and collected — a
   * cold mirror of 100k messages kept hundreds of them, megabytes of resident memory.
   */
  private statement(sql: string): Statement {
    let statement = this.statements.get(sql);
    if (statement) {
      // Most recently used last: Map keeps insertion order, so the first key is the one to drop.
      this.statements.delete(sql);
    } else {
      statement = this.db.prepare(sql);
      if (this.statements.size >= STATEMENT_CACHE) this.statements.delete(this.statements.keys().next().value!);
    }
    this.statements.set(sql, statement);
    return statement;
  }

  private readonly allNow = <Row>(sql: string, params: readonly SqlValue[] = []): Row[] => this.statement(sql).all(...bind(params)) as Row[];

  private readonly getNow = <Row>(sql: string, params: readonly SqlValue[] = []): Row | undefined => this.statement(sql).get(...bind(params)) as Row | undefined;

  private readonly runNow = (sql: string, params: readonly SqlValue[] = []): SqlRunResult => {
    const statement = this.statement(sql);
    // A statement with RETURNING reads rows: better-sqlite3 refuses run() on it.
    if (statement.reader) return { changes: statement.all(...bind(params)).length };
    return { changes: statement.run(...bind(params)).changes };
  };
}

/** better-sqlite3 binds Buffers, not plain Uint8Arrays; strings lose U+0000 as on PostgreSQL (text-values.ts). */
function bind(params: readonly SqlValue[]): unknown[] {
  return withoutNul(params).map((value) => (value instanceof Uint8Array && !Buffer.isBuffer(value) ? Buffer.from(value.buffer, value.byteOffset, value.byteLength) : value));
}
