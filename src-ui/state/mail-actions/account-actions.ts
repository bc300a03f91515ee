/** The account commands: log in, log out (one or all), the name mail is sent under. */
import { TernError } from '../../../shared/errors';
import { accountsAtom, loggedOutAtom } from '../atoms';
import type { WorkerBridge } from '../engine-feeds';
import type { Store } from '../engine-feeds/feed-context';
import { restoredDraftsMessage } from '../ended-sessions';
import type { AddAccountParams, AddAccountResult, UiEngine } from '../engine-port';
import { errorPhrase } from '../../../shared/strings';
import type { Message } from '../../../shared/strings';

export interface AccountActions {
  /** One login attempt; throws a TernError with the catalogue sentence when refused. */
  login(params: AddAccountParams): Promise<AddAccountResult>;
  /** The email step's check: resolves when the gateway can serve the address's domain; throws its TernError when not. */
  checkAddress(email: string): Promise<void>;
  /** Logs one account out; the others stay. */
  logout(accountId: string): Promise<void>;
  /** Logs every account out; the login screen then shows LOGGED_OUT. */
  logoutAll(): Promise<void>;
  /** Drafts and sends of these accounts not on the server yet (a logout deletes them); 0 when the engine cannot say. */
  unsentDrafts(accountIds: readonly string[]): Promise<number>;
  /** The login screen has shown its "logged out" notice. */
  clearLoggedOut(): void;
  /** The name the account's mail is sent under ('' for the gateway's); throws a TernError when refused. */
  setDisplayName(accountId: string, displayName: string): Promise<void>;
}

/** The toast after logging out of one account while others stay. */
export const loggedOutMessage = (email: string): Message => ({ id: 'app.loggedOutOf', values: { email } });

export function createAccountActions(params: { engine: UiEngine; store: Store; bridge: WorkerBridge }): AccountActions {
  const { engine, store, bridge } = params;

  async function logout(accountId: string) {
    const email = (store.get(accountsAtom) ?? []).find((account) => account.accountId === accountId)?.emailAddress;
    try {
      await engine.accounts.remove({ accountId });
    } catch (error) {
      bridge.toast({ tone: 'error', title: { id: 'app.couldNotLogOut' }, message: errorPhrase(TernError.from(error)) });
      throw error;
    }
    bridge.accountRemoved(accountId);
    // The last one: the login screen says so ("You have logged out of all accounts."); else a toast does.
    if ((store.get(accountsAtom) ?? []).length === 0) store.set(loggedOutAtom, true);
    else if (email) bridge.toast({ tone: 'info', message: loggedOutMessage(email) });
  }

  return {
    async login(credentials) {
      let result: AddAccountResult;
      try {
        result = await engine.accounts.add(credentials);
      } catch (error) {
        throw TernError.from(error);
      }
      if (result.kind === 'added') {
        store.set(loggedOutAtom, false);
        bridge.accountAdded(result.account);
        // Work a forced logout kept (src-worker/accounts/kept-work.ts) is in Drafts now: say so.
        if (result.restoredDrafts || result.sendsInDrafts) bridge.toast({ tone: 'info', message: restoredDraftsMessage(result) });
        // Signed in with a recovery code or through the alternate email: say what it used up or turned off.
        if (result.recoveryCodesLeft !== undefined) bridge.toast({ tone: 'info', message: { id: 'login.recoveryCodesLeft', values: { count: result.recoveryCodesLeft } } });
        if (result.twoFactorReset) bridge.toast({ tone: 'info', message: { id: 'login.twoFactorWasReset', values: { email: result.account.emailAddress } } });
      }
      return result;
    },
    async checkAddress(email) {
      try {
        await engine.accounts.checkAddress({ email });
      } catch (error) {
        throw TernError.from(error);
      }
    },
    logout,
    async unsentDrafts(accountIds) {
      return (await engine.accounts.unsentDrafts?.({ accountIds }).catch(() => 0)) ?? 0;
    },
    async logoutAll() {
      const ids = (store.get(accountsAtom) ?? []).map((account) => account.accountId);
      for (const id of ids) await logout(id);
    },
    clearLoggedOut: () => store.set(loggedOutAtom, false),
    async setDisplayName(accountId, displayName) {
      try {
        // The account list of every tab follows through the engine's account watch.
        await engine.accounts.setDisplayName({ accountId, displayName });
      } catch (error) {
        throw TernError.from(error);
      }
    },
  };
}
