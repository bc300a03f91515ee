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
import type { Locale } from '../../shared/preferences';
import { format } from '../../shared/strings';
import { errorText, useLocale, useT } from '../kit/i18n';

export type EmptyRole = 'trash' | 'junk';

/** The folder of one account to empty. */
export interface EmptyTarget {
  readonly accountId: string;
  readonly email: string;
}

/** The folder's name: Trash or Spam. */
export const roleName = (role: EmptyRole, locale: Locale = 'en') => format(locale, role === 'trash' ? 'folders.trash' : 'folders.junk');

/** "All 34 conversations in Trash will be deleted forever." (naming the accounts when there are several). */
export function emptyQuestion(role: EmptyRole, targets: readonly EmptyTarget[], total: number, locale: Locale = 'en'): string {
  const folder = roleName(role, locale);
  const where = targets.length > 1 ? format(locale, 'toolbar.folderOfAccounts', { folder, accounts: new Intl.ListFormat(locale).format(targets.map((target) => target.email)) }) : folder;
  return format(locale, 'toolbar.emptyQuestion', { count: total, where });
}

/** `total`: the conversations the list holds (ListSnapshot.total). */
export function EmptyFolderDialog({ role, targets, total, onClose }: { role: EmptyRole; targets: readonly EmptyTarget[]; total: number; onClose: () => void }) {
  const t = useT();
  const locale = useLocale();
  const folder = roleName(role, locale);
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
      setError(errorText(t, TernError.from(cause)));
      setBusy(false);
      return;
    }
    actions.toast({ tone: 'info', message: { id: 'toolbar.emptied', values: { folder, count: removed } } });
    onClose();
  };

  return (
    <ModalDialog title={t('toolbar.emptyTitle', { folder })} onClose={onClose} busy={busy} className="empty-folder-dialog">
      <div className="modal-dialog-body">
        <p className="modal-dialog-text">{emptyQuestion(role, targets, total, locale)}</p>
        {busy && (
          <div role="status">
            <p className="modal-dialog-text">{t('toolbar.deletingConversations', { count: total })}</p>
            {/* Indeterminate: the mail server deletes them in one command and says nothing until done. */}
            <progress aria-label={t('toolbar.emptying', { folder })} />
          </div>
        )}
        <ConfirmFooter error={error} busy={busy} confirmLabel={t('toolbar.emptyAction', { folder })} onCancel={onClose} onConfirm={() => void empty()} />
      </div>
    </ModalDialog>
  );
}
