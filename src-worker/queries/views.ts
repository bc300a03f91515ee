/**
 * Local rows → the shapes tabs receive (shared/worker-mail-api.ts). Rows are trimmed here:
 * a window of 200 rows must stay well under the ~100 KB a message across the boundary may
 * weigh on an interaction path.
 */
import type { Folder, MessageMeta } from '../../shared/api/mail';
import type { FolderView, MessageView, ThreadRow } from '../../shared/worker-mail-api';
import type { LocalThread } from '../mail-store/mail-rows';

const SNIPPET_CHARS = 160;
const SUBJECT_CHARS = 200;
/** A row names the last few senders (the UI shows the last three and an avatar). */
const ROW_PARTICIPANTS = 4;
/** What one message to a tab may weigh on an interaction path (DESIGN: ~100 KB). */
export const MESSAGE_BUDGET_CHARS = 96 * 1024;

const shortAddress = (address: { name: string; email: string }) => ({ name: address.name.slice(0, 64), email: address.email.slice(0, 128) });

export const rowKey = (accountId: string, threadId: string) => `${accountId}:${threadId}`;

/** Splits a row key; account ids never hold ':' (they are the gateway's numeric mailIds). */
export function parseRowKey(key: string): { accountId: string; threadId: string } {
  const at = key.indexOf(':');
  return { accountId: key.slice(0, at), threadId: key.slice(at + 1) };
}

export function toThreadRow(accountId: string, local: LocalThread): ThreadRow {
  const { summary } = local;
  return {
    key: rowKey(accountId, summary.id),
    accountId,
    threadId: summary.id,
    subject: summary.subject.slice(0, SUBJECT_CHARS),
    participants: summary.participants.slice(-ROW_PARTICIPANTS).map(shortAddress),
    snippet: summary.snippet.slice(0, SNIPPET_CHARS),
    lastMessageAt: summary.lastMessageAt,
    messageCount: summary.messageCount,
    unreadCount: summary.unreadCount,
    starred: summary.starred,
    hasAttachments: summary.hasAttachments,
    folderIds: summary.folderIds,
    pending: local.server !== null,
    ...(summary.draftTo ? { draftTo: summary.draftTo.slice(0, ROW_PARTICIPANTS).map(shortAddress) } : {}),
    ...(summary.keywords ? { keywords: summary.keywords } : {}),
    ...(summary.raised ? { raised: summary.raised } : {}),
  };
}

/**
 * A window of rows that fits the message budget. Ordinary rows fit as they are; a window
 * of unusually large rows loses snippet text and extra senders first (the list still
 * reads right), then is cut to bare rows.
 */
export function fitToBudget(rows: readonly ThreadRow[]): readonly ThreadRow[] {
  const weight = (list: readonly ThreadRow[]) => JSON.stringify(list).length;
  if (weight(rows) <= MESSAGE_BUDGET_CHARS) return rows;
  const lighter = rows.map((row) => ({ ...row, snippet: row.snippet.slice(0, 60), participants: row.participants.slice(-2) }));
  if (weight(lighter) <= MESSAGE_BUDGET_CHARS) return lighter;
  return lighter.map((row) => ({ ...row, subject: row.subject.slice(0, 100), snippet: '', participants: row.participants.slice(-1).map((a) => ({ name: a.name.slice(0, 40), email: a.email.slice(0, 80) })) }));
}

/** Whether two rows would look the same in a list (what a patch leaves out). */
export function sameThreadRow(a: ThreadRow | undefined, b: ThreadRow | undefined): boolean {
  if (!a || !b) return a === b;
  return JSON.stringify(a) === JSON.stringify(b);
}

export function toMessageView(accountId: string, meta: MessageMeta): MessageView {
  return {
    id: meta.id,
    accountId,
    threadId: meta.threadId,
    folderId: meta.folderId,
    subject: meta.subject,
    from: meta.from,
    to: meta.to,
    cc: meta.cc,
    replyTo: meta.replyTo,
    date: meta.date,
    unread: meta.unread,
    starred: meta.starred,
    draft: meta.draft,
    snippet: meta.snippet,
    attachments: meta.attachments,
    messageIdHeader: meta.messageIdHeader,
  };
}

/** Sidebar order: the special folders first (inbox, drafts, sent …), then the rest by path, children under parents. */
const SPECIAL_ORDER = ['inbox', 'snoozed', 'drafts', 'sent', 'archive', 'junk', 'trash', 'flagged', 'all'];

export function orderFolders(accountId: string, folders: readonly Folder[]): FolderView[] {
  const byParent = new Map<string | null, Folder[]>();
  const ids = new Set(folders.map((folder) => folder.id));
  for (const folder of folders) {
    const parent = folder.parentId !== null && ids.has(folder.parentId) ? folder.parentId : null;
    byParent.set(parent, [...(byParent.get(parent) ?? []), folder]);
  }
  const rank = (folder: Folder) => {
    const special = folder.specialUse ? SPECIAL_ORDER.indexOf(folder.specialUse) : -1;
    return special < 0 ? SPECIAL_ORDER.length : special;
  };
  const ordered: FolderView[] = [];
  const visit = (parent: string | null, depth: number) => {
    const children = [...(byParent.get(parent) ?? [])].sort(
      (a, b) => rank(a) - rank(b) || a.name.localeCompare(b.name, undefined, { sensitivity: 'base', numeric: true }),
    );
    for (const folder of children) {
      ordered.push({ ...folder, accountId, depth });
      visit(folder.id, depth + 1);
    }
  };
  visit(null, 0);
  return ordered;
}
