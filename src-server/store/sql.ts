/**
 * The gateway's one way to its database (DESIGN §7): SQLite in the data dir by default,
 * PostgreSQL when TERN_DATABASE_URL names one. Every store speaks to this interface, never
 * to better-sqlite3 or pg, so a table and its queries are written once for both engines.
 *
 * The SQL is the part both engines share:
 * - `?` placeholders (turned into $1, $2 … for PostgreSQL);
 * - camelCase aliases double-quoted (`AS "txnId"`): PostgreSQL folds bare names to lower case;
 * - `INSERT … ON CONFLICT … DO NOTHING / DO UPDATE` rather than `INSERT OR IGNORE / REPLACE`;
 * - `RETURNING id` rather than a last-insert-rowid;
 * - integers are JavaScript numbers on both (PostgreSQL's BIGINT is parsed back to one);
 *   blobs are Buffers on both.
 * Where an engine has a feature of its own (full-text search), the store asks `dialect`.
 */

/** A value bound to a `?`. Booleans are 0/1 integers in the schema, so they are numbers here. */
export type SqlValue = string | number | bigint | Buffer | Uint8Array | null;

export type SqlDialect = 'sqlite' | 'postgres';

/** What a statement that changes rows reports. */
export interface SqlRunResult {
  /** Rows inserted, updated or deleted. */
  readonly changes: number;
}

/** Runs statements: the store itself outside a transaction, or the transaction's handle in one. */
export interface SqlExecutor {
  readonly dialect: SqlDialect;
  /** Every row the query returns. */
  all<Row = Record<string, unknown>>(sql: string, params?: readonly SqlValue[]): Promise<Row[]>;
  /** The first row, or undefined. */
  get<Row = Record<string, unknown>>(sql: string, params?: readonly SqlValue[]): Promise<Row | undefined>;
  /** A statement without rows to read (or whose rows are not needed). */
  run(sql: string, params?: readonly SqlValue[]): Promise<SqlRunResult>;
}

export interface SqlStore extends SqlExecutor {
  /**
   * Runs `body` in one transaction: committed when it resolves, rolled back when it throws.
   * Statements inside must go through `tx`. No network I/O (IMAP, SMTP) belongs inside: on
   * SQLite the whole store waits for the transaction to end.
   */
  transaction<T>(body: (tx: SqlExecutor) => Promise<T>): Promise<T>;
  /** Waits for the statements under way, then closes the connection(s). */
  close(): Promise<void>;
  /** Where it is, for messages ("/data/tern.sqlite", "postgres://host:5432/tern"): never a password. */
  readonly location: string;
}
