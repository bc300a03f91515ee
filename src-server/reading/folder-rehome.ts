import type { PushHub } from '../push/push-hub';
import type { SqlStore } from '../store/sql';
import type { TransactionLog } from '../store/transaction-log';
import type { FolderRow } from '../mirror/mirror-rows';
import { isWithin } from './folder-name';

export interface FolderRehomeParams {
  readonly accountId: number;
  readonly fromPath: string;
  /** The new path as the server reported it (RENAME's answer). */
  readonly toPath: string;
  readonly separator: string;
}

const ROWS = 'SELECT id, path, name, parent_path FROM folders WHERE account_id = ? ORDER BY id';
const UPDATE = 'UPDATE folders SET path = ?, name = ?, parent_path = ? WHERE id = ?';

/**
 * Keeps folder ids across a RENAME (rename, move, delete-to-Trash). The mirror keys
 * folders by path, so left alone its next sweep would see the old path vanish and a new
 * one appear: every message of the folder and its subfolders deleted and mirrored again
 * under new ids, the folder empty meanwhile, and the client's selection lost. Instead the
 * rows of the folder and its subfolders are re-pointed at their new paths, with one log
 * entry per folder, right after the RENAME and on the mirror's queue (inside withMailbox),
 * so no sweep runs in between. RENAME keeps UIDVALIDITY on common servers; where it does
 * not, the folder's next sync sees the change and rebuilds it, as for any UIDVALIDITY change.
 *
 * It writes the mirror's tables outside MirrorStore and belongs there
 * (`MirrorStore.renameFolder`) once the mirror's owner takes it in.
 */
export class FolderRehomer {
  constructor(private readonly deps: { store: SqlStore; txlog: Pick<TransactionLog, 'append'>; push: PushHub }) {}

  /** Returns the ids of the folders re-pointed. */
  async rename({ accountId, fromPath, toPath, separator }: FolderRehomeParams): Promise<number[]> {
    if (fromPath === toPath) return [];
    const moved: number[] = [];
    const latest = await this.deps.store.transaction(async (tx) => {
      const rows = await tx.all<Pick<FolderRow, 'id' | 'path' | 'name' | 'parent_path'>>(ROWS, [accountId]);
      // Something already mirrored at the destination (a sweep got there first): leave it to the sweep.
      if (rows.some((row) => isWithin(row.path, toPath, separator))) return null;
      for (const row of rows) {
        if (!isWithin(row.path, fromPath, separator)) continue;
        const path = toPath + row.path.slice(fromPath.length);
        const isRoot = row.path === fromPath;
        const cut = path.lastIndexOf(separator);
        const name = isRoot ? (cut === -1 ? path : path.slice(cut + separator.length)) : row.name;
        const parentPath = isRoot ? (cut === -1 ? null : path.slice(0, cut)) : toPath + (row.parent_path ?? '').slice(fromPath.length);
        await tx.run(UPDATE, [path, name, parentPath, row.id]);
        moved.push(row.id);
      }
      return moved.length > 0 ? this.deps.txlog.append(accountId, moved.map((objectId) => ({ object: 'folder' as const, objectId }))) : null;
    });
    if (latest !== null) this.deps.push.announce(accountId, latest);
    return moved;
  }
}
