/**
 * What the engine's reads answer (the views of the mail part of the worker contract):
 * list scopes and rows, windows, snapshots and patches, threads, bodies and folders.
 * The services that return them are in shared/worker-mail-api.ts, which re-exports these.
 */
import type { Address, AttachmentSummary, Folder } from './api/mail';
import type { RaisedMark } from './api/timers';
import type { ReceiptRefusal } from './read-receipts';

/** Which threads a list shows. Account ids are the gateway's `mailId` strings. */
export type ListScope =
  /**
   * `priority`: the priority inbox's order (issue 17 point 4) — the threads with $Important
   * first, then everything else, each newest first; only orders, never leaves a thread out.
   */
  | { readonly kind: 'folder'; readonly accountId: string; readonly folderId: string; readonly priority?: boolean }
  /**
   * The same special folder (usually inbox) across several accounts, merged by time.
   * `priority`: the accounts whose $Important threads come first (the priority inbox, as `folder`'s).
   */
  | { readonly kind: 'unified'; readonly accountIds: readonly string[]; readonly role: 'inbox' | 'sent' | 'drafts' | 'archive' | 'junk' | 'trash' | 'snoozed'; readonly priority?: readonly string[] }
  /** The threads with a label, by its keyword (shared/labels.ts). */
  | { readonly kind: 'label'; readonly accountId: string; readonly label: string }
  /**
   * Search over cached data; the query uses the gateway's operators (from:, is:unread …).
   * `server`: the gateway's search instead (it also reads message text, and mail not
   * mirrored yet), asked for when the cached search was cut at the match limit.
   */
  | { readonly kind: 'search'; readonly accountIds: readonly string[]; readonly query: string; readonly server?: boolean }
  /**
   * The threads with mail from one address (Manage senders, shared/senders.ts), outside Trash,
   * Spam, Sent and Drafts; `keepLatest`: all but the newest of them ("keep only the latest").
   */
  | { readonly kind: 'sender'; readonly accountIds: readonly string[]; readonly email: string; readonly keepLatest?: boolean };

/** One row of a thread list: all a list item needs, nothing more (keeps frames small). */
export interface ThreadRow {
  /** `${accountId}:${threadId}`, unique across accounts; the React key. */
  readonly key: string;
  readonly accountId: string;
  readonly threadId: string;
  readonly subject: string;
  readonly participants: readonly Address[];
  readonly snippet: string;
  /** Epoch ms of the newest message: the list's order. */
  readonly lastMessageAt: number;
  readonly messageCount: number;
  readonly unreadCount: number;
  readonly starred: boolean;
  /** Paperclip: an attachment with no contentId or over 12 KB (spec §5). */
  readonly hasAttachments: boolean;
  readonly folderIds: readonly string[];
  /** A command on this thread is waiting for the gateway. */
  readonly pending: boolean;
  /** A thread of drafts only: whom its newest draft is to (the row reads "To: Bob", marked Draft). */
  readonly draftTo?: readonly Address[];
  /** Its messages' keywords (ThreadSummary.keywords): the UI shows those that are labels. */
  readonly keywords?: readonly string[];
  /** A snooze, reminder or follow-up fired on it (shared/api/timers.ts): the row is marked until dismissed. */
  readonly raised?: RaisedMark;
}

/** The rows a tab shows: a window into the sorted list. */
export interface ListWindow {
  readonly offset: number;
  /** At most 200: a tab renders about 100 rows. */
  readonly limit: number;
}

export interface ListSnapshot {
  readonly subscriptionId: string;
  /** Threads in the whole list, for the scrollbar. */
  readonly total: number;
  readonly offset: number;
  readonly rows: readonly ThreadRow[];
  /**
   * Whether the list's contents are known: every account of the scope has caught up with
   * the gateway at least once. False during a first sync, when an empty list only means
   * "not here yet" (the UI shows loading rows then, never "Your inbox is empty").
   */
  readonly complete: boolean;
  /**
   * A search stopped at the spec's match limit (1,000 messages, SEARCH_MATCH_LIMIT): the
   * list holds the newest matches and older ones are left out. Absent: not cut.
   */
  readonly truncated?: boolean;
  /** A priority list (ListScope `priority`): how many threads the Important section at its top holds. Absent otherwise. */
  readonly important?: number;
}

/**
 * What changed inside the window since the last snapshot or patch: rows now at an index
 * (new or changed), and the new total. A tab applies it to what it holds.
 */
export interface ListPatch {
  readonly subscriptionId: string;
  readonly total: number;
  readonly offset: number;
  /** Full replacement of the window when the change shifts many rows (e.g. new mail on top). */
  readonly rows?: readonly ThreadRow[];
  /** Otherwise, only the rows that changed, by their index in the whole list. */
  readonly changed?: readonly { readonly index: number; readonly row: ThreadRow }[];
  /** ListSnapshot.complete, when it changed (absent: as before). */
  readonly complete?: boolean;
  /** ListSnapshot.truncated, when it changed (absent: as before). */
  readonly truncated?: boolean;
  /** ListSnapshot.important, when it changed (absent: as before). */
  readonly important?: number;
}

/** A message as the conversation view shows it (no body). */
export interface MessageView {
  readonly id: string;
  readonly accountId: string;
  readonly threadId: string;
  readonly folderId: string;
  readonly subject: string;
  readonly from: readonly Address[];
  readonly to: readonly Address[];
  readonly cc: readonly Address[];
  readonly replyTo: readonly Address[];
  readonly date: number;
  readonly unread: boolean;
  readonly starred: boolean;
  readonly draft: boolean;
  readonly snippet: string;
  readonly attachments: readonly AttachmentSummary[];
  readonly messageIdHeader: string | null;
}

export interface ThreadView {
  readonly row: ThreadRow;
  /** Oldest first. */
  readonly messages: readonly MessageView[];
}

/** The open conversation as a live query (MailQueryService.watchThread): the thread now. */
export interface ThreadSnapshot {
  readonly subscriptionId: string;
  readonly thread: ThreadView;
}

/**
 * A push to a watched thread: its new view after any of its messages, their flags or its
 * membership changed, or `gone` once it is no more (deleted, every message moved out or
 * deleted); after `gone` nothing more comes.
 */
export type ThreadPush =
  | { readonly subscriptionId: string; readonly kind: 'changed'; readonly thread: ThreadView }
  | { readonly subscriptionId: string; readonly kind: 'gone' };

/** A message body, cached in MessageBody after the first fetch. */
export interface BodyView {
  readonly messageId: string;
  /** Unsanitised: the UI's pipeline sanitises it (DOMPurify needs a DOM). */
  readonly html: string | null;
  readonly text: string | null;
  readonly attachments: readonly AttachmentSummary[];
  /** `cid:` id → object URL or data URL of the inline part, so the UI can show inline images. */
  readonly inlineImages: Readonly<Record<string, string>>;
  /** `html` and/or `text` is the first part of a very large body (MessageBody.truncated); `getBody` with `whole` brings the rest. */
  readonly truncated?: { readonly htmlBytes?: number; readonly textBytes?: number };
  /** The message asks for a read receipt (Disposition-Notification-To); absent when it does not. */
  readonly receipt?: ReceiptAsk;
}

/** A read-receipt request as of now (shared/read-receipts.ts). */
export interface ReceiptAsk {
  /** Where the receipt would go; null when the field is not one address (ReceiptAddressInvalid). */
  readonly address: string | null;
  /** It would go elsewhere than to the sender: the reader is warned. */
  readonly elsewhere: boolean;
  /** Why none may be sent (answered already, automatic mail, a list, a folder that never answers); null: the reader decides. */
  readonly refusal: ReceiptRefusal | null;
}

export interface FolderView extends Folder {
  readonly accountId: string;
  /** Nesting depth for the sidebar (0 = top level). */
  readonly depth: number;
}

/** A change to an account's folders (the sidebar's New folder, Rename, Move to…, Delete). Ids are the gateway's. */
export type FolderChange =
  | { readonly kind: 'create'; readonly accountId: string; readonly name: string; readonly parentId: string | null }
  /** A new name in the same parent. */
  | { readonly kind: 'rename'; readonly accountId: string; readonly folderId: string; readonly name: string }
  /** Under another parent (null: the top level), keeping its name. */
  | { readonly kind: 'move'; readonly accountId: string; readonly folderId: string; readonly parentId: string | null }
  /** Moves the folder (subfolders and mail too) under Trash; one already in Trash is deleted for good. */
  | { readonly kind: 'delete'; readonly accountId: string; readonly folderId: string };

/** What a FolderChange did: the folder as it is now (null once deleted for good). */
export interface FolderChangeResult {
  readonly folder: FolderView | null;
  /** A delete that moved the folder under Trash rather than deleting it. */
  readonly movedToTrash: boolean;
}
