/**
 * What every rules page shares: which account (a choice when there are several), its rules
 * loading, the honest "not available" for a server without ManageSieve, and a refused save's
 * sentence. The page itself only edits `doc.rules` and calls `save`.
 */
import { useId, useState, type ReactNode } from 'react';
import type { PublicAccount } from '../../../shared/account';
import { identitiesOrOwn } from '../../../shared/identities';
import type { RulesDoc } from '../../../shared/mail-rules';
import { useT } from '../../kit/i18n';
import { useAccountsWithSettings } from '../settings-hooks';
import { useAccountRules, type AccountRules } from './use-account-rules';
import { FieldError } from '../../kit/FieldError';

export interface RulesPageContext {
  readonly account: PublicAccount;
  /** Every address of the account (its identities, own one first): what the auto replies answer. */
  readonly addresses: readonly string[];
  readonly doc: RulesDoc;
  readonly rules: AccountRules;
}

export function RulesScope({ intro, initialAccountId, children }: { intro: ReactNode; initialAccountId?: string; children: (context: RulesPageContext) => ReactNode }) {
  const t = useT();
  const withSettings = useAccountsWithSettings();
  const accounts = withSettings.map(({ account }) => account);
  const id = useId();
  const [chosen, setChosen] = useState<string | undefined>(initialAccountId);
  const account = accounts.find((candidate) => candidate.accountId === chosen) ?? accounts[0];
  const identities = withSettings.find((entry) => entry.account.accountId === account?.accountId)?.settings?.identities;
  const addresses = account ? identitiesOrOwn(identities, account.emailAddress).map((identity) => identity.email) : [];
  return (
    <div className="settings-sections">
      <p className="settings-intro">{intro}</p>
      {accounts.length > 1 && (
        <div className="settings-group">
          <label className="field-label" htmlFor={id}>
            {t('rules.account')}
          </label>
          <select id={id} className="input settings-select" value={account?.accountId ?? ''} onChange={(event) => setChosen(event.target.value)}>
            {accounts.map((candidate) => (
              <option key={candidate.accountId} value={candidate.accountId}>
                {candidate.emailAddress}
              </option>
            ))}
          </select>
        </div>
      )}
      {account && <AccountRulesView key={account.accountId} account={account} addresses={addresses} render={children} />}
    </div>
  );
}

function AccountRulesView({ account, addresses, render }: { account: PublicAccount; addresses: readonly string[]; render: (context: RulesPageContext) => ReactNode }) {
  const t = useT();
  const rules = useAccountRules(account.accountId);
  const { load } = rules;
  if (load.kind === 'loading') {
    return (
      <p className="settings-notice" role="status">
        {t('rules.loading')}
      </p>
    );
  }
  if (load.kind === 'failed') {
    return (
      <div className="settings-group" role="alert">
        <p className="field-error">{t('rules.loadFailed', { reason: load.reason })}</p>
        <button type="button" className="button button-secondary" onClick={rules.reload}>
          {t('rules.retry')}
        </button>
      </div>
    );
  }
  if (load.doc.availability === 'unavailable') {
    return (
      <p className="settings-notice rules-unavailable" role="status">
        {t('rules.unavailable', { email: account.emailAddress })}
      </p>
    );
  }
  return (
    <>
      {render({ account, addresses, doc: load.doc, rules })}
      <FieldError>{rules.saveError && t('rules.notSaved', { reason: rules.saveError })}</FieldError>
      {load.doc.keptScript && <p className="field-hint">{t('rules.keptScript', { name: load.doc.keptScript })}</p>}
    </>
  );
}
