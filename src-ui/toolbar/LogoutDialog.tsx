/**
 * A logout the person chooses deletes the account's data from this browser, unsent drafts
 * and sends with it (a forced logout keeps those for the next sign-in: the person did not
 * choose it). So when some have not reached the server yet, the person is asked first.
 */
import { useState } from 'react';
import { TernError } from '../../shared/errors';
import { ConfirmFooter, ModalDialog } from '../kit/ModalDialog';
import { errorText, useT } from '../kit/i18n';


export interface LogoutQuestion {
  /** Whom it logs out: an address, or null for every account. */
  readonly email: string | null;
  readonly unsent: number;
  readonly logOut: () => Promise<void>;
}

export function LogoutDialog({ question, onClose }: { question: LogoutQuestion; onClose: () => void }) {
  const t = useT();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const confirm = async () => {
    setBusy(true);
    setError(null);
    try {
      await question.logOut();
    } catch (cause) {
      setError(errorText(t, TernError.from(cause)));
      setBusy(false);
      return;
    }
    onClose();
  };
  return (
    <ModalDialog title={question.email ? t('toolbar.logOutOfQuestion', { email: question.email }) : t('toolbar.logOutOfAll2')} onClose={onClose} busy={busy} className="logout-dialog">
      <div className="modal-dialog-body">
        <p className="modal-dialog-text">{t('toolbar.unsentLossWarning', { count: question.unsent })}</p>
        <ConfirmFooter error={error} busy={busy} confirmLabel={t('toolbar.logOutAnyway')} onCancel={onClose} onConfirm={() => void confirm()} />
      </div>
    </ModalDialog>
  );
}
