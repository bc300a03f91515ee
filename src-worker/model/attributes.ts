/**
 * Attribute types of local models (spec §3): how one field of a model becomes a column
 * of a row and back. Conversions throw TypeError on a wrong value: that is a bug in the
 * caller, caught at the write instead of stored.
 */
import { isTemporaryId } from './temporary-id';

export type AttributeKind = 'number' | 'string' | 'object' | 'boolean' | 'datetime' | 'collection' | 'joined' | 'serverId' | 'bitset';

export interface Attribute<V> {
  readonly kind: AttributeKind;
  /** The row column; for joined data, the side table instead (the row does not hold it). */
  readonly column: string;
  /** Model value → stored value. */
  toRow(value: V): unknown;
  /** Stored value → model value (rows from older versions may lack the column). */
  fromRow(stored: unknown): V;
}

/**
 * Joined data (spec §3 "joined data"): kept in a side table row `{ id, value }` under
 * the model's id. undefined: not loaded; null: loaded, and there is none.
 */
export interface JoinedAttribute<V> extends Attribute<V | null | undefined> {
  readonly kind: 'joined';
  readonly table: string;
}

export type ValueOf<A> = A extends Attribute<infer V> ? V : never;

const fail = (column: string, expected: string, value: unknown): never => {
  throw new TypeError(`${column}: expected ${expected}, got ${value === null ? 'null' : typeof value}.`);
};

export function number(column: string): Attribute<number | null> {
  return {
    kind: 'number',
    column,
    toRow: (value) => (value === null || (typeof value === 'number' && Number.isFinite(value)) ? value : fail(column, 'a finite number', value)),
    fromRow: (stored) => (typeof stored === 'number' ? stored : null),
  };
}

export function string(column: string): Attribute<string | null> {
  return {
    kind: 'string',
    column,
    toRow: (value) => (value === null || typeof value === 'string' ? value : fail(column, 'a string', value)),
    fromRow: (stored) => (typeof stored === 'string' ? stored : null),
  };
}

/** Any structured-cloneable value (settings, plugin data). */
export function object<V>(column: string): Attribute<V | null> {
  return {
    kind: 'object',
    column,
    toRow: (value) => (value === undefined ? null : value),
    fromRow: (stored) => (stored === undefined ? null : (stored as V)),
  };
}

/** Stored as 0/1: IndexedDB cannot index true/false. */
export function boolean(column: string): Attribute<boolean> {
  return {
    kind: 'boolean',
    column,
    toRow: (value) => (typeof value === 'boolean' ? (value ? 1 : 0) : fail(column, 'a boolean', value)),
    fromRow: (stored) => stored === 1 || stored === true,
  };
}

/** A Date stored as epoch milliseconds; null when empty. Anything but a Date is refused. */
export function datetime(column: string): Attribute<Date | null> {
  return {
    kind: 'datetime',
    column,
    toRow: (value) => {
      if (value === null) return null;
      if (!(value instanceof Date) || Number.isNaN(value.getTime())) return fail(column, 'a valid Date', value);
      return value.getTime();
    },
    fromRow: (stored) => (typeof stored === 'number' ? new Date(stored) : null),
  };
}

/** An array; each item converted by `item` when given (e.g. a collection of datetimes). */
export function collection<I = unknown>(column: string, item?: Attribute<I>): Attribute<readonly I[]> {
  return {
    kind: 'collection',
    column,
    toRow: (value) => (Array.isArray(value) ? (item ? value.map((entry: I) => item.toRow(entry)) : [...value]) : fail(column, 'an array', value)),
    fromRow: (stored) => (Array.isArray(stored) ? (item ? stored.map((entry) => item.fromRow(entry)) : (stored as I[])) : []),
  };
}

/** A server-assigned id; a temporary id is refused, so a local id never passes for the server's. */
export function serverId(column: string): Attribute<string | null> {
  return {
    kind: 'serverId',
    column,
    toRow: (value) => {
      if (value === null) return null;
      if (typeof value !== 'string' || value === '') return fail(column, 'a server id', value);
      if (isTemporaryId(value)) throw new TypeError(`${column}: ${value} is a temporary id, not a server id.`);
      return value;
    },
    fromRow: (stored) => (typeof stored === 'string' && stored !== '' ? stored : null),
  };
}

/** A set of flags in one number, bit i for `flags[i]` (e.g. unread, starred, answered). */
export function bitset<F extends string>(column: string, flags: readonly F[]): Attribute<readonly F[]> {
  if (flags.length > 31) throw new TypeError(`${column}: a bitset holds at most 31 flags.`);
  return {
    kind: 'bitset',
    column,
    toRow: (value) => {
      if (!Array.isArray(value)) return fail(column, 'an array of flags', value);
      return value.reduce((bits: number, flag: F) => {
        const bit = flags.indexOf(flag);
        if (bit < 0) throw new TypeError(`${column}: unknown flag ${String(flag)}.`);
        return bits | (1 << bit);
      }, 0);
    },
    fromRow: (stored) => (typeof stored === 'number' ? flags.filter((_, bit) => (stored & (1 << bit)) !== 0) : []),
  };
}

/** Data of another table joined on the model's id (a message's body): loaded on purpose only. */
export function joined<V>(table: string): JoinedAttribute<V> {
  return {
    kind: 'joined',
    column: table,
    table,
    toRow: (value) => value,
    fromRow: (stored) => stored as V | undefined,
  };
}

export function isJoined(attribute: Attribute<unknown>): attribute is JoinedAttribute<unknown> {
  return attribute.kind === 'joined';
}
