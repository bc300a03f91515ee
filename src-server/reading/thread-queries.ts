import type { MessageMeta, ThreadSummary } from '../../shared/api/mail';
import type { ThreadCountResponse, ThreadDetailResponse, ThreadListResponse } from '../../shared/api/reading';
import { TernError } from '../../shared/errors';
import { threadSummaries, toMessageMeta, toThreadSummary } from '../mirror/materialize';
import { MESSAGE_COLUMNS, type MessageRow } from '../mirror/mirror-rows';
import type { SqlExecutor } from '../store/sql';
import { IN_LIST_CHUNK, placeholders } from '../store/sql-lists';

export interface ThreadPageParams {
  readonly accountId: number;
  readonly folderId: number;
  /** Epoch ms; only threads whose last message in the folder is older. */
  readonly before: number | undefined;
  readonly limit: number;
}

/** Oldest first, as a conversation reads (the order toThreadSummary uses too). */
const byDate = (a: MessageRow, b: MessageRow) => a.date - b.date || a.id - b.id;

/** Messages per query of a folder's newest-first walk: a page of threads takes one or two. */
const SCAN_CHUNK = 100;

const SQL = {
  folder: 'SELECT id FROM folders WHERE account_id = ? AND id = ?',
  // Walks the (folder_id, received_at) index newest first, a chunk at a time; the next chunk
  // starts after the last row (ties at one time are ordered by id, so none is read twice).
  scanFirst: `SELECT id, thread_id AS "threadId", received_at AS "at" FROM messages
    WHERE folder_id = ? AND received_at < ? ORDER BY received_at DESC, id DESC LIMIT ?`,
  scanNext: `SELECT id, thread_id AS "threadId", received_at AS "at" FROM messages
    WHERE folder_id = ? AND received_at <= ? AND (received_at < ? OR id < ?) ORDER BY received_at DESC, id DESC LIMIT ?`,
  count: `SELECT COUNT(DISTINCT thread_id) AS total, COUNT(DISTINCT CASE WHEN unseen = 1 THEN thread_id END) AS unread
    FROM messages WHERE folder_id = ?`,
  threadMessages: `SELECT ${MESSAGE_COLUMNS} FROM messages WHERE account_id = ? AND thread_id = ?`,
  /** Those of `count` threads with a message in the folder at or after a time. */
  newerInFolder: (count: number) => `SELECT DISTINCT thread_id AS "threadId" FROM messages WHERE folder_id = ? AND received_at >= ? AND thread_id IN (${placeholders(count)})`,
} as const;

type ScanRow = { id: number; threadId: number; at: number };

/**
 * Thread reads for lists and the reading pane, straight from the mirror. A thread is a
 * conversation across folders: a folder's list shows the threads with a message in it,
 * ordered by their newest message *in that folder*, and each summary covers the whole
 * conversation (its reply in Sent included).
 */
export class ThreadQueries {
  constructor(private readonly store: SqlExecutor) {}

  /** Throws FolderNotFound unless the folder is the account's. */
  async assertFolder(accountId: number, folderId: number): Promise<void> {
    if (!(await this.store.get(SQL.folder, [accountId, folderId]))) throw new TernError('FolderNotFound', { detail: { folderId: String(folderId) } });
  }

  /**
   * One page of a folder's thread list. Paging is by time only, so that a client can
   * resume from any `before`; to keep that gapless, a page never ends between two threads
   * with the same time (it takes them all, so it may exceed `limit` a little). A thread
   * whose newest message in the folder is at or after `before` was on an earlier page.
   */
  async page({ accountId, folderId, before = Number.MAX_SAFE_INTEGER, limit }: ThreadPageParams): Promise<ThreadListResponse> {
    await this.assertFolder(accountId, folderId);
    const picked: { threadId: number; at: number }[] = [];
    const seen = new Set<number>();
    let hasMore = false;
    let last: ScanRow | undefined;
    scan: for (;;) {
      const rows = last
        ? await this.store.all<ScanRow>(SQL.scanNext, [folderId, last.at, last.at, last.id, SCAN_CHUNK])
        : await this.store.all<ScanRow>(SQL.scanFirst, [folderId, before, SCAN_CHUNK]);
      const fresh: ScanRow[] = []; // each thread at its newest message in the folder below `before`
      for (const row of rows) {
        if (seen.has(row.threadId)) continue;
        seen.add(row.threadId);
        fresh.push(row);
      }
      const shownEarlier = await this.newerInFolder(folderId, before, fresh.map((row) => row.threadId));
      for (const row of fresh) {
        if (shownEarlier.has(row.threadId)) continue;
        const boundary = picked.length >= limit ? picked[picked.length - 1]!.at : null;
        if (boundary !== null && row.at < boundary) {
          hasMore = true;
          break scan;
        }
        picked.push(row);
      }
      if (rows.length < SCAN_CHUNK) break;
      last = rows[rows.length - 1];
    }
    const summaries = new Map((await this.summaries(accountId, picked.map((entry) => entry.threadId))).map((thread) => [Number(thread.id), thread]));
    const ordered = [...picked].sort((a, b) => b.at - a.at || b.threadId - a.threadId);
    return {
      threads: ordered.map((entry) => summaries.get(entry.threadId)).filter((thread): thread is ThreadSummary => thread !== undefined),
      nextBefore: hasMore ? picked[picked.length - 1]!.at : null,
    };
  }

  /** Threads with a message in the folder, and those of them with an unread message there. */
  async count(accountId: number, folderId: number): Promise<ThreadCountResponse> {
    await this.assertFolder(accountId, folderId);
    return (await this.store.get<ThreadCountResponse>(SQL.count, [folderId]))!;
  }

  /** The thread and its messages oldest first; ThreadNotFound when it has none (left). */
  async detail(accountId: number, threadId: number): Promise<ThreadDetailResponse> {
    const rows = (await this.store.all<MessageRow>(SQL.threadMessages, [accountId, threadId])).sort(byDate);
    const thread = toThreadSummary(threadId, rows);
    if (!thread) throw new TernError('ThreadNotFound', { detail: { threadId: String(threadId) } });
    const messages: MessageMeta[] = rows.map(toMessageMeta);
    return { thread, messages };
  }

  /** Summaries of several threads (empty threads left out), in no particular order. */
  async summaries(accountId: number, threadIds: readonly number[]): Promise<ThreadSummary[]> {
    return [...(await threadSummaries(this.store, accountId, threadIds)).values()];
  }

  /** Which of the threads have a message in the folder at or after `at` (they were on an earlier page). */
  private async newerInFolder(folderId: number, at: number, threadIds: readonly number[]): Promise<Set<number>> {
    const found = new Set<number>();
    // Nothing is at or after the first page's `before`.
    if (at === Number.MAX_SAFE_INTEGER) return found;
    for (let start = 0; start < threadIds.length; start += IN_LIST_CHUNK) {
      const ids = threadIds.slice(start, start + IN_LIST_CHUNK);
      for (const row of await this.store.all<{ threadId: number }>(SQL.newerInFolder(ids.length), [folderId, at, ...ids])) found.add(row.threadId);
    }
    return found;
  }
}
