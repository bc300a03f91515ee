/**
 * "Sender name" from the settings dropdown: per account, the name people see in From when
 * mail is sent from it (the field is Settings → Identity's, SenderNameField). The engine
 * stores it with the account (every tab follows); left empty, the name the gateway gave at
 * login is used, and the field says which.
 */
import { useAtomValue } from 'jotai';
import { useId, useState, type FormEvent } from 'react';
import { cleanDisplayName } from '../../shared/account';
import { TernError } from '../../shared/errors';
import { ModalDialog } from '../kit/ModalDialog';
import { useMailActions } from '../state/actions-context';
import { accountsAtom } from '../state/atoms';
import { errorText, useT } from '../kit/i18n';
import { SenderNameField } from './identity/SenderNameField';
import { FieldError } from '../kit/FieldError';

const CSS = `
dialog.modal-dialog.sender-names-dialog { width: min(520px, calc(100vw - 32px)); }
.sender-names-intro { margin: 4px 0 18px; color: var(--muted); font-size: 14px; }
.sender-names-dialog .field-label { overflow-wrap: anywhere; }
.sender-names-actions { display: flex; justify-content: flex-end; gap: 10px; margin-top: 6px; }
.sender-names-actions .button { height: 38px; }
`;

export function SenderNameDialog({ onClose }: { onClose: () => void }) {
  const t = useT();
  const accounts = useAtomValue(accountsAtom) ?? [];
  const actions = useMailActions();
  const fieldId = useId();
  const [names, setNames] = useState<Record<string, string>>(() => Object.fromEntries(accounts.map((account) => [account.accountId, account.displayName ?? ''])));
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const save = async (event: FormEvent) => {
    event.preventDefault();
    const changed = accounts.filter((account) => cleanDisplayName(names[account.accountId] ?? '') !== cleanDisplayName(account.displayName ?? ''));
    setSaving(true);
    setError(null);
    try {
      for (const account of changed) await actions.setDisplayName(account.accountId, names[account.accountId] ?? '');
    } catch (cause) {
      setSaving(false);
      setError(t('settingsMenu.senderNameNotSaved', { reason: errorText(t, TernError.from(cause)) }));
      return;
    }
    if (changed.length > 0) actions.toast({ tone: 'info', message: { id: 'settingsMenu.senderNameSavedNew' } });
    onClose();
  };

  return (
    // A kit ModalDialog (native <dialog>): Escape or a click outside closes it, the focus goes to the first field and back after.
    <ModalDialog title={t('settingsMenu.senderName')} className="sender-names-dialog" closeOnBackdrop onClose={onClose}>
      <style href="tern-sender-names" precedence="tern">
        {CSS}
      </style>
      <form onSubmit={(event) => void save(event)}>
        <p className="sender-names-intro">{t('settingsMenu.theNamePeopleSee')}</p>
        {accounts.map((account) => {
          return (
            <div key={account.accountId} className="field">
              <SenderNameField
                id={`${fieldId}-${account.accountId}`}
                account={account}
                value={names[account.accountId] ?? ''}
                onChange={(value) => setNames((current) => ({ ...current, [account.accountId]: value }))}
              />
            </div>
          );
        })}
        <FieldError>{error}</FieldError>
        <div className="sender-names-actions">
          <button type="button" className="button button-secondary" onClick={onClose}>
            {t('common.cancel')}
          </button>
          <button type="submit" className="button button-primary" disabled={saving}>
            {saving ? t('settingsMenu.saving') : t('common.save')}
          </button>
        </div>
      </form>
    </ModalDialog>
  );
}

export default SenderNameDialog;
