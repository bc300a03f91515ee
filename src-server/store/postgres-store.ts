import { AsyncLocalStorage } from 'node:async_hooks';
import pg from 'pg';
import type { SqlExecutor, SqlRunResult, SqlStore, SqlValue } from './sql';
import { withoutNul } from './text-values';

const INT8 = 20;
/**
 * BIGINT as a JavaScript number, as SQLite gives it: every integer of the schema (epoch
 * milliseconds, ids, UIDs, counts) fits in 2^53. COUNT(*) is a BIGINT too.
 */
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') => (oid === INT8 ? (value: string) => Number(value) : pg.types.getTypeParser(oid, format))) as typeof pg.types.getTypeParser,
};

/**
 * The SqlStore on PostgreSQL (`pg`'s pool). A transaction holds one pooled connection from
 * BEGIN to COMMIT; inside its body the store itself runs on that connection (an
 * AsyncLocalStorage tells), and a transaction started inside one joins it, as on SQLite.
 */
export class PostgresStore implements SqlStore {
  readonly dialect = 'postgres' as const;
  private readonly inside = new AsyncLocalStorage<pg.PoolClient>();

  constructor(
    private readonly pool: pg.Pool,
    readonly location: string,
  ) {}

  /** A pool on `url` (postgres://user:password@host:port/database). */
  static connect(url: string, options: { readonly max?: number } = {}): PostgresStore {
    const pool = new pg.Pool({ connectionString: url, max: options.max ?? 10, types });
    // An idle connection the server dropped (a restart): the pool replaces it; nothing to crash for.
    pool.on('error', () => undefined);
    return new PostgresStore(pool, describe(url));
  }

  async all<Row>(sql: string, params: readonly SqlValue[] = []): Promise<Row[]> {
    return (await this.query(sql, params)).rows as Row[];
  }

  async get<Row>(sql: string, params: readonly SqlValue[] = []): Promise<Row | undefined> {
    return (await this.query(sql, params)).rows[0] as Row | undefined;
  }

  async run(sql: string, params: readonly SqlValue[] = []): Promise<SqlRunResult> {
    return { changes: (await this.query(sql, params)).rowCount ?? 0 };
  }

  async transaction<T>(body: (tx: SqlExecutor) => Promise<T>): Promise<T> {
    if (this.inside.getStore()) return body(this);
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      const result = await this.inside.run(client, () => body(this));
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  async close(): Promise<void> {
    await this.pool.end();
  }

  private query(sql: string, params: readonly SqlValue[]): Promise<pg.QueryResult> {
    const client = this.inside.getStore() ?? this.pool;
    return client.query({ text: numbered(sql), values: withoutNul(params) as unknown[] });
  }
}

const numberedCache = new Map<string, string>();

/**
 * `?` → `$1`, `$2` … outside quoted strings, quoted names and comments. Cached: the
 * stores use a fixed set of statements.
 */
export function numbered(sql: string): string {
  const cached = numberedCache.get(sql);
  if (cached !== undefined) return cached;
  let out = '';
  let index = 0;
  for (let i = 0; i < sql.length; i++) {
    const char = sql[i]!;
    if (char === "'" || char === '"') {
      const end = closing(sql, i, char);
      out += sql.slice(i, end + 1);
      i = end;
    } else if (char === '-' && sql[i + 1] === '-') {
      const end = sql.indexOf('\n', i);
      const stop = end === -1 ? sql.length : end;
      out += sql.slice(i, stop);
      i = stop - 1;
    } else if (char === '?') {
      out += `$${++index}`;
    } else {
      out += char;
    }
  }
  numberedCache.set(sql, out);
  return out;
}

/** Where the quote opened at `start` closes (a doubled quote is an escaped one). */
function closing(sql: string, start: number, quote: string): number {
  let i = start + 1;
  while (i < sql.length) {
    if (sql[i] === quote) {
      if (sql[i + 1] === quote) i += 2;
      else return i;
    } else i++;
  }
  return sql.length - 1;
}

/** The URL without its password, for messages and logs. */
function describe(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.password = '';
    return parsed.toString();
  } catch {
    return 'postgres (unparseable URL)';
  }
}
