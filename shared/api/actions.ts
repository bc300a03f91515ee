import * as z from 'zod';
import { keywordSchema } from '../labels';
import { objectIdSchema } from './compose';

/** Changing mail (issue "Gateway" point 7): bulk actions on messages or threads. */

export const MAIL_ACTIONS = ['read', 'unread', 'star', 'unstar', 'move', 'archive', 'trash', 'spam', 'notspam', 'delete', 'label', 'unlabel'] as const;
export type MailAction = (typeof MAIL_ACTIONS)[number];

export const MAX_BULK_IDS = 1000;

/** POST /api/messages/bulk and POST /api/threads/bulk. */
export const bulkActionSchema = z
  .object({
    ids: z.array(objectIdSchema).min(1).max(MAX_BULK_IDS),
    action: z.enum(MAIL_ACTIONS),
    /** The destination of `move`; not allowed with other actions. */
    folderId: objectIdSchema.optional(),
    /** The label's IMAP keyword for `label` / `unlabel` (shared/labels.ts); not allowed with other actions. */
    keyword: keywordSchema.optional(),
  })
  .refine((body) => (body.action === 'move') === (body.folderId !== undefined), {
    message: '`folderId` is required for move and only for move.',
    path: ['folderId'],
  })
  .refine((body) => (body.action === 'label' || body.action === 'unlabel') === (body.keyword !== undefined), {
    message: '`keyword` is required for label and unlabel and only for them.',
    path: ['keyword'],
  });
export type BulkAction = z.output<typeof bulkActionSchema>;

export const bulkActionResultSchema = z.object({
  /** Messages an IMAP command was run for (skipped ones, e.g. already in Trash, are not listed). Ids survive moves. */
  messageIds: z.array(z.string()),
  /** The account's latest transaction once the mirror reflects the change: wait for the delta up to here. */
  latestTxnId: z.number().int(),
});
export type BulkActionResult = z.infer<typeof bulkActionResultSchema>;

/** POST /api/folders/:id/empty, /api/empty/trash, /api/empty/spam */
export const emptyFolderResultSchema = z.object({ removed: z.number().int(), latestTxnId: z.number().int() });
export type EmptyFolderResult = z.infer<typeof emptyFolderResultSchema>;
