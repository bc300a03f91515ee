/**
 * A conversation summarised from its messages, by the gateway's own rules
 * (src-server/mirror/materialize.ts `toThreadSummary`): the engine needs the same numbers
 * when it shows a thread with local changes on top, or the row would jump when the
 * gateway's version arrives. One exception: `hasAttachments` is the paperclip rule, which
 * mail-store/mail-writer.ts also lays over the gateway's own summaries.
 */
import { anyShowsPaperclip } from '../../shared/attachment-rules';
import type { Address, MessageMeta, ThreadSummary } from '../../shared/api/mail';
import { draftRecipients, draftToField } from '../../shared/draft-recipients';
import { threadKeywordsField } from '../../shared/labels';

/** Null when no message is left (the thread leaves every list). */
export function summarizeThread(threadId: string, messages: readonly MessageMeta[]): ThreadSummary | null {
  if (messages.length === 0) return null;
  const ordered = [...messages].sort((a, b) => a.date - b.date || Number(a.id) - Number(b.id) || (a.id < b.id ? -1 : 1));
  const participants = new Map<string, Address>();
  for (const message of ordered) {
    for (const sender of message.from) {
      const key = sender.email.toLowerCase();
      if (!participants.has(key)) participants.set(key, sender);
    }
  }
  const first = ordered[0]!;
  const latest = ordered[ordered.length - 1]!;
  return {
    id: threadId,
    subject: first.subject,
    participants: [...participants.values()],
    snippet: latest.snippet,
    lastMessageAt: Math.max(...ordered.map((message) => message.receivedAt)),
    messageCount: ordered.length,
    unreadCount: ordered.filter((message) => message.unread).length,
    starred: ordered.some((message) => message.starred),
    // The paperclip rule (spec §5), not "any attachment": a signature logo is no attachment.
    hasAttachments: ordered.some((message) => anyShowsPaperclip(message.attachments)),
    folderIds: [...new Set(ordered.map((message) => message.folderId))].sort((a, b) => Number(a) - Number(b)),
    messageIds: ordered.map((message) => message.id),
    ...draftToField(draftRecipients(ordered)),
    ...threadKeywordsField(ordered),
  };
}

/** A thread that shows nowhere: every message of it is gone locally. */
export function emptiedThread(server: ThreadSummary): ThreadSummary {
  const { keywords: _keywords, ...rest } = server;
  return { ...rest, messageCount: 0, unreadCount: 0, starred: false, folderIds: [], messageIds: [] };
}
