import { anyShowsPaperclip } from '../../shared/attachment-rules';
import type { Address, AttachmentSummary, Folder, MessageMeta, SpecialUse, ThreadSummary } from '../../shared/api/mail';
import { draftRecipients, draftToField } from '../../shared/draft-recipients';
import { threadKeywordsField } from '../../shared/labels';
import { unsubscribeSchema, type Unsubscribe } from '../../shared/unsubscribe';
import { hasFlag } from '../imap/imap-flags';
import type { SqlExecutor } from '../store/sql';
import { TimerStore } from '../timers/timer-store';
import { withRaisedMark } from '../../shared/raised-mark';
import type { RaisedMark } from '../../shared/api/timers';
import { inChunks, placeholders } from '../store/sql-lists';
import type { StoredAttachment } from './attachments';
import { FOLDER_COLUMNS, MESSAGE_COLUMNS, type FolderRow, type MessageRow } from './mirror-rows';

/** Mirror rows → the shared wire shapes. Used by delta and by every route that reads mail. */

const parseAddresses = (json: string): Address[] => JSON.parse(json) as Address[];

/** The stored attachment without the fields only the gateway needs (part, encoding). */
export function toAttachmentSummary(stored: StoredAttachment): AttachmentSummary {
  return { index: stored.index, filename: stored.filename, size: stored.size, contentType: stored.contentType, contentId: stored.contentId };
}

/** Attachments as stored, with their IMAP part and encoding (for download routes). */
export function storedAttachmentsOf(row: Pick<MessageRow, 'attachments_json'>): StoredAttachment[] {
  return JSON.parse(row.attachments_json) as StoredAttachment[];
}

/** The stored List-Unsubscribe, when the message has one (absent otherwise, as from an older gateway). */
function unsubscribeField(json: string | null | undefined): { unsubscribe?: Unsubscribe } {
  if (!json) return {};
  const parsed = unsubscribeSchema.safeParse(JSON.parse(json));
  return parsed.success ? { unsubscribe: parsed.data } : {};
}

export function toMessageMeta(row: MessageRow): MessageMeta {
  const flags = JSON.parse(row.flags) as string[];
  return {
    id: String(row.id),
    threadId: String(row.thread_id),
    folderId: String(row.folder_id),
    messageIdHeader: row.message_id_header,
    subject: row.subject,
    from: parseAddresses(row.from_json),
    to: parseAddresses(row.to_json),
    cc: parseAddresses(row.cc_json),
    replyTo: parseAddresses(row.reply_to_json),
    date: row.date,
    receivedAt: row.received_at,
    unread: !hasFlag(flags, '\\Seen'),
    starred: hasFlag(flags, '\\Flagged'),
    answered: hasFlag(flags, '\\Answered'),
    draft: hasFlag(flags, '\\Draft'),
    keywords: flags.filter((flag) => !flag.startsWith('\\')),
    size: row.size,
    attachments: storedAttachmentsOf(row).map(toAttachmentSummary),
    snippet: row.snippet,
    ...unsubscribeField(row.unsubscribe),
    ...(Number(row.bulk) === 1 ? { bulk: true as const } : {}),
  };
}

export function toFolder(row: FolderRow, counts: { total: number; unread: number }, parentId: number | null): Folder {
  return {
    id: String(row.id),
    path: row.path,
    name: row.name,
    parentId: parentId === null ? null : String(parentId),
    specialUse: row.special_use,
    total: counts.total,
    unread: counts.unread,
    mirrored: row.uidvalidity !== null,
  };
}

/** A conversation from its messages (any order); null when it has none left. */
export function toThreadSummary(threadId: number, rows: readonly MessageRow[]): ThreadSummary | null {
  if (rows.length === 0) return null;
  const messages = [...rows].sort((a, b) => a.date - b.date || a.id - b.id).map((row) => ({ row, meta: toMessageMeta(row) }));
  const participants = new Map<string, Address>();
  for (const { meta } of messages) {
    for (const sender of meta.from) {
      const key = sender.email.toLowerCase();
      if (!participants.has(key)) participants.set(key, sender);
    }
  }
  const latest = messages[messages.length - 1]!.meta;
  return {
    id: String(threadId),
    subject: messages[0]!.meta.subject,
    participants: [...participants.values()],
    snippet: latest.snippet,
    lastMessageAt: Math.max(...messages.map(({ meta }) => meta.receivedAt)),
    messageCount: messages.length,
    unreadCount: messages.filter(({ meta }) => meta.unread).length,
    starred: messages.some(({ meta }) => meta.starred),
    // The paperclip rule (spec §5): inline images under 12 KB don't count.
    hasAttachments: messages.some(({ meta }) => anyShowsPaperclip(meta.attachments)),
    folderIds: [...new Set(messages.map(({ meta }) => meta.folderId))].sort((a, b) => Number(a) - Number(b)),
    messageIds: messages.map(({ meta }) => meta.id),
    ...draftToField(draftRecipients(messages.map(({ meta }) => meta))),
    ...threadKeywordsField(messages.map(({ meta }) => meta)),
  };
}

/** Special-use names as imapflow reports them (`\Sent`) → the shared enum; INBOX is always 'inbox'. */
export function specialUseOf(path: string, flag: string | undefined): SpecialUse | null {
  if (path.toUpperCase() === 'INBOX') return 'inbox';
  const name = flag?.replace(/^\\/, '').toLowerCase();
  const known: Record<string, SpecialUse> = { inbox: 'inbox', drafts: 'drafts', sent: 'sent', archive: 'archive', junk: 'junk', trash: 'trash', all: 'all', flagged: 'flagged', snoozed: 'snoozed' };
  // Few servers know \Snoozed: the top-level folder the gateway snoozes into is known by its name.
  if (!name && path.toLowerCase() === 'snoozed') return 'snoozed';
  return name ? (known[name] ?? null) : null;
}

/** The materializer's statements (both engines; see store/sql.ts). */
const SQL = {
  folders: `SELECT ${FOLDER_COLUMNS} FROM folders WHERE account_id = ? ORDER BY id`,
  foldersIn: (count: number) => `SELECT ${FOLDER_COLUMNS} FROM folders WHERE account_id = ? AND id IN (${placeholders(count)})`,
  paths: 'SELECT id, path FROM folders WHERE account_id = ?',
  // SUM of a BIGINT is a NUMERIC on PostgreSQL (a string through pg): cast back to a number.
  countsIn: (count: number) => `SELECT folder_id AS "folderId", COUNT(*) AS total, CAST(COALESCE(SUM(unseen), 0) AS BIGINT) AS unread
    FROM messages WHERE folder_id IN (${placeholders(count)}) GROUP BY folder_id`,
  message: `SELECT ${MESSAGE_COLUMNS} FROM messages WHERE account_id = ? AND id = ?`,
  messagesIn: (count: number) => `SELECT ${MESSAGE_COLUMNS} FROM messages WHERE account_id = ? AND id IN (${placeholders(count)})`,
  threadsMessagesIn: (count: number) => `SELECT ${MESSAGE_COLUMNS} FROM messages WHERE account_id = ? AND thread_id IN (${placeholders(count)})`,
} as const;

/**
 * Summaries of the account's threads among `threadIds`, by id; a thread with no message
 * left has none (a delta reports it deleted). Emptied threads keep their row, and merged
 * ones lose theirs only after their messages moved, so the messages alone tell.
 */
export async function threadSummaries(store: SqlExecutor, accountId: number, threadIds: readonly number[]): Promise<Map<number, ThreadSummary>> {
  const byThread = new Map<number, MessageRow[]>();
  for (const row of await inChunks(threadIds, (chunk) => store.all<MessageRow>(SQL.threadsMessagesIn(chunk.length), [accountId, ...chunk]))) {
    const list = byThread.get(row.thread_id);
    if (list) list.push(row);
    else byThread.set(row.thread_id, [row]);
  }
  const summaries = new Map<number, ThreadSummary>();
  // A fired snooze, reminder or follow-up (timers/timer-service.ts) puts the thread on top of its lists, marked.
  const marks = byThread.size > 0 ? await new TimerStore(store).raisedMarks(accountId, [...byThread.keys()]) : new Map<number, RaisedMark>();
  for (const [threadId, rows] of byThread) {
    const summary = toThreadSummary(threadId, rows);
    if (summary) summaries.set(threadId, withRaisedMark(summary, marks.get(threadId)));
  }
  return summaries;
}

/**
 * Reads mirror objects in their current state, always scoped to the account: one at a time
 * for routes, or many by ids in a few queries (a delta page names thousands). Null, or an id
 * missing from a result, means the object no longer exists (a delta then reports a delete).
 */
export class Materializer {
  constructor(private readonly store: SqlExecutor) {}

  async folder(accountId: number, folderId: number): Promise<Folder | null> {
    return (await this.foldersById(accountId, [folderId])).get(folderId) ?? null;
  }

  /** Every folder of the account, by id. */
  async folders(accountId: number): Promise<Folder[]> {
    return [...(await this.withCounts(accountId, await this.store.all<FolderRow>(SQL.folders, [accountId]))).values()];
  }

  async foldersById(accountId: number, folderIds: readonly number[]): Promise<Map<number, Folder>> {
    const rows = await inChunks(folderIds, (chunk) => this.store.all<FolderRow>(SQL.foldersIn(chunk.length), [accountId, ...chunk]));
    return this.withCounts(accountId, rows);
  }

  async message(accountId: number, messageId: number): Promise<MessageMeta | null> {
    const row = await this.messageRow(accountId, messageId);
    return row ? toMessageMeta(row) : null;
  }

  async messagesById(accountId: number, messageIds: readonly number[]): Promise<Map<number, MessageMeta>> {
    const rows = await inChunks(messageIds, (chunk) => this.store.all<MessageRow>(SQL.messagesIn(chunk.length), [accountId, ...chunk]));
    return new Map(rows.map((row) => [row.id, toMessageMeta(row)]));
  }

  /** The raw row (UID, folder, stored attachments) for routes that go back to IMAP. */
  messageRow(accountId: number, messageId: number): Promise<MessageRow | undefined> {
    return this.store.get<MessageRow>(SQL.message, [accountId, messageId]);
  }

  async thread(accountId: number, threadId: number): Promise<ThreadSummary | null> {
    return (await threadSummaries(this.store, accountId, [threadId])).get(threadId) ?? null;
  }

  threadsById(accountId: number, threadIds: readonly number[]): Promise<Map<number, ThreadSummary>> {
    return threadSummaries(this.store, accountId, threadIds);
  }

  /** The folders with their counts and parents, in the order of `rows`. */
  private async withCounts(accountId: number, rows: readonly FolderRow[]): Promise<Map<number, Folder>> {
    const folders = new Map<number, Folder>();
    if (rows.length === 0) return folders;
    const counts = await inChunks(
      rows.map((row) => row.id),
      (chunk) => this.store.all<{ folderId: number; total: number; unread: number }>(SQL.countsIn(chunk.length), chunk),
    );
    const countOf = new Map(counts.map((count) => [count.folderId, count]));
    const idOfPath = rows.some((row) => row.parent_path) ? new Map((await this.store.all<{ id: number; path: string }>(SQL.paths, [accountId])).map((row) => [row.path, row.id])) : new Map<string, number>();
    for (const row of rows) {
      const parentId = row.parent_path ? (idOfPath.get(row.parent_path) ?? null) : null;
      folders.set(row.id, toFolder(row, countOf.get(row.id) ?? { total: 0, unread: 0 }, parentId));
    }
    return folders;
  }
}
