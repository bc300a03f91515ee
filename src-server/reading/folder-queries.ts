import type { Folder, SpecialUse } from '../../shared/api/mail';
import { TernError } from '../../shared/errors';
import type { Materializer } from '../mirror/materialize';
import { FOLDER_COLUMNS, type FolderRow } from '../mirror/mirror-rows';
import type { SqlExecutor } from '../store/sql';
import { isWithin, samePath } from './folder-name';

/** Sidebar order of the special folders; the rest follow by path. */
const SPECIAL_ORDER: readonly SpecialUse[] = ['inbox', 'snoozed', 'drafts', 'sent', 'archive', 'junk', 'trash', 'all', 'flagged'];

const DEFAULT_SEPARATOR = '/';

const SQL = {
  rows: `SELECT ${FOLDER_COLUMNS} FROM folders WHERE account_id = ? ORDER BY id`,
  row: `SELECT ${FOLDER_COLUMNS} FROM folders WHERE account_id = ? AND id = ?`,
} as const;

/**
 * Read-only access to the mirrored folder list, always scoped to one account. The
 * mirror's store owns every write; commands go to IMAP and come back through a resync.
 */
export class FolderQueries {
  constructor(
    private readonly store: SqlExecutor,
    private readonly materializer: Materializer,
  ) {}

  rows(accountId: number): Promise<FolderRow[]> {
    return this.store.all<FolderRow>(SQL.rows, [accountId]);
  }

  /** The folder row, or FolderNotFound (also for another account's folder). */
  async row(accountId: number, folderId: number, notFound: 'FolderNotFound' | 'TargetFolderNotExists' = 'FolderNotFound'): Promise<FolderRow> {
    const row = await this.store.get<FolderRow>(SQL.row, [accountId, folderId]);
    if (!row) throw new TernError(notFound, { detail: { folderId: String(folderId) } });
    return row;
  }

  async byPath(accountId: number, path: string): Promise<FolderRow | undefined> {
    return (await this.rows(accountId)).find((row) => samePath(row.path, path));
  }

  /** The account's hierarchy separator, as LIST reported it (INBOX's, else any folder's). */
  async separator(accountId: number, rows?: readonly FolderRow[]): Promise<string> {
    const all = rows ?? (await this.rows(accountId));
    const inbox = all.find((row) => row.path.toUpperCase() === 'INBOX');
    return (inbox ?? all[0])?.delimiter || DEFAULT_SEPARATOR;
  }

  /** The folder and every folder below it. */
  async subtree(accountId: number, root: FolderRow): Promise<FolderRow[]> {
    return (await this.rows(accountId)).filter((row) => isWithin(row.path, root.path, root.delimiter || DEFAULT_SEPARATOR));
  }

  /** The special-use folder of a kind (Trash, Sent …), if the account has one. */
  async special(accountId: number, use: SpecialUse): Promise<FolderRow | undefined> {
    return (await this.rows(accountId)).find((row) => row.special_use === use);
  }

  /** Every folder with counts, special folders first in sidebar order, then by path. */
  async list(accountId: number): Promise<{ folders: Folder[]; separator: string }> {
    const rows = await this.rows(accountId);
    const rank = (row: FolderRow) => {
      const index = row.special_use ? SPECIAL_ORDER.indexOf(row.special_use) : -1;
      return index === -1 ? SPECIAL_ORDER.length : index;
    };
    const sorted = [...rows].sort((a, b) => rank(a) - rank(b) || a.path.localeCompare(b.path));
    const folders: Folder[] = [];
    for (const row of sorted) {
      const folder = await this.materializer.folder(accountId, row.id);
      if (folder) folders.push(folder);
    }
    return { folders, separator: await this.separator(accountId, rows) };
  }

  async folder(accountId: number, folderId: number): Promise<Folder> {
    const folder = await this.materializer.folder(accountId, folderId);
    if (!folder) throw new TernError('FolderNotFound', { detail: { folderId: String(folderId) } });
    return folder;
  }
}

/** Special folders (and INBOX) keep their place: no rename, move or delete. */
export function isSpecial(row: FolderRow): boolean {
  return row.special_use !== null || row.path.toUpperCase() === 'INBOX';
}
