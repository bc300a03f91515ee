/**
 * Notifications (issue 15 point 5): desktop notifications of new mail (per account: its Inbox,
 * or only important mail), of reminders, follow-ups and scheduled sends that failed, and quiet
 * hours. The browser's permission is asked here, from the button — never when the app loads.
 * The engine decides what to show and has one tab show it (src-worker/notifications/).
 */
import { useId, useState, useSyncExternalStore } from 'react';
import type { PublicAccount } from '../../../shared/account';
import { TernError } from '../../../shared/errors';
import { DEFAULT_PREFERENCES, NOTIFY_MAIL_CHOICES, type NotifyMailChoice, type PreferencePatch } from '../../../shared/preferences';
import type { AccountSettings } from '../../../shared/worker-api';
import { errorText, useT, type MessageId } from '../../kit/i18n';
import { useMailActions } from '../../state/actions-context';
import { useAccountsWithSettings } from '../settings-hooks';
import { AccountNotices } from '../AccountNotices';

type Permission = NotificationPermission | 'unsupported';

const permissionNow = (): Permission => (typeof Notification === 'undefined' ? 'unsupported' : Notification.permission);
const permissionListeners = new Set<() => void>();
const subscribePermission = (listener: () => void) => {
  permissionListeners.add(listener);
  return () => permissionListeners.delete(listener);
};

const MAIL_CHOICE_TEXT: Record<NotifyMailChoice, MessageId> = { off: 'settings.notifyMailOff', inbox: 'settings.notifyMailInbox', important: 'settings.notifyMailImportant' };
const PERMISSION_TEXT: Record<Permission, MessageId> = {
  granted: 'settings.notifyAllowed',
  denied: 'settings.notifyDenied',
  default: 'settings.notifyAsk',
  unsupported: 'settings.notifyUnsupported',
};

function Permission() {
  const t = useT();
  const permission = useSyncExternalStore(subscribePermission, permissionNow, () => 'unsupported' as Permission);
  const ask = async () => {
    // From this click only: browsers refuse (and users resent) a request made at load.
    await Notification.requestPermission();
    for (const listener of permissionListeners) listener();
  };
  return (
    <section className="settings-group" aria-label={t('settings.notifyDesktop')}>
      <h3 className="field-label">{t('settings.notifyDesktop')}</h3>
      <p className="settings-choice-hint" role="status">
        {t(PERMISSION_TEXT[permission])}
      </p>
      {permission === 'default' && (
        <button type="button" className="button button-primary" onClick={() => void ask()}>
          {t('settings.notifyAllow')}
        </button>
      )}
    </section>
  );
}

function AccountNotifications({ account, settings }: { account: PublicAccount; settings: AccountSettings | undefined }) {
  const t = useT();
  const actions = useMailActions();
  const id = useId();
  const [error, setError] = useState<string | null>(null);
  const values = { ...DEFAULT_PREFERENCES, ...settings?.preferences };
  const change = async (patch: PreferencePatch) => {
    setError(null);
    try {
      await actions.updatePreferences(account.accountId, patch);
    } catch (cause) {
      setError(errorText(t, TernError.from(cause)));
    }
  };
  return (
    <section className="settings-group notifications-account" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`} className="field-label">
        {account.emailAddress}
      </h3>
      <label className="field-label" htmlFor={`${id}-mail`}>
        {t('settings.notifyMail')}
      </label>
      <select id={`${id}-mail`} className="input settings-select" value={values.notifyMail} onChange={(event) => void change({ notifyMail: event.target.value as NotifyMailChoice })}>
        {NOTIFY_MAIL_CHOICES.map((choice) => (
          <option key={choice} value={choice}>
            {t(MAIL_CHOICE_TEXT[choice])}
          </option>
        ))}
      </select>
      <label className="settings-switch">
        <input type="checkbox" checked={values.notifyReminders} onChange={(event) => void change({ notifyReminders: event.target.checked })} />
        <span className="settings-switch-text">{t('settings.notifyReminders')}</span>
      </label>
      <fieldset className="settings-group">
        <legend>{t('settings.quietHours')}</legend>
        <div className="settings-choices settings-choices-row">
          <label className="field-label">
            {t('settings.quietFrom')}{' '}
            <input type="time" className="input" value={values.quietFrom} onChange={(event) => void change({ quietFrom: event.target.value })} />
          </label>
          <label className="field-label">
            {t('settings.quietTo')}{' '}
            <input type="time" className="input" value={values.quietTo} onChange={(event) => void change({ quietTo: event.target.value })} />
          </label>
        </div>
        <p className="field-hint">{t('settings.quietHint')}</p>
      </fieldset>
      <AccountNotices settings={settings} error={error} />
    </section>
  );
}

export default function NotificationsPage() {
  const accounts = useAccountsWithSettings();
  return (
    <div className="settings-sections">
      <Permission />
      {accounts.map(({ account, settings }) => (
        <AccountNotifications key={account.accountId} account={account} settings={settings} />
      ))}
    </div>
  );
}
