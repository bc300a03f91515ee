import * as z from 'zod';
import { folderSchema, messageMetaSchema, threadSummarySchema } from './mail';

/**
 * Requests and replies of the reading routes (folders, threads, messages, search).
 * Ids travel as strings of digits, as in the shared entities. Folder names are only
 * typed here: their rules (length, characters) answer with specific catalogue errors
 * (FolderNameLengthExceeded, InvalidParameter), which a zod issue could not.
 */

/** A mirror object id as it appears in URLs and bodies: a positive integer, as a string. */
export const objectIdSchema = z.string().regex(/^[1-9]\d{0,14}$/, 'Expected an id');

/** Search full-text match limit (spec §9). */
export const SEARCH_MATCH_LIMIT = 1000;
/** Folder name max length (spec §5, §9). */
export const FOLDER_NAME_MAX = 255;

// ── Folders ────────────────────────────────────────────────────────────────────

/** GET /api/folders */
export const folderListResponseSchema = z.object({
  folders: z.array(folderSchema),
  /** The IMAP hierarchy separator (Account.mailProperties.folderSeparator). */
  separator: z.string(),
});
export type FolderListResponse = z.infer<typeof folderListResponseSchema>;

const folderNameSchema = z.string().max(4096);

/** POST /api/folders */
export const createFolderRequestSchema = z.strictObject({
  name: folderNameSchema,
  /** Absent or null: a top-level folder. */
  parentId: objectIdSchema.nullish(),
});
export type CreateFolderRequest = z.infer<typeof createFolderRequestSchema>;

/** PUT /api/folders/:id (renames within the same parent). */
export const renameFolderRequestSchema = z.strictObject({ name: folderNameSchema });
export type RenameFolderRequest = z.infer<typeof renameFolderRequestSchema>;

/** POST /api/folders/move */
export const moveFolderRequestSchema = z.strictObject({
  folderId: objectIdSchema,
  /** null: to the top level. */
  parentId: objectIdSchema.nullable(),
});
export type MoveFolderRequest = z.infer<typeof moveFolderRequestSchema>;

/** POST /api/folders/trash */
export const trashFolderRequestSchema = z.strictObject({ folderId: objectIdSchema });
export type TrashFolderRequest = z.infer<typeof trashFolderRequestSchema>;

/** The account's latest transaction once the mirror shows the change: a client waits for its delta up to here. */
const latestTxnIdSchema = z.number().int();

/** Reply of create, rename and move: the folder as mirrored afterwards (rename and move keep its id). */
export const folderResponseSchema = z.object({ folder: folderSchema, latestTxnId: latestTxnIdSchema });
export type FolderResponse = z.infer<typeof folderResponseSchema>;

/** Reply of trash: moved under Trash (`folder` is where it went), or deleted for good. */
export const trashFolderResponseSchema = z.object({ deleted: z.boolean(), folder: folderSchema.nullable(), latestTxnId: latestTxnIdSchema });
export type TrashFolderResponse = z.infer<typeof trashFolderResponseSchema>;

export const idParamsSchema = z.object({ id: objectIdSchema });

// ── Threads ────────────────────────────────────────────────────────────────────

/** GET /api/threads?folderId=&before=&limit= */
export const threadListQuerySchema = z.strictObject({
  folderId: objectIdSchema,
  /** Epoch ms: only threads whose last message in the folder is older. Absent: the newest. */
  before: z.coerce.number().int().positive().max(8.64e15).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
export type ThreadListQuery = z.infer<typeof threadListQuerySchema>;

export const threadListResponseSchema = z.object({
  /** Newest first by the last message time in the folder. */
  threads: z.array(threadSummarySchema),
  /**
   * `before` for the next page; null at the end. A page may hold a few more than `limit`
   * threads so that threads sharing the boundary time are never split across pages.
   */
  nextBefore: z.number().int().nullable(),
});
export type ThreadListResponse = z.infer<typeof threadListResponseSchema>;

/** GET /api/threads/count?folderId= */
export const threadCountQuerySchema = z.strictObject({ folderId: objectIdSchema });
export const threadCountResponseSchema = z.object({ total: z.number().int(), unread: z.number().int() });
export type ThreadCountResponse = z.infer<typeof threadCountResponseSchema>;

/** GET /api/threads/:id — the thread and its messages, oldest first. */
export const threadDetailResponseSchema = z.object({ thread: threadSummarySchema, messages: z.array(messageMetaSchema) });
export type ThreadDetailResponse = z.infer<typeof threadDetailResponseSchema>;

// ── Messages ───────────────────────────────────────────────────────────────────

export const attachmentParamsSchema = z.object({ id: objectIdSchema, index: z.string().regex(/^\d{1,4}$/).transform(Number) });

/**
 * GET /api/messages/:id/attachments/:index/preview-link → a short-lived link that opens
 * this one part as a sandboxed preview (`GET /api<path>`, no session needed: the link is
 * the key). Previews never come from a `blob:` of the app's origin (DESIGN §5).
 */
export const previewLinkSchema = z.object({
  /** After the API base: `/attachment-preview/<token>`. */
  path: z.string().regex(/^\/attachment-preview\/[\w.-]{1,200}$/),
  /** Epoch ms after which the link answers ExpiredLink. */
  expiresAt: z.number().int(),
});
export type PreviewLink = z.infer<typeof previewLinkSchema>;

// ── Search ─────────────────────────────────────────────────────────────────────

/** GET /api/search?q=&folderId=&limit= */
export const searchQuerySchema = z.strictObject({
  /** Words, "quoted phrases" and operators: from: to: subject: has:attachment is:unread is:read is:starred in: before: after: */
  q: z.string().trim().min(1).max(1000),
  folderId: objectIdSchema.optional(),
  /** Threads to return (matches are capped at SEARCH_MATCH_LIMIT messages first). */
  limit: z.coerce.number().int().min(1).max(SEARCH_MATCH_LIMIT).default(100),
});
export type SearchQuery = z.infer<typeof searchQuerySchema>;

export const searchResponseSchema = z.object({
  /** Newest first by the thread's last message. */
  threads: z.array(threadSummarySchema),
  /** Messages that matched (at most SEARCH_MATCH_LIMIT). */
  matchedMessages: z.number().int(),
  /** The match limit was reached: older matches were left out. */
  truncated: z.boolean(),
  /**
   * False when part of the account is not mirrored yet and the server-side search could
   * not be used or did not finish in time: results may be missing.
   */
  complete: z.boolean(),
  /** Matches the server found in messages not mirrored yet (they appear once mirrored). */
  pendingOnServer: z.number().int(),
});
export type SearchResponse = z.infer<typeof searchResponseSchema>;
