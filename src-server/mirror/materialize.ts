import { anyShowsPaperclip } from '../../shared/attachment-rules';
import type { Address, AttachmentSummary, Folder, MessageMeta, SpecialUse, ThreadSummary } from '../../shared/api/mail';
import { draftRecipients, draftToField } from '../../shared/draft-recipients';
import { hasFlag } from '../imap/imap-flags';
import type { SqlExecutor } from '../store/sql';
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
  };
}

/** Special-use names as imapflow reports them (`\Sent`) → the shared enum; INBOX is always 'inbox'. */
export function specialUseOf(path: string, flag: string | undefined): SpecialUse | null {
  if (path.toUpperCase() === 'INBOX') return 'inbox';
  const name = flag?.replace(/^\\/, '').toLowerCase();
  const known: Record<string, SpecialUse> = { inbox: 'inbox', drafts: 'drafts', sent: 'sent', archive: 'archive', junk: 'junk', trash: 'trash', all: 'all', flagged: 'flagged' };
  return name ? (known[name] ?? null) : null;
}

/** The materializer's statements (both engines; see store/sql.ts). */
const SQL = {
  folder: `SELECT ${FOLDER_COLUMNS} FROM folders WHERE account_id = ? AND id = ?`,
  folders: `SELECT ${FOLDER_COLUMNS} FROM folders WHERE account_id = ? ORDER BY id`,
  parent: 'SELECT id FROM folders WHERE account_id = ? AND path = ?',
  // SUM of a BIGINT is a NUMERIC on PostgreSQL (a string through pg): cast back to a number.
  counts: 'SELECT COUNT(*) AS total, CAST(COALESCE(SUM(unseen), 0) AS BIGINT) AS unread FROM messages WHERE folder_id = ?',
  message: `SELECT ${MESSAGE_COLUMNS} FROM messages WHERE account_id = ? AND id = ?`,
  thread: 'SELECT id FROM threads WHERE account_id = ? AND id = ?',
  threadMessages: `SELECT ${MESSAGE_COLUMNS} FROM messages WHERE account_id = ? AND thread_id = ?`,
} as const;

/**
 * Reads mirror objects by id, in their current state, always scoped to the account.
 * Null means the object no longer exists (a delta then reports a delete).
 */
export class Materializer {
  constructor(private readonly store: SqlExecutor) {}

  async folder(accountId: number, folderId: number): Promise<Folder | null> {
    const row = await this.store.get<FolderRow>(SQL.folder, [accountId, folderId]);
    return row ? this.folderOf(row) : null;
  }

  async folders(accountId: number): Promise<Folder[]> {
    const rows = await this.store.all<FolderRow>(SQL.folders, [accountId]);
    const folders: Folder[] = [];
    for (const row of rows) folders.push(await this.folderOf(row));
    return folders;
  }

  async message(accountId: number, messageId: number): Promise<MessageMeta | null> {
    const row = await this.messageRow(accountId, messageId);
    return row ? toMessageMeta(row) : null;
  }

  /** The raw row (UID, folder, stored attachments) for routes that go back to IMAP. */
  messageRow(accountId: number, messageId: number): Promise<MessageRow | undefined> {
    return this.store.get<MessageRow>(SQL.message, [accountId, messageId]);
  }

  async thread(accountId: number, threadId: number): Promise<ThreadSummary | null> {
    if (!(await this.store.get(SQL.thread, [accountId, threadId]))) return null;
    return toThreadSummary(threadId, await this.store.all<MessageRow>(SQL.threadMessages, [accountId, threadId]));
  }

  private async folderOf(row: FolderRow): Promise<Folder> {
    const counts = (await this.store.get<{ total: number; unread: number }>(SQL.counts, [row.id]))!;
    const parent = row.parent_path ? await this.store.get<{ id: number }>(SQL.parent, [row.account_id, row.parent_path]) : undefined;
    return toFolder(row, counts, parent?.id ?? null);
  }
}
