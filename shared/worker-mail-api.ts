/**
 * The mail part of the worker contract: what a tab may read (queries, live subscriptions)
 * and do (commands). Part of `WorkerApi` in shared/worker-api.ts.
 *
 * Rules of the boundary (DESIGN §1, issue "SharedWorker engine" point 6):
 *   - a tab only renders what these return; it never fetches or opens IndexedDB itself;
 *   - live queries push only the rows that changed inside the window a tab shows;
 *   - no message on an interaction path exceeds ~100 KB (bodies are their own call).
 */
import type { PendingSend } from './api/compose';
import type { Address } from './api/mail';
import type { Schedule } from './send-time';
import type { BodyView, FolderChange, FolderChangeResult, FolderView, ListPatch, ListScope, ListSnapshot, ListWindow, ThreadPush, ThreadSnapshot, ThreadView } from './worker-mail-views';


/** A suggestion: an address, or a contact list (its name, `list:<id>` as its address, and its members' addresses). */
export type SuggestedAddress = Address & { readonly members?: readonly Address[] };

export * from './worker-mail-views';

/** A send waiting on the gateway, with its account. */
export type PendingSendView = PendingSend & { readonly accountId: string };

/**
 * Folder changes and emptying Trash or Spam. Unlike thread commands they are not applied
 * optimistically nor queued: the mail server decides (a name taken, a special folder), and
 * the catalogue's answer (FolderAlreadyExist, FolderNameLengthExceeded, SpecialFolder,
 * FolderNotFound, TargetFolderNotExists …) is what the dialog shows. Each resolves once
 * the account's local folder list and threads show the change.
 */
export interface FolderCommandService {
  changeFolder(params: { change: FolderChange }): Promise<FolderChangeResult>;
  /** Removes every message of the account's Trash or Spam for good; resolves with how many. */
  emptyFolder(params: { accountId: string; role: 'trash' | 'junk' }): Promise<{ removed: number }>;
}

export interface AccountCounts {
  readonly accountId: string;
  /** Unread threads in the inbox. */
  readonly inboxUnread: number;
  /**
   * False while the account's first sync is under way (ListSnapshot.complete): inboxUnread
   * counts only the threads arrived so far, so the sidebar does not show it yet.
   */
  readonly complete?: boolean;
}

/** Outcome of a queued command, visible in every tab (STYLE item 5). */
export interface CommandStatus {
  readonly commandId: string;
  readonly accountId: string;
  /** A MailCommand kind, or a draft save / send / discard from the composer. */
  readonly kind: MailCommand['kind'] | 'saveDraft' | 'send' | 'discardDraft';
  /**
   * `cancelled`: a send undone inside its undo window. `pending` with an `error`: the last
   * attempt failed and the engine tries again (a draft is then saved on this device only).
   */
  readonly status: 'pending' | 'done' | 'failed' | 'cancelled';
  /**
   * Catalogue error name and sentence when failed (the change was put back), or the last
   * attempt's while pending; `detail` is the mail server's own reply for SendFailed
   * (e.g. "550 5.1.1 recipient rejected").
   */
  readonly error?: { readonly name: string; readonly message: string; readonly detail?: string };
  /** The draft (as its composer names it) of a saveDraft, send or discardDraft. */
  readonly draftId?: string;
  /**
   * A save the gateway refused as stale (409): the engine kept the refused version as this
   * new draft, so nothing typed is lost even with no tab open (the composer's "Keep both").
   */
  readonly keptAs?: string;
  /** A send that left a SendNotice (the notice, not a toast, tells the person). */
  readonly notice?: SendNotice['kind'];
}

/** How one account's sync is doing, for an offline banner or a "syncing" hint. */
export interface SyncStatus {
  readonly accountId: string;
  /** idle: up to date; backoff: retrying after a failure; offline: waiting for the network; signed-out: log in again. */
  readonly phase: 'idle' | 'pulling' | 'backoff' | 'offline' | 'signed-out' | 'stopped';
  readonly appliedTransactionId: number;
  readonly latestTxnId: number;
  /** The online check's last answer (null before the first). */
  readonly online: boolean | null;
  readonly error: { readonly name: string; readonly message: string } | null;
}

/** Every change a tab can ask for; applied optimistically, then confirmed or reverted. */
export type MailCommand =
  | { readonly kind: 'markRead'; readonly accountId: string; readonly threadIds: readonly string[]; readonly read: boolean }
  | { readonly kind: 'star'; readonly accountId: string; readonly threadIds: readonly string[]; readonly starred: boolean }
  | { readonly kind: 'move'; readonly accountId: string; readonly threadIds: readonly string[]; readonly folderId: string }
  | { readonly kind: 'archive'; readonly accountId: string; readonly threadIds: readonly string[] }
  | { readonly kind: 'trash'; readonly accountId: string; readonly threadIds: readonly string[] }
  | { readonly kind: 'spam'; readonly accountId: string; readonly threadIds: readonly string[] }
  /** Not spam: the thread's messages in Spam go to the Inbox (its other messages stay where they are). */
  | { readonly kind: 'notspam'; readonly accountId: string; readonly threadIds: readonly string[] }
  | { readonly kind: 'delete'; readonly accountId: string; readonly threadIds: readonly string[] }
  /** Gives (`add`) or takes a label, by its keyword (shared/labels.ts), to every message of the threads. */
  | { readonly kind: 'label'; readonly accountId: string; readonly threadIds: readonly string[]; readonly keyword: string; readonly add: boolean }
  /**
   * Puts messages back where they were: the undo of a move, archive, trash or spam, as
   * the engine built it when that command ran (its `undo`). Each message goes back to
   * its own folder, so threads of a unified list return to each account's and folder's own.
   */
  | { readonly kind: 'restore'; readonly accountId: string; readonly threadIds: readonly string[]; readonly placements: readonly MessagePlacement[] };

/** Where one message is to be: its gateway id (which survives moves) and a folder of its account. */
export interface MessagePlacement {
  readonly messageId: string;
  readonly folderId: string;
}

/** What `run` answers: the command's id, and the command that undoes it when it can be undone (moves). */
export interface CommandRun {
  readonly commandId: string;
  /** Absent for changes that show in the row (read, star) and for "delete forever". */
  readonly undo?: MailCommand;
}

/**
 * A thread command for every thread of a list (Gmail's "Select all N conversations"): a
 * MailCommand without its threads, which the engine finds itself (runOnScope).
 */
export type ScopeCommand =
  | { readonly kind: 'archive' | 'trash' | 'spam' | 'notspam' | 'delete' }
  /** Only for a list of one account (the folder is that account's). */
  | { readonly kind: 'move'; readonly folderId: string }
  | { readonly kind: 'markRead'; readonly read: boolean }
  | { readonly kind: 'star'; readonly starred: boolean }
  /** Only for a list of one account (the keyword is one of that account's labels). */
  | { readonly kind: 'label'; readonly keyword: string; readonly add: boolean };

/** How far a runOnScope is: threads whose command is recorded (applied locally), of all it found. */
export interface ScopeRunProgress {
  readonly done: number;
  readonly total: number;
}

/** What runOnScope answers once every batch is recorded (the gateway confirms each later, see watchCommands). */
export interface ScopeRun extends ScopeRunProgress {
  /** One command per batch, in order. */
  readonly commandIds: readonly string[];
  /** What puts it all back (CommandRun.undo of each batch that has one): empty for read, star and "delete forever". */
  readonly undo: readonly MailCommand[];
}

export interface DraftInput {
  readonly accountId: string;
  /**
   * Absent for a new draft; the worker's local id (`local-…`) until the gateway names it. A
   * tab may name a new draft itself (`local-` and a random UUID), to know its id before the answer.
   */
  readonly draftId?: string;
  /**
   * Recipients as the composer holds them, an invalid address ("bob@kite") as typed: the
   * engine keeps those out of the gateway's draft and gives them back when the draft is
   * reopened (a send is refused by the composer while any is there).
   */
  readonly to: readonly Address[];
  readonly cc: readonly Address[];
  readonly bcc: readonly Address[];
  readonly subject: string;
  readonly html: string;
  readonly inReplyToMessageId?: string;
  readonly attachmentIds: readonly string[];
  /** The identity it goes out from (name and address); absent: the account's own address under its sender name. */
  readonly from?: Address;
  /**
   * The draft's revision this composer last saved or opened (draft-revisions.ts): a save
   * over a newer one — another tab saved the draft meanwhile, or sent it — is refused with
   * InvalidDraftVersion instead of overwriting it. Absent: no check (a new draft).
   */
  readonly baseRevision?: number;
}

/** What saveDraft answers: the id for the next save, the revision it made, and its command (its gateway outcome comes through watchCommands). */
export interface DraftSaveReceipt {
  readonly draftId: string;
  readonly revision?: number;
  readonly commandId?: string;
}

/**
 * A sent message the person must hear about, kept in the engine's database until dismissed
 * (it outlives the tab and a reload): `maybeSent` — the gateway stopped after the message
 * went to the mail server and before its answer, so it may have been sent (never resent on
 * its own); `notSent` — the send failed; `notFiled` — it was sent but no copy could be put in Sent.
 */
export interface SendNotice {
  readonly noticeId: string;
  readonly accountId: string;
  readonly kind: 'maybeSent' | 'notSent' | 'notFiled';
  /** The draft it was sent from (to open it again), as its composer named it. */
  readonly draftId: string;
  readonly subject: string;
  /** Epoch ms. */
  readonly at: number;
  readonly error?: { readonly name: string; readonly message: string; readonly detail?: string };
  /** The gateway's outbox row of the send (POST /api/outbox/:id/resend and /dismiss), when it named one. */
  readonly outboxId?: string;
}

/**
 * A saved draft as the composer reopens it (MailCommandService.openDraft): its fields as a
 * save takes them (`html` untrusted: a plain-text draft's text, escaped; the composer
 * sanitises it), the id its next save and its send name, and its files by name.
 */
export interface DraftEdit extends Omit<DraftInput, 'draftId' | 'attachmentIds'> {
  readonly draftId: string;
  /** Files the draft carries, already stored by the gateway. */
  readonly attachments: readonly { readonly attachmentId: string; readonly fileName: string; readonly size: number }[];
  /** The revision the composer's first save names as its `baseRevision`. */
  readonly revision?: number;
}

/** How far "keep recent mail offline" has come: bodies fetched of those missing. */
export interface BodyProgress {
  readonly done: number;
  readonly total: number;
  /** 'offline': stopped with no way to the gateway; 'paused': the browser asks to save data. */
  readonly state: 'idle' | 'running' | 'done' | 'offline' | 'paused';
}

/** Reads for the UI. */
export interface MailQueryService {
  /** Starts a live thread list; `onPatch` receives only changes inside the window. */
  watchThreadList(params: { scope: ListScope; window: ListWindow }, onPatch: (patch: ListPatch) => void): Promise<ListSnapshot>;
  /** Moves a subscription's window (scrolling); returns the rows of the new window. */
  moveWindow(params: { subscriptionId: string; window: ListWindow }): Promise<ListSnapshot>;
  /** Ends a subscription, of a list or of a thread (unmount, tab close). */
  unwatch(params: { subscriptionId: string }): Promise<void>;
  /**
   * Starts a live thread (the open conversation): the thread now, then `onPush` with its new
   * view whenever it changes, and `gone` when it is no more. Rejects as getThread does.
   */
  watchThread(params: { accountId: string; threadId: string }, onPush: (push: ThreadPush) => void): Promise<ThreadSnapshot>;
  /** A thread with its messages, newest state from the cache. */
  getThread(params: { accountId: string; threadId: string }): Promise<ThreadView>;
  /** A body: from MessageBody, or fetched from the gateway and cached. */
  getBody(params: { accountId: string; messageId: string; whole?: boolean }): Promise<BodyView>;
  /**
   * Keeps recent mail readable offline (issue 20): fetches the bodies of the last `days`
   * days' messages not on this device yet, one at a time, newest first; `onProgress` hears
   * how far it is. Resolves when done, or stopped (offline, or the browser saving data).
   */
  prefetchBodies(params: { accountIds: readonly string[]; days: number }, onProgress: (progress: BodyProgress) => void): Promise<BodyProgress>;
  /**
   * The bodies about to be read (issue 13 point 4): of these threads (the list's cursor
   * first, then its neighbours on screen; at most 12 are taken), the messages an opening
   * expands that this device does not keep, fetched one at a time in that order. A new ask
   * replaces what is left of the last one. Resolves with how many are to fetch, at once.
   */
  prefetchNear(params: { threads: readonly { accountId: string; threadId: string }[] }): Promise<number>;
  /** Folders of an account, special folders first, nested order. */
  listFolders(params: { accountId: string }): Promise<readonly FolderView[]>;
  /** Unread counts per account, for the sidebar. */
  counts(params: { accountIds: readonly string[] }): Promise<readonly AccountCounts[]>;
  /**
   * An attachment's bytes (preview, download, forwarding), by its `index` among the
   * message's attachments, fetched from the gateway each time (never cached in IndexedDB).
   * Not an interaction-path message: it may be large, and the Blob crosses the boundary
   * without its bytes being copied.
   */
  getAttachment(params: { accountId: string; messageId: string; index: number }): Promise<Blob>;
  /**
   * An address that shows one previewable attachment (spec §5 preview types) from the
   * gateway, sandboxed (`Content-Security-Policy: sandbox`), for an `<img>`, a media element,
   * a frame or a new tab; it works for a few minutes (`expiresAt`, epoch ms). Never a `blob:`
   * of the app's origin, where an SVG's script would run (issue point 12).
   */
  previewAttachment(params: { accountId: string; messageId: string; index: number }): Promise<{ url: string; expiresAt: number }>;
  /**
   * The gateway addresses that load a message's remote images once the person allowed them
   * (issue 19's image proxy): remote URL → signed gateway URL; a URL left out stays blocked.
   * The sender then sees the gateway's address, never the reader's.
   */
  proxyRemoteImages(params: { accountId: string; urls: readonly string[] }): Promise<Readonly<Record<string, string>>>;
  /**
   * Sends (`send`) or declines a message's read receipt (RFC 8098) on the gateway (online
   * only); either way the message gets $MDNSent, which every device syncs. Rejects with
   * ReceiptNotAllowed (detail.reason), ReceiptAddressInvalid, SendFailed.
   */
  answerReceipt(params: { accountId: string; messageId: string; send: boolean }): Promise<{ readonly sent: boolean }>;
  /** Addresses seen in mail and the book's cards, best first, then matching contact lists (with their members), for recipient autocomplete. */
  suggestAddresses(params: { accountIds: readonly string[]; prefix: string; limit: number }): Promise<readonly SuggestedAddress[]>;
  /** Calls `onStatus` with every account's sync status now and whenever one changes. */
  watchSync(onStatus: (status: SyncStatus) => void): Promise<{ subscriptionId: string }>;
  /** Ends a `watchSync`. */
  unwatchSync(params: { subscriptionId: string }): Promise<void>;
}

/** A file to upload for a draft. */
export interface UploadParams {
  readonly accountId: string;
  readonly file: Blob;
  readonly fileName: string;
  /** The tab's name for this upload, to cancel it with; optional (an upload nobody may cancel). */
  readonly uploadId?: string;
}

/** Changes from the UI. */
export interface MailCommandService {
  /** Applies optimistically, records a ProviderSyncbackRequest, sends it; resolves with its id and its undo. */
  run(params: { command: MailCommand }): Promise<CommandRun>;
  /**
   * Runs a command on every thread of a list scope, including threads no tab has loaded:
   * the engine reads the scope's thread ids itself and records the command in batches
   * (newest threads first, so the rows on screen change first), each applied optimistically
   * like `run`, yielding between batches so a 10k folder blocks nothing. `onProgress` is
   * told after each batch.
   */
  runOnScope(params: { scope: ListScope; command: ScopeCommand }, onProgress: (progress: ScopeRunProgress) => void): Promise<ScopeRun>;
  /**
   * Saves (creates or updates) a draft on this device at once and queues it for the gateway;
   * resolves with its id for the next save. InvalidDraftVersion when `baseRevision` is stale.
   */
  saveDraft(params: { draft: DraftInput }): Promise<DraftSaveReceipt>;
  /**
   * A draft to edit, by the `MessageView.id` of its message in Drafts: everything it holds
   * (Bcc and attachments too), with the id to save and send it by; DraftAlreadySent once sent.
   * Or by the `draftId` a composer saved it under (a composer open before a reload): the
   * same, under that id, with a save still waiting to leave laid over it.
   */
  openDraft(params: { accountId: string; messageId: string } | { accountId: string; draftId: string }): Promise<DraftEdit>;
  /**
   * Throws a draft away (the composer's Discard): saves of it not sent yet are dropped and,
   * once they are through, the gateway deletes it from Drafts. The tab keeps what it held
   * for Undo, which saves it again as a new draft.
   */
  discardDraft(params: { accountId: string; draftId: string }): Promise<{ commandId: string }>;
  /**
   * Sends a saved draft; the gateway holds it `delayMs` (the undo window, at most 30 s) — or,
   * with `schedule`, sends it then (the Scheduled list). Resolves with the command id.
   * `subject` names it on a notice. A scheduled time that cannot be used fails its command
   * with ScheduleTimeInPast / ScheduleTimeTooFar / ScheduleTimeNonexistent (the composer checks first).
   */
  send(params: { accountId: string; draftId: string; delayMs: number; subject?: string; schedule?: Schedule; requestReceipt?: boolean }): Promise<{ commandId: string }>;
  /** Cancels a send still inside its undo window, in this engine or on the gateway; false when it already left. */
  undoSend(params: { commandId: string }): Promise<boolean>;
  /** The sends the gateway holds or has scheduled for these accounts, soonest first (the Scheduled list). */
  pendingSends(params: { accountIds: readonly string[] }): Promise<readonly PendingSendView[]>;
  /** A scheduled send back to a draft (in Drafts again): the gateway's draft id to open, or null. SendAlreadyLeft once it went. */
  cancelScheduled(params: { accountId: string; outboxId: string }): Promise<{ draftId: string | null }>;
  /** A scheduled send cancelled and its draft deleted. */
  deleteScheduled(params: { accountId: string; outboxId: string }): Promise<void>;
  /** Hears which account's pending sends changed (any device: delta's `scheduled` document). */
  watchPendingSends(onChange: (accountId: string) => void): Promise<{ subscriptionId: string }>;
  unwatchPendingSends(params: { subscriptionId: string }): Promise<void>;
  /**
   * Uploads a file for a draft, reporting the share of it sent (0–1) as it goes; resolves
   * with the gateway's attachment id. `uploadId` (made by the tab) names it for `cancelUpload`.
   */
  uploadAttachment(params: UploadParams, onProgress: (fraction: number) => void): Promise<{ attachmentId: string }>;
  /** Stops an upload in flight; its `uploadAttachment` rejects. False when none by that id is running. */
  cancelUpload(params: { uploadId: string }): Promise<boolean>;
  /** Every account's send notices, oldest first. */
  sendNotices(params: { accountIds: readonly string[] }): Promise<readonly SendNotice[]>;
  /** Forgets a notice (the person read it, or checked Sent). */
  dismissSendNotice(params: { accountId: string; noticeId: string }): Promise<void>;
  /**
   * "Send again" on a `maybeSent` notice: the person decided, so the draft is sent once more
   * under a new idempotency key (after the undo window); the notice goes.
   */
  sendAgain(params: { accountId: string; noticeId: string; delayMs: number }): Promise<{ commandId: string }>;
  /** Subscribes to command outcomes (every tab sees every command); open and recent ones are sent first. */
  watchCommands(onStatus: (status: CommandStatus) => void): Promise<{ subscriptionId: string }>;
  /** Ends a `watchCommands`. */
  unwatchCommands(params: { subscriptionId: string }): Promise<void>;
}
