/**
 * New folder, Rename and Move to… for one account's folder (Gmail's and Fastmail's
 * dialogs): the name field says at once what the spec does not allow (255 characters, the
 * separator, wildcards …; shared/folder-name-rule.ts), the "Inside" picker offers the
 * account's own folders, and a refusal from the mail server (FolderAlreadyExist,
 * FolderNameLengthExceeded, SpecialFolder, FolderNotFound …) is shown next to the field it
 * is about, in the catalogue's words. The dialog closes once the sidebar has the change.
 */
import { useId, useMemo, useState, type FormEvent } from 'react';
import type { PublicAccount } from '../../shared/account';
import { FOLDER_NAME_MAX } from '../../shared/api/reading';
import { TernError } from '../../shared/errors';
import { cleanFolderName, folderNameReasonText, isFolderNameReason } from '../../shared/folder-name-rule';
import type { FolderChange, FolderView } from '../../shared/worker-mail-api';
import { ModalDialog } from '../kit/ModalDialog';
import { useMailActions } from '../state/actions-context';
import { nameProblemText, parentChoices, parentOf, refusalField } from './folder-choices';
import { folderDisplayName } from '../state/folder-order';
import { errorText, useLocale, useT } from '../kit/i18n';
import { FieldError } from '../kit/FieldError';

export type FolderDialogMode = { readonly kind: 'create'; readonly parent: FolderView | null } | { readonly kind: 'rename' | 'move'; readonly folder: FolderView };

const TOP_LEVEL = '';

export function FolderDialog({ account, folders, mode, onClose }: { account: PublicAccount; folders: readonly FolderView[]; mode: FolderDialogMode; onClose: () => void }) {
  const t = useT();
  const actions = useMailActions();
  const separator = account.mailProperties.folderSeparator || '/';
  const fieldId = useId();
  const folder = mode.kind === 'create' ? null : mode.folder;
  const locale = useLocale();
  const shownName = folder ? folderDisplayName(folder, separator, locale) : '';
  const [name, setName] = useState(mode.kind === 'rename' ? shownName : '');
  const [parentId, setParentId] = useState(() => (mode.kind === 'create' ? (mode.parent?.id ?? TOP_LEVEL) : folder ? (parentOf(folder, folders, separator)?.id ?? TOP_LEVEL) : TOP_LEVEL));
  const [touched, setTouched] = useState(false);
  const [busy, setBusy] = useState(false);
  const [refusal, setRefusal] = useState<{ field: 'name' | 'parent' | 'dialog'; text: string } | null>(null);
  const choices = useMemo(() => parentChoices(folders, separator, mode.kind === 'move' ? mode.folder : undefined), [folders, separator, mode]);

  const withName = mode.kind !== 'move';
  const withParent = mode.kind !== 'rename';
  const typedProblem = withName ? nameProblemText(name, separator, locale) : null;
  // "Enter a name" waits for the person to type or submit; every other problem shows as typed.
  const nameError = (refusal?.field === 'name' ? refusal.text : null) ?? (typedProblem && (touched || cleanFolderName(name) !== '') ? typedProblem : null);
  const parentError = refusal?.field === 'parent' ? refusal.text : null;
  const title = mode.kind === 'create' ? t('sidebar.newFolder') : t(mode.kind === 'rename' ? 'sidebar.renameTitle' : 'sidebar.moveTitle', { name: shownName });
  const action = t(mode.kind === 'create' ? 'sidebar.create' : mode.kind === 'rename' ? 'sidebar.renameAction' : 'sidebar.moveAction');

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (typedProblem || busy) return;
    const parent = parentId === TOP_LEVEL ? null : parentId;
    const change: FolderChange =
      mode.kind === 'create'
        ? { kind: 'create', accountId: account.accountId, name: cleanFolderName(name), parentId: parent }
        : mode.kind === 'rename'
          ? { kind: 'rename', accountId: account.accountId, folderId: mode.folder.id, name: cleanFolderName(name) }
          : { kind: 'move', accountId: account.accountId, folderId: mode.folder.id, parentId: parent };
    setBusy(true);
    setRefusal(null);
    try {
      await actions.changeFolder(change);
    } catch (cause) {
      const error = TernError.from(cause);
      const reason = (error.detail as { reason?: unknown } | undefined)?.reason;
      // The gateway's InvalidParameter names the rule broken: say it as the field does.
      const text = error.name === 'InvalidParameter' && isFolderNameReason(reason) ? folderNameReasonText(reason, separator, locale) : errorText(t, error);
      const field = refusalField(error);
      // Moving has no name field: "a folder with this name already exists" is the dialog's.
      setRefusal({ field: field === 'name' && !withName ? 'dialog' : field, text });
      setBusy(false);
      return;
    }
    onClose();
  };

  const nameErrorId = `${fieldId}-name-error`;
  const parentErrorId = `${fieldId}-parent-error`;
  return (
    <ModalDialog title={title} onClose={onClose} busy={busy} className="folder-dialog">
      <form className="modal-dialog-body" noValidate onSubmit={(event) => void submit(event)}>
        <p className="modal-dialog-text">{t('sidebar.inAccount', { email: account.emailAddress })}</p>
        {withName && (
          <div className="field">
            <label className="field-label" htmlFor={`${fieldId}-name`}>
              {t('sidebar.folderName')}
            </label>
            <input
              id={`${fieldId}-name`}
              className="input"
              type="text"
              autoComplete="off"
              spellCheck={false}
              data-autofocus=""
              // Past the limit is said, not cut: a pasted name keeps what was pasted.
              maxLength={FOLDER_NAME_MAX * 4}
              value={name}
              aria-invalid={nameError ? true : undefined}
              aria-describedby={nameError ? nameErrorId : undefined}
              onChange={(event) => {
                setName(event.target.value);
                if (refusal?.field !== 'dialog') setRefusal(null);
              }}
            />
            <FieldError id={nameErrorId}>{nameError}</FieldError>
          </div>
        )}
        {withParent && (
          <div className="field">
            <label className="field-label" htmlFor={`${fieldId}-parent`}>
              {t('sidebar.inside')}
            </label>
            <select
              id={`${fieldId}-parent`}
              className="input"
              value={parentId}
              aria-invalid={parentError ? true : undefined}
              aria-describedby={parentError ? parentErrorId : undefined}
              onChange={(event) => {
                setParentId(event.target.value);
                setRefusal(null);
              }}
            >
              <option value={TOP_LEVEL}>{t('sidebar.noParentTopLevel')}</option>
              {choices.map((choice) => (
                <option key={choice.folder.id} value={choice.folder.id}>
                  {`${'\u2003'.repeat(choice.depth)}${choice.displayName}`}
                </option>
              ))}
            </select>
            <FieldError id={parentErrorId}>{parentError}</FieldError>
          </div>
        )}
        <FieldError>{refusal?.field === 'dialog' && refusal.text}</FieldError>
        <div className="modal-dialog-actions">
          <button type="button" className="button button-secondary" disabled={busy} onClick={onClose}>
            {t('common.cancel')}
          </button>
          <button type="submit" className="button button-primary" disabled={busy}>
            {busy ? `${action === 'Create' ? 'Creating' : action === 'Rename' ? 'Renaming' : 'Moving'}…` : action}
          </button>
        </div>
      </form>
    </ModalDialog>
  );
}
