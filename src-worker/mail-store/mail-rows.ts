/**
 * The gateway's wire shapes (MessageMeta, ThreadSummary, Folder) as rows of the account
 * database, through the local models (model/mail-models.ts) so the indexed columns are
 * exactly the schema's. What the models do not hold yet (reply-to, attachments, size, the
 * overlay bookkeeping) rides along as extra columns of the same row: one read per object.
 */
import type { Unsubscribe } from '../../shared/unsubscribe';
import type { Address, AttachmentSummary, Folder, MessageMeta, SpecialUse, ThreadSummary } from '../../shared/api/mail';
import type { RaisedMark } from '../../shared/api/timers';
import { draftToField } from '../../shared/draft-recipients';
import type { StoredRow } from '../db/store';
import { MessageModel, ThreadModel } from '../model/mail-models';

/**
 * A row shown with local changes on top. `server_state` keeps what the gateway last said,
 * so a failed command can be put back and a confirmed one can give way to the server.
 */
export interface LocalMessage {
  /** What the user sees: the server's state with pending commands applied. */
  readonly meta: MessageMeta;
  /** Removed by a pending "delete forever"; hidden everywhere until the server confirms. */
  readonly deleted: boolean;
  /** The server's state while a command is pending, else null (then `meta` is it). */
  readonly server: MessageMeta | null;
}

export interface LocalThread {
  readonly summary: ThreadSummary;
  readonly server: ThreadSummary | null;
}

const flagsOf = (meta: MessageMeta) =>
  [meta.unread && 'unread', meta.starred && 'starred', meta.answered && 'answered', meta.draft && 'draft'].filter((flag): flag is 'unread' | 'starred' | 'answered' | 'draft' => Boolean(flag));

export function messageToRow(accountId: string, local: LocalMessage): StoredRow {
  const { meta } = local;
  const value = MessageModel.create({
    accountId,
    serverId: meta.id,
    threadId: meta.threadId,
    folderId: meta.folderId,
    messageIdHeader: meta.messageIdHeader,
    subject: meta.subject,
    from: meta.from,
    to: meta.to,
    cc: meta.cc,
    date: new Date(meta.date),
    receivedAt: new Date(meta.receivedAt),
    flags: flagsOf(meta),
    emailLabels: meta.keywords,
    draftServerId: null,
    snippet: meta.snippet,
    pluginData: null,
    needSync: local.server !== null,
  });
  // toRow's object is new: the extra columns go straight onto it (no copy per row).
  const row = MessageModel.toRow(value) as Record<string, unknown>;
  row.reply_to = meta.replyTo;
  row.attachments = meta.attachments;
  row.size = meta.size;
  if (meta.unsubscribe) row.unsubscribe = meta.unsubscribe;
  if (meta.bulk) row.bulk = true;
  row.local_deleted = local.deleted ? 1 : 0;
  row.server_state = local.server;
  return row as StoredRow;
}

export function messageFromRow(row: StoredRow): LocalMessage {
  const value = MessageModel.fromRow(row);
  const flags = new Set(value.flags);
  const meta: MessageMeta = {
    id: value.id,
    threadId: value.threadId ?? '',
    folderId: value.folderId ?? '',
    messageIdHeader: value.messageIdHeader,
    subject: value.subject ?? '',
    from: [...value.from],
    to: [...value.to],
    cc: [...value.cc],
    replyTo: (row.reply_to as MessageMeta['replyTo'] | undefined) ?? [],
    date: value.date?.getTime() ?? 0,
    receivedAt: value.receivedAt?.getTime() ?? 0,
    unread: flags.has('unread'),
    starred: flags.has('starred'),
    answered: flags.has('answered'),
    draft: flags.has('draft'),
    keywords: [...value.emailLabels],
    size: typeof row.size === 'number' ? row.size : 0,
    attachments: (row.attachments as AttachmentSummary[] | undefined) ?? [],
    snippet: value.snippet ?? '',
    ...(row.unsubscribe ? { unsubscribe: row.unsubscribe as Unsubscribe } : {}),
    ...(row.bulk === true ? { bulk: true as const } : {}),
  };
  return { meta, deleted: row.local_deleted === 1, server: (row.server_state as MessageMeta | null | undefined) ?? null };
}

export function threadToRow(accountId: string, local: LocalThread): StoredRow {
  const { summary } = local;
  const value = ThreadModel.create({
    accountId,
    serverId: summary.id,
    subject: summary.subject,
    snippet: summary.snippet,
    participants: summary.participants,
    lastMessageReceivedAt: new Date(summary.lastMessageAt),
    messageCount: summary.messageCount,
    unreadCount: summary.unreadCount,
    starred: summary.starred,
    hasAttachments: summary.hasAttachments,
    folderIds: summary.folderIds,
    labelIds: [],
    // Indexed (email_label_timestamps): a label's list reads keys only, as a folder's does.
    emailLabels: summary.keywords ?? [],
    messageIds: summary.messageIds,
    needSync: local.server !== null,
  });
  const row = ThreadModel.toRow(value) as Record<string, unknown>;
  row.server_state = local.server;
  // Beside the model's columns, as server_state is: only a thread of drafts has it.
  if (summary.draftTo) row.draft_to = summary.draftTo;
  // A fired snooze, reminder or follow-up's mark (its time is already in lastMessageAt).
  if (summary.raised) row.raised = summary.raised;
  return row as StoredRow;
}

export function threadFromRow(row: StoredRow): LocalThread {
  const value = ThreadModel.fromRow(row);
  const summary: ThreadSummary = {
    id: value.id,
    subject: value.subject ?? '',
    participants: [...value.participants],
    snippet: value.snippet ?? '',
    lastMessageAt: value.lastMessageReceivedAt?.getTime() ?? 0,
    messageCount: value.messageCount ?? 0,
    unreadCount: value.unreadCount ?? 0,
    starred: value.starred,
    hasAttachments: value.hasAttachments,
    folderIds: [...value.folderIds],
    messageIds: [...value.messageIds],
    ...draftToField(row.draft_to as Address[] | undefined),
    ...(value.emailLabels.length > 0 ? { keywords: [...value.emailLabels] } : {}),
    ...(row.raised ? { raised: row.raised as RaisedMark } : {}),
  };
  return { summary, server: (row.server_state as ThreadSummary | null | undefined) ?? null };
}

/** Folders live in the Category table (spec §3), keyed by the gateway's folder id. */
export function folderToRow(accountId: string, folder: Folder): StoredRow {
  return {
    id: folder.id,
    client_id: folder.id,
    server_id: folder.id,
    object: 'folder',
    account_id: accountId,
    path: folder.path,
    name: folder.name,
    parent_id: folder.parentId,
    special_use: folder.specialUse,
    total: folder.total,
    unread: folder.unread,
    ...(folder.mirrored === undefined ? {} : { mirrored: folder.mirrored }),
  };
}

export function folderFromRow(row: StoredRow): Folder {
  return {
    id: row.id,
    path: String(row.path ?? ''),
    name: String(row.name ?? ''),
    parentId: typeof row.parent_id === 'string' ? row.parent_id : null,
    specialUse: (row.special_use as SpecialUse | null | undefined) ?? null,
    total: typeof row.total === 'number' ? row.total : 0,
    unread: typeof row.unread === 'number' ? row.unread : 0,
    ...(typeof row.mirrored === 'boolean' ? { mirrored: row.mirrored } : {}),
  };
}
