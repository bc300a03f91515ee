/**
 * Identity: per account, the name people see next to the address in mail sent from it (it
 * was the "Sender name" dialog of the settings menu). The engine keeps it with the account,
 * so every tab follows; left empty, the name the mail server gave is used.
 */
import { useId, useState, type FormEvent } from 'react';
import { cleanDisplayName, MAX_DISPLAY_NAME_LENGTH, type PublicAccount } from '../../../shared/account';
import { TernError } from '../../../shared/errors';
import { errorText, useT } from '../../kit/i18n';
import { useMailActions } from '../../state/actions-context';
import { useAccountsWithSettings } from '../settings-hooks';

function SenderNameForm({ account }: { account: PublicAccount }) {
  const t = useT();
  const actions = useMailActions();
  const id = useId();
  const [name, setName] = useState(account.displayName ?? '');
  const [state, setState] = useState<{ kind: 'idle' | 'saving' | 'saved' } | { kind: 'failed'; reason: string }>({ kind: 'idle' });
  const cleaned = cleanDisplayName(name);
  const save = async (event: FormEvent) => {
    event.preventDefault();
    setState({ kind: 'saving' });
    try {
      await actions.setDisplayName(account.accountId, name);
      setState({ kind: 'saved' });
      actions.toast({ tone: 'info', message: { id: 'settings.senderNameSaved' } });
    } catch (cause) {
      setState({ kind: 'failed', reason: errorText(t, TernError.from(cause)) });
    }
  };
  return (
    <form className="settings-group settings-account-form" onSubmit={(event) => void save(event)}>
      <label className="field-label" htmlFor={id}>
        {t('settings.senderNameFor', { email: account.emailAddress })}
      </label>
      <div className="settings-inline">
        <input
          id={id}
          className="input"
          type="text"
          autoComplete="name"
          maxLength={MAX_DISPLAY_NAME_LENGTH}
          placeholder={account.name}
          aria-describedby={`${id}-hint`}
          value={name}
          onChange={(event) => {
            setName(event.target.value);
            setState({ kind: 'idle' });
          }}
        />
        <button type="submit" className="button button-primary" disabled={state.kind === 'saving' || cleaned === cleanDisplayName(account.displayName ?? '')}>
          {state.kind === 'saving' ? t('settings.saving') : state.kind === 'saved' ? t('settings.saved') : t('settings.save')}
        </button>
      </div>
      <p id={`${id}-hint`} className="field-hint">
        {cleaned ? t('settings.sendsAs', { name: cleaned, email: account.emailAddress }) : t('settings.senderNameDefault', { name: account.name })}
      </p>
      {state.kind === 'failed' && (
        <p className="field-error" role="alert">
          {t('settings.notSaved', { reason: state.reason })}
        </p>
      )}
    </form>
  );
}

export default function IdentityPage() {
  const t = useT();
  const accounts = useAccountsWithSettings();
  return (
    <div className="settings-sections">
      <p className="settings-intro">{t('settings.identityIntro')}</p>
      {accounts.map(({ account }) => (
        <SenderNameForm key={account.accountId} account={account} />
      ))}
    </div>
  );
}
