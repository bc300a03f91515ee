import type { MessageMeta, ThreadSummary } from '../../shared/api/mail';
import type { ThreadCountResponse, ThreadDetailResponse, ThreadListResponse } from '../../shared/api/reading';
import { TernError } from '../../shared/errors';
import { toMessageMeta, toThreadSummary } from '../mirror/materialize';
import type { MessageRow } from '../mirror/mirror-rows';
import type { Db } from '../store/database';

export interface ThreadPageParams {
  readonly accountId: number;
  readonly folderId: number;
  /** Epoch ms; only threads whose last message in the folder is older. */
  readonly before: number | undefined;
  readonly limit: number;
}

/** Oldest first, as a conversation reads (the order toThreadSummary uses too). */
const byDate = (a: MessageRow, b: MessageRow) => a.date - b.date || a.id - b.id;

/**
 * Thread reads for lists and the reading pane, straight from the mirror. A thread is a
 * conversation across folders: a folder's list shows the threads with a message in it,
 * ordered by their newest message *in that folder*, and each summary covers the whole
 * conversation (its reply in Sent included).
 */
export class ThreadQueries {
  private readonly stmt;

  constructor(db: Db) {
    this.stmt = {
      folder: db.prepare<[number, number]>('SELECT id FROM folders WHERE account_id = ? AND id = ?'),
      // Walks the (folder_id, received_at) index newest first; the caller stops after a page.
      scan: db.prepare<[number, number]>('SELECT thread_id AS threadId, received_at AS at FROM messages WHERE folder_id = ? AND received_at < ? ORDER BY received_at DESC'),
      newerInFolder: db.prepare<[number, number, number]>('SELECT 1 FROM messages WHERE thread_id = ? AND folder_id = ? AND received_at >= ? LIMIT 1'),
      count: db.prepare<[number]>(
        `SELECT COUNT(DISTINCT thread_id) AS total, COUNT(DISTINCT CASE WHEN unseen = 1 THEN thread_id END) AS unread
         FROM messages WHERE folder_id = ?`,
      ),
      threadMessages: db.prepare<[number, number]>('SELECT * FROM messages WHERE account_id = ? AND thread_id = ?'),
      manyThreadsMessages: db.prepare<[number, string]>('SELECT * FROM messages WHERE account_id = ? AND thread_id IN (SELECT value FROM json_each(?))'),
    };
  }

  /** Throws FolderNotFound unless the folder is the account's. */
  assertFolder(accountId: number, folderId: number): void {
    if (!this.stmt.folder.get(accountId, folderId)) throw new TernError('FolderNotFound', { detail: { folderId: String(folderId) } });
  }

  /**
   * One page of a folder's thread list. Paging is by time only, so that a client can
   * resume from any `before`; to keep that gapless, a page never ends between two threads
   * with the same time (it takes them all, so it may exceed `limit` a little). A thread
   * whose newest message in the folder is at or after `before` was on an earlier page.
   */
  page({ accountId, folderId, before = Number.MAX_SAFE_INTEGER, limit }: ThreadPageParams): ThreadListResponse {
    this.assertFolder(accountId, folderId);
    const picked: { threadId: number; at: number }[] = [];
    const seen = new Set<number>();
    let hasMore = false;
    for (const row of this.stmt.scan.iterate(folderId, before) as IterableIterator<{ threadId: number; at: number }>) {
      if (seen.has(row.threadId)) continue;
      seen.add(row.threadId);
      if (this.stmt.newerInFolder.get(row.threadId, folderId, before)) continue;
      const boundary = picked.length >= limit ? picked[picked.length - 1]!.at : null;
      if (boundary !== null && row.at < boundary) {
        hasMore = true;
        break; // leaving `iterate` early closes the statement
      }
      picked.push(row);
    }
    const summaries = new Map(this.summaries(accountId, picked.map((entry) => entry.threadId)).map((thread) => [Number(thread.id), thread]));
    const ordered = [...picked].sort((a, b) => b.at - a.at || b.threadId - a.threadId);
    return {
      threads: ordered.map((entry) => summaries.get(entry.threadId)).filter((thread): thread is ThreadSummary => thread !== undefined),
      nextBefore: hasMore ? picked[picked.length - 1]!.at : null,
    };
  }

  /** Threads with a message in the folder, and those of them with an unread message there. */
  count(accountId: number, folderId: number): ThreadCountResponse {
    this.assertFolder(accountId, folderId);
    return this.stmt.count.get(folderId) as ThreadCountResponse;
  }

  /** The thread and its messages oldest first; ThreadNotFound when it has none (left). */
  detail(accountId: number, threadId: number): ThreadDetailResponse {
    const rows = (this.stmt.threadMessages.all(accountId, threadId) as MessageRow[]).sort(byDate);
    const thread = toThreadSummary(threadId, rows);
    if (!thread) throw new TernError('ThreadNotFound', { detail: { threadId: String(threadId) } });
    const messages: MessageMeta[] = rows.map(toMessageMeta);
    return { thread, messages };
  }

  /** Summaries of several threads in one query (empty threads left out), in no particular order. */
  summaries(accountId: number, threadIds: readonly number[]): ThreadSummary[] {
    if (threadIds.length === 0) return [];
    const byThread = new Map<number, MessageRow[]>();
    for (const row of this.stmt.manyThreadsMessages.all(accountId, JSON.stringify(threadIds)) as MessageRow[]) {
      const list = byThread.get(row.thread_id);
      if (list) list.push(row);
      else byThread.set(row.thread_id, [row]);
    }
    const out: ThreadSummary[] = [];
    for (const [threadId, rows] of byThread) {
      const summary = toThreadSummary(threadId, rows);
      if (summary) out.push(summary);
    }
    return out;
  }
}
