import { TernError } from '../../shared/errors';
import type { Db } from '../store/database';
import type { TargetMessage } from './action-plan';

/** Placeholders for an IN list: only `?` and commas, never a value. */
const placeholders = (count: number) => Array.from({ length: count }, () => '?').join(',');

/** Reads the messages and threads an action names, scoped to the account (read-only on the mirror). */
export class ActionTargets {
  constructor(private readonly db: Db) {}

  /** The named messages; MessageNotFound (with the missing ids) when any is not the account's. */
  messages(accountId: number, ids: readonly number[]): TargetMessage[] {
    const unique = [...new Set(ids)];
    const rows = this.db
      .prepare(
        `SELECT id, folder_id AS folderId, uid, thread_id AS threadId, date FROM messages
         WHERE account_id = ? AND id IN (${placeholders(unique.length)})`,
      )
      .all(accountId, ...unique) as TargetMessage[];
    const found = new Set(rows.map((row) => row.id));
    const missing = unique.filter((id) => !found.has(id));
    if (missing.length > 0) throw new TernError('MessageNotFound', { detail: { missing: missing.map(String) } });
    return rows;
  }

  /** Every message of the named threads; ThreadNotFound when a thread is unknown or has no message left. */
  threads(accountId: number, ids: readonly number[]): TargetMessage[] {
    const unique = [...new Set(ids)];
    const rows = this.db
      .prepare(
        `SELECT id, folder_id AS folderId, uid, thread_id AS threadId, date FROM messages
         WHERE account_id = ? AND thread_id IN (${placeholders(unique.length)})`,
      )
      .all(accountId, ...unique) as TargetMessage[];
    const found = new Set(rows.map((row) => row.threadId));
    const missing = unique.filter((id) => !found.has(id));
    if (missing.length > 0) throw new TernError('ThreadNotFound', { detail: { missing: missing.map(String) } });
    return rows;
  }
}
