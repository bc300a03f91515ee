/**
 * Stored accounts and what is kept beside them. The account service and, later, the sync
 * (cursor, appliedTransactionId) read and write accounts here.
 */
import { DEFAULT_TRACKING_HEADER, accountInfoKey, type Account, type AccountExtras, type AccountInfo } from '../../shared/account';
import type { EndedSession } from '../../shared/worker-api';
import { withRead, withWrite, type LocalStore, type StoredRow } from '../db/store';
import { temporaryId } from '../model/temporary-id';
import type { AccountsTable } from './accounts-database';
import { keptWorkSchema, type KeptWork } from './kept-work';

const DEVICE_ID_KEY = 'deviceId';
/** Mail databases kept after a forced logout (they hold unsent commands): account id → when. */
const KEPT_DATABASES_KEY = 'keptDatabases';
/** Sessions the gateway ended, shown to the person until they sign in again: email → what and when. */
const ENDED_SESSIONS_KEY = 'endedSessions';
/** Unsent work kept over a forced logout (kept-work.ts): lower-cased email → what it left. */
const KEPT_WORK_KEY = 'keptWork';
const EMPTY_INFO: AccountInfo = { partner: null, billing: null };

export const defaultExtras = (accountId: string): AccountExtras => ({
  accountId,
  justLoggedIn: false,
  webSocketKind: null,
  trackingHeader: DEFAULT_TRACKING_HEADER,
});

// Stored rows are the entities themselves plus the `id` key; they are our own writes.
const asRow = (id: string, value: object): StoredRow => ({ ...value, id });

export class AccountRepository {
  constructor(private readonly store: () => Promise<LocalStore<AccountsTable>>) {}

  /** Every stored account, by id. */
  async list(): Promise<Account[]> {
    const rows = await withRead(await this.store(), ['accounts'], (tx) => tx.getAll('accounts'));
    return rows as unknown as Account[];
  }

  async get(accountId: string): Promise<Account | undefined> {
    const row = await withRead(await this.store(), ['accounts'], (tx) => tx.get('accounts', accountId));
    return row as unknown as Account | undefined;
  }

  /** Stores an account with its extras, replacing what was stored under its id. */
  async save(account: Account, extras: AccountExtras): Promise<void> {
    await withWrite(await this.store(), ['accounts', 'accountExtras'], async (tx) => {
      await tx.put('accounts', asRow(account.accountId, account));
      await tx.put('accountExtras', asRow(account.accountId, extras));
    });
  }

  /** Changes one stored account in a single transaction; undefined when there is none. */
  async update(accountId: string, change: (account: Account) => Account): Promise<Account | undefined> {
    return withWrite(await this.store(), ['accounts'], async (tx) => {
      const current = (await tx.get('accounts', accountId)) as unknown as Account | undefined;
      if (!current) return undefined;
      const next = change(current);
      await tx.put('accounts', asRow(accountId, next));
      return next;
    });
  }

  /** Deletes an account, its extras and info (its analytics queue is the analytics service's); returns it. */
  async remove(accountId: string): Promise<Account | undefined> {
    return withWrite(await this.store(), ['accounts', 'accountExtras', 'accountInfo'], async (tx) => {
      const account = (await tx.get('accounts', accountId)) as unknown as Account | undefined;
      await tx.delete('accounts', accountId);
      await tx.delete('accountExtras', accountId);
      if (account) await tx.delete('accountInfo', accountInfoKey(account.emailAddress));
      return account;
    });
  }

  async extras(accountId: string): Promise<AccountExtras> {
    const row = await withRead(await this.store(), ['accountExtras'], (tx) => tx.get('accountExtras', accountId));
    const { id: _key, ...stored } = row ?? { id: accountId };
    return { ...defaultExtras(accountId), ...(stored as Partial<AccountExtras>), accountId };
  }

  async saveExtras(extras: AccountExtras): Promise<void> {
    await withWrite(await this.store(), ['accountExtras'], (tx) => tx.put('accountExtras', asRow(extras.accountId, extras)));
  }

  /** Partner and billing info, stored under the email with dots replaced by hyphens. */
  async info(emailAddress: string): Promise<AccountInfo> {
    const row = await withRead(await this.store(), ['accountInfo'], (tx) => tx.get('accountInfo', accountInfoKey(emailAddress)));
    return { partner: (row?.partner as AccountInfo['partner']) ?? null, billing: (row?.billing as AccountInfo['billing']) ?? null };
  }

  async saveInfo(emailAddress: string, change: Partial<AccountInfo>): Promise<AccountInfo> {
    const key = accountInfoKey(emailAddress);
    return withWrite(await this.store(), ['accountInfo'], async (tx) => {
      const row = await tx.get('accountInfo', key);
      const next: AccountInfo = { ...EMPTY_INFO, ...(row ? { partner: row.partner, billing: row.billing } : {}), ...change } as AccountInfo;
      await tx.put('accountInfo', asRow(key, next));
      return next;
    });
  }

  /** Databases of logged-out accounts kept for their next login, with the time each was kept. */
  async keptDatabases(): Promise<Readonly<Record<string, number>>> {
    const row = await withRead(await this.store(), ['installation'], (tx) => tx.get('installation', KEPT_DATABASES_KEY));
    return (row?.value as Record<string, number> | undefined) ?? {};
  }

  /** Records (a time) or forgets (null) a kept database. */
  async setKeptDatabase(accountId: string, keptAt: number | null): Promise<void> {
    await this.setInstallationEntry(KEPT_DATABASES_KEY, accountId, keptAt);
  }

  /** Sessions the gateway ended that are still to be told, newest first. */
  async endedSessions(): Promise<EndedSession[]> {
    const row = await withRead(await this.store(), ['installation'], (tx) => tx.get('installation', ENDED_SESSIONS_KEY));
    const stored = (row?.value as Record<string, EndedSession> | undefined) ?? {};
    return Object.values(stored).sort((a, b) => b.endedAt - a.endedAt);
  }

  /** Records that the gateway ended `session`, or (null) forgets the address's ended session. */
  async setEndedSession(emailAddress: string, session: EndedSession | null): Promise<void> {
    await this.setInstallationEntry(ENDED_SESSIONS_KEY, emailAddress, session);
  }

  /** What the address left unsent when the gateway ended its session; null when nothing is kept (or it cannot be read). */
  async keptWork(emailAddress: string): Promise<KeptWork | null> {
    const row = await withRead(await this.store(), ['installation'], (tx) => tx.get('installation', KEPT_WORK_KEY));
    const stored = (row?.value as Record<string, unknown> | undefined)?.[emailAddress.toLowerCase()];
    const parsed = keptWorkSchema.safeParse(stored);
    return parsed.success ? parsed.data : null;
  }

  /** Keeps (or, with null, forgets) the address's unsent work. */
  async setKeptWork(emailAddress: string, work: KeptWork | null): Promise<void> {
    await this.setInstallationEntry(KEPT_WORK_KEY, emailAddress.toLowerCase(), work);
  }

  /** Sets (or, with null, deletes) one entry of an installation row that is a record. */
  private async setInstallationEntry(rowKey: string, entry: string, value: unknown): Promise<void> {
    await withWrite(await this.store(), ['installation'], async (tx) => {
      const row = await tx.get('installation', rowKey);
      const { [entry]: old, ...others } = (row?.value as Record<string, unknown> | undefined) ?? {};
      if (value === null && old === undefined) return;
      await tx.put('installation', { id: rowKey, value: value === null ? others : { ...others, [entry]: value } });
    });
  }

  /** The installation's device id for analytics, made once and kept. */
  async deviceId(): Promise<string> {
    return withWrite(await this.store(), ['installation'], async (tx) => {
      const row = await tx.get('installation', DEVICE_ID_KEY);
      if (typeof row?.value === 'string') return row.value;
      const value = temporaryId();
      await tx.put('installation', { id: DEVICE_ID_KEY, value });
      return value;
    });
  }
}
