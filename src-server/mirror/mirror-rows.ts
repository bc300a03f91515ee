import type { SpecialUse } from '../../shared/api/mail';

/** A `folders` row. */
export interface FolderRow {
  readonly id: number;
  readonly account_id: number;
  readonly path: string;
  readonly name: string;
  readonly parent_path: string | null;
  readonly delimiter: string;
  readonly special_use: SpecialUse | null;
  readonly uidvalidity: number | null;
  readonly uidnext: number | null;
  readonly highest_modseq: string | null;
  /** Lowest UID mirrored while a backfill is under way; 0 once every message is mirrored; null before the first sync. */
  readonly backfilled_to: number | null;
}

/** A `messages` row. */
export interface MessageRow {
  readonly id: number;
  readonly account_id: number;
  readonly folder_id: number;
  readonly uid: number;
  readonly thread_id: number;
  readonly message_id_header: string | null;
  readonly in_reply_to: string | null;
  readonly subject: string;
  readonly from_json: string;
  readonly to_json: string;
  readonly cc_json: string;
  readonly reply_to_json: string;
  readonly date: number;
  readonly received_at: number;
  readonly flags: string;
  readonly size: number;
  readonly attachments_json: string;
  readonly snippet: string;
  readonly modseq: string | null;
  readonly unseen: number;
  /** Where the body text is (mirror/body-parts.ts); null for rows mirrored before it was kept. */
  readonly body_parts: string | null;
  /** List-Unsubscribe as JSON (shared/unsubscribe.ts); null without one, or mirrored before it was kept. */
  readonly unsubscribe: string | null;
  /** 1: List-Id or Precedence bulk/list/junk (migration 29); 0 otherwise. */
  readonly bulk: number;
}

/** The columns of a FolderRow, for a SELECT (named: `SELECT *` may order them differently on each engine). */
export const FOLDER_COLUMNS = 'id, account_id, path, name, parent_path, delimiter, special_use, uidvalidity, uidnext, highest_modseq, backfilled_to';

/** The columns of a MessageRow, for a SELECT. */
export const MESSAGE_COLUMNS =
  'id, account_id, folder_id, uid, thread_id, message_id_header, in_reply_to, subject, from_json, to_json, cc_json, reply_to_json, date, received_at, flags, size, attachments_json, snippet, modseq, unseen, body_parts, unsubscribe, bulk';
