import { TernError } from '../../shared/errors';
import type { SqlStore } from '../store/sql';
import type { TargetMessage } from './action-plan';

/** Placeholders for an IN list: only `?` and commas, never a value. */
const placeholders = (count: number) => Array.from({ length: count }, () => '?').join(',');

const TARGET_COLUMNS = 'id, folder_id AS "folderId", uid, thread_id AS "threadId", date';

/** Reads the messages and threads an action names, scoped to the account (read-only on the mirror). */
export class ActionTargets {
  constructor(private readonly store: SqlStore) {}

  /** The named messages; MessageNotFound (with the missing ids) when any is not the account's. */
  async messages(accountId: number, ids: readonly number[]): Promise<TargetMessage[]> {
    const unique = [...new Set(ids)];
    const rows = await this.store.all<TargetMessage>(
      `SELECT ${TARGET_COLUMNS} FROM messages WHERE account_id = ? AND id IN (${placeholders(unique.length)})`,
      [accountId, ...unique],
    );
    const found = new Set(rows.map((row) => row.id));
    const missing = unique.filter((id) => !found.has(id));
    if (missing.length > 0) throw new TernError('MessageNotFound', { detail: { missing: missing.map(String) } });
    return rows;
  }

  /** Every message of the named threads; ThreadNotFound when a thread is unknown or has no message left. */
  async threads(accountId: number, ids: readonly number[]): Promise<TargetMessage[]> {
    const unique = [...new Set(ids)];
    const rows = await this.store.all<TargetMessage>(
      `SELECT ${TARGET_COLUMNS} FROM messages WHERE account_id = ? AND thread_id IN (${placeholders(unique.length)})`,
      [accountId, ...unique],
    );
    const found = new Set(rows.map((row) => row.threadId));
    const missing = unique.filter((id) => !found.has(id));
    if (missing.length > 0) throw new TernError('ThreadNotFound', { detail: { missing: missing.map(String) } });
    return rows;
  }
}
