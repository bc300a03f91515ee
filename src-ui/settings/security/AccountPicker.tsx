/** Which account a Security or Sessions page shows: a select when there is more than one. */
import { useId, useState } from 'react';
import type { PublicAccount } from '../../../shared/account';
import { useT } from '../../kit/i18n';
import { useAccountsWithSettings } from '../settings-hooks';

export function useChosenAccount() {
  const accounts = useAccountsWithSettings().map(({ account }) => account);
  const [chosen, setChosen] = useState<string | undefined>(undefined);
  const shown = accounts.find((account) => account.accountId === chosen) ?? accounts[0];
  return { accounts, shown, choose: setChosen };
}

export function AccountPicker({ accounts, shown, choose }: { accounts: readonly PublicAccount[]; shown: PublicAccount | undefined; choose: (accountId: string) => void }) {
  const t = useT();
  const id = useId();
  if (accounts.length < 2) return null;
  return (
    <div className="settings-group">
      <label className="field-label" htmlFor={id}>
        {t('labels.account')}
      </label>
      <select id={id} className="input settings-select" value={shown?.accountId ?? ''} onChange={(event) => choose(event.target.value)}>
        {accounts.map((account) => (
          <option key={account.accountId} value={account.accountId}>
            {account.emailAddress}
          </option>
        ))}
      </select>
    </div>
  );
}
