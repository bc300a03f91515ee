/**
 * Unsent work kept over a forced logout (issue point 21 follow-up). The account's database
 * is deleted with its received mail; the drafts the person wrote and the gateway had not
 * confirmed are copied here first, under the address — a gateway restarted with fresh data
 * names the account anew — and saved to Drafts when that address signs in again.
 */
import * as z from 'zod';
import { addressSchema } from '../../shared/api/mail';
import type { DraftInput } from '../../shared/worker-mail-api';
import { temporaryId } from '../model/temporary-id';
import type { UnsentWork } from '../outbox/unsent-work';

const keptDraftSchema = z.object({
  /**
   * The local id it is saved under when restored (its composer's, or a new one): a restore
   * repeated after a kill saves the same draft again, not a copy, and a composer the tab
   * still remembers opens on it.
   */
  draftId: z.string(),
  /** The gateway account and API its reply link and attachment ids belong to. */
  accountId: z.string(),
  api: z.string(),
  /**
   * The last transaction id that session knew. A gateway's transaction log only grows, so a
   * sign-in whose gateway is behind it has fresh data, even under the same account id.
   */
  cursor: z.number().default(0),
  to: z.array(addressSchema),
  cc: z.array(addressSchema),
  bcc: z.array(addressSchema),
  subject: z.string(),
  html: z.string(),
  inReplyToMessageId: z.string().optional(),
  attachmentIds: z.array(z.string()),
  wasSending: z.boolean(),
  savedAt: z.number(),
});
export type KeptDraft = z.infer<typeof keptDraftSchema>;

/** What one address left unsent, read back from storage through this schema. */
export const keptWorkSchema = z.object({
  emailAddress: z.string(),
  keptAt: z.number(),
  drafts: z.array(keptDraftSchema),
  /** Sends that were waiting for a draft already in the server's Drafts folder: nothing to save, only to say. */
  sendsInDrafts: z.number().int().nonnegative().default(0),
});
export type KeptWork = z.infer<typeof keptWorkSchema>;

/** Adds newly read work to what the address already had kept (two forced logouts before the next sign-in keep both). */
export function keepWork(previous: KeptWork | null, params: { emailAddress: string; accountId: string; api: string; cursor: number; now: number; work: UnsentWork }): KeptWork {
  const added: KeptDraft[] = params.work.drafts.map(({ localId, ...draft }) => ({
    ...draft,
    to: [...draft.to],
    cc: [...draft.cc],
    bcc: [...draft.bcc],
    attachmentIds: [...draft.attachmentIds],
    draftId: localId ?? temporaryId(),
    accountId: params.accountId,
    api: params.api,
    cursor: params.cursor,
  }));
  const newer = new Set(added.map((draft) => draft.draftId));
  return {
    emailAddress: params.emailAddress,
    keptAt: params.now,
    drafts: [...(previous?.drafts ?? []).filter((draft) => !newer.has(draft.draftId)), ...added],
    sendsInDrafts: (previous?.sendsInDrafts ?? 0) + params.work.sendsOfSavedDrafts,
  };
}

/**
 * The draft saves that restore kept work for the account that signed in. A waiting send
 * becomes a plain draft: the person did not see it go, so it is never sent on its own.
 * Reply links and attachment ids name objects of the gateway account they were made on;
 * on another one (a gateway restarted with fresh data: another account id, or the same id
 * with a transaction log behind the kept session's) the gateway would refuse the save
 * (ParentMessageNotFound, FileNotFound) and the text would be lost, so they are left out
 * and `lostAttachments` counts the files to attach again. `signedIn.cursor` is the
 * gateway's latest transaction id at the sign-in.
 */
export function restoreInputs(kept: KeptWork, signedIn: { accountId: string; api: string; cursor: number }): { drafts: DraftInput[]; lostAttachments: number } {
  let lostAttachments = 0;
  const drafts = kept.drafts.map((draft): DraftInput => {
    const sameAccount = draft.accountId === signedIn.accountId && draft.api === signedIn.api && signedIn.cursor >= draft.cursor;
    if (!sameAccount) lostAttachments += draft.attachmentIds.length;
    return {
      accountId: signedIn.accountId,
      draftId: draft.draftId,
      to: draft.to,
      cc: draft.cc,
      bcc: draft.bcc,
      subject: draft.subject,
      html: draft.html,
      ...(sameAccount && draft.inReplyToMessageId ? { inReplyToMessageId: draft.inReplyToMessageId } : {}),
      attachmentIds: sameAccount ? draft.attachmentIds : [],
    };
  });
  return { drafts, lostAttachments };
}
