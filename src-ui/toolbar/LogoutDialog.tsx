/**
 * A logout the person chooses deletes the account's data from this browser, unsent drafts
 * and sends with it (a forced logout keeps those for the next sign-in: the person did not
 * choose it). So when some have not reached the server yet, the person is asked first.
 */
import { useState } from 'react';
import { TernError } from '../../shared/errors';
import { ConfirmFooter, ModalDialog } from '../kit/ModalDialog';

/** "2 messages you wrote are saved on this device only …" */
export function unsentLossWarning(count: number): string {
  const what = count === 1 ? '1 message you wrote is' : `${count} messages you wrote are`;
  return `${what} saved on this device only: ${count === 1 ? 'it has' : 'they have'} not reached the server yet. Logging out deletes ${count === 1 ? 'it' : 'them'}.`;
}

export interface LogoutQuestion {
  /** Whom it logs out: an address, or null for every account. */
  readonly email: string | null;
  readonly unsent: number;
  readonly logOut: () => Promise<void>;
}

export function LogoutDialog({ question, onClose }: { question: LogoutQuestion; onClose: () => void }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const confirm = async () => {
    setBusy(true);
    setError(null);
    try {
      await question.logOut();
    } catch (cause) {
      setError(TernError.from(cause).message);
      setBusy(false);
      return;
    }
    onClose();
  };
  return (
    <ModalDialog title={question.email ? `Log out of ${question.email}?` : 'Log out of all accounts?'} onClose={onClose} busy={busy} className="logout-dialog">
      <div className="modal-dialog-body">
        <p className="modal-dialog-text">{unsentLossWarning(question.unsent)}</p>
        <ConfirmFooter error={error} busy={busy} confirmLabel="Log out anyway" onCancel={onClose} onConfirm={() => void confirm()} />
      </div>
    </ModalDialog>
  );
}
