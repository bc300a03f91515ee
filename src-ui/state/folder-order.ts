/**
 * The order and nesting of an account's folders in the sidebar: special folders first
 * (inbox, starred, drafts, sent, archive, all mail, junk, trash), then the others by name,
 * each folder's subfolders right under it. Nesting comes from the IMAP path and the
 * account's folder separator (mailProperties.folderSeparator, "/" by default).
 */
import type { Locale } from '../../shared/locales';
import { format, type MessageId } from '../../shared/strings';
import type { FolderView } from '../../shared/worker-mail-api';

const SPECIAL_ORDER = ['inbox', 'snoozed', 'flagged', 'drafts', 'sent', 'archive', 'all', 'junk', 'trash'] as const;

/** Names people know special folders by, whatever the server calls them ("INBOX", "[Gmail]/Sent Mail"). */
export const SPECIAL_FOLDER_NAMES: Readonly<Record<(typeof SPECIAL_ORDER)[number], MessageId>> = {
  inbox: 'folders.inbox',
  snoozed: 'folders.snoozed',
  flagged: 'folders.flagged',
  drafts: 'folders.drafts',
  sent: 'folders.sent',
  archive: 'folders.archive',
  all: 'folders.all',
  junk: 'folders.junk',
  trash: 'folders.trash',
};

/** A special folder's name in a locale. */
export const specialFolderName = (role: (typeof SPECIAL_ORDER)[number], locale: Locale = 'en') => format(locale, SPECIAL_FOLDER_NAMES[role]);

export interface SidebarFolder {
  readonly folder: FolderView;
  /** Nesting depth, 0 for top level. */
  readonly depth: number;
  readonly displayName: string;
}

function parentPath(path: string, separator: string): string | null {
  const at = separator ? path.lastIndexOf(separator) : -1;
  return at > 0 ? path.slice(0, at) : null;
}

/** What the sidebar calls a folder: the special name, or the last segment of its path. */
export function folderDisplayName(folder: Pick<FolderView, 'path' | 'name' | 'specialUse'>, separator: string, locale: Locale = 'en'): string {
  if (folder.specialUse) return specialFolderName(folder.specialUse, locale);
  const segment = separator ? folder.path.slice(folder.path.lastIndexOf(separator) + separator.length) : folder.path;
  return segment || folder.name || folder.path;
}

const specialRank = (folder: FolderView) => (folder.specialUse ? SPECIAL_ORDER.indexOf(folder.specialUse) : SPECIAL_ORDER.length);
const byName = (a: FolderView, b: FolderView, separator: string, locale: Locale) =>
  folderDisplayName(a, separator, locale).localeCompare(folderDisplayName(b, separator, locale), locale, { sensitivity: 'base', numeric: true });

export function orderFolders(folders: readonly FolderView[], separator = '/', locale: Locale = 'en'): readonly SidebarFolder[] {
  const byPath = new Map(folders.map((folder) => [folder.path, folder]));
  const children = new Map<string | null, FolderView[]>();
  for (const folder of folders) {
    // A folder whose parent is not listed (not subscribed, or \Noselect) shows at the top level.
    let parent = parentPath(folder.path, separator);
    while (parent !== null && !byPath.has(parent)) parent = parentPath(parent, separator);
    const siblings = children.get(parent);
    if (siblings) siblings.push(folder);
    else children.set(parent, [folder]);
  }
  const ordered: SidebarFolder[] = [];
  const visit = (parent: string | null, depth: number) => {
    const siblings = [...(children.get(parent) ?? [])].sort((a, b) => specialRank(a) - specialRank(b) || byName(a, b, separator, locale));
    for (const folder of siblings) {
      ordered.push({ folder, depth, displayName: folderDisplayName(folder, separator, locale) });
      visit(folder.path, depth + 1);
    }
  };
  visit(null, 0);
  return ordered;
}

export interface VisibleFolder extends SidebarFolder {
  /** Open or closed when the folder has subfolders; null when it has none. */
  readonly expanded: boolean | null;
}

/** The folders shown: subfolders of a closed folder left out; each parent says whether it is open. */
export function visibleFolders(ordered: readonly SidebarFolder[], collapsed: ReadonlySet<string>): readonly VisibleFolder[] {
  const shown: VisibleFolder[] = [];
  let hiddenBelow = Infinity; // deeper than this depth is inside a closed folder
  ordered.forEach((entry, i) => {
    if (entry.depth > hiddenBelow) return;
    hiddenBelow = Infinity;
    const hasChildren = (ordered[i + 1]?.depth ?? -1) > entry.depth;
    const closed = hasChildren && collapsed.has(entry.folder.id);
    if (closed) hiddenBelow = entry.depth;
    shown.push({ ...entry, expanded: hasChildren ? !closed : null });
  });
  return shown;
}
