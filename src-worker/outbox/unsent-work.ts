/**
 * The person's own work still in the outbox: draft saves and sends the gateway has not
 * confirmed. A forced logout deletes the account's database (issue point 21); the account
 * service keeps what this reads, so nothing typed is lost with it (DESIGN §3).
 */
import type { DraftInput } from '../../shared/worker-mail-api';
import type { MailTable } from '../db/mail-schema';
import { withRead, type LocalStore } from '../db/store';
import { isTemporaryId } from '../model/temporary-id';
import { liveRows, OUTBOX_TABLE, type DraftRow, type OutboxRow } from '../mail-store/outbox-rows';

/**
 * One draft as its newest unconfirmed save holds it: recipients as typed (invalid ones
 * too), and the reply link and attachment ids, which name objects of that gateway account.
 */
export interface UnsentDraft extends Pick<DraftInput, 'to' | 'cc' | 'bcc' | 'subject' | 'html' | 'inReplyToMessageId' | 'attachmentIds'> {
  /**
   * The local id (`local-…`) its composer saves it under, absent for a draft opened from
   * Drafts (the gateway's id, meaningless once the session's links are gone). Restored
   * under it, a composer the tab had open on it opens on the restored draft.
   */
  readonly localId?: string;
  /** A send of it was waiting (in its undo window or not yet accepted). */
  readonly wasSending: boolean;
  /** Epoch ms of the save. */
  readonly savedAt: number;
}

/**
 * Drafts with a save not yet confirmed, oldest first. A draft thrown away after its last
 * save is not work to keep. A send whose draft the gateway already has (no save waiting)
 * has no text here: that draft is in the Drafts folder of the mail server (see
 * `sendsOfSavedDrafts`).
 */
export function unsentDraftsOf(rows: readonly OutboxRow[]): UnsentDraft[] {
  const lastSave = new Map<string, DraftRow>();
  const sending = new Set<string>();
  for (const row of rows) {
    if (row.kind === 'saveDraft') lastSave.set(row.draft_id, row);
    else if (row.kind === 'send') sending.add(row.draft_id);
    // Rows come in command order: a discard after the saves means the person threw it away.
    else if (row.kind === 'discardDraft') lastSave.delete(row.draft_id);
  }
  // The session's account, the local id and the revision belong to the database that goes.
  return [...lastSave.values()].map(({ draft: { accountId: _account, draftId: _draft, baseRevision: _revision, ...fields }, draft_id, created_at }) => ({
    ...fields,
    ...(isTemporaryId(draft_id) ? { localId: draft_id } : {}),
    wasSending: sending.has(draft_id),
    savedAt: created_at,
  }));
}

/**
 * Sends still waiting (the engine holds a send until its undo window closes) whose draft
 * the gateway had already saved: the text is safe in the server's Drafts folder, but the
 * person believes it went, so a forced logout must say it did not.
 */
export function sendsOfSavedDrafts(rows: readonly OutboxRow[]): number {
  const saving = new Set(rows.filter((row) => row.kind === 'saveDraft').map((row) => row.draft_id));
  return rows.filter((row) => row.kind === 'send' && !saving.has(row.draft_id)).length;
}

/** The person's unsent work in an account's database. */
export interface UnsentWork {
  readonly drafts: readonly UnsentDraft[];
  readonly sendsOfSavedDrafts: number;
}

export async function readUnsentWork(store: LocalStore<MailTable>): Promise<UnsentWork> {
  const rows = await withRead(store, [OUTBOX_TABLE], liveRows);
  return { drafts: unsentDraftsOf(rows), sendsOfSavedDrafts: sendsOfSavedDrafts(rows) };
}
