import type { DeltaChange, DeltaResponse } from '../../shared/api/delta';
import { TernError } from '../../shared/errors';
import type { SqlStore } from '../store/sql';
import type { TransactionLog, TxEntry, TxObject } from '../store/transaction-log';
import type { Materializer } from './materialize';

export interface DeltaReadParams {
  readonly accountId: number;
  /** The last txnId the client applied. */
  readonly cursor: number;
  /** Log entries per page (not changes: repeats collapse). */
  readonly limit: number;
}

type Upsert = Extract<DeltaChange, { op: 'upsert' }>;
type MailObject = Extract<DeltaChange, { op: 'delete' }>['object'];

/**
 * Where delta reads the current state of each kind of object the log names; `undefined`
 * means it no longer exists (a delete). A service whose objects go through delta adds its
 * reader here (context.ts builds them); the mail objects come from the materializer.
 */
export type DeltaSources = {
  readonly [O in Upsert['object']]: (accountId: number, objectId: number) => Promise<Extract<Upsert, { object: O }>['data'] | undefined> | Extract<Upsert, { object: O }>['data'] | undefined;
};

/** The log as delta reads it. */
export type DeltaLog = Pick<TransactionLog, 'latest' | 'read'>;

/** The readers of the mail objects, for a DeltaSources (the account's own documents come from their services). */
export function mailSources(materializer: Materializer): Pick<DeltaSources, MailObject> {
  return {
    folder: async (accountId, id) => (await materializer.folder(accountId, id)) ?? undefined,
    message: async (accountId, id) => (await materializer.message(accountId, id)) ?? undefined,
    thread: async (accountId, id) => (await materializer.thread(accountId, id)) ?? undefined,
  };
}

const MAIL_OBJECTS: ReadonlySet<TxObject> = new Set<MailObject>(['folder', 'message', 'thread']);

/**
 * Answers `delta`: the log entries after a cursor, each object in its current state.
 * Several entries for one object in a page become one change at the position of the last;
 * an object that no longer exists becomes a delete. A page is read in one transaction of
 * the store the mirror writes through: on SQLite no mirror transaction is open meanwhile,
 * and on PostgreSQL the log's rows of a mirror transaction appear with its commit, so a
 * page never sees half a mirror transaction.
 */
export class DeltaReader {
  constructor(private readonly deps: { store: SqlStore; txlog: DeltaLog; sources: DeltaSources }) {}

  read({ accountId, cursor, limit }: DeltaReadParams): Promise<DeltaResponse> {
    return this.deps.store.transaction(async () => {
      const latest = await this.deps.txlog.latest(accountId);
      // A cursor from the future means the client's cache belongs to another store (reset, restore).
      if (cursor > latest) throw new TernError('ClearClientCache');
      const { entries, hasMore } = await this.deps.txlog.read(accountId, cursor, limit);
      const last = new Map<string, TxEntry>();
      for (const entry of entries) {
        const key = `${entry.object}:${entry.objectId}`;
        last.delete(key); // re-insert so the Map keeps the order of last occurrences
        last.set(key, entry);
      }
      const changes: DeltaChange[] = [];
      for (const entry of last.values()) {
        const change = await this.change(accountId, entry);
        if (change) changes.push(change);
      }
      return { changes, cursor: entries.at(-1)?.txnId ?? cursor, hasMore };
    });
  }

  private async change(accountId: number, { txnId, object, objectId }: TxEntry): Promise<DeltaChange | undefined> {
    const read = this.deps.sources[object] as (accountId: number, objectId: number) => Promise<Upsert['data'] | undefined> | Upsert['data'] | undefined;
    const data = await read(accountId, objectId);
    if (data !== undefined) return { txnId, op: 'upsert', object, data } as Upsert;
    // Only mail objects go away; an account's own document always has a state.
    return MAIL_OBJECTS.has(object) ? { txnId, op: 'delete', object: object as MailObject, objectId: String(objectId) } : undefined;
  }
}
