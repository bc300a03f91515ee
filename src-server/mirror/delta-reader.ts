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
 * Where delta reads the current state of each kind of object the log names, all of a page's
 * objects of that kind at once (a page names thousands: one query per object would be a
 * round trip each on PostgreSQL); an id missing from the answer no longer exists (a delete).
 * A service whose objects go through delta adds its reader here (context.ts builds them);
 * the mail objects come from the materializer, the account's own documents through
 * `accountDocument`.
 */
export type DeltaSources = {
  readonly [O in Upsert['object']]: (accountId: number, objectIds: readonly number[]) => Promise<ReadonlyMap<number, Extract<Upsert, { object: O }>['data']>>;
};

/** A DeltaSources reader for one of the account's own documents (its id is the account's): `read` gives its state. */
export function accountDocument<Data>(read: (accountId: number) => Promise<Data | undefined> | Data | undefined) {
  return async (accountId: number, objectIds: readonly number[]): Promise<ReadonlyMap<number, Exclude<Data, undefined>>> => {
    const data = await read(accountId);
    return new Map(data === undefined ? [] : objectIds.map((id) => [id, data as Exclude<Data, undefined>]));
  };
}

/** The log as delta reads it. */
export type DeltaLog = Pick<TransactionLog, 'latest' | 'read'>;

/** The readers of the mail objects, for a DeltaSources (the account's own documents come from their services). */
export function mailSources(materializer: Materializer): Pick<DeltaSources, MailObject> {
  return {
    folder: (accountId, ids) => materializer.foldersById(accountId, ids),
    message: (accountId, ids) => materializer.messagesById(accountId, ids),
    thread: (accountId, ids) => materializer.threadsById(accountId, ids),
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
      const states = await this.states(accountId, [...last.values()]);
      const changes = [...last.values()].flatMap((entry) => this.change(entry, states.get(entry.object)!) ?? []);
      return { changes, cursor: entries.at(-1)?.txnId ?? cursor, hasMore };
    });
  }

  /** The current state of the entries' objects, by kind then id. */
  private async states(accountId: number, entries: readonly TxEntry[]): Promise<Map<TxObject, ReadonlyMap<number, Upsert['data']>>> {
    const idsByKind = new Map<TxObject, number[]>();
    for (const { object, objectId } of entries) {
      const ids = idsByKind.get(object);
      if (ids) ids.push(objectId);
      else idsByKind.set(object, [objectId]);
    }
    const states = new Map<TxObject, ReadonlyMap<number, Upsert['data']>>();
    for (const [object, ids] of idsByKind) {
      const read = this.deps.sources[object] as (accountId: number, objectIds: readonly number[]) => Promise<ReadonlyMap<number, Upsert['data']>>;
      states.set(object, await read(accountId, ids));
    }
    return states;
  }

  private change({ txnId, object, objectId }: TxEntry, states: ReadonlyMap<number, Upsert['data']>): DeltaChange | undefined {
    const data = states.get(objectId);
    if (data !== undefined) return { txnId, op: 'upsert', object, data } as Upsert;
    // Only mail objects go away; an account's own document always has a state.
    return MAIL_OBJECTS.has(object) ? { txnId, op: 'delete', object: object as MailObject, objectId: String(objectId) } : undefined;
  }
}
