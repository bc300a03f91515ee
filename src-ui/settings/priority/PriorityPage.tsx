/**
 * Settings → Priority inbox (issue 17 point 4; the spec's preference group "priority"): per
 * account, the priority inbox on or off (off: the plain Inbox, newest first) and "Reset what
 * it learned" (the model back to the rules' weights). No plan gate: shared/plans.ts gives it none.
 */
import { useId, useState } from 'react';
import type { PublicAccount } from '../../../shared/account';
import { TernError } from '../../../shared/errors';
import { DEFAULT_PREFERENCES, type PreferencePatch } from '../../../shared/preferences';
import type { AccountSettings } from '../../../shared/worker-api';
import { errorText, useT } from '../../kit/i18n';
import { useMailActions } from '../../state/actions-context';
import { useAccountsWithSettings } from '../settings-hooks';
import { AccountNotices } from '../AccountNotices';

function AccountPriority({ account, settings }: { account: PublicAccount; settings: AccountSettings | undefined }) {
  const t = useT();
  const actions = useMailActions();
  const id = useId();
  const [error, setError] = useState<string | null>(null);
  const [reset, setReset] = useState(false);
  const values = { ...DEFAULT_PREFERENCES, ...settings?.preferences };
  const trained = values.priorityModel?.trained ?? 0;
  const change = async (patch: PreferencePatch) => {
    setError(null);
    try {
      await actions.updatePreferences(account.accountId, patch);
      return true;
    } catch (cause) {
      setError(errorText(t, TernError.from(cause)));
      return false;
    }
  };
  return (
    <section className="settings-group" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`} className="field-label">
        {account.emailAddress}
      </h3>
      <label className="settings-switch">
        <input type="checkbox" checked={values.priorityInbox} onChange={(event) => void change({ priorityInbox: event.target.checked })} aria-describedby={`${id}-hint`} />
        <span className="settings-switch-text">{t('priority.enabled')}</span>
      </label>
      <p id={`${id}-hint`} className="field-hint">
        {t('priority.enabledHint')}
      </p>
      <p className="settings-choice-hint">{t('priority.learned', { count: trained })}</p>
      <button
        type="button"
        className="button"
        disabled={values.priorityModel === null}
        onClick={() => {
          setReset(false);
          void change({ priorityModel: null }).then((done) => setReset(done));
        }}
      >
        {t('priority.reset')}
      </button>
      {reset && (
        <p className="settings-notice" role="status">
          {t('priority.resetDone')}
        </p>
      )}
      <AccountNotices settings={settings} error={error} />
    </section>
  );
}

export default function PriorityPage() {
  const t = useT();
  const accounts = useAccountsWithSettings();
  return (
    <div className="settings-sections">
      <p className="settings-intro">{t('priority.pageIntro')}</p>
      {accounts.map(({ account, settings }) => (
        <AccountPriority key={account.accountId} account={account} settings={settings} />
      ))}
    </div>
  );
}
