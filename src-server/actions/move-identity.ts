import type { PushHub } from '../push/push-hub';
import type { SqlStore } from '../store/sql';
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

const FOLDER = 'SELECT uidvalidity FROM folders WHERE account_id = ? AND id = ?';
const BY_UID = 'SELECT id, thread_id AS "threadId" FROM messages WHERE folder_id = ? AND uid = ?';
const MOVE = 'UPDATE messages SET folder_id = ?, uid = ?, modseq = NULL WHERE id = ?';

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
  constructor(private readonly deps: { store: SqlStore; txlog: Pick<TransactionLog, 'append'>; push: PushHub }) {}

  /** Returns the ids of the messages re-pointed (none when the destination's mirror is of another UIDVALIDITY). */
  async rehome(params: RehomeParams): Promise<number[]> {
    const { accountId, fromFolderId, toFolderId } = params;
    const { store, txlog } = this.deps;
    const moved: number[] = [];
    const latest = await store.transaction(async (tx) => {
      const destination = await tx.get<{ uidvalidity: number | null }>(FOLDER, [accountId, toFolderId]);
      if (!(await tx.get(FOLDER, [accountId, fromFolderId])) || destination?.uidvalidity !== params.uidValidity) return null;
      const threads = new Set<number>();
      for (const [fromUid, toUid] of params.uidMap) {
        const row = await tx.get<{ id: number; threadId: number }>(BY_UID, [fromFolderId, fromUid]);
        if (!row || (await tx.get(BY_UID, [toFolderId, toUid]))) continue;
        await tx.run(MOVE, [toFolderId, toUid, row.id]);
        moved.push(row.id);
        threads.add(row.threadId);
      }
      if (moved.length === 0) return null;
      return txlog.append(accountId, [
        ...moved.map((objectId) => ({ object: 'message' as const, objectId })),
        ...[...threads].map((objectId) => ({ object: 'thread' as const, objectId })),
        { object: 'folder', objectId: fromFolderId },
        { object: 'folder', objectId: toFolderId },
      ]);
    });
    if (latest !== null) this.deps.push.announce(accountId, latest);
    return moved;
  }
}
