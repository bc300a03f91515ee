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
import { folderDisplayName } from './folder-order';

const COUNT = new Intl.NumberFormat();
const plural = (count: number, one: string, many: string) => `${COUNT.format(count)} ${count === 1 ? one : many}`;

/** What the folder takes along: ", with its 12 messages and 2 subfolders," — or " (empty)". */
export function reachText(reach: { subfolders: number; messages: number }): string {
  const parts = [reach.messages > 0 ? plural(reach.messages, 'message', 'messages') : null, reach.subfolders > 0 ? plural(reach.subfolders, 'subfolder', 'subfolders') : null].filter(Boolean);
  return parts.length === 0 ? ' (empty)' : `, with its ${parts.join(' and ')},`;
}

export function DeleteFolderDialog(props: { account: PublicAccount; folders: readonly FolderView[]; folder: FolderView; onClose: () => void; onDeleted: () => void }) {
  const { account, folders, folder, onClose } = props;
  const actions = useMailActions();
  const separator = account.mailProperties.folderSeparator || '/';
  const name = folderDisplayName(folder, separator);
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
      setError(TernError.from(cause).message);
      setBusy(false);
      return;
    }
    props.onDeleted();
  };

  return (
    <ModalDialog title={`Delete “${name}”?`} onClose={onClose} busy={busy} className="delete-folder-dialog">
      <div className="modal-dialog-body">
        <p className="modal-dialog-text">
          {forGood ? `“${name}”${reachText(reach)} will be deleted forever. This cannot be undone.` : `“${name}”${reachText(reach)} will move to Trash, where you can restore it.`}
        </p>
        <ConfirmFooter error={error} busy={busy} confirmLabel={busy ? 'Deleting…' : forGood ? 'Delete forever' : 'Delete folder'} onCancel={onClose} onConfirm={() => void remove()} />
      </div>
    </ModalDialog>
  );
}
