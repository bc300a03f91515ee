import type { Db } from './database';

/**
 * What a log row names: a mail object by its id, or one of the account's own documents
 * (preferences, plan) by the account's id — there is one of each per account.
 */
export type TxObject = 'folder' | 'message' | 'thread' | 'preferences' | 'plan';

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
  private readonly bump;
  private readonly insert;
  private readonly page;
  private readonly latestStmt;

  constructor(private readonly db: Db) {
    this.bump = db.prepare<[number, number]>('UPDATE accounts SET latest_txn_id = latest_txn_id + ? WHERE id = ? RETURNING latest_txn_id');
    this.insert = db.prepare<[number, number, string, number]>('INSERT INTO txlog (account_id, id, object, object_id) VALUES (?, ?, ?, ?)');
    this.page = db.prepare<[number, number, number]>(
      'SELECT id AS txnId, object, object_id AS objectId FROM txlog WHERE account_id = ? AND id > ? ORDER BY id LIMIT ?',
    );
    this.latestStmt = db.prepare<[number]>('SELECT latest_txn_id AS latest FROM accounts WHERE id = ?');
  }

  /**
   * Records changes and returns the account's new latest id. Call it inside the same
   * SQLite transaction as the change itself, so the log and the mirror never disagree.
   */
  append(accountId: number, changes: readonly { object: TxObject; objectId: number }[]): number {
    if (changes.length === 0) return this.latest(accountId);
    const row = this.bump.get(changes.length, accountId) as { latest_txn_id: number } | undefined;
    if (!row) throw new Error(`No account ${accountId}`);
    let id = row.latest_txn_id - changes.length;
    for (const change of changes) this.insert.run(accountId, ++id, change.object, change.objectId);
    return row.latest_txn_id;
  }

  /** Entries after `cursor`, oldest first, at most `limit`, plus whether more follow. */
  read(accountId: number, cursor: number, limit: number): { entries: TxEntry[]; hasMore: boolean } {
    const rows = this.page.all(accountId, cursor, limit + 1) as TxEntry[];
    const hasMore = rows.length > limit;
    return { entries: hasMore ? rows.slice(0, limit) : rows, hasMore };
  }

  latest(accountId: number): number {
    const row = this.latestStmt.get(accountId) as { latest: number } | undefined;
    return row?.latest ?? 0;
  }
}
