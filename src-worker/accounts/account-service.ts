/**
 * The accounts of this browser (spec §3, §4): login through the gateway, logout, client
 * cache clear and start-up. Each command keeps the analytics base properties, the
 * logger's target and every watching tab in step with the stored list.
 */
import * as z from 'zod';
import {
  accountFromLogin,
  cleanDisplayName,
  compareAccountIds,
  primaryAccountId,
  resetSyncState,
  toPublicAccount,
  type Account,
  type PublicAccount,
} from '../../shared/account';
import { TernError } from '../../shared/errors';
import type { LogType } from '../../shared/constants';
import type { AccountService, AccountsState, AddAccountParams, AddAccountResult, EndedSession } from '../../shared/worker-api';
import type { DraftInput } from '../../shared/worker-mail-api';
import type { AccountDatabases, BroadcastPort } from '../db/account-databases';
import type { LogTarget } from '../log/logger';
import type { AccountRepository } from './account-repository';
import type { GatewayLogin } from './gateway-login';
import { keepWork, restoreInputs } from './kept-work';
import type { UnsentWork } from '../outbox/unsent-work';

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
  'displayName',
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
  /** Whether the account has commands the gateway has not confirmed (mail-engine.ts); none when absent. */
  readonly pendingCommands?: (accountId: string) => Promise<boolean>;
  /** The drafts and sends of the account the gateway has not confirmed (outbox/unsent-work.ts); kept over a forced logout. */
  readonly unsentWork?: (accountId: string) => Promise<UnsentWork>;
  /** The normal draft-save command (MailCommandService.saveDraft): kept work is saved to Drafts through it at the next sign-in. */
  readonly saveDraft?: (draft: DraftInput) => Promise<unknown>;
  readonly now?: () => number;
}

export class EngineAccounts implements AccountService {
  private readonly watchers = new Map<string, (accounts: readonly PublicAccount[]) => unknown>();
  /** The account whose database the logger writes to; null while it is inactive. */
  private loggerAccountId: string | null = null;
  /** Forced logouts in progress, one per account. */
  private readonly ending = new Map<string, Promise<void>>();

  constructor(private readonly deps: AccountServiceDeps) {
    deps.channel.addEventListener('message', (event) => {
      if (isAccountsChanged(event.data) && event.data.tabId !== deps.tabId) void this.changed({ broadcast: false }).catch(() => undefined);
    });
  }

  async checkAddress(params: { email: string }): Promise<{ provider: string }> {
    return this.deps.gateway.checkAddress(String(params?.email ?? ''));
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
    // A database kept over a forced logout is this account's again (its unsent commands go out now).
    await this.deps.repository.setKeptDatabase(account.accountId, null);
    await this.deps.repository.setEndedSession(account.emailAddress, null);
    // Opening now creates (or recreates after a VersionError) the database before any sync needs it.
    await this.deps.databases.open(account.accountId);
    // Before the tabs hear of the account: a composer one of them remembers finds its draft restored.
    const restored = await this.restoreKeptWork(account);
    const state = await this.changed();
    this.followPrimary(state.primaryAccountId);
    this.deps.logger.log('Action', `Account ${account.accountId} logged in as ${account.emailAddress}`);
    const { recoveryCodesLeft, twoFactorReset } = outcome.login;
    return {
      kind: 'added',
      account: toPublicAccount(account),
      ...restored,
      ...(recoveryCodesLeft !== undefined ? { recoveryCodesLeft } : {}),
      ...(twoFactorReset ? { twoFactorReset } : {}),
    };
  }

  /**
   * Saves what a forced logout of this address kept (kept-work.ts) as drafts, through the
   * normal draft-save command, then forgets it. A save that fails leaves the record for the
   * next sign-in; one repeated after a kill saves the same local draft, not a copy.
   */
  private async restoreKeptWork(account: Account): Promise<Pick<Extract<AddAccountResult, { kind: 'added' }>, 'restoredDrafts' | 'lostAttachments' | 'sendsInDrafts'>> {
    const kept = await this.deps.repository.keptWork(account.emailAddress);
    if (!kept || !this.deps.saveDraft) return {};
    const { drafts, lostAttachments } = restoreInputs(kept, account);
    try {
      for (const draft of drafts) await this.deps.saveDraft(draft);
    } catch (error) {
      this.deps.logger.log('Error', `Account ${account.accountId}: kept drafts not restored yet: ${String(error)}`);
      return {};
    }
    await this.deps.repository.setKeptWork(account.emailAddress, null);
    this.deps.logger.log('Action', `Account ${account.accountId}: ${drafts.length} kept unsent drafts saved to Drafts`);
    return {
      ...(drafts.length > 0 ? { restoredDrafts: drafts.length } : {}),
      ...(lostAttachments > 0 ? { lostAttachments } : {}),
      ...(kept.sendsInDrafts > 0 ? { sendsInDrafts: kept.sendsInDrafts } : {}),
    };
  }

  async remove({ accountId }: { readonly accountId: string }): Promise<void> {
    const account = await this.require(accountId);
    // Best effort and not awaited: the local logout must not wait for the network.
    void this.deps.gateway.logout({ api: account.api, token: account.token });
    await this.deps.repository.setEndedSession(account.emailAddress, null);
    await this.logOut(accountId);
  }

  /**
   * The gateway ended the account's session (401 InvalidToken from the sync, a command,
   * a read, the websocket or analytics; spec §4 "forces logout"): the account is logged
   * out exactly as by `remove` — its database deleted, its queues dropped, every tab told —
   * because a refused session may be a stolen or revoked one, and its mail must not stay
   * in the browser (issue point 21: a kept database left the cached mail behind). The
   * ended session is remembered so tabs say "Your session for x@y ended" rather than show
   * a bare sign-in screen. The person's own unsent work (drafts and sends the gateway had
   * not confirmed) is copied out first and kept under the address (kept-work.ts), to be
   * saved to Drafts at its next sign-in; nothing received is kept. Other unconfirmed
   * commands (read, move …) are dropped with the database. Not part of the tab contract.
   *
   * `token` is the session that failed: a late 401 for a session a new login replaced is ignored.
   */
  sessionEnded(params: { readonly accountId: string; readonly token?: string }): Promise<void> {
    // One at a time per account: the sync, the outbox and analytics may all meet the 401 together.
    const ended = (this.ending.get(params.accountId) ?? Promise.resolve()).then(() => this.endSession(params));
    const settled = ended.catch(() => undefined);
    this.ending.set(params.accountId, settled);
    void settled.then(() => {
      if (this.ending.get(params.accountId) === settled) this.ending.delete(params.accountId);
    });
    return ended;
  }

  private async endSession({ accountId, token }: { readonly accountId: string; readonly token?: string }): Promise<void> {
    const account = await this.deps.repository.get(accountId);
    if (!account || (token !== undefined && account.token !== token)) return;
    const pending = await (this.deps.pendingCommands?.(accountId) ?? Promise.resolve(false)).catch(() => false);
    const { keptDrafts, sendsInDrafts } = await this.keepUnsentWork(account);
    this.deps.logger.log('Action', `Account ${accountId} logged out: the gateway ended its session${pending ? `; ${keptDrafts} unsent drafts kept, other commands it had not confirmed dropped` : ''}`);
    // Before the list changes: a tab that sees the account go asks why at once.
    const ended: EndedSession = {
      accountId,
      emailAddress: account.emailAddress,
      endedAt: this.now(),
      ...(keptDrafts > 0 ? { keptDrafts } : {}),
      ...(sendsInDrafts > 0 ? { sendsInDrafts } : {}),
    };
    await this.deps.repository.setEndedSession(account.emailAddress, ended);
    await this.logOut(accountId);
  }

  /**
   * Copies the account's unconfirmed drafts and sends out of its database before it is
   * deleted; answers what the address now has kept (with earlier forced logouts'). A
   * database that cannot be read is still deleted: its mail must not stay.
   */
  private async keepUnsentWork(account: Account): Promise<{ keptDrafts: number; sendsInDrafts: number }> {
    const previous = await this.deps.repository.keptWork(account.emailAddress);
    let work: UnsentWork = { drafts: [], sendsOfSavedDrafts: 0 };
    try {
      work = (await this.deps.unsentWork?.(account.accountId)) ?? work;
    } catch (error) {
      this.deps.logger.log('Error', `Account ${account.accountId}: unsent drafts could not be read before the logout: ${String(error)}`);
    }
    const kept = work.drafts.length > 0 || work.sendsOfSavedDrafts > 0 ? keepWork(previous, { emailAddress: account.emailAddress, accountId: account.accountId, api: account.api, cursor: Math.max(account.cursor, account.appliedTransactionId), now: this.now(), work }) : previous;
    if (kept !== previous) await this.deps.repository.setKeptWork(account.emailAddress, kept);
    return { keptDrafts: kept?.drafts.length ?? 0, sendsInDrafts: kept?.sendsInDrafts ?? 0 };
  }

  private async logOut(accountId: string): Promise<void> {
    // The log lives in this account's database, which is about to go; the next primary takes it over below.
    const loggedHere = this.loggerAccountId === accountId;
    if (loggedHere) this.stopLogger();
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
    await this.purgeKeptDatabases(accounts);
    await Promise.all(accounts.map((account) => this.deps.databases.open(account.accountId)));
    const state = await this.changed({ broadcast: false });
    this.followPrimary(state.primaryAccountId);
    return state;
  }

  async endedSessions(): Promise<readonly EndedSession[]> {
    return this.deps.repository.endedSessions();
  }

  async unsentDrafts(params: { readonly accountIds: readonly string[] }): Promise<number> {
    const parsed = z.object({ accountIds: z.array(z.string().max(64)).max(100) }).safeParse(params);
    if (!parsed.success) throw new TernError('InvalidRequestData', { detail: { issues: parsed.error.issues.map((issue) => issue.path.join('.')) } });
    const stored = new Set((await this.deps.repository.list()).map((account) => account.accountId));
    let count = 0;
    // Drafts only: a send waiting for a draft the server has loses nothing but the send (the draft stays in Drafts).
    for (const accountId of new Set(parsed.data.accountIds)) if (stored.has(accountId)) count += (await this.deps.unsentWork?.(accountId))?.drafts.length ?? 0;
    return count;
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

  async setDisplayName(params: Parameters<AccountService['setDisplayName']>[0]): Promise<PublicAccount> {
    const parsed = z.object({ accountId: z.string(), displayName: z.string().max(1000) }).safeParse(params);
    if (!parsed.success) throw new TernError('InvalidRequestData', { detail: { issues: parsed.error.issues.map((issue) => issue.path.join('.')) } });
    const displayName = cleanDisplayName(parsed.data.displayName);
    const updated = await this.deps.repository.update(parsed.data.accountId, (account) => ({ ...account, displayName }));
    if (!updated) throw new TernError('AccountNotFound', { detail: { accountId: parsed.data.accountId } });
    await this.changed();
    return toPublicAccount(updated);
  }

  async saveInfo(params: Parameters<AccountService['saveInfo']>[0]) {
    const parsed = accountInfoChangeSchema.safeParse(params);
    if (!parsed.success) throw new TernError('InvalidRequestData', { detail: { issues: parsed.error.issues.map((issue) => issue.path.join('.')) } });
    const { accountId, ...change } = parsed.data;
    const account = await this.require(accountId);
    return this.deps.repository.saveInfo(account.emailAddress, change);
  }

  /**
   * Earlier builds kept a database over a forced logout (for its unsent commands); a forced
   * logout now wipes like any logout, so what they kept is deleted at the next start.
   */
  private async purgeKeptDatabases(stored: readonly Account[]): Promise<void> {
    const kept = await this.deps.repository.keptDatabases();
    for (const accountId of Object.keys(kept)) {
      const back = stored.some((account) => account.accountId === accountId);
      if (!back) await this.deps.databases.remove(accountId);
      await this.deps.repository.setKeptDatabase(accountId, null);
    }
  }

  private now(): number {
    return (this.deps.now ?? Date.now)();
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
