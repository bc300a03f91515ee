/**
 * Local models: a table, an object name and typed attributes, converted to and from
 * store rows. Every model has the base fields of spec §3: `id` is the server id when
 * there is one, else the client (temporary) id.
 */
import type { ReadTransaction, StoredRow } from '../db/store';
import { isJoined, serverId as serverIdAttribute, type Attribute, type JoinedAttribute, type ValueOf } from './attributes';
import { temporaryId } from './temporary-id';

export interface BaseFields<O extends string> {
  /** serverId ?? clientId: the row's primary key. */
  readonly id: string;
  /** Given here at creation (a temporary id) or the server id for rows that came from it. */
  readonly clientId: string;
  readonly serverId: string | null;
  readonly object: O;
  readonly accountId: string;
}

// `any` only widens the constraint (Attribute is invariant in V); each model's attribute types stay exact.
export type Attributes = Readonly<Record<string, Attribute<any>>>;

type JoinedKeys<A extends Attributes> = { [K in keyof A]: A[K] extends JoinedAttribute<unknown> ? K : never }[keyof A];
type StoredKeys<A extends Attributes> = Exclude<keyof A, JoinedKeys<A>>;

export type ModelValue<O extends string, A extends Attributes> = BaseFields<O> & { readonly [K in keyof A]: ValueOf<A[K]> };

/** What `create` needs: every stored attribute; joined data may be left out. */
export type ModelInput<A extends Attributes> = { readonly [K in StoredKeys<A>]: ValueOf<A[K]> } & { readonly [K in JoinedKeys<A>]?: ValueOf<A[K]> } & {
  readonly accountId: string;
  readonly serverId?: string | null;
  readonly clientId?: string;
};

export interface ModelDefinition<T extends string, O extends string, A extends Attributes> {
  readonly table: T;
  readonly object: O;
  readonly attributes: A;
  /** Computed columns: stored for indexes, derived from the value on every write, never read back. */
  readonly computed?: Readonly<Record<string, (value: ModelValue<O, A>) => unknown>>;
  /** Prefix of temporary ids (default "local"). */
  readonly idPrefix?: string;
}

export interface Model<T extends string, O extends string, A extends Attributes> extends ModelDefinition<T, O, A> {
  /** A new value; without a server id it gets a temporary client id. */
  create(input: ModelInput<A>): ModelValue<O, A>;
  /** The same value named by the server: `id` becomes the server id (delete the row under the old id). */
  withServerId(value: ModelValue<O, A>, serverId: string): ModelValue<O, A>;
  toRow(value: ModelValue<O, A>): StoredRow;
  /** Joined data stays undefined until `loadJoined`. */
  fromRow(row: StoredRow): ModelValue<O, A>;
  /** Side-table rows of the joined data the value holds (write them with the row). */
  joinedRows(value: ModelValue<O, A>): { readonly table: string; readonly row: StoredRow }[];
  /** Reads one joined attribute from its side table. */
  loadJoined<K extends JoinedKeys<A>>(tx: ReadTransaction<string>, value: ModelValue<O, A>, key: K): Promise<ModelValue<O, A>>;
}

const BASE_COLUMNS = ['id', 'client_id', 'server_id', 'object', 'account_id'];
const serverIdColumn = serverIdAttribute('server_id');

export function defineModel<T extends string, O extends string, A extends Attributes>(definition: ModelDefinition<T, O, A>): Model<T, O, A> {
  const entries = Object.entries(definition.attributes) as [string, Attribute<unknown>][];
  // Converted once per row written or read (thousands per delta page): plain loops over
  // these, no intermediate arrays or objects.
  const keys = entries.map(([key]) => key);
  const stored = entries.filter(([, attribute]) => !isJoined(attribute));
  const joinedKeys = entries.filter(([, attribute]) => isJoined(attribute)).map(([key]) => key);
  const computed = Object.entries(definition.computed ?? {});
  const columns = [...stored.map(([, attribute]) => attribute.column), ...computed.map(([column]) => column)];
  const clash = columns.find((column, i) => BASE_COLUMNS.includes(column) || columns.indexOf(column) !== i);
  if (clash) throw new Error(`${definition.table}: column ${clash} is used twice.`);
  type Value = ModelValue<O, A>;

  return {
    ...definition,
    create(input) {
      const server = serverIdColumn.toRow(input.serverId ?? null) as string | null;
      const clientId = input.clientId ?? server ?? temporaryId(definition.idPrefix);
      const value: Record<string, unknown> = {};
      for (const key of keys) value[key] = (input as Record<string, unknown>)[key];
      value.id = server ?? clientId;
      value.clientId = clientId;
      value.serverId = server;
      value.object = definition.object;
      value.accountId = input.accountId;
      return value as Value;
    },
    withServerId(value, serverId) {
      serverIdColumn.toRow(serverId);
      return { ...value, serverId, id: serverId };
    },
    toRow(value) {
      const row: Record<string, unknown> = {
        id: value.serverId ?? value.clientId,
        client_id: value.clientId,
        server_id: serverIdColumn.toRow(value.serverId),
        object: definition.object,
        account_id: value.accountId,
      };
      for (const [key, attribute] of stored) row[attribute.column] = attribute.toRow((value as Record<string, unknown>)[key]);
      for (const [column, compute] of computed) row[column] = compute(value);
      return row as StoredRow;
    },
    fromRow(row) {
      const value: Record<string, unknown> = {};
      for (const [key, attribute] of stored) value[key] = attribute.fromRow(row[attribute.column]);
      for (const key of joinedKeys) value[key] = undefined;
      value.id = row.id;
      value.clientId = typeof row.client_id === 'string' ? row.client_id : row.id;
      value.serverId = serverIdColumn.fromRow(row.server_id);
      value.object = definition.object;
      value.accountId = String(row.account_id ?? '');
      return value as Value;
    },
    joinedRows(value) {
      return entries.flatMap(([key, attribute]) => {
        const data = (value as Record<string, unknown>)[key];
        return isJoined(attribute) && data !== undefined ? [{ table: attribute.table, row: { id: value.id, value: data } }] : [];
      });
    },
    async loadJoined(tx, value, key) {
      const attribute = definition.attributes[key] as JoinedAttribute<unknown>;
      const row = await tx.get(attribute.table, value.id);
      return { ...value, [key]: row?.value ?? null };
    },
  };
}
