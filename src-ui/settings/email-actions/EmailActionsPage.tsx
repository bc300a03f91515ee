/**
 * Email actions, per account: how long Send waits with Undo (issue 15 point 2; the gateway
 * holds the message for that window, so any tab may undo it and a closed tab loses nothing),
 * and what happens when a message asks for a read receipt (issue 14 point 4): ask each time
 * (the reading view's bar: Send / Ignore) or never send one. There is no "always": a receipt
 * tells a sender when you read, and a forged request would tell a stranger.
 */
import { useId, useState } from 'react';
import type { PublicAccount } from '../../../shared/account';
import { TernError } from '../../../shared/errors';
import { DEFAULT_PREFERENCES, type PreferencePatch, type PreferenceValues } from '../../../shared/preferences';
import type { AccountSettings } from '../../../shared/worker-api';
import { errorText, useT, type MessageId } from '../../kit/i18n';
import { useMailActions } from '../../state/actions-context';
import { useAccountsWithSettings } from '../settings-hooks';
import { FieldError } from '../../kit/FieldError';

/** The windows offered (UNDO_SEND_SECONDS bounds them: 5–30 s). */
const UNDO_CHOICES = [5, 10, 20, 30] as const;

type ChoiceKey = 'undoSendSeconds' | 'readReceipts';

/** One preference of one account as a select: its label, its choices, a hint. */
function AccountChoice<K extends ChoiceKey>(props: {
  account: PublicAccount;
  settings: AccountSettings | undefined;
  preference: K;
  label: MessageId;
  hint?: MessageId;
  choices: readonly { value: PreferenceValues[K]; label: string }[];
}) {
  const t = useT();
  const actions = useMailActions();
  const id = useId();
  const [error, setError] = useState<string | null>(null);
  const value = props.settings?.preferences[props.preference] ?? DEFAULT_PREFERENCES[props.preference];
  const change = async (raw: string) => {
    const chosen = props.choices.find((choice) => String(choice.value) === raw);
    if (!chosen) return;
    setError(null);
    try {
      await actions.updatePreferences(props.account.accountId, { [props.preference]: chosen.value } as PreferencePatch);
    } catch (cause) {
      setError(errorText(t, TernError.from(cause)));
    }
  };
  return (
    <div className="settings-group">
      <label className="field-label" htmlFor={id}>
        {t(props.label)} <span className="settings-choice-hint">{props.account.emailAddress}</span>
      </label>
      <select id={id} className="input settings-select" value={String(value)} aria-describedby={props.hint ? `${id}-hint` : undefined} onChange={(event) => void change(event.target.value)}>
        {props.choices.map((choice) => (
          <option key={String(choice.value)} value={String(choice.value)}>
            {choice.label}
          </option>
        ))}
      </select>
      {props.hint && (
        <p id={`${id}-hint`} className="field-hint">
          {t(props.hint)}
        </p>
      )}
      {props.settings?.unsynced && <p className="settings-notice">{t('settings.notSynced')}</p>}
      <FieldError>{error}</FieldError>
    </div>
  );
}

export default function EmailActionsPage() {
  const t = useT();
  const accounts = useAccountsWithSettings();
  return (
    <div className="settings-sections">
      {accounts.map(({ account, settings }) => (
        <AccountChoice
          key={account.accountId}
          account={account}
          settings={settings}
          preference="undoSendSeconds"
          label="scheduled.undoWindow"
          hint="scheduled.undoWindowHint"
          choices={UNDO_CHOICES.map((seconds) => ({ value: seconds, label: t('scheduled.undoSeconds', { seconds }) }))}
        />
      ))}
      <p className="settings-intro">{t('writing.receiptsIntro')}</p>
      {accounts.map(({ account, settings }) => (
        <AccountChoice
          key={`receipts-${account.accountId}`}
          account={account}
          settings={settings}
          preference="readReceipts"
          label="writing.receiptPolicy"
          choices={[
            { value: 'ask', label: t('writing.receiptPolicyAsk') },
            { value: 'never', label: t('writing.receiptPolicyNever') },
          ]}
        />
      ))}
    </div>
  );
}
