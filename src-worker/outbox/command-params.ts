/**
 * Commands and drafts as a tab may send them, parsed before anything is written
 * (DESIGN §5). Thread ids are the gateway's numeric ids; at most MAX_BULK_IDS per command.
 */
import { scheduleSchema } from '../../shared/send-time';
import * as z from 'zod';
import { MAX_BULK_IDS } from '../../shared/api/actions';
import { keywordSchema } from '../../shared/labels';
import type { DraftInput, MailCommand } from '../../shared/worker-mail-api';

const id = z.string().regex(/^[1-9]\d{0,15}$/, 'Not an id.');
const accountId = z.string().min(1).max(64);
const threadIds = z.array(id).min(1).max(MAX_BULK_IDS);
/** A restore names every message of the threads it puts back (a long conversation has hundreds). */
const MAX_RESTORED_MESSAGES = MAX_BULK_IDS * 50;
const address = z.object({ name: z.string().max(200), email: z.string().max(254) });

export const mailCommandSchema: z.ZodType<MailCommand> = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('markRead'), accountId, threadIds, read: z.boolean() }),
  z.object({ kind: z.literal('star'), accountId, threadIds, starred: z.boolean() }),
  z.object({ kind: z.literal('move'), accountId, threadIds, folderId: id }),
  z.object({ kind: z.literal('archive'), accountId, threadIds }),
  z.object({ kind: z.literal('trash'), accountId, threadIds }),
  z.object({ kind: z.literal('spam'), accountId, threadIds }),
  z.object({ kind: z.literal('notspam'), accountId, threadIds }),
  z.object({ kind: z.literal('delete'), accountId, threadIds }),
  z.object({ kind: z.literal('label'), accountId, threadIds, keyword: keywordSchema, add: z.boolean() }),
  z.object({ kind: z.literal('restore'), accountId, threadIds, placements: z.array(z.object({ messageId: id, folderId: id })).min(1).max(MAX_RESTORED_MESSAGES) }),
]);

export const draftInputSchema: z.ZodType<DraftInput> = z.object({
  accountId,
  /** A local id (`local-…`) or the gateway's id of a draft opened from Drafts. */
  draftId: z.string().regex(/^(?:local-[0-9a-f-]{36}|[1-9]\d{0,15})$/).optional(),
  to: z.array(address).max(500),
  cc: z.array(address).max(500),
  bcc: z.array(address).max(500),
  subject: z.string().max(998),
  html: z.string(),
  inReplyToMessageId: id.optional(),
  attachmentIds: z.array(z.string().regex(/^[a-f0-9]{32}$/)).max(50),
  from: address.optional(),
  baseRevision: z.number().int().nonnegative().optional(),
});

export const sendParamsSchema = z.object({
  accountId,
  draftId: z.string().min(1).max(64),
  /** The undo window: at most a minute (longer holds belong to scheduled send on the gateway). */
  delayMs: z.number().int().min(0).max(60_000),
  /** Named on a notice about this send (not sent, may have been sent). */
  subject: z.string().max(998).optional(),
  /** Send later instead: the gateway sends it at this time (no undo window then). */
  schedule: scheduleSchema.optional(),
  /** Ask the recipients for a read receipt (RFC 8098; shared/read-receipts.ts). */
  requestReceipt: z.boolean().optional(),
});

/** A send waiting on the gateway, by its outbox id. */
export const pendingSendParamsSchema = z.object({ accountId, outboxId: z.string().regex(/^[1-9]\d{0,15}$/) });
export const pendingSendsParamsSchema = z.object({ accountIds: z.array(accountId).max(100) });

/** A send notice to dismiss, or to send again. */
export const sendNoticeParamsSchema = z.object({ accountId, noticeId: z.string().min(1).max(64) });
export const sendAgainParamsSchema = sendNoticeParamsSchema.extend({ delayMs: sendParamsSchema.shape.delayMs });
export const sendNoticesParamsSchema = z.object({ accountIds: z.array(accountId).max(100) });

/** A draft thrown away, by the id its composer saved it under. */
export const discardDraftParamsSchema = z.object({ accountId, draftId: z.string().regex(/^(?:local-[0-9a-f-]{36}|[1-9]\d{0,15})$/) });

/** A draft reopened from its message in Drafts (the message's id, not the draft's), or by the id a composer saved it under. */
export const openDraftParamsSchema = z.union([
  z.object({ accountId, messageId: id }),
  z.object({ accountId, draftId: z.string().regex(/^(?:local-[0-9a-f-]{36}|[1-9]\d{0,15})$/) }),
]);
