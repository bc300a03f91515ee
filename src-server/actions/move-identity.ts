import type { PushHub } from '../push/push-hub';
import type { Db } from '../store/database';
import type { TransactionLog } from '../store/transaction-log';

export interface RehomeParams {
  readonly accountId: number;
  readonly fromFolderId: number;
  readonly toFolderId: number;
  /** The destination's UIDVALIDITY from COPYUID. */
  readonly uidValidity: number;
  /** Source UID → destination UID, from COPYUID. */
  readonly uidMap: ReadonlyMap<number, number>;
}

/**
 * Keeps a moved message's id (and so the client's row, selection and open reader) across
 * a MOVE: with COPYUID the gateway knows the message's new UID, so its mirror row is
 * re-pointed at the destination instead of being deleted and mirrored again under a new
 * id. The source folder's next sync no longer has the old UID to remove and the
 * destination's finds the new one already mirrored, so the mirror stays exact.
 *
 * Must run on the mirror's queue (inside `withMailbox`), so no sync step of either folder
 * runs between the MOVE and this write. It writes the mirror's tables outside MirrorStore
 * and belongs there (`MirrorStore.applyMove`) once the mirror's owner takes it in.
 */
export class MoveRehomer {
  private readonly stmt;

  constructor(private readonly deps: { db: Db; txlog: TransactionLog; push: PushHub }) {
    const { db } = deps;
    this.stmt = {
      folder: db.prepare<[number, number]>('SELECT uidvalidity FROM folders WHERE account_id = ? AND id = ?'),
      byUid: db.prepare<[number, number]>('SELECT id, thread_id AS threadId FROM messages WHERE folder_id = ? AND uid = ?'),
      move: db.prepare<[number, number, number]>('UPDATE messages SET folder_id = ?, uid = ?, modseq = NULL WHERE id = ?'),
    };
  }

  /** Returns the ids of the messages re-pointed (none when the destination's mirror is of another UIDVALIDITY). */
  rehome(params: RehomeParams): number[] {
    const { accountId, fromFolderId, toFolderId } = params;
    const moved: number[] = [];
    const latest = this.deps.db.transaction(() => {
      const destination = this.stmt.folder.get(accountId, toFolderId) as { uidvalidity: number | null } | undefined;
      if (!this.stmt.folder.get(accountId, fromFolderId) || destination?.uidvalidity !== params.uidValidity) return null;
      const threads = new Set<number>();
      for (const [fromUid, toUid] of params.uidMap) {
        const row = this.stmt.byUid.get(fromFolderId, fromUid) as { id: number; threadId: number } | undefined;
        if (!row || this.stmt.byUid.get(toFolderId, toUid)) continue;
        this.stmt.move.run(toFolderId, toUid, row.id);
        moved.push(row.id);
        threads.add(row.threadId);
      }
      if (moved.length === 0) return null;
      return this.deps.txlog.append(accountId, [
        ...moved.map((objectId) => ({ object: 'message' as const, objectId })),
        ...[...threads].map((objectId) => ({ object: 'thread' as const, objectId })),
        { object: 'folder', objectId: fromFolderId },
        { object: 'folder', objectId: toFolderId },
      ]);
    })();
    if (latest !== null) this.deps.push.announce(accountId, latest);
    return moved;
  }
}
