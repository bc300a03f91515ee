/**
 * Spell checker: per account, whether the composer checks spelling as you type (the
 * browser's checker, through the editor's `spellcheck` attribute). Gated by the plan's
 * `spellChecker`: without it the switch shows the paywall instead of changing anything,
 * and the gateway would refuse the change too (FeatureNotInPlan).
 */
import { useId, useState } from 'react';
import type { PublicAccount } from '../../../shared/account';
import { TernError } from '../../../shared/errors';
import type { AccountSettings } from '../../../shared/worker-api';
import { errorText, useT } from '../../kit/i18n';
import { useMailActions } from '../../state/actions-context';
import { useFeature } from '../../state/use-feature';
import { useAccountsWithSettings } from '../settings-hooks';
import { AccountNotices } from '../AccountNotices';

function SpellCheckSwitch({ account, settings }: { account: PublicAccount; settings: AccountSettings | undefined }) {
  const t = useT();
  const actions = useMailActions();
  const id = useId();
  const { allowed, requestPaywall } = useFeature('spellChecker', account.accountId);
  const [error, setError] = useState<string | null>(null);
  // What the composer does (useSpellCheck): off while the plan lacks the feature, whatever was chosen before.
  const checked = allowed && (settings?.preferences.spellCheck ?? true);
  const change = async (next: boolean) => {
    setError(null);
    if (!allowed) return requestPaywall();
    try {
      await actions.updatePreferences(account.accountId, { spellCheck: next });
    } catch (cause) {
      const error = TernError.from(cause);
      if (error.name === 'FeatureNotInPlan') requestPaywall();
      else setError(errorText(t, error));
    }
  };
  return (
    <div className="settings-group">
      <label className="settings-switch" htmlFor={id}>
        <input id={id} type="checkbox" role="switch" checked={checked} aria-describedby={`${id}-hint`} onChange={(event) => void change(event.target.checked)} />
        <span className="settings-switch-text">
          <span>{t('settings.spellCheck')}</span>
          <span className="settings-choice-hint">{account.emailAddress}</span>
        </span>
      </label>
      <p id={`${id}-hint`} className="field-hint">
        {allowed ? t('settings.spellCheckIntro') : t('settings.paywallNotIncluded', { feature: t('settings.featureSpellChecker') })}
      </p>
      <AccountNotices settings={settings} error={error} />
    </div>
  );
}

export default function SpellCheckerPage() {
  const accounts = useAccountsWithSettings();
  return (
    <div className="settings-sections">
      {accounts.map(({ account, settings }) => (
        <SpellCheckSwitch key={account.accountId} account={account} settings={settings} />
      ))}
    </div>
  );
}
