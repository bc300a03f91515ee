/**
 * Delete for a folder, confirmed first with what it takes along (its messages and
 * subfolders, by count): outside Trash they move under Trash, where they can be restored;
 * inside Trash they are deleted for good, and the dialog says which.
 */
import { useState } from 'react';
import type { PublicAccount } from '../../shared/account';
import { TernError } from '../../shared/errors';
import type { FolderView } from '../../shared/worker-mail-api';
import { ConfirmFooter, ModalDialog } from '../kit/ModalDialog';
import { useMailActions } from '../state/actions-context';
import { deleteReach, inTrash } from './folder-choices';
import { folderDisplayName } from '../state/folder-order';
import { errorText, useLocale, useT } from '../kit/i18n';


export function DeleteFolderDialog(props: { account: PublicAccount; folders: readonly FolderView[]; folder: FolderView; onClose: () => void; onDeleted: () => void }) {
  const t = useT();
  const { account, folders, folder, onClose } = props;
  const actions = useMailActions();
  const separator = account.mailProperties.folderSeparator || '/';
  const locale = useLocale();
  const name = folderDisplayName(folder, separator, locale);
  const forGood = inTrash(folder, folders, separator) || !folders.some((candidate) => candidate.specialUse === 'trash');
  const reach = deleteReach(folder, folders, separator);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const remove = async () => {
    setBusy(true);
    setError(null);
    try {
      await actions.changeFolder({ kind: 'delete', accountId: account.accountId, folderId: folder.id });
    } catch (cause) {
      setError(errorText(t, TernError.from(cause)));
      setBusy(false);
      return;
    }
    props.onDeleted();
  };

  return (
    <ModalDialog title={t('sidebar.deleteTitle', { name })} onClose={onClose} busy={busy} className="delete-folder-dialog">
      <div className="modal-dialog-body">
        <p className="modal-dialog-text">
          {t(forGood ? 'sidebar.deleteForeverText' : 'sidebar.deleteToTrashText', { name, messages: reach.messages, subfolders: reach.subfolders })}
        </p>
        <ConfirmFooter error={error} busy={busy} confirmLabel={busy ? t('sidebar.deleting') : forGood ? t('sidebar.deleteForever') : t('sidebar.deleteFolder')} onCancel={onClose} onConfirm={() => void remove()} />
      </div>
    </ModalDialog>
  );
}
