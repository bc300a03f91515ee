/**
 * The "Move to" menu's folders. Drafts and Sent
 * are no place to move a conversation to (Gmail does not offer them), nor are the virtual
 * folders (All mail, Starred) or the folder shown.
 */
import type { FolderView } from '../../shared/worker-mail-api';
import { orderFolders, type SidebarFolder } from '../sidebar/folder-order';

const NOT_TARGETS = new Set<FolderView['specialUse']>(['drafts', 'sent', 'all', 'flagged']);

export function moveTargets(folders: readonly FolderView[], separator: string, currentFolderId: string | null): readonly SidebarFolder[] {
  return orderFolders(folders, separator).filter(({ folder }) => folder.id !== currentFolderId && !NOT_TARGETS.has(folder.specialUse));
}
