/**
 * What the folder dialogs offer and say, pure so the rules are tested without a DOM:
 * the folders a folder may be made in or moved into, how much a delete takes with it,
 * and which field a refusal from the mail server belongs next to.
 */
import { TernError } from '../../shared/errors';
import { folderNameProblem, folderNameReasonText } from '../../shared/folder-name-rule';
import type { Locale } from '../../shared/preferences';
import { format } from '../../shared/strings';
import type { FolderView } from '../../shared/worker-mail-api';
import { orderFolders, type SidebarFolder } from '../state/folder-order';

/** Under (or at) `ancestor`'s path, by the account's separator. */
const within = (path: string, ancestor: string, separator: string) => path === ancestor || path.startsWith(ancestor + separator);

/**
 * Parents offered for a new folder, or for moving `moving` (then never itself nor one of
 * its own subfolders): the account's own folders, not the special ones (Inbox, Sent, Trash …
 * hold mail the server files itself; a folder is put under Trash by Delete).
 */
export function parentChoices(folders: readonly FolderView[], separator: string, moving?: FolderView): readonly SidebarFolder[] {
  return orderFolders(folders, separator).filter(({ folder }) => folder.specialUse === null && !(moving && within(folder.path, moving.path, separator)));
}

/** The folder's parent among the listed folders (null: the top level). */
export function parentOf(folder: FolderView, folders: readonly FolderView[], separator: string): FolderView | null {
  const at = folder.path.lastIndexOf(separator);
  if (at <= 0) return null;
  const parentPath = folder.path.slice(0, at);
  return folders.find((candidate) => candidate.path === parentPath) ?? null;
}

/** What a delete takes with it: the folder's subfolders and the messages in it and them. */
export function deleteReach(folder: FolderView, folders: readonly FolderView[], separator: string): { readonly subfolders: number; readonly messages: number } {
  const reached = folders.filter((candidate) => within(candidate.path, folder.path, separator));
  return { subfolders: reached.length - 1, messages: reached.reduce((sum, candidate) => sum + candidate.total, 0) };
}

/** Whether `folder` is inside the account's Trash (a delete there is for good). */
export function inTrash(folder: FolderView, folders: readonly FolderView[], separator: string): boolean {
  const trash = folders.find((candidate) => candidate.specialUse === 'trash');
  return Boolean(trash && folder.id !== trash.id && within(folder.path, trash.path, separator));
}

/** The name field's problem as typed, in words; null when the name may be sent. */
export function nameProblemText(name: string, separator: string, locale: Locale = 'en'): string | null {
  const problem = folderNameProblem(name, separator);
  if (!problem) return null;
  return problem.error === 'FolderNameLengthExceeded' ? format(locale, 'errors.FolderNameLengthExceeded') : folderNameReasonText(problem.reason, separator, locale);
}

/**
 * Where a refusal is shown: next to the name (a name taken, too long, not allowed), next
 * to the parent picker (it is gone, or it cannot take the folder), or for the dialog as a
 * whole (the folder itself is special or gone, the server failed).
 */
export function refusalField(error: TernError): 'name' | 'parent' | 'dialog' {
  switch (error.name) {
    case 'FolderAlreadyExist':
    case 'FolderNameLengthExceeded':
      return 'name';
    case 'InvalidParameter': {
      const field = (error.detail as { field?: unknown } | undefined)?.field;
      return field === 'parentId' ? 'parent' : 'name';
    }
    case 'TargetFolderNotExists':
      return 'parent';
    default:
      return 'dialog';
  }
}
