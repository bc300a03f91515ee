/**
 * The accounts of this browser (spec §3, §4): login through the gateway, logout, client
 * cache clear and start-up. Each command keeps the analytics base properties, the
 * logger's target and every watching tab in step with the stored list.
 */
import { z } from 'zod';
import {
  accountFromLogin,
  compareAccountIds,
  primaryAccountId,
  resetSyncState,
  toPublicAccount,
  type Account,
  type PublicAccount,
} from '../../shared/account';
import { TernError } from '../../shared/errors';
import type { LogType } from '../../shared/constants';
import type { AccountService, AccountsState, AddAccountParams, AddAccountResult } from '../../shared/worker-api';
import type { AccountDatabases, BroadcastPort } from '../db/account-databases';
import type { LogTarget } from '../log/logger';
import type { AccountRepository } from './account-repository';
import type { GatewayLogin } from './gateway-login';

/** Name of the BroadcastChannel on which engines say the account list changed. */
export const ACCOUNTS_CHANNEL = 'tern-accounts';

interface AccountsChangedMessage {
  readonly type: 'accounts-changed';
  readonly tabId: string;
}

const isAccountsChanged = (value: unknown): value is AccountsChangedMessage =>
  typeof value === 'object' && value !== null && (value as AccountsChangedMessage).type === 'accounts-changed' && typeof (value as AccountsChangedMessage).tabId === 'string';

/** Partner and billing info from a tab: the fields we read are checked, the rest is kept as sent. */
const accountInfoChangeSchema = z.object({
  accountId: z.string(),
  partner: z.looseObject({ companyName: z.string() }).nullable().optional(),
  billing: z.looseObject({ isAdmin: z.boolean() }).nullable().optional(),
});

/** Local sync state an account keeps when its owner logs in again. */
const KEPT_ON_RELOGIN = [
  'label',
  'cursor',
  'appliedTransactionId',
  'contactSyncCursor',
  'threadInconsistencyCheckTimestamp',
  'contactRankUpdateTimestamp',
  'rootFolderId',
  'emailTemplateCursor',
  'emailTemplateUpdateTimestamp',
  'proxySyncComplete',
  'purgeTimestamps',
  'pluginMetadata',
] as const satisfies readonly (keyof Account)[];

export interface AccountServiceDeps {
  readonly repository: AccountRepository;
  readonly databases: AccountDatabases;
  readonly gateway: GatewayLogin;
  readonly analytics: { setAccounts(params: { accountIds: readonly string[]; primaryAccountId: string | null }): Promise<void> };
  readonly logger: { activate(target: LogTarget): void; deactivate(): void; log(type: LogType, message: string): void };
  /** Tells other engines (dedicated workers) that the list changed. */
  readonly channel: BroadcastPort;
  readonly tabId: string;
}

export class EngineAccounts implements AccountService {
  private readonly watchers = new Map<string, (accounts: readonly PublicAccount[]) => unknown>();
  /** The account whose database the logger writes to; null while it is inactive. */
  private loggerAccountId: string | null = null;

  constructor(private readonly deps: AccountServiceDeps) {
    deps.channel.addEventListener('message', (event) => {
      if (isAccountsChanged(event.data) && event.data.tabId !== deps.tabId) void this.changed({ broadcast: false }).catch(() => undefined);
    });
  }

  async add(params: AddAccountParams): Promise<AddAccountResult> {
    const outcome = await this.deps.gateway.login(params);
    if (outcome.kind === 'challenge') return outcome;
    const fresh = accountFromLogin(outcome.login);
    const existing = await this.deps.repository.get(fresh.accountId);
    // Logging in again renews the session but keeps what was synced and the chosen label.
    const account: Account = existing ? { ...fresh, ...Object.fromEntries(KEPT_ON_RELOGIN.map((key) => [key, existing[key]])) } : fresh;
    const extras = { ...(await this.deps.repository.extras(account.accountId)), justLoggedIn: true };
    await this.deps.repository.save(account, extras);
    // Opening now creates (or recreates after a VersionError) the database before any sync needs it.
    await this.deps.databases.open(account.accountId);
    const state = await this.changed();
    this.followPrimary(state.primaryAccountId);
    this.deps.logger.log('Action', `Account ${account.accountId} logged in as ${account.emailAddress}`);
    return { kind: 'added', account: toPublicAccount(account) };
  }

  async remove({ accountId }: { readonly accountId: string }): Promise<void> {
    const account = await this.require(accountId);
    // The log lives in this account's database, which is about to go; the next primary takes it over below.
    const loggedHere = this.loggerAccountId === accountId;
    if (loggedHere) this.stopLogger();
    // Best effort and not awaited: the local logout must not wait for the network.
    void this.deps.gateway.logout({ api: account.api, token: account.token });
    await this.deps.repository.remove(accountId);
    await this.deps.databases.remove(accountId);
    const state = await this.changed();
    // Logging out the last account ends the session: the logger stays inactive (spec §4).
    if (state.loggedIn && loggedHere) this.followPrimary(state.primaryAccountId);
  }

  async reset({ accountId }: { readonly accountId: string }): Promise<void> {
    await this.require(accountId);
    // Spec §4: after a client cache clear the logger goes inactive (until the next initialise or login).
    this.stopLogger();
    await this.deps.databases.reset(accountId);
    await this.deps.repository.update(accountId, resetSyncState);
    await this.deps.databases.open(accountId);
    await this.changed();
  }

  async initialise(): Promise<AccountsState> {
    const accounts = await this.deps.repository.list();
    await Promise.all(accounts.map((account) => this.deps.databases.open(account.accountId)));
    const state = await this.changed({ broadcast: false });
    this.followPrimary(state.primaryAccountId);
    return state;
  }

  async list(): Promise<readonly PublicAccount[]> {
    return (await this.state()).accounts;
  }

  async watch(onChange: (accounts: readonly PublicAccount[]) => void): Promise<{ readonly subscriptionId: string }> {
    const subscriptionId = crypto.randomUUID();
    this.watchers.set(subscriptionId, onChange);
    return { subscriptionId };
  }

  async unwatch({ subscriptionId }: { readonly subscriptionId: string }): Promise<void> {
    this.watchers.delete(subscriptionId);
  }

  async info({ accountId }: { readonly accountId: string }) {
    return this.deps.repository.info((await this.require(accountId)).emailAddress);
  }

  async saveInfo(params: Parameters<AccountService['saveInfo']>[0]) {
    const parsed = accountInfoChangeSchema.safeParse(params);
    if (!parsed.success) throw new TernError('InvalidRequestData', { detail: { issues: parsed.error.issues.map((issue) => issue.path.join('.')) } });
    const { accountId, ...change } = parsed.data;
    const account = await this.require(accountId);
    return this.deps.repository.saveInfo(account.emailAddress, change);
  }

  private async require(accountId: string): Promise<Account> {
    const account = await this.deps.repository.get(accountId);
    if (!account) throw new TernError('AccountNotFound', { detail: { accountId } });
    return account;
  }

  private async state(): Promise<AccountsState> {
    const accounts = (await this.deps.repository.list()).sort((a, b) => compareAccountIds(a.accountId, b.accountId));
    const ids = accounts.map((account) => account.accountId);
    return { loggedIn: ids.length > 0, primaryAccountId: primaryAccountId(ids), accounts: accounts.map(toPublicAccount) };
  }

  /** After every change: analytics properties, watching tabs, other engines. */
  private async changed({ broadcast = true } = {}): Promise<AccountsState> {
    const state = await this.state();
    await this.deps.analytics.setAccounts({ accountIds: state.accounts.map((account) => account.accountId), primaryAccountId: state.primaryAccountId });
    for (const [id, watcher] of this.watchers) {
      // A tab that went away rejects (or never answers); forget it on rejection.
      void Promise.resolve()
        .then(() => watcher(state.accounts))
        .catch(() => this.watchers.delete(id));
    }
    if (broadcast) this.deps.channel.postMessage({ type: 'accounts-changed', tabId: this.deps.tabId } satisfies AccountsChangedMessage);
    return state;
  }

  /** Points the logger at the primary account's database (login, start-up, primary logged out). */
  private followPrimary(primary: string | null): void {
    if (!primary || primary === this.loggerAccountId) return;
    this.loggerAccountId = primary;
    this.deps.logger.activate({ accountId: primary, open: () => this.deps.databases.open(primary) });
  }

  private stopLogger(): void {
    this.loggerAccountId = null;
    this.deps.logger.deactivate();
  }
}
