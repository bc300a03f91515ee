import * as z from 'zod';
import { raisedMarkSchema } from './timers';
import { unsubscribeSchema } from '../unsubscribe';

/** `snoozed`: the folder snoozed mail waits in (draft-ietf-extra-email-snooze's \\Snoozed; src-server/timers). */
export const SPECIAL_USES = ['inbox', 'drafts', 'sent', 'archive', 'junk', 'trash', 'all', 'flagged', 'snoozed'] as const;
export type SpecialUse = (typeof SPECIAL_USES)[number];

export const addressSchema = z.object({ name: z.string(), email: z.string() });
export type Address = z.infer<typeof addressSchema>;

/** A mailbox folder of the account (mirrored from IMAP LIST). */
export const folderSchema = z.object({
  id: z.string(),
  /** Full IMAP path, e.g. `Projects/2026`. */
  path: z.string(),
  /** Last segment of the path, for display. */
  name: z.string(),
  parentId: z.string().nullable(),
  specialUse: z.enum(SPECIAL_USES).nullable(),
  total: z.number().int(),
  unread: z.number().int(),
  /**
   * Whether the gateway has read the folder from the mail server once: until then an empty
   * folder only means "not mirrored yet", never "empty". Absent from older gateways.
   */
  mirrored: z.boolean().optional(),
});
export type Folder = z.infer<typeof folderSchema>;

export const attachmentSummarySchema = z.object({
  /** Position among the message's attachments; used in download URLs. */
  index: z.number().int(),
  filename: z.string(),
  size: z.number().int(),
  contentType: z.string(),
  /** Set for inline parts referenced as `cid:` from the HTML. */
  contentId: z.string().nullable(),
});
export type AttachmentSummary = z.infer<typeof attachmentSummarySchema>;

/** A message's metadata, as mirrored (no body). */
export const messageMetaSchema = z.object({
  id: z.string(),
  threadId: z.string(),
  folderId: z.string(),
  messageIdHeader: z.string().nullable(),
  subject: z.string(),
  from: z.array(addressSchema),
  to: z.array(addressSchema),
  cc: z.array(addressSchema),
  replyTo: z.array(addressSchema),
  /** Date header, epoch ms. */
  date: z.number().int(),
  /** IMAP INTERNALDATE, epoch ms: the order of lists. */
  receivedAt: z.number().int(),
  unread: z.boolean(),
  starred: z.boolean(),
  answered: z.boolean(),
  draft: z.boolean(),
  keywords: z.array(z.string()),
  size: z.number().int(),
  attachments: z.array(attachmentSummarySchema),
  snippet: z.string(),
  /** How to leave its mailing list (List-Unsubscribe, shared/unsubscribe.ts); absent without one. */
  unsubscribe: unsubscribeSchema.optional(),
  /** List or bulk mail: List-Id, or Precedence: bulk/list/junk (the priority inbox's signal); absent otherwise. */
  bulk: z.literal(true).optional(),
});
export type MessageMeta = z.infer<typeof messageMetaSchema>;

/** A conversation across folders, summarised for lists. */
export const threadSummarySchema = z.object({
  id: z.string(),
  subject: z.string(),
  /** Distinct senders, oldest first. */
  participants: z.array(addressSchema),
  snippet: z.string(),
  lastMessageAt: z.number().int(),
  messageCount: z.number().int(),
  unreadCount: z.number().int(),
  starred: z.boolean(),
  hasAttachments: z.boolean(),
  folderIds: z.array(z.string()),
  messageIds: z.array(z.string()),
  /**
   * A thread of drafts only (a message being written): whom its newest draft is to (To,
   * then Cc), so the Drafts list names them instead of "me" (shared/draft-recipients.ts).
   * Absent for any other thread, and from older gateways.
   */
  draftTo: z.array(addressSchema).optional(),
  /**
   * The keywords of its messages, system ones but $Important left out (shared/labels.ts threadKeywordsField):
   * the row's labels, and what a label list is indexed by. Absent when none.
   */
  keywords: z.array(z.string()).optional(),
  /**
   * A snooze, reminder or follow-up fired on it and is not dismissed yet (shared/api/timers.ts):
   * `lastMessageAt` is then at least `raised.at`, so it is back on top of its lists. Absent otherwise.
   */
  raised: raisedMarkSchema.optional(),
});
export type ThreadSummary = z.infer<typeof threadSummarySchema>;

/** A parsed message body (GET /api/messages/:id/body). */
export const messageBodySchema = z.object({
  messageId: z.string(),
  /** Raw HTML as sent; the UI sanitises it before display. */
  html: z.string().nullable(),
  text: z.string().nullable(),
  attachments: z.array(attachmentSummarySchema),
  headers: z.record(z.string(), z.string()),
  /**
   * Set when `html` or `text` is only the first part of a very large body (issue point 14):
   * the reader shows that part at once and fetches the whole (`?whole=1`) only when asked.
   * `htmlBytes` / `textBytes`: the size in UTF-8 of the whole HTML / text, for each one cut.
   */
  truncated: z
    .object({ htmlBytes: z.number().int().nonnegative().optional(), textBytes: z.number().int().nonnegative().optional() })
    .optional(),
});
export type MessageBody = z.infer<typeof messageBodySchema>;

/** GET /api/messages/:id/body?whole=1: the whole HTML and text however large (else each is cut at MAX_SHOWN_HTML_CHARS). */
export const bodyQuerySchema = z.strictObject({ whole: z.literal('1').optional() });

/**
 * How much HTML a body carries before the reader asks for the whole: a 20 MB newsletter
 * would hold the tab's main thread for seconds in the sanitiser and the frame's layout.
 * Measured in Chromium on this 2-core machine under load: 1,000,000 characters of table
 * rows took ≈ 0.5 s to sanitise and ≈ 0.8 s to load in the frame; half that is the bound.
 * Newsletters are rarely over 300 KB; a mail with big `data:` pictures may be cut.
 */
export const MAX_SHOWN_HTML_CHARS = 500_000;
