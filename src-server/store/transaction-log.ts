import type { SqlExecutor } from './sql';

/**
 * What a log row names: a mail object by its id, or one of the account's own documents
 * (preferences, plan, the address book's change stream, the sends waiting on the gateway, the rules and their runs, identities, the label table, the templates' change stream) by the account's id — one of each per account.
 */
export type TxObject = 'folder' | 'message' | 'thread' | 'preferences' | 'plan' | 'contacts' | 'scheduled' | 'rules' | 'identities' | 'labels' | 'timers' | 'templates';

export interface TxEntry {
  readonly txnId: number;
  readonly object: TxObject;
  readonly objectId: number;
}

/**
 * The per-account transaction log (DESIGN §3). Rows name what changed, not how: a reader
 * materialises the object's current state, so ten flag flips cost one row each to write
 * and one object to send.
 */
export class TransactionLog {
  constructor(private readonly store: SqlExecutor) {}

  /**
   * Records changes and returns the account's new latest id. Call it inside the same
   * store transaction as the change itself, so the log and the mirror never disagree. The
   * UPDATE … RETURNING takes the account row's lock until the transaction ends: two writers
   * of one account (two nodes on PostgreSQL) get consecutive ranges of ids, never the same.
   */
  async append(accountId: number, changes: Iterable<{ object: TxObject; objectId: number }>): Promise<number> {
    const list = [...changes];
    if (list.length === 0) return this.latest(accountId);
    const row = await this.store.get<{ latest: number }>('UPDATE accounts SET latest_txn_id = latest_txn_id + ? WHERE id = ? RETURNING latest_txn_id AS latest', [list.length, accountId]);
    if (!row) throw new Error(`No account ${accountId}`);
    let id = row.latest - list.length;
    // One statement per row would be a round trip each on PostgreSQL: chunks of rows per INSERT.
    for (let start = 0; start < list.length; start += INSERT_CHUNK) {
      const chunk = list.slice(start, start + INSERT_CHUNK);
      const values: (number | string)[] = [];
      for (const change of chunk) values.push(accountId, ++id, change.object, change.objectId);
      await this.store.run(`INSERT INTO txlog (account_id, id, object, object_id) VALUES ${chunk.map(() => '(?, ?, ?, ?)').join(', ')}`, values);
    }
    return row.latest;
  }

  /** Entries after `cursor`, oldest first, at most `limit`, plus whether more follow. */
  async read(accountId: number, cursor: number, limit: number): Promise<{ entries: TxEntry[]; hasMore: boolean }> {
    const rows = await this.store.all<TxEntry>('SELECT id AS "txnId", object, object_id AS "objectId" FROM txlog WHERE account_id = ? AND id > ? ORDER BY id LIMIT ?', [accountId, cursor, limit + 1]);
    const hasMore = rows.length > limit;
    return { entries: hasMore ? rows.slice(0, limit) : rows, hasMore };
  }

  async latest(accountId: number): Promise<number> {
    const row = await this.store.get<{ latest: number }>('SELECT latest_txn_id AS latest FROM accounts WHERE id = ?', [accountId]);
    return row?.latest ?? 0;
  }
}

/** Rows per INSERT: 4 values each, well inside SQLite's 32,766 bound parameters. */
const INSERT_CHUNK = 500;
