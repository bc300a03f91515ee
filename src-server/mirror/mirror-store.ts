import type { SpecialUse } from '../../shared/api/mail';
import { hasFlag } from '../imap/imap-flags';
import type { PushHub } from '../push/push-hub';
import type { SqlExecutor, SqlStore } from '../store/sql';
import type { TransactionLog } from '../store/transaction-log';
import { ChangeSet } from './change-set';
import type { MessageRecord } from './message-record';
import { deleteMessages, insertMessages, messagesByUid, writeFlags, type FlagWrite } from './message-writes';
import { FOLDER_COLUMNS, type FolderRow } from './mirror-rows';
import { ThreadResolver } from './threading';

/** A folder as LIST reports it. */
export interface FolderListing {
  readonly path: string;
  readonly name: string;
  readonly parentPath: string | null;
  readonly delimiter: string;
  readonly specialUse: SpecialUse | null;
}

/** Where a folder's mirror stands against the server (null before its first sync). */
export interface FolderSyncState {
  readonly uidvalidity: number | null;
  readonly uidnext: number | null;
  readonly highestModseq: string | null;
  /** See FolderRow.backfilled_to: 0 means every message is mirrored. */
  readonly backfilledTo: number | null;
}

/** The outcome of one step of a folder's sync, written in one transaction. */
export interface FolderBatch {
  readonly folderId: number;
  readonly added: readonly MessageRecord[];
  readonly flagUpdates: readonly { uid: number; flags: string[]; modseq: string | null }[];
  readonly removedUids: readonly number[];
  readonly state: FolderSyncState;
}

/** A MOVE whose COPYUID the gateway saw: the mirror rows follow the messages instead of being re-mirrored. */
export interface MoveParams {
  readonly accountId: number;
  readonly fromFolderId: number;
  readonly toFolderId: number;
  /** The destination's UIDVALIDITY from COPYUID. */
  readonly uidValidity: number;
  /** Source UID → destination UID, from COPYUID. */
  readonly uidMap: ReadonlyMap<number, number>;
}

/**
 * Runs first in each write's transaction and throws to refuse the write (rolled back, nothing
 * logged): how an account's mirror writes under its lease (AccountLeases.check with its token).
 */
export type MirrorWriteGuard = (accountId: number) => Promise<void>;

export interface MirrorStoreDeps {
  readonly store: SqlStore;
  /** Where each commit's changes are logged, inside its transaction. */
  readonly txlog: Pick<TransactionLog, 'append'>;
  readonly push: PushHub;
}

/** The mirror's statements (both engines; see store/sql.ts). */
const SQL = {
  folders: `SELECT ${FOLDER_COLUMNS} FROM folders WHERE account_id = ? ORDER BY id`,
  folderById: `SELECT ${FOLDER_COLUMNS} FROM folders WHERE account_id = ? AND id = ?`,
  insertFolder: 'INSERT INTO folders (account_id, path, name, parent_path, delimiter, special_use) VALUES (?, ?, ?, ?, ?, ?) RETURNING id',
  updateFolder: 'UPDATE folders SET name = ?, parent_path = ?, delimiter = ?, special_use = ? WHERE id = ?',
  deleteFolder: 'DELETE FROM folders WHERE id = ?',
  folderState: 'UPDATE folders SET uidvalidity = ?, uidnext = ?, highest_modseq = ?, backfilled_to = ? WHERE id = ?',
  uids: 'SELECT uid FROM messages WHERE folder_id = ? ORDER BY uid',
  count: 'SELECT COUNT(*) AS n FROM messages WHERE folder_id = ?',
  messagesOfFolder: 'SELECT id, thread_id FROM messages WHERE folder_id = ?',
  messageByUid: 'SELECT id, thread_id, flags, unseen FROM messages WHERE folder_id = ? AND uid = ?',
  moveMessage: 'UPDATE messages SET folder_id = ?, uid = ?, modseq = NULL WHERE id = ?',
  deleteFolderMessages: 'DELETE FROM messages WHERE folder_id = ?',
  attachmentsOf: 'SELECT attachments_json FROM messages WHERE account_id = ? AND id = ?',
  updateAttachments: 'UPDATE messages SET attachments_json = ? WHERE id = ?',
  threadSpan: `UPDATE threads SET
      first_at = COALESCE((SELECT MIN(date) FROM messages WHERE thread_id = ?), first_at),
      last_at = COALESCE((SELECT MAX(date) FROM messages WHERE thread_id = ?), last_at)
    WHERE id = ? AND account_id = ?`,
} as const;

type MessageRef = { id: number; thread_id: number };

/**
 * Every write of the IMAP mirror. Each call is one transaction that also appends a log row
 * for each folder, message and thread it touched, and announces the new latest transaction
 * id after commit — so the log, the mirror and the websockets never disagree.
 */
export class MirrorStore {
  private readonly store: SqlStore;
  private readonly threads = new ThreadResolver();

  constructor(
    private readonly deps: MirrorStoreDeps,
    private readonly guard: MirrorWriteGuard | null = null,
  ) {
    this.store = deps.store;
  }

  /**
   * The same store, whose writes first pass `guard` in their own transaction. A mirror given
   * `fenced((id) => leases.check(id, token))` with the token it started under writes nothing
   * once another node holds the account, however late its last step comes (DESIGN §7).
   */
  fenced(guard: MirrorWriteGuard): MirrorStore {
    return new MirrorStore(this.deps, guard);
  }

  folders(accountId: number): Promise<FolderRow[]> {
    return this.store.all<FolderRow>(SQL.folders, [accountId]);
  }

  folder(accountId: number, folderId: number): Promise<FolderRow | undefined> {
    return this.store.get<FolderRow>(SQL.folderById, [accountId, folderId]);
  }

  async folderByPath(accountId: number, path: string): Promise<FolderRow | undefined> {
    return (await this.folders(accountId)).find((folder) => folder.path === path);
  }

  /** UIDs mirrored in a folder, ascending. */
  async mirroredUids(folderId: number): Promise<number[]> {
    return (await this.store.all<{ uid: number }>(SQL.uids, [folderId])).map((row) => row.uid);
  }

  async messageCount(folderId: number): Promise<number> {
    return (await this.store.get<{ n: number }>(SQL.count, [folderId]))!.n;
  }

  /** Brings the folder list in line with LIST: new folders added, changed ones updated, vanished ones deleted with their messages. */
  async syncFolderList(accountId: number, listings: readonly FolderListing[]): Promise<FolderRow[]> {
    await this.commit(accountId, async (tx, changes) => {
      const existing = new Map((await tx.all<FolderRow>(SQL.folders, [accountId])).map((row) => [row.path, row]));
      for (const listing of listings) {
        const row = existing.get(listing.path);
        existing.delete(listing.path);
        if (!row) {
          const inserted = await tx.get<{ id: number }>(SQL.insertFolder, [accountId, listing.path, listing.name, listing.parentPath, listing.delimiter, listing.specialUse]);
          changes.folder(inserted!.id);
        } else if (row.name !== listing.name || row.parent_path !== listing.parentPath || row.delimiter !== listing.delimiter || row.special_use !== listing.specialUse) {
          await tx.run(SQL.updateFolder, [listing.name, listing.parentPath, listing.delimiter, listing.specialUse, row.id]);
          changes.folder(row.id);
        }
      }
      for (const gone of existing.values()) {
        await this.dropMessages(tx, gone.id, changes);
        await tx.run(SQL.deleteFolder, [gone.id]);
        changes.folder(gone.id);
      }
    });
    return this.folders(accountId);
  }

  /** One sync step of a folder: removals, flag changes, new messages (threaded) and the folder's new sync state. */
  async applyFolderBatch(accountId: number, batch: FolderBatch): Promise<void> {
    await this.commit(accountId, async (tx, changes) => {
      // A folder's first step makes it "mirrored" (Folder.mirrored): clients hear it even when it holds nothing.
      let folderChanged = ((await tx.get<FolderRow>(SQL.folderById, [accountId, batch.folderId]))?.uidvalidity ?? null) === null;
      const removed = await messagesByUid(tx, batch.folderId, batch.removedUids);
      for (const row of removed.values()) {
        changes.message(row.id);
        changes.thread(row.thread_id);
        changes.shrunkThreads.add(row.thread_id);
        folderChanged = true;
      }
      await deleteMessages(tx, [...removed.values()].map((row) => row.id));
      // The last word on each UID counts (one statement cannot update a row twice).
      const updates = new Map(batch.flagUpdates.map((update) => [update.uid, update]));
      const flagged = await messagesByUid(tx, batch.folderId, [...updates.keys()]);
      const flagWrites: FlagWrite[] = [];
      for (const update of updates.values()) {
        const row = flagged.get(update.uid);
        const flags = JSON.stringify([...update.flags].sort());
        if (!row || row.flags === flags) continue;
        const unseen = hasFlag(update.flags, '\\Seen') ? 0 : 1;
        flagWrites.push({ id: row.id, flags, unseen, modseq: update.modseq });
        changes.message(row.id);
        changes.thread(row.thread_id);
        if (unseen !== row.unseen) folderChanged = true;
      }
      await writeFlags(tx, flagWrites);
      if (batch.added.length > 0 && (await this.insertMessages(tx, accountId, batch.folderId, batch.added, changes))) folderChanged = true;
      const { state } = batch;
      await tx.run(SQL.folderState, [state.uidvalidity, state.uidnext, state.highestModseq, state.backfilledTo, batch.folderId]);
      if (folderChanged) changes.folder(batch.folderId);
    });
  }

  /**
   * Re-points moved messages at their new folder and UID, keeping their ids (and so the
   * client's row, selection and open reader). Call it inside `withMailbox`, right after the
   * MOVE, so no sync step of either folder runs in between: the source's next step then no
   * longer has the old UIDs, the destination's finds the new ones mirrored. Returns the ids
   * re-pointed; none when the destination's mirror is of another UIDVALIDITY.
   */
  async applyMove(params: MoveParams): Promise<number[]> {
    const moved: number[] = [];
    const destination = await this.folder(params.accountId, params.toFolderId);
    if (!(await this.folder(params.accountId, params.fromFolderId)) || destination?.uidvalidity !== params.uidValidity) return moved;
    await this.commit(params.accountId, async (tx, changes) => {
      for (const [fromUid, toUid] of params.uidMap) {
        const row = await tx.get<MessageRef>(SQL.messageByUid, [params.fromFolderId, fromUid]);
        if (!row || (await tx.get(SQL.messageByUid, [params.toFolderId, toUid]))) continue;
        await tx.run(SQL.moveMessage, [params.toFolderId, toUid, row.id]);
        moved.push(row.id);
        changes.message(row.id);
        changes.thread(row.thread_id);
      }
      if (moved.length === 0) return;
      changes.folder(params.fromFolderId);
      changes.folder(params.toFolderId);
    });
    return moved;
  }

  /** Drops a folder's mirror (its UIDVALIDITY changed): every message is logged deleted, the sync state starts over. */
  async resetFolder(accountId: number, folderId: number): Promise<void> {
    await this.commit(accountId, async (tx, changes) => {
      await this.dropMessages(tx, folderId, changes);
      await tx.run(SQL.folderState, [null, null, null, null, folderId]);
      changes.folder(folderId);
    });
  }

  /**
   * The exact decoded sizes of a message's attachments (index → bytes), measured when its
   * body was parsed: the mirror only estimates them from BODYSTRUCTURE's encoded size, which
   * is 1–2 bytes off for most base64 parts. Logged as a message change, so every client shows
   * the exact size from then on; nothing is written when the sizes are already exact.
   */
  async exactAttachmentSizes(accountId: number, messageId: number, sizes: ReadonlyMap<number, number>): Promise<void> {
    const row = await this.store.get<{ attachments_json: string }>(SQL.attachmentsOf, [accountId, messageId]);
    if (row === undefined) return;
    const stored = JSON.parse(row.attachments_json) as { index: number; size: number }[];
    if (stored.every((attachment) => (sizes.get(attachment.index) ?? attachment.size) === attachment.size)) return;
    const exact = stored.map((attachment) => ({ ...attachment, size: sizes.get(attachment.index) ?? attachment.size }));
    await this.commit(accountId, async (tx, changes) => {
      await tx.run(SQL.updateAttachments, [JSON.stringify(exact), messageId]);
      changes.message(messageId);
    });
  }

  /** Threads the new messages (as a batch, in their order) and inserts them; whether any was new. */
  private async insertMessages(tx: SqlExecutor, accountId: number, folderId: number, records: readonly MessageRecord[], changes: ChangeSet): Promise<boolean> {
    const inputOf = (record: MessageRecord) => ({
      accountId,
      messageIdHeader: record.messageIdHeader,
      inReplyTo: record.inReplyTo,
      references: record.references,
      subject: record.subject,
      date: record.date,
    });
    const threading = await this.threads.begin(tx, accountId, records.map(inputOf));
    const assigned: number[] = [];
    for (const record of records) {
      const assignment = await threading.assign(inputOf(record));
      assigned.push(assignment.threadId);
      changes.thread(assignment.threadId);
      for (const merged of assignment.mergedThreadIds) changes.thread(merged);
      for (const moved of assignment.movedMessageIds) changes.message(moved);
    }
    await threading.finish();
    // A thread a later message of the batch merged away is gone: its messages go in with the one it went into.
    const rows = records.map((record, index) => ({ record, threadId: threading.current(assigned[index]!) }));
    const inserted = await insertMessages(tx, { accountId, folderId, rows });
    for (const record of records) {
      const id = inserted.get(record.uid);
      if (id !== undefined) changes.message(id);
    }
    return inserted.size > 0;
  }

  private async dropMessages(tx: SqlExecutor, folderId: number, changes: ChangeSet): Promise<void> {
    for (const row of await tx.all<MessageRef>(SQL.messagesOfFolder, [folderId])) {
      changes.message(row.id);
      changes.thread(row.thread_id);
      changes.shrunkThreads.add(row.thread_id);
    }
    await tx.run(SQL.deleteFolderMessages, [folderId]);
  }

  /**
   * Runs `work` and the log append in one transaction, then tells the websockets. The store
   * runs one transaction at a time per connection and the log's append bumps the account's
   * row first, so two writers of one account never interleave their log ids.
   */
  private async commit(accountId: number, work: (tx: SqlExecutor, changes: ChangeSet) => Promise<void>): Promise<void> {
    const changes = new ChangeSet();
    const latest = await this.store.transaction(async (tx) => {
      await this.guard?.(accountId);
      await work(tx, changes);
      // Emptied threads keep their row (and id) so a message moving back rejoins the same thread.
      for (const threadId of changes.shrunkThreads) await tx.run(SQL.threadSpan, [threadId, threadId, threadId, accountId]);
      return this.deps.txlog.append(accountId, changes.entries());
    });
    if (changes.size > 0) this.deps.push.announce(accountId, latest);
  }
}
