/**
 * Empty Trash / Empty Spam, confirmed first with how much goes (Gmail's "Empty Trash now"):
 * only that folder's messages are deleted, for good, in each account of the mailbox shown.
 * The count is the list's, in conversations, as the toolbar shows it above the rows (the
 * folder's message total from the server can trail the rows by a sweep). A large folder
 * takes a while on the mail server: the dialog stays open with a progress bar until every
 * account has answered, then a toast says how many messages went.
 */
import { useState } from 'react';
import { TernError } from '../../shared/errors';
import { ConfirmFooter, ModalDialog } from '../kit/ModalDialog';
import { useMailActions } from '../state/actions-context';

export type EmptyRole = 'trash' | 'junk';

/** The folder of one account to empty. */
export interface EmptyTarget {
  readonly accountId: string;
  readonly email: string;
}

const COUNT = new Intl.NumberFormat();
const messages = (count: number) => `${COUNT.format(count)} message${count === 1 ? '' : 's'}`;
const conversations = (count: number) => `${COUNT.format(count)} conversation${count === 1 ? '' : 's'}`;
export const roleName = (role: EmptyRole) => (role === 'trash' ? 'Trash' : 'Spam');

/** "All 34 conversations in Trash will be deleted forever." (naming the accounts when there are several). */
export function emptyQuestion(role: EmptyRole, targets: readonly EmptyTarget[], total: number): string {
  const where = targets.length > 1 ? `${roleName(role)} of ${targets.map((target) => target.email).join(' and ')}` : roleName(role);
  return `${total === 1 ? 'The 1 conversation' : `All ${conversations(total)}`} in ${where} will be deleted forever. Nothing else is deleted, and this cannot be undone.`;
}

/** `total`: the conversations the list holds (ListSnapshot.total). */
export function EmptyFolderDialog({ role, targets, total, onClose }: { role: EmptyRole; targets: readonly EmptyTarget[]; total: number; onClose: () => void }) {
  const actions = useMailActions();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const empty = async () => {
    setBusy(true);
    setError(null);
    let removed = 0;
    try {
      for (const target of targets) removed += await actions.emptyFolder({ accountId: target.accountId, role });
    } catch (cause) {
      setError(TernError.from(cause).message);
      setBusy(false);
      return;
    }
    actions.toast({ tone: 'info', message: `${roleName(role)} emptied: ${messages(removed)} deleted forever.` });
    onClose();
  };

  return (
    <ModalDialog title={`Empty ${roleName(role)}?`} onClose={onClose} busy={busy} className="empty-folder-dialog">
      <div className="modal-dialog-body">
        <p className="modal-dialog-text">{emptyQuestion(role, targets, total)}</p>
        {busy && (
          <div role="status">
            <p className="modal-dialog-text">Deleting {conversations(total)}…</p>
            {/* Indeterminate: the mail server deletes them in one command and says nothing until done. */}
            <progress aria-label={`Emptying ${roleName(role)}`} />
          </div>
        )}
        <ConfirmFooter error={error} busy={busy} confirmLabel={`Empty ${roleName(role)}`} onCancel={onClose} onConfirm={() => void empty()} />
      </div>
    </ModalDialog>
  );
}
