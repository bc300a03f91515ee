/**
 * The "Move to" menu's folders. Drafts and Sent
 * are no place to move a conversation to (Gmail does not offer them), nor are the virtual
 * folders (All mail, Starred) or the folder shown.
 *
 * Conversations of several accounts (the unified inbox) move by folder name: the menu
 * offers the folders every one of those accounts has — the special ones by role (Archive,
 * Spam, Trash, whatever each server calls them) and the person's own by the same path —
 * and each conversation goes to that folder of its own account. A folder only some accounts
 * have is not offered: there would be nowhere to put the others' conversations.
 */
import type { FolderView } from '../../shared/worker-mail-api';
import { orderFolders, type SidebarFolder } from '../state/folder-order';

// Snoozed: mail gets there by Snooze, with a time (a move by hand would never come back).
const NOT_TARGETS = new Set<FolderView['specialUse']>(['drafts', 'sent', 'all', 'flagged', 'snoozed']);

export function moveTargets(folders: readonly FolderView[], separator: string, currentFolderId: string | null): readonly SidebarFolder[] {
  return orderFolders(folders, separator).filter(({ folder }) => folder.id !== currentFolderId && !NOT_TARGETS.has(folder.specialUse));
}

/** A "Move to" entry: one folder, or the same-named folder of each account (`folderIdByAccount`). */
export interface MoveTarget extends SidebarFolder {
  /** Present when the conversations belong to several accounts: account id → that account's folder. */
  readonly folderIdByAccount?: Readonly<Record<string, string>>;
}

/** What makes two accounts' folders "the same": the role of a special folder, else the path split by each account's separator. */
const sameKey = (folder: FolderView, separator: string) => (folder.specialUse ? `role:${folder.specialUse}` : `path:${folder.path.split(separator).join('\u0000')}`);

/**
 * The folders common to every account (each with its folders and separator), ordered as the
 * first account's menu. `currentRole`: the unified mailbox shown (its folder is left out).
 */
export function commonMoveTargets(accounts: readonly { accountId: string; folders: readonly FolderView[]; separator: string }[], currentRole: FolderView['specialUse']): readonly MoveTarget[] {
  const [first, ...others] = accounts;
  if (!first) return [];
  const keyed = others.map(({ accountId, folders, separator }) => ({ accountId, byKey: new Map(folders.map((folder) => [sameKey(folder, separator), folder])) }));
  const targets: MoveTarget[] = [];
  for (const entry of moveTargets(first.folders, first.separator, null)) {
    if (currentRole && entry.folder.specialUse === currentRole) continue;
    const key = sameKey(entry.folder, first.separator);
    const folderIdByAccount: Record<string, string> = { [first.accountId]: entry.folder.id };
    for (const { accountId, byKey } of keyed) {
      const id = byKey.get(key)?.id;
      if (id === undefined) break;
      folderIdByAccount[accountId] = id;
    }
    if (Object.keys(folderIdByAccount).length === accounts.length) targets.push({ ...entry, folderIdByAccount });
  }
  return targets;
}
