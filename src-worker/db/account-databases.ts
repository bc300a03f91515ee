/**
 * The per-account mail databases (spec §3, §4): one database per account, named by the
 * account id, opened once and shared by every caller of this engine. The sync, outbox
 * and queries get their store here: `await databases.open(accountId)`.
 */
import { MAIL_SCHEMA, type MailTable } from './mail-schema';
import { StoredVersionTooNewError } from './storage-errors';
import type { CloseReason, LocalStore, StoreFactory } from './store';

/** Name of the BroadcastChannel that tells other tabs a database was recreated. */
export const DATABASE_CHANNEL = 'tern-database';

/** Sent when this engine deleted and recreated an account's database. */
export interface DatabaseRecreatedMessage {
  readonly type: 'database-recreated';
  readonly accountId: string;
  /** The engine (tab) that recreated it; receivers ignore their own messages. */
  readonly tabId: string;
}

export function isDatabaseRecreatedMessage(value: unknown): value is DatabaseRecreatedMessage {
  const record = value as Partial<DatabaseRecreatedMessage> | null;
  return typeof record === 'object' && record !== null && record.type === 'database-recreated' && typeof record.accountId === 'string' && typeof record.tabId === 'string';
}

/** The part of BroadcastChannel we use, so tests can pass a fake. */
export interface BroadcastPort {
  postMessage(message: unknown): void;
  addEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
  close(): void;
}

export interface AccountDatabasesDeps {
  readonly factory: StoreFactory;
  /** This engine's id, sent along with broadcasts. */
  readonly tabId: string;
  readonly channel: BroadcastPort;
  /** Told when another tab recreated a database this engine uses (e.g. to restart its sync). */
  readonly onRecreatedElsewhere?: (accountId: string) => void;
}

export class AccountDatabases {
  private readonly stores = new Map<string, Promise<LocalStore<MailTable>>>();

  constructor(private readonly deps: AccountDatabasesDeps) {
    deps.channel.addEventListener('message', (event) => {
      const message: unknown = event.data;
      if (!isDatabaseRecreatedMessage(message) || message.tabId === deps.tabId) return;
      // Our connection was closed by the other tab's delete; forget it so the next open is fresh.
      void this.forget(message.accountId, 'version-change');
      deps.onRecreatedElsewhere?.(message.accountId);
    });
  }

  /**
   * The account's database, opened (and upgraded) on first use. A database newer than
   * this build (a VersionError) is deleted, recreated, and other tabs are told.
   */
  open(accountId: string): Promise<LocalStore<MailTable>> {
    const cached = this.stores.get(accountId);
    if (!cached) return this.reopen(accountId);
    return cached.then((store) => {
      if (store.closeReason === null) return store;
      // Closed under us: the first caller to notice reopens, the others share its open.
      return this.stores.get(accountId) === cached ? this.reopen(accountId) : this.open(accountId);
    });
  }

  /** Client cache clear: deletes the account's data; the next `open` starts empty. */
  async reset(accountId: string): Promise<void> {
    await this.forget(accountId, 'version-change');
    await this.deps.factory.delete(accountId);
  }

  /** Logout: closes the database (callers then see DatabaseClosed 'logged-out') and deletes it. */
  async remove(accountId: string): Promise<void> {
    await this.forget(accountId, 'logged-out');
    await this.deps.factory.delete(accountId);
  }

  /** Forced logout with unsent commands: closes the database but keeps it for the account's next login. */
  async close(accountId: string): Promise<void> {
    await this.forget(accountId, 'logged-out');
  }

  /** Closes every open database (engine shutdown). */
  async closeAll(): Promise<void> {
    await Promise.all([...this.stores.keys()].map((accountId) => this.forget(accountId, 'closed')));
    this.deps.channel.close();
  }

  private reopen(accountId: string): Promise<LocalStore<MailTable>> {
    const opening = this.openOrRecreate(accountId);
    this.stores.set(accountId, opening);
    // A failed open is not cached: the next call tries again.
    opening.catch(() => {
      if (this.stores.get(accountId) === opening) this.stores.delete(accountId);
    });
    return opening;
  }

  private async openOrRecreate(accountId: string): Promise<LocalStore<MailTable>> {
    try {
      return await this.deps.factory.open(accountId, MAIL_SCHEMA);
    } catch (error) {
      if (!(error instanceof StoredVersionTooNewError)) throw error;
      // A newer build wrote this database (a rollback, or a tab of the next deploy). It is
      // only a cache of the server: start again rather than stop working.
      await this.deps.factory.delete(accountId);
      const store = await this.deps.factory.open(accountId, MAIL_SCHEMA);
      const message: DatabaseRecreatedMessage = { type: 'database-recreated', accountId, tabId: this.deps.tabId };
      this.deps.channel.postMessage(message);
      return store;
    }
  }

  private async forget(accountId: string, reason: CloseReason): Promise<void> {
    const cached = this.stores.get(accountId);
    this.stores.delete(accountId);
    const store = await cached?.catch(() => undefined);
    store?.close(reason);
  }
}
