import type { SpecialUse } from '../../shared/api/mail';
import { hasFlag } from '../imap/imap-flags';
import type { PushHub } from '../push/push-hub';
import type { Db } from '../store/database';
import type { TransactionLog } from '../store/transaction-log';
import { encodeBodyParts } from './body-parts';
import { ChangeSet } from './change-set';
import type { MessageRecord } from './message-record';
import type { FolderRow } from './mirror-rows';
import { ThreadResolver } from './threading';

/** messages columns in the order of the insert: account, folder, uid, thread, ids, subject, people (JSON), dates, flags, size, attachments, snippet, modseq, unseen, body parts. */
type InsertMessageParams = [
  number, number, number, number, string | null, string | null, string, string, string, string, string,
  number, number, string, number, string, string, string | null, number, string,
];

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

export interface MirrorStoreDeps {
  readonly db: Db;
  readonly txlog: TransactionLog;
  readonly push: PushHub;
}

/**
 * Every write of the IMAP mirror. Each call is one SQLite transaction that also appends a
 * log row for each folder, message and thread it touched, and announces the new latest
 * transaction id after commit — so the log, the mirror and the websockets never disagree.
 */
export class MirrorStore {
  private readonly db: Db;
  private readonly threads: ThreadResolver;
  private readonly stmt;

  constructor(private readonly deps: MirrorStoreDeps) {
    const db = (this.db = deps.db);
    this.threads = new ThreadResolver(db);
    this.stmt = {
      folders: db.prepare<[number]>('SELECT * FROM folders WHERE account_id = ? ORDER BY id'),
      folderById: db.prepare<[number, number]>('SELECT * FROM folders WHERE account_id = ? AND id = ?'),
      insertFolder: db.prepare<[number, string, string, string | null, string, string | null]>(
        'INSERT INTO folders (account_id, path, name, parent_path, delimiter, special_use) VALUES (?, ?, ?, ?, ?, ?)',
      ),
      updateFolder: db.prepare<[string, string | null, string, string | null, number]>(
        'UPDATE folders SET name = ?, parent_path = ?, delimiter = ?, special_use = ? WHERE id = ?',
      ),
      deleteFolder: db.prepare<[number]>('DELETE FROM folders WHERE id = ?'),
      folderState: db.prepare<[number | null, number | null, string | null, number | null, number]>(
        'UPDATE folders SET uidvalidity = ?, uidnext = ?, highest_modseq = ?, backfilled_to = ? WHERE id = ?',
      ),
      uids: db.prepare<[number]>('SELECT uid FROM messages WHERE folder_id = ? ORDER BY uid'),
      count: db.prepare<[number]>('SELECT COUNT(*) AS n FROM messages WHERE folder_id = ?'),
      messagesOfFolder: db.prepare<[number]>('SELECT id, thread_id FROM messages WHERE folder_id = ?'),
      messageByUid: db.prepare<[number, number]>('SELECT id, thread_id, flags, unseen FROM messages WHERE folder_id = ? AND uid = ?'),
      deleteMessage: db.prepare<[number]>('DELETE FROM messages WHERE id = ?'),
      moveMessage: db.prepare<[number, number, number]>('UPDATE messages SET folder_id = ?, uid = ?, modseq = NULL WHERE id = ?'),
      deleteFolderMessages: db.prepare<[number]>('DELETE FROM messages WHERE folder_id = ?'),
      updateFlags: db.prepare<[string, number, string | null, number]>('UPDATE messages SET flags = ?, unseen = ?, modseq = ? WHERE id = ?'),
      attachmentsOf: db.prepare<[number, number]>('SELECT attachments_json FROM messages WHERE account_id = ? AND id = ?').pluck(),
      updateAttachments: db.prepare<[string, number]>('UPDATE messages SET attachments_json = ? WHERE id = ?'),
      // Positional parameters: binding 19 named ones per message costs more than the insert's own work in the profile.
      insertMessage: db.prepare<InsertMessageParams>(
        `INSERT INTO messages (account_id, folder_id, uid, thread_id, message_id_header, in_reply_to, subject, from_json, to_json,
           cc_json, reply_to_json, date, received_at, flags, size, attachments_json, snippet, modseq, unseen, body_parts)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (folder_id, uid) DO NOTHING`,
      ),
      threadSpan: db.prepare<[{ thread: number; account: number }]>(
        `UPDATE threads SET
           first_at = COALESCE((SELECT MIN(date) FROM messages WHERE thread_id = @thread), first_at),
           last_at = COALESCE((SELECT MAX(date) FROM messages WHERE thread_id = @thread), last_at)
         WHERE id = @thread AND account_id = @account`,
      ),
    };
  }

  folders(accountId: number): FolderRow[] {
    return this.stmt.folders.all(accountId) as FolderRow[];
  }

  folder(accountId: number, folderId: number): FolderRow | undefined {
    return this.stmt.folderById.get(accountId, folderId) as FolderRow | undefined;
  }

  folderByPath(accountId: number, path: string): FolderRow | undefined {
    return this.folders(accountId).find((folder) => folder.path === path);
  }

  /** UIDs mirrored in a folder, ascending. */
  mirroredUids(folderId: number): number[] {
    return (this.stmt.uids.raw().all(folderId) as [number][]).map(([uid]) => uid);
  }

  messageCount(folderId: number): number {
    return (this.stmt.count.get(folderId) as { n: number }).n;
  }

  /** Brings the folder list in line with LIST: new folders added, changed ones updated, vanished ones deleted with their messages. */
  syncFolderList(accountId: number, listings: readonly FolderListing[]): FolderRow[] {
    this.commit(accountId, (changes) => {
      const existing = new Map(this.folders(accountId).map((row) => [row.path, row]));
      for (const listing of listings) {
        const row = existing.get(listing.path);
        existing.delete(listing.path);
        if (!row) {
          const id = this.stmt.insertFolder.run(accountId, listing.path, listing.name, listing.parentPath, listing.delimiter, listing.specialUse).lastInsertRowid;
          changes.folder(Number(id));
        } else if (row.name !== listing.name || row.parent_path !== listing.parentPath || row.delimiter !== listing.delimiter || row.special_use !== listing.specialUse) {
          this.stmt.updateFolder.run(listing.name, listing.parentPath, listing.delimiter, listing.specialUse, row.id);
          changes.folder(row.id);
        }
      }
      for (const gone of existing.values()) {
        this.dropMessages(gone.id, changes);
        this.stmt.deleteFolder.run(gone.id);
        changes.folder(gone.id);
      }
    });
    return this.folders(accountId);
  }

  /** One sync step of a folder: removals, flag changes, new messages (threaded) and the folder's new sync state. */
  applyFolderBatch(accountId: number, batch: FolderBatch): void {
    this.commit(accountId, (changes) => {
      // A folder's first step makes it "mirrored" (Folder.mirrored): clients hear it even when it holds nothing.
      let folderChanged = (this.folder(accountId, batch.folderId)?.uidvalidity ?? null) === null;
      for (const uid of batch.removedUids) {
        const row = this.stmt.messageByUid.get(batch.folderId, uid) as { id: number; thread_id: number } | undefined;
        if (!row) continue;
        this.stmt.deleteMessage.run(row.id);
        changes.message(row.id);
        changes.thread(row.thread_id);
        changes.shrunkThreads.add(row.thread_id);
        folderChanged = true;
      }
      for (const update of batch.flagUpdates) {
        const row = this.stmt.messageByUid.get(batch.folderId, update.uid) as { id: number; thread_id: number; flags: string; unseen: number } | undefined;
        const flags = JSON.stringify([...update.flags].sort());
        if (!row || row.flags === flags) continue;
        const unseen = hasFlag(update.flags, '\\Seen') ? 0 : 1;
        this.stmt.updateFlags.run(flags, unseen, update.modseq, row.id);
        changes.message(row.id);
        changes.thread(row.thread_id);
        if (unseen !== row.unseen) folderChanged = true;
      }
      for (const record of batch.added) {
        if (this.insertMessage(accountId, batch.folderId, record, changes)) folderChanged = true;
      }
      const { state } = batch;
      this.stmt.folderState.run(state.uidvalidity, state.uidnext, state.highestModseq, state.backfilledTo, batch.folderId);
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
  applyMove(params: MoveParams): number[] {
    const moved: number[] = [];
    const destination = this.folder(params.accountId, params.toFolderId);
    if (!this.folder(params.accountId, params.fromFolderId) || destination?.uidvalidity !== params.uidValidity) return moved;
    this.commit(params.accountId, (changes) => {
      for (const [fromUid, toUid] of params.uidMap) {
        const row = this.stmt.messageByUid.get(params.fromFolderId, fromUid) as { id: number; thread_id: number } | undefined;
        if (!row || this.stmt.messageByUid.get(params.toFolderId, toUid)) continue;
        this.stmt.moveMessage.run(params.toFolderId, toUid, row.id);
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
  resetFolder(accountId: number, folderId: number): void {
    this.commit(accountId, (changes) => {
      this.dropMessages(folderId, changes);
      this.stmt.folderState.run(null, null, null, null, folderId);
      changes.folder(folderId);
    });
  }

  /**
   * The exact decoded sizes of a message's attachments (index → bytes), measured when its
   * body was parsed: the mirror only estimates them from BODYSTRUCTURE's encoded size, which
   * is 1–2 bytes off for most base64 parts. Logged as a message change, so every client shows
   * the exact size from then on; nothing is written when the sizes are already exact.
   */
  exactAttachmentSizes(accountId: number, messageId: number, sizes: ReadonlyMap<number, number>): void {
    const json = this.stmt.attachmentsOf.get(accountId, messageId) as string | undefined;
    if (json === undefined) return;
    const stored = JSON.parse(json) as { index: number; size: number }[];
    if (stored.every((attachment) => (sizes.get(attachment.index) ?? attachment.size) === attachment.size)) return;
    const exact = stored.map((attachment) => ({ ...attachment, size: sizes.get(attachment.index) ?? attachment.size }));
    this.commit(accountId, (changes) => {
      this.stmt.updateAttachments.run(JSON.stringify(exact), messageId);
      changes.message(messageId);
    });
  }

  private insertMessage(accountId: number, folderId: number, record: MessageRecord, changes: ChangeSet): boolean {
    const assignment = this.threads.assign({
      accountId,
      messageIdHeader: record.messageIdHeader,
      inReplyTo: record.inReplyTo,
      references: record.references,
      subject: record.subject,
      date: record.date,
    });
    const result = this.stmt.insertMessage.run(
      accountId,
      folderId,
      record.uid,
      assignment.threadId,
      record.messageIdHeader,
      record.inReplyTo,
      record.subject,
      JSON.stringify(record.from),
      JSON.stringify(record.to),
      JSON.stringify(record.cc),
      JSON.stringify(record.replyTo),
      record.date,
      record.receivedAt,
      JSON.stringify([...record.flags].sort()),
      record.size,
      JSON.stringify(record.attachments),
      record.snippet,
      record.modseq,
      hasFlag(record.flags, '\\Seen') ? 0 : 1,
      encodeBodyParts(record.bodyParts),
    );
    changes.thread(assignment.threadId);
    for (const merged of assignment.mergedThreadIds) changes.thread(merged);
    for (const moved of assignment.movedMessageIds) changes.message(moved);
    if (result.changes === 0) return false;
    changes.message(Number(result.lastInsertRowid));
    return true;
  }

  private dropMessages(folderId: number, changes: ChangeSet): void {
    for (const row of this.stmt.messagesOfFolder.all(folderId) as { id: number; thread_id: number }[]) {
      changes.message(row.id);
      changes.thread(row.thread_id);
      changes.shrunkThreads.add(row.thread_id);
    }
    this.stmt.deleteFolderMessages.run(folderId);
  }

  /** Runs `work` and the log append in one transaction, then tells the websockets. */
  private commit(accountId: number, work: (changes: ChangeSet) => void): void {
    const changes = new ChangeSet();
    const latest = this.db.transaction(() => {
      work(changes);
      // Emptied threads keep their row (and id) so a message moving back rejoins the same thread.
      for (const threadId of changes.shrunkThreads) this.stmt.threadSpan.run({ thread: threadId, account: accountId });
      return this.deps.txlog.append(accountId, changes.entries());
    })();
    if (changes.size > 0) this.deps.push.announce(accountId, latest);
  }
}
