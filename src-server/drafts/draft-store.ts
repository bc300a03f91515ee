import type { Recipient } from '../../shared/api/compose';
import type { Db } from '../store/database';

export type DraftState = 'open' | 'sending' | 'sent' | 'deleted';

/** What the person typed, as kept between saves. */
export interface DraftFields {
  readonly from: Recipient | null;
  readonly to: readonly Recipient[];
  readonly cc: readonly Recipient[];
  readonly bcc: readonly Recipient[];
  readonly subject: string;
  readonly html: string | null;
  readonly text: string | null;
}

/** The message a draft replies to, resolved once (see ParentResolver). */
export interface DraftParent {
  readonly parentId: number | null;
  readonly inReplyTo: string | null;
  readonly references: readonly string[];
}

export interface DraftRecord extends DraftParent {
  readonly id: number;
  readonly accountId: number;
  readonly clientId: string | null;
  readonly version: number;
  readonly state: DraftState;
  readonly messageIdHeader: string;
  readonly folderPath: string | null;
  readonly uid: number | null;
  readonly fields: DraftFields;
  readonly attachmentIds: readonly string[];
  readonly updatedAt: number;
  /** An IMAP write of this draft under way since (null: none): its Drafts copies may be 0 or 2 until it ends. */
  readonly savingSince: number | null;
  /** The copy that write replaces (found by UID too: an adopted draft's copy may lack our Message-ID). */
  readonly supersededUid: number | null;
}

interface DraftRow {
  id: number;
  account_id: number;
  client_id: string | null;
  version: number;
  state: DraftState;
  message_id_header: string;
  folder_path: string | null;
  uid: number | null;
  fields_json: string;
  parent_id: number | null;
  in_reply_to_header: string | null;
  references_json: string;
  updated_at: number;
  saving_since: number | null;
  superseded_uid: number | null;
}

export interface DraftWrite {
  readonly folderPath: string;
  readonly uid: number | null;
  readonly fields: DraftFields;
  readonly parent: DraftParent;
  readonly attachmentIds: readonly string[];
}

/**
 * Drafts' durable side: the version counter, the state, and what was typed (so nothing is
 * lost if IMAP is unreachable or a version is overwritten). The text itself also lives in
 * the Drafts folder, where other mail programs see it.
 */
export class DraftStore {
  constructor(
    private readonly db: Db,
    private readonly now: () => number = Date.now,
  ) {}

  get(accountId: number, id: number): DraftRecord | undefined {
    const row = this.db.prepare<[number, number]>('SELECT * FROM drafts WHERE account_id = ? AND id = ?').get(accountId, id) as DraftRow | undefined;
    return row && this.toRecord(row);
  }

  byClientId(accountId: number, clientId: string): DraftRecord | undefined {
    const row = this.db.prepare<[number, string]>('SELECT * FROM drafts WHERE account_id = ? AND client_id = ?').get(accountId, clientId) as DraftRow | undefined;
    return row && this.toRecord(row);
  }

  /** The newest draft saved with this Message-ID (every version of a draft keeps it). */
  byMessageIdHeader(accountId: number, messageIdHeader: string): DraftRecord | undefined {
    const row = this.db
      .prepare<[number, string]>('SELECT * FROM drafts WHERE account_id = ? AND message_id_header = ? ORDER BY id DESC LIMIT 1')
      .get(accountId, messageIdHeader) as DraftRow | undefined;
    return row && this.toRecord(row);
  }

  /** The draft whose current copy is this message (found when the copy has no Message-ID of ours). */
  atCopy(accountId: number, folderPath: string, uid: number): DraftRecord | undefined {
    const row = this.db
      .prepare<[number, string, number]>('SELECT * FROM drafts WHERE account_id = ? AND folder_path = ? AND uid = ? ORDER BY id DESC LIMIT 1')
      .get(accountId, folderPath, uid) as DraftRow | undefined;
    return row && this.toRecord(row);
  }

  /** A new draft at version 1; `saving`: its copy is about to be APPENDed (see `beginSave`). */
  insert(params: { accountId: number; clientId: string | null; messageIdHeader: string; saving?: boolean } & DraftWrite): DraftRecord {
    return this.db.transaction(() => {
      const now = this.now();
      const id = Number(
        this.db
          .prepare(
            `INSERT INTO drafts (account_id, client_id, version, state, message_id_header, folder_path, uid, fields_json,
               parent_id, in_reply_to_header, references_json, created_at, updated_at, saving_since)
             VALUES (?, ?, 1, 'open', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
          )
          .run(params.accountId, params.clientId, params.messageIdHeader, params.folderPath, params.uid, JSON.stringify(params.fields),
            params.parent.parentId, params.parent.inReplyTo, JSON.stringify(params.parent.references), now, now,
            params.saving ? now : null).lastInsertRowid,
      );
      this.setAttachments(id, params.attachmentIds);
      return this.get(params.accountId, id)!;
    })();
  }

  /** The next version, only if the draft is still open at `expectedVersion`; null otherwise (someone saved or sent meanwhile). */
  update(params: { accountId: number; id: number; expectedVersion: number } & DraftWrite): DraftRecord | null {
    return this.db.transaction(() => {
      const changed = this.db
        .prepare(
          `UPDATE drafts SET version = version + 1, folder_path = ?, uid = ?, fields_json = ?, parent_id = ?, in_reply_to_header = ?,
             references_json = ?, updated_at = ?
           WHERE account_id = ? AND id = ? AND version = ? AND state = 'open'`,
        )
        .run(params.folderPath, params.uid, JSON.stringify(params.fields), params.parent.parentId, params.parent.inReplyTo,
          JSON.stringify(params.parent.references), this.now(), params.accountId, params.id, params.expectedVersion).changes;
      if (changed === 0) return null;
      this.setAttachments(params.id, params.attachmentIds);
      return this.get(params.accountId, params.id)!;
    })();
  }

  /**
   * Recorded before a save's APPEND: until `endSave`, the Drafts folder may hold the old copy,
   * the new one or both, and a restart resolves them (DraftRecovery).
   */
  beginSave(id: number, supersededUid: number | null): void {
    this.db.prepare<[number, number | null, number]>('UPDATE drafts SET saving_since = ?, superseded_uid = ? WHERE id = ?').run(this.now(), supersededUid, id);
  }

  /** The save's copies are one again; `uid` (when given) is the copy that stays. */
  endSave(id: number, uid?: number | null): void {
    if (uid === undefined) this.db.prepare<[number]>('UPDATE drafts SET saving_since = NULL, superseded_uid = NULL WHERE id = ?').run(id);
    else this.db.prepare<[number | null, number]>('UPDATE drafts SET uid = ?, saving_since = NULL, superseded_uid = NULL WHERE id = ?').run(uid, id);
  }

  /** Drafts whose last IMAP write did not finish (a crash, or IMAP failing mid-way). */
  savesUnderWay(): DraftRecord[] {
    const rows = this.db.prepare('SELECT * FROM drafts WHERE saving_since IS NOT NULL ORDER BY id').all() as DraftRow[];
    return rows.map((row) => this.toRecord(row));
  }

  /** Moves a draft between states; false when it was not in one of `from`. */
  transition(id: number, from: readonly DraftState[], to: DraftState): boolean {
    const placeholders = from.map(() => '?').join(',');
    return (
      this.db.prepare(`UPDATE drafts SET state = ?, updated_at = ? WHERE id = ? AND state IN (${placeholders})`).run(to, this.now(), id, ...from).changes > 0
    );
  }

  private setAttachments(draftId: number, uploadIds: readonly string[]): void {
    this.db.prepare<[number]>('DELETE FROM draft_attachments WHERE draft_id = ?').run(draftId);
    const insert = this.db.prepare<[number, string, number]>('INSERT INTO draft_attachments (draft_id, upload_id, position) VALUES (?, ?, ?)');
    [...new Set(uploadIds)].forEach((uploadId, position) => insert.run(draftId, uploadId, position));
  }

  private toRecord(row: DraftRow): DraftRecord {
    const attachmentIds = (
      this.db.prepare<[number]>('SELECT upload_id FROM draft_attachments WHERE draft_id = ? ORDER BY position').raw().all(row.id) as [string][]
    ).map(([id]) => id);
    return {
      id: row.id,
      accountId: row.account_id,
      clientId: row.client_id,
      version: row.version,
      state: row.state,
      messageIdHeader: row.message_id_header,
      folderPath: row.folder_path,
      uid: row.uid,
      fields: JSON.parse(row.fields_json) as DraftFields,
      parentId: row.parent_id,
      inReplyTo: row.in_reply_to_header,
      references: JSON.parse(row.references_json) as string[],
      attachmentIds,
      updatedAt: row.updated_at,
      savingSince: row.saving_since,
      supersededUid: row.superseded_uid,
    };
  }
}
