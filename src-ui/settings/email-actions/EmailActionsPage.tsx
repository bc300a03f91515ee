/**
 * Email actions: per account, how long Send waits with Undo (issue 15 point 2). The gateway
 * holds the message for that window, so any tab may undo it and a closed tab loses nothing.
 */
import { useId, useState } from 'react';
import type { PublicAccount } from '../../../shared/account';
import { TernError } from '../../../shared/errors';
import { DEFAULT_PREFERENCES } from '../../../shared/preferences';
import type { AccountSettings } from '../../../shared/worker-api';
import { errorText, useT } from '../../kit/i18n';
import { useMailActions } from '../../state/actions-context';
import { useAccountsWithSettings } from '../settings-hooks';

/** The windows offered (UNDO_SEND_SECONDS bounds them: 5–30 s). */
const UNDO_CHOICES = [5, 10, 20, 30] as const;

function UndoWindow({ account, settings }: { account: PublicAccount; settings: AccountSettings | undefined }) {
  const t = useT();
  const actions = useMailActions();
  const id = useId();
  const [error, setError] = useState<string | null>(null);
  const value = settings?.preferences.undoSendSeconds ?? DEFAULT_PREFERENCES.undoSendSeconds;
  const change = async (seconds: number) => {
    setError(null);
    try {
      await actions.updatePreferences(account.accountId, { undoSendSeconds: seconds });
    } catch (cause) {
      setError(errorText(t, TernError.from(cause)));
    }
  };
  return (
    <div className="settings-group">
      <label className="field-label" htmlFor={id}>
        {t('scheduled.undoWindow')} <span className="settings-choice-hint">{account.emailAddress}</span>
      </label>
      <select id={id} className="input settings-select" value={value} aria-describedby={`${id}-hint`} onChange={(event) => void change(Number(event.target.value))}>
        {UNDO_CHOICES.map((seconds) => (
          <option key={seconds} value={seconds}>
            {t('scheduled.undoSeconds', { seconds })}
          </option>
        ))}
      </select>
      <p id={`${id}-hint`} className="field-hint">
        {t('scheduled.undoWindowHint')}
      </p>
      {settings?.unsynced && <p className="settings-notice">{t('settings.notSynced')}</p>}
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

export default function EmailActionsPage() {
  const accounts = useAccountsWithSettings();
  return (
    <div className="settings-sections">
      {accounts.map(({ account, settings }) => (
        <UndoWindow key={account.accountId} account={account} settings={settings} />
      ))}
    </div>
  );
}
