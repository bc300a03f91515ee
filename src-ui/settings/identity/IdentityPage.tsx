/**
 * Identity: per account, the name people see next to the address in mail sent from it (it
 * was the "Sender name" dialog of the settings menu; the engine keeps it with the account,
 * so every tab follows; left empty, the name the mail server gave is used), and the own
 * address's Reply-To, blind copy and default (an identity on the gateway, IdentityForm).
 * Other addresses are Settings → Email alias.
 */
import { useId, useState, type FormEvent } from 'react';
import { cleanDisplayName, type PublicAccount } from '../../../shared/account';
import { TernError } from '../../../shared/errors';
import { OWN_IDENTITY_ID } from '../../../shared/identities';
import { errorText, useT } from '../../kit/i18n';
import { useMailActions } from '../../state/actions-context';
import { useAccountsWithSettings } from '../settings-hooks';
import { ownIdentityOf } from './account-identities';
import { IdentityForm } from './IdentityForm';
import { SenderNameField } from './SenderNameField';
import { FieldError } from '../../kit/FieldError';

function SenderNameForm({ account }: { account: PublicAccount }) {
  const t = useT();
  const actions = useMailActions();
  const id = useId();
  const [name, setName] = useState(account.displayName ?? '');
  const [state, setState] = useState<{ kind: 'idle' | 'saving' | 'saved' } | { kind: 'failed'; reason: string }>({ kind: 'idle' });
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
      <SenderNameField
        id={id}
        account={account}
        value={name}
        onChange={(value) => {
          setName(value);
          setState({ kind: 'idle' });
        }}
      >
        {(input) => (
          <div className="settings-inline">
            {input}
            <button type="submit" className="button button-primary" disabled={state.kind === 'saving' || cleanDisplayName(name) === cleanDisplayName(account.displayName ?? '')}>
              {state.kind === 'saving' ? t('settings.saving') : state.kind === 'saved' ? t('settings.saved') : t('settings.save')}
            </button>
          </div>
        )}
      </SenderNameField>
      <FieldError>{state.kind === 'failed' && t('settings.notSaved', { reason: state.reason })}</FieldError>
    </form>
  );
}

export default function IdentityPage() {
  const t = useT();
  const accounts = useAccountsWithSettings();
  return (
    <div className="settings-sections">
      <p className="settings-intro">{t('settings.identityIntro')}</p>
      {accounts.map((entry) => {
        const own = ownIdentityOf(entry);
        return (
          <section key={entry.account.accountId} className="settings-sections">
            <SenderNameForm account={entry.account} />
            <p className="settings-intro">{t('identities.ownIntro')}</p>
            {/* Keyed by its version: the form starts again from what another tab or device saved. */}
            <IdentityForm key={`${own.id}-${own.updatedAt}-${own.isDefault}`} accountId={entry.account.accountId} identityId={OWN_IDENTITY_ID} identity={own} />
          </section>
        );
      })}
    </div>
  );
}
