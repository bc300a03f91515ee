/** What the Settings pages read: the accounts with their settings, primary first. */
import { useAtomValue } from 'jotai';
import type { PublicAccount } from '../../shared/account';
import type { AccountSettings } from '../../shared/worker-api';
import { accountsAtom } from '../state/atoms';
import { accountSettingsAtom } from '../state/settings-atoms';

export interface AccountWithSettings {
  readonly account: PublicAccount;
  /** Undefined until the engine has answered (or an engine without settings). */
  readonly settings: AccountSettings | undefined;
}

/** Every account (primary first, as the accounts feed sorts them) with its settings. */
export function useAccountsWithSettings(): readonly AccountWithSettings[] {
  const accounts = useAtomValue(accountsAtom) ?? [];
  const settings = useAtomValue(accountSettingsAtom);
  return accounts.map((account) => ({ account, settings: settings?.[account.accountId] }));
}
