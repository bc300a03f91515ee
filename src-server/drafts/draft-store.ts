import type { Recipient } from '../../shared/api/compose';
import type { SqlStore } from '../store/sql';

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

const COLUMNS = `id, account_id, client_id, version, state, message_id_header, folder_path, uid, fields_json, parent_id, in_reply_to_header,
  references_json, updated_at, saving_since, superseded_uid`;
const BY_ID = `SELECT ${COLUMNS} FROM drafts WHERE account_id = ? AND id = ?`;
const BY_CLIENT_ID = `SELECT ${COLUMNS} FROM drafts WHERE account_id = ? AND client_id = ?`;
const BY_MESSAGE_ID_HEADER = `SELECT ${COLUMNS} FROM drafts WHERE account_id = ? AND message_id_header = ? ORDER BY id DESC LIMIT 1`;
const AT_COPY = `SELECT ${COLUMNS} FROM drafts WHERE account_id = ? AND folder_path = ? AND uid = ? ORDER BY id DESC LIMIT 1`;
const SAVES_UNDER_WAY = `SELECT ${COLUMNS} FROM drafts WHERE saving_since IS NOT NULL ORDER BY id`;
const INSERT = `INSERT INTO drafts (account_id, client_id, version, state, message_id_header, folder_path, uid, fields_json,
    parent_id, in_reply_to_header, references_json, created_at, updated_at, saving_since)
  VALUES (?, ?, 1, 'open', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
  RETURNING id`;
const UPDATE = `UPDATE drafts SET version = version + 1, folder_path = ?, uid = ?, fields_json = ?, parent_id = ?, in_reply_to_header = ?,
    references_json = ?, updated_at = ?
  WHERE account_id = ? AND id = ? AND version = ? AND state = 'open'`;
const BEGIN_SAVE = 'UPDATE drafts SET saving_since = ?, superseded_uid = ? WHERE id = ?';
const END_SAVE = 'UPDATE drafts SET saving_since = NULL, superseded_uid = NULL WHERE id = ?';
const END_SAVE_AT = 'UPDATE drafts SET uid = ?, saving_since = NULL, superseded_uid = NULL WHERE id = ?';
const ATTACHMENTS = 'SELECT upload_id FROM draft_attachments WHERE draft_id = ? ORDER BY position';
const CLEAR_ATTACHMENTS = 'DELETE FROM draft_attachments WHERE draft_id = ?';
const ADD_ATTACHMENT = 'INSERT INTO draft_attachments (draft_id, upload_id, position) VALUES (?, ?, ?)';

/**
 * Drafts' durable side: the version counter, the state, and what was typed (so nothing is
 * lost if IMAP is unreachable or a version is overwritten). The text itself also lives in
 * the Drafts folder, where other mail programs see it.
 */
export class DraftStore {
  constructor(
    private readonly store: SqlStore,
    private readonly now: () => number = Date.now,
  ) {}

  async get(accountId: number, id: number): Promise<DraftRecord | undefined> {
    return this.record(await this.store.get<DraftRow>(BY_ID, [accountId, id]));
  }

  async byClientId(accountId: number, clientId: string): Promise<DraftRecord | undefined> {
    return this.record(await this.store.get<DraftRow>(BY_CLIENT_ID, [accountId, clientId]));
  }

  /** The newest draft saved with this Message-ID (every version of a draft keeps it). */
  async byMessageIdHeader(accountId: number, messageIdHeader: string): Promise<DraftRecord | undefined> {
    return this.record(await this.store.get<DraftRow>(BY_MESSAGE_ID_HEADER, [accountId, messageIdHeader]));
  }

  /** The draft whose current copy is this message (found when the copy has no Message-ID of ours). */
  async atCopy(accountId: number, folderPath: string, uid: number): Promise<DraftRecord | undefined> {
    return this.record(await this.store.get<DraftRow>(AT_COPY, [accountId, folderPath, uid]));
  }

  /**
   * A new draft at version 1; `saving`: its copy is about to be APPENDed (see `beginSave`).
   * A client id the account already used throws (UNIQUE), and nothing is kept.
   */
  async insert(params: { accountId: number; clientId: string | null; messageIdHeader: string; saving?: boolean } & DraftWrite): Promise<DraftRecord> {
    return this.store.transaction(async (tx) => {
      const now = this.now();
      const row = await tx.get<{ id: number }>(INSERT, [params.accountId, params.clientId, params.messageIdHeader, params.folderPath, params.uid,
        JSON.stringify(params.fields), params.parent.parentId, params.parent.inReplyTo, JSON.stringify(params.parent.references), now, now,
        params.saving ? now : null]);
      await this.setAttachments(row!.id, params.attachmentIds);
      return (await this.get(params.accountId, row!.id))!;
    });
  }

  /** The next version, only if the draft is still open at `expectedVersion`; null otherwise (someone saved or sent meanwhile). */
  async update(params: { accountId: number; id: number; expectedVersion: number } & DraftWrite): Promise<DraftRecord | null> {
    return this.store.transaction(async (tx) => {
      const { changes } = await tx.run(UPDATE, [params.folderPath, params.uid, JSON.stringify(params.fields), params.parent.parentId,
        params.parent.inReplyTo, JSON.stringify(params.parent.references), this.now(), params.accountId, params.id, params.expectedVersion]);
      if (changes === 0) return null;
      await this.setAttachments(params.id, params.attachmentIds);
      return (await this.get(params.accountId, params.id))!;
    });
  }

  /**
   * Recorded before a save's APPEND (the caller awaits it before the APPEND starts): until
   * `endSave`, the Drafts folder may hold the old copy, the new one or both, and a restart
   * resolves them (DraftRecovery).
   */
  async beginSave(id: number, supersededUid: number | null): Promise<void> {
    await this.store.run(BEGIN_SAVE, [this.now(), supersededUid, id]);
  }

  /** The save's copies are one again; `uid` (when given) is the copy that stays. */
  async endSave(id: number, uid?: number | null): Promise<void> {
    if (uid === undefined) await this.store.run(END_SAVE, [id]);
    else await this.store.run(END_SAVE_AT, [uid, id]);
  }

  /** Drafts whose last IMAP write did not finish (a crash, or IMAP failing mid-way). */
  async savesUnderWay(): Promise<DraftRecord[]> {
    const rows = await this.store.all<DraftRow>(SAVES_UNDER_WAY);
    return Promise.all(rows.map((row) => this.toRecord(row)));
  }

  /** Moves a draft between states; false when it was not in one of `from`. */
  async transition(id: number, from: readonly DraftState[], to: DraftState): Promise<boolean> {
    const placeholders = from.map(() => '?').join(', ');
    const { changes } = await this.store.run(`UPDATE drafts SET state = ?, updated_at = ? WHERE id = ? AND state IN (${placeholders})`, [to, this.now(), id, ...from]);
    return changes > 0;
  }

  private async setAttachments(draftId: number, uploadIds: readonly string[]): Promise<void> {
    await this.store.run(CLEAR_ATTACHMENTS, [draftId]);
    for (const [position, uploadId] of [...new Set(uploadIds)].entries()) await this.store.run(ADD_ATTACHMENT, [draftId, uploadId, position]);
  }

  private async record(row: DraftRow | undefined): Promise<DraftRecord | undefined> {
    return row && this.toRecord(row);
  }

  private async toRecord(row: DraftRow): Promise<DraftRecord> {
    const attachmentIds = (await this.store.all<{ upload_id: string }>(ATTACHMENTS, [row.id])).map((attachment) => attachment.upload_id);
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
