/**
 * Where an account's sync stands, kept in its own mail database (JSONBlob `sync-state`) so
 * that a delta page and its cursor commit in one transaction (sync/delta-applier.ts). The
 * outbox reads it too (has the gateway's confirmation arrived?), hence its place here.
 */
import type { MailTable } from '../db/mail-schema';
import type { ReadTransaction } from '../db/store';

export interface SyncState {
  /** The last transaction id whose changes are in this database. */
  readonly appliedTransactionId: number;
  /** The newest transaction id the gateway announced. */
  readonly cursor: number;
}

const SYNC_STATE_KEY = 'sync-state';

export async function readSyncState(tx: ReadTransaction<MailTable>): Promise<SyncState> {
  const row = await tx.get('JSONBlob', SYNC_STATE_KEY);
  return { appliedTransactionId: Number(row?.appliedTransactionId ?? 0), cursor: Number(row?.cursor ?? 0) };
}

export const syncStateRow = (state: SyncState) => ({ id: SYNC_STATE_KEY, ...state });
