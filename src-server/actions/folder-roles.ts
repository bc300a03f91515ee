import type { SpecialUse } from '../../shared/api/mail';
import type { SqlStore } from '../store/sql';

/** A mirrored folder as actions need it. */
export interface FolderRef {
  readonly id: number;
  readonly path: string;
  readonly specialUse: SpecialUse | null;
}

export type FolderRole = 'inbox' | 'drafts' | 'sent' | 'archive' | 'junk' | 'trash';

/** Names servers without SPECIAL-USE give these folders (first = what we use when none exists yet). */
const CONVENTIONAL_NAMES: Record<FolderRole, readonly string[]> = {
  inbox: ['INBOX'],
  drafts: ['Drafts', 'Draft'],
  sent: ['Sent', 'Sent Items', 'Sent Messages', 'Sent Mail'],
  archive: ['Archive', 'Archives'],
  junk: ['Junk', 'Spam', 'Junk E-mail', 'Junk Email'],
  trash: ['Trash', 'Deleted Items', 'Deleted Messages', 'Bin'],
};

/**
 * Finds an account's special folders in the mirror: by SPECIAL-USE first, then by the
 * usual names. Read-only on the mirror's `folders` table.
 */
export class FolderRoles {
  constructor(private readonly store: SqlStore) {}

  async folders(accountId: number): Promise<FolderRef[]> {
    return this.store.all<FolderRef>('SELECT id, path, special_use AS "specialUse" FROM folders WHERE account_id = ? ORDER BY id', [accountId]);
  }

  async byId(accountId: number, folderId: number): Promise<FolderRef | undefined> {
    return (await this.folders(accountId)).find((folder) => folder.id === folderId);
  }

  async byPath(accountId: number, path: string): Promise<FolderRef | undefined> {
    return (await this.folders(accountId)).find((folder) => folder.path === path);
  }

  async role(accountId: number, role: FolderRole): Promise<FolderRef | undefined> {
    return roleIn(await this.folders(accountId), role);
  }

  /** The folder's path, or its conventional name when the mirror has not listed one (yet). */
  async pathOf(accountId: number, role: FolderRole): Promise<string> {
    return (await this.role(accountId, role))?.path ?? CONVENTIONAL_NAMES[role][0]!;
  }
}

export function roleIn(folders: readonly FolderRef[], role: FolderRole): FolderRef | undefined {
  const bySpecialUse = folders.find((folder) => folder.specialUse === role);
  if (bySpecialUse) return bySpecialUse;
  const names = CONVENTIONAL_NAMES[role].map((name) => name.toLowerCase());
  return folders.find((folder) => folder.specialUse === null && names.includes(folder.path.toLowerCase()));
}
