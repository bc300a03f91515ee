import type { Folder, SpecialUse } from '../../shared/api/mail';
import { TernError } from '../../shared/errors';
import type { Materializer } from '../mirror/materialize';
import type { FolderRow } from '../mirror/mirror-rows';
import type { Db } from '../store/database';
import { isWithin, samePath } from './folder-name';

/** Sidebar order of the special folders; the rest follow by path. */
const SPECIAL_ORDER: readonly SpecialUse[] = ['inbox', 'drafts', 'sent', 'archive', 'junk', 'trash', 'all', 'flagged'];

const DEFAULT_SEPARATOR = '/';

/**
 * Read-only access to the mirrored folder list, always scoped to one account. The
 * mirror's store owns every write; commands go to IMAP and come back through a resync.
 */
export class FolderQueries {
  private readonly stmt;

  constructor(
    db: Db,
    private readonly materializer: Materializer,
  ) {
    this.stmt = {
      rows: db.prepare<[number]>('SELECT * FROM folders WHERE account_id = ? ORDER BY id'),
      row: db.prepare<[number, number]>('SELECT * FROM folders WHERE account_id = ? AND id = ?'),
    };
  }

  rows(accountId: number): FolderRow[] {
    return this.stmt.rows.all(accountId) as FolderRow[];
  }

  /** The folder row, or FolderNotFound (also for another account's folder). */
  row(accountId: number, folderId: number, notFound: 'FolderNotFound' | 'TargetFolderNotExists' = 'FolderNotFound'): FolderRow {
    const row = this.stmt.row.get(accountId, folderId) as FolderRow | undefined;
    if (!row) throw new TernError(notFound, { detail: { folderId: String(folderId) } });
    return row;
  }

  byPath(accountId: number, path: string): FolderRow | undefined {
    return this.rows(accountId).find((row) => samePath(row.path, path));
  }

  /** The account's hierarchy separator, as LIST reported it (INBOX's, else any folder's). */
  separator(accountId: number, rows = this.rows(accountId)): string {
    const inbox = rows.find((row) => row.path.toUpperCase() === 'INBOX');
    return (inbox ?? rows[0])?.delimiter || DEFAULT_SEPARATOR;
  }

  /** The folder and every folder below it. */
  subtree(accountId: number, root: FolderRow): FolderRow[] {
    return this.rows(accountId).filter((row) => isWithin(row.path, root.path, root.delimiter || DEFAULT_SEPARATOR));
  }

  /** The special-use folder of a kind (Trash, Sent …), if the account has one. */
  special(accountId: number, use: SpecialUse): FolderRow | undefined {
    return this.rows(accountId).find((row) => row.special_use === use);
  }

  /** Every folder with counts, special folders first in sidebar order, then by path. */
  list(accountId: number): { folders: Folder[]; separator: string } {
    const rows = this.rows(accountId);
    const rank = (row: FolderRow) => {
      const index = row.special_use ? SPECIAL_ORDER.indexOf(row.special_use) : -1;
      return index === -1 ? SPECIAL_ORDER.length : index;
    };
    const sorted = [...rows].sort((a, b) => rank(a) - rank(b) || a.path.localeCompare(b.path));
    const folders = sorted.map((row) => this.materializer.folder(accountId, row.id)).filter((folder): folder is Folder => folder !== null);
    return { folders, separator: this.separator(accountId, rows) };
  }

  folder(accountId: number, folderId: number): Folder {
    const folder = this.materializer.folder(accountId, folderId);
    if (!folder) throw new TernError('FolderNotFound', { detail: { folderId: String(folderId) } });
    return folder;
  }
}

/** Special folders (and INBOX) keep their place: no rename, move or delete. */
export function isSpecial(row: FolderRow): boolean {
  return row.special_use !== null || row.path.toUpperCase() === 'INBOX';
}
