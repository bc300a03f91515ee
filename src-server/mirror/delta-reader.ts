import type { DeltaChange, DeltaResponse } from '../../shared/api/delta';
import { TernError } from '../../shared/errors';
import type { TransactionLog, TxEntry, TxObject } from '../store/transaction-log';
import type { Materializer } from './materialize';

export interface DeltaReadParams {
  readonly accountId: number;
  /** The last txnId the client applied. */
  readonly cursor: number;
  /** Log entries per page (not changes: repeats collapse). */
  readonly limit: number;
}

/**
 * Answers `delta`: the log entries after a cursor, each object in its current state.
 * Several entries for one object in a page become one change at the position of the last;
 * an object that no longer exists becomes a delete. Reads are synchronous on the same
 * connection the mirror writes through, so a page never sees half a mirror transaction.
 */
export class DeltaReader {
  constructor(private readonly deps: { txlog: TransactionLog; materializer: Materializer }) {}

  read({ accountId, cursor, limit }: DeltaReadParams): DeltaResponse {
    const latest = this.deps.txlog.latest(accountId);
    // A cursor from the future means the client's cache belongs to another store (reset, restore).
    if (cursor > latest) throw new TernError('ClearClientCache');
    const { entries, hasMore } = this.deps.txlog.read(accountId, cursor, limit);
    const last = new Map<string, TxEntry>();
    for (const entry of entries) {
      const key = `${entry.object}:${entry.objectId}`;
      last.delete(key); // re-insert so the Map keeps the order of last occurrences
      last.set(key, entry);
    }
    const changes = [...last.values()].map((entry) => this.change(accountId, entry));
    return { changes, cursor: entries.at(-1)?.txnId ?? cursor, hasMore };
  }

  private change(accountId: number, entry: TxEntry): DeltaChange {
    const { txnId, objectId } = entry;
    const { materializer } = this.deps;
    const gone = (object: TxObject): DeltaChange => ({ txnId, op: 'delete', object, objectId: String(objectId) });
    switch (entry.object) {
      case 'folder': {
        const data = materializer.folder(accountId, objectId);
        return data ? { txnId, op: 'upsert', object: 'folder', data } : gone('folder');
      }
      case 'message': {
        const data = materializer.message(accountId, objectId);
        return data ? { txnId, op: 'upsert', object: 'message', data } : gone('message');
      }
      case 'thread': {
        const data = materializer.thread(accountId, objectId);
        return data ? { txnId, op: 'upsert', object: 'thread', data } : gone('thread');
      }
    }
  }
}
