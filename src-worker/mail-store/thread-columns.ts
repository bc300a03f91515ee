/**
 * Columns the writer keeps on a Thread row beside the summary (per-folder unread state,
 * the paperclip), and the facts of a message they are recounted from (mail-writer.ts).
 */
import { anyShowsPaperclip } from '../../shared/attachment-rules';
import type { MessageMeta } from '../../shared/api/mail';

/**
 * Thread row column: the folders holding an unread message of the thread. The summary's
 * unreadCount is for the whole conversation; a folder's unread count is per folder.
 */
export const UNREAD_FOLDERS = 'unread_folder_ids';
export const unreadFoldersOf = (row: { readonly [column: string]: unknown } | undefined): string[] => (row?.[UNREAD_FOLDERS] as string[] | undefined) ?? [];

/**
 * Thread row columns of the paperclip (spec §5: an attachment with no contentId or over
 * 12 KB). The gateway's summary only says "has any attachment" (GIVEN_ATTACHMENTS); the
 * rule needs the messages' attachment summaries, so PAPERCLIP is worked out from the local
 * messages: true or false once every message of the thread is here, true as soon as one
 * local message earns it, absent while that cannot be told (then the gateway's flag shows).
 */
export const PAPERCLIP = 'paperclip';
export const GIVEN_ATTACHMENTS = 'given_has_attachments';
export const paperclipOf = (row: { readonly [column: string]: unknown } | undefined): boolean | undefined =>
  typeof row?.[PAPERCLIP] === 'boolean' ? (row[PAPERCLIP] as boolean) : undefined;

/** What a recount needs of a message. */
export interface MessageFacts {
  readonly id: string;
  readonly threadId: string;
  readonly folderId: string;
  readonly unread: boolean;
  readonly deleted: boolean;
  readonly paperclip: boolean;
}

export const factsOf = (meta: MessageMeta, deleted: boolean): MessageFacts => ({
  id: meta.id,
  threadId: meta.threadId,
  folderId: meta.folderId,
  unread: meta.unread,
  deleted,
  paperclip: anyShowsPaperclip(meta.attachments),
});
