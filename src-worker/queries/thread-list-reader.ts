/**
 * Reads one window of a thread list from the account databases, newest first. A folder
 * list is answered from the `category_timestamps` index alone (keys, no rows), a label's
 * from `email_label_timestamps` likewise, so a live
 * list can learn which rows moved without reading the ones that did not; a search from the
 * in-memory search index (search/), keys only too; the other scopes must read rows to
 * order them and hand those over too.
 */
import type { ThreadSummary } from '../../shared/api/mail';
import type { ListScope, ListWindow, ThreadRow } from '../../shared/worker-mail-api';
import type { MailTable } from '../db/mail-schema';
import { prefixRange, withRead, type LocalStore, type ReadTransaction } from '../db/store';
import type { SearchIndexes } from '../search/search-indexes';
import { parseSearch } from '../search/search-query';
import { folderFromRow, threadFromRow } from '../mail-store/mail-rows';
import { parseRowKey, rowKey, toThreadRow } from './views';
import { IMPORTANT_KEYWORD } from '../../shared/priority-score';

/** Opens an account's database (AccountNotFound when the account is not known). */
export type OpenStore = (accountId: string) => Promise<LocalStore<MailTable>>;

/** The gateway's search of one account (GET /api/search): its threads, newest first, and whether it was cut. */
export type ServerSearch = (accountId: string, query: string) => Promise<{ readonly threads: readonly ThreadSummary[]; readonly truncated: boolean }>;

/** Server answers kept for re-reads of a live list (a patch, a scroll): the last few queries. */
const SERVER_ANSWERS_KEPT = 8;

export interface WindowRead {
  readonly total: number;
  /** Row keys of the window, in list order. */
  readonly keys: readonly string[];
  /** Rows already read on the way (every scope but a folder's). */
  readonly rows: ReadonlyMap<string, ThreadRow>;
  /** A search reached the match limit in some account: older matches are left out. */
  readonly truncated?: boolean;
  /** A priority list: the threads of its Important section, at its top. */
  readonly important?: number;
}

const BY_FOLDER = 'category_timestamps';
/** A thread's keywords (ThreadSummary.keywords) with its time: a label's list, as a folder's. */
const BY_LABEL = 'email_label_timestamps';
/** The priority inbox's keyword as thread keywords spell it (shared/labels.ts threadKeywordsField). */
const IMPORTANT = IMPORTANT_KEYWORD;

/** The accounts a scope reads. */
export function accountsOf(scope: ListScope): readonly string[] {
  return scope.kind === 'unified' || scope.kind === 'search' || scope.kind === 'sender' ? scope.accountIds : [scope.accountId];
}

const newestFirst = (a: ThreadRow, b: ThreadRow) => b.lastMessageAt - a.lastMessageAt || (a.key < b.key ? 1 : a.key > b.key ? -1 : 0);

async function folderIdOfRole(tx: ReadTransaction<MailTable>, role: string): Promise<string | null> {
  const folders = (await tx.getAll('Category')).map(folderFromRow);
  return folders.find((folder) => folder.specialUse === role)?.id ?? null;
}

export class ThreadListReader {
  private readonly serverAnswers = new Map<string, ReturnType<ServerSearch>>();

  constructor(
    private readonly open: OpenStore,
    private readonly search: Pick<SearchIndexes, 'search' | 'senderThreads'>,
    private readonly serverSearch?: ServerSearch,
  ) {}

  async window(scope: ListScope, window: ListWindow): Promise<WindowRead> {
    if (scope.kind === 'folder' && scope.priority) return this.priorityWindow(scope.accountId, scope.folderId, window);
    if (scope.kind === 'folder') return this.indexWindow(scope.accountId, BY_FOLDER, scope.folderId, window);
    if (scope.kind === 'label') return this.indexWindow(scope.accountId, BY_LABEL, scope.label, window);
    if (scope.kind === 'search' && scope.server && this.serverSearch) return this.serverSearchWindow(scope.accountIds, scope.query, window);
    if (scope.kind === 'search') return this.searchWindow(scope.accountIds, scope.query, window);
    if (scope.kind === 'sender') return this.senderWindow(scope, window);
    if (scope.priority && scope.priority.length > 0) return this.priorityMerged(scope, window);
    const lists = await Promise.all(accountsOf(scope).map((accountId) => this.orderedRows(scope, accountId, window)));
    const total = lists.reduce((sum, list) => sum + list.total, 0);
    const merged = lists.flatMap((list) => list.rows).sort(newestFirst);
    const picked = merged.slice(window.offset, window.offset + window.limit);
    return { total, keys: picked.map((row) => row.key), rows: new Map(picked.map((row) => [row.key, row])) };
  }

  /**
   * Every thread of a scope, newest first, as thread ids per account (a command over the
   * whole list: runOnScope). Keys only where the index has them (folders, unified), so a
   * 10k folder reads no rows.
   */
  async threadIds(scope: ListScope): Promise<Map<string, string[]>> {
    const byAccount = new Map<string, string[]>();
    const add = (accountId: string, threadId: string) => {
      const ids = byAccount.get(accountId);
      if (ids) ids.push(threadId);
      else byAccount.set(accountId, [threadId]);
    };
    if (scope.kind === 'search' || scope.kind === 'label' || scope.kind === 'sender') {
      // A search is read whole to order it anyway; a label's list is keys only.
      const { keys } = await this.window(scope, { offset: 0, limit: Number.MAX_SAFE_INTEGER });
      for (const key of keys) {
        const { accountId, threadId } = parseRowKey(key);
        add(accountId, threadId);
      }
      return byAccount;
    }
    for (const accountId of accountsOf(scope)) {
      const ids = await withRead(await this.open(accountId), ['Thread', 'Category'], async (tx) => {
        const folderId = scope.kind === 'folder' ? scope.folderId : await folderIdOfRole(tx, scope.role);
        if (folderId === null) return [];
        return tx.getAllKeys('Thread', { index: BY_FOLDER, range: prefixRange([folderId]), direction: 'prev' });
      });
      for (const id of ids) add(accountId, id);
    }
    return byAccount;
  }

  /**
   * Whether the gateway has read the scope's folders from the mail server (Folder.mirrored;
   * absent, from an older gateway: yes). Searches and labels span folders: yes.
   */
  async foldersMirrored(scope: ListScope): Promise<boolean> {
    if (scope.kind !== 'folder' && scope.kind !== 'unified') return true;
    for (const accountId of accountsOf(scope)) {
      const mirrored = await withRead(await this.open(accountId), ['Category'], async (tx) => {
        const rows = scope.kind === 'folder' ? [await tx.get('Category', scope.folderId)] : await tx.getAll('Category');
        const folders = rows.flatMap((row) => (row ? [folderFromRow(row)] : [])).filter((folder) => scope.kind === 'folder' || folder.specialUse === scope.role);
        return folders.every((folder) => folder.mirrored !== false);
      });
      if (!mirrored) return false;
    }
    return true;
  }

  /** Rows by key, read fresh (rows missing locally are left out). */
  async rows(keys: readonly string[]): Promise<Map<string, ThreadRow>> {
    const byAccount = new Map<string, string[]>();
    for (const key of keys) {
      const { accountId, threadId } = parseRowKey(key);
      byAccount.set(accountId, [...(byAccount.get(accountId) ?? []), threadId]);
    }
    const found = new Map<string, ThreadRow>();
    for (const [accountId, threadIds] of byAccount) {
      // One batch of reads, not one wait per row: a window of a search or a folder is 64 to 150 rows.
      const rows = await withRead(await this.open(accountId), ['Thread'], async (tx) =>
        (await tx.getMany('Thread', threadIds)).flatMap((row) => (row ? [toThreadRow(accountId, threadFromRow(row))] : [])),
      );
      for (const row of rows) found.set(row.key, row);
    }
    return found;
  }

  /** A folder's or a label's list: keys of one index, newest first, no rows read. */
  private async indexWindow(accountId: string, index: typeof BY_FOLDER | typeof BY_LABEL, key: string, window: ListWindow): Promise<WindowRead> {
    return withRead(await this.open(accountId), ['Thread'], async (tx) => {
      const range = prefixRange([key]);
      const [total, ids] = await Promise.all([
        tx.count('Thread', { index, range }),
        tx.getAllKeys('Thread', { index, range, direction: 'prev', limit: window.offset + window.limit }),
      ]);
      return { total, keys: ids.slice(window.offset).map((id) => rowKey(accountId, id)), rows: new Map() };
    });
  }

  /**
   * The priority inbox (issue 17 point 4): the folder's threads with $Important first, then
   * the rest, each part newest first. The important ones come from the label index (few; their
   * rows are read, to know which are in this folder), the rest from the folder's index as keys
   * only, as a plain folder's: the window reads past at most the important ones it skips.
   */
  private async priorityWindow(accountId: string, folderId: string, window: ListWindow): Promise<WindowRead> {
    return withRead(await this.open(accountId), ['Thread'], async (tx) => {
      const folderRange = prefixRange([folderId]);
      const [total, marked] = await Promise.all([
        tx.count('Thread', { index: BY_FOLDER, range: folderRange }),
        tx.getAll('Thread', { index: BY_LABEL, range: prefixRange([IMPORTANT]), direction: 'prev' }),
      ]);
      const important = marked.map(threadFromRow).filter((thread) => thread.summary.folderIds.includes(folderId));
      const importantIds = new Set(important.map((thread) => thread.summary.id));
      const end = window.offset + window.limit;
      const rows = new Map<string, ThreadRow>();
      const keys: string[] = [];
      for (const thread of important.slice(window.offset, end)) {
        const row = toThreadRow(accountId, thread);
        keys.push(row.key);
        rows.set(row.key, row);
      }
      if (end > important.length) {
        // The rest: the folder's keys in order, the important ones left out.
        const ids = await tx.getAllKeys('Thread', { index: BY_FOLDER, range: folderRange, direction: 'prev', limit: end });
        const rest = ids.filter((id) => !importantIds.has(id));
        for (const id of rest.slice(Math.max(0, window.offset - important.length), end - important.length)) keys.push(rowKey(accountId, id));
      }
      return { total, keys, rows, important: important.length };
    });
  }

  /** Search over the cached mail of the accounts, merged by the time of each thread's newest message. */
  private async searchWindow(accountIds: readonly string[], text: string, window: ListWindow): Promise<WindowRead> {
    const query = parseSearch(text);
    const found = await Promise.all(accountIds.map(async (accountId) => ({ accountId, hits: await this.search.search({ accountId, query }) })));
    const merged = found
      .flatMap(({ accountId, hits }) => hits.threads.map((thread) => ({ key: rowKey(accountId, thread.threadId), lastAt: thread.lastAt })))
      .sort((a, b) => b.lastAt - a.lastAt || (a.key < b.key ? 1 : a.key > b.key ? -1 : 0));
    const truncated = found.some(({ hits }) => hits.truncated);
    return { total: merged.length, keys: merged.slice(window.offset, window.offset + window.limit).map((entry) => entry.key), rows: new Map(), truncated };
  }

  /** A sender's threads over the accounts, newest first; `keepLatest` leaves the newest one out. */
  private async senderWindow(scope: Extract<ListScope, { kind: 'sender' }>, window: ListWindow): Promise<WindowRead> {
    const found = await Promise.all(scope.accountIds.map(async (accountId) => ({ accountId, threads: await this.search.senderThreads(accountId, scope.email) })));
    const merged = found
      .flatMap(({ accountId, threads }) => threads.map((thread) => ({ key: rowKey(accountId, thread.threadId), lastAt: thread.lastAt })))
      .sort((a, b) => b.lastAt - a.lastAt || (a.key < b.key ? 1 : a.key > b.key ? -1 : 0))
      .slice(scope.keepLatest ? 1 : 0);
    return { total: merged.length, keys: merged.slice(window.offset, window.offset + window.limit).map((entry) => entry.key), rows: new Map() };
  }

  /**
   * The gateway's search of each account, merged newest first. Asked once per query (kept
   * for the list's re-reads); rows come from the cache where it has the thread (fresher:
   * commands since show), else from the gateway's summary.
   */
  private async serverSearchWindow(accountIds: readonly string[], query: string, window: ListWindow): Promise<WindowRead> {
    const found = await Promise.all(accountIds.map(async (accountId) => ({ accountId, answer: await this.askServer(accountId, query) })));
    const merged = found
      .flatMap(({ accountId, answer }) => answer.threads.map((summary) => toThreadRow(accountId, { summary, server: null })))
      .sort(newestFirst);
    const picked = merged.slice(window.offset, window.offset + window.limit);
    const cached = await this.rows(picked.map((row) => row.key));
    return {
      total: merged.length,
      keys: picked.map((row) => row.key),
      rows: new Map(picked.map((row) => [row.key, cached.get(row.key) ?? row])),
      truncated: found.some(({ answer }) => answer.truncated),
    };
  }

  private askServer(accountId: string, query: string): ReturnType<ServerSearch> {
    const key = `${accountId}\n${query}`;
    let answer = this.serverAnswers.get(key);
    if (!answer) {
      answer = this.serverSearch!(accountId, query);
      // A failed answer is not kept: the next read asks again.
      answer.catch(() => this.serverAnswers.delete(key));
      this.serverAnswers.set(key, answer);
      if (this.serverAnswers.size > SERVER_ANSWERS_KEPT) this.serverAnswers.delete(this.serverAnswers.keys().next().value!);
    }
    return answer;
  }

  /**
   * A merged priority inbox: each listed account's $Important threads of the folder first (all
   * accounts' merged newest first), then the rest merged as ever. Each account reads past the
   * important ones it leaves out of the rest.
   */
  private async priorityMerged(scope: Extract<ListScope, { kind: 'unified' }>, window: ListWindow): Promise<WindowRead> {
    const needed = window.offset + window.limit;
    const sectioned = new Set(scope.priority);
    const parts = await Promise.all(
      accountsOf(scope).map(async (accountId) =>
        withRead(await this.open(accountId), ['Thread', 'Category'], async (tx) => {
          const folderId = await folderIdOfRole(tx, scope.role);
          if (folderId === null) return { total: 0, important: [], rest: [] };
          const range = prefixRange([folderId]);
          const marked = sectioned.has(accountId) ? await tx.getAll('Thread', { index: BY_LABEL, range: prefixRange([IMPORTANT]), direction: 'prev' }) : [];
          const important = marked.map(threadFromRow).filter((thread) => thread.summary.folderIds.includes(folderId));
          const ids = new Set(important.map((thread) => thread.summary.id));
          const [total, rows] = await Promise.all([
            tx.count('Thread', { index: BY_FOLDER, range }),
            tx.getAll('Thread', { index: BY_FOLDER, range, direction: 'prev', limit: needed + important.length }),
          ]);
          const rest = rows.map(threadFromRow).filter((thread) => !ids.has(thread.summary.id));
          return { total, important: important.map((thread) => toThreadRow(accountId, thread)), rest: rest.slice(0, needed).map((thread) => toThreadRow(accountId, thread)) };
        }),
      ),
    );
    const important = parts.flatMap((part) => part.important).sort(newestFirst);
    const merged = [...important, ...parts.flatMap((part) => part.rest).sort(newestFirst)];
    const picked = merged.slice(window.offset, window.offset + window.limit);
    return { total: parts.reduce((sum, part) => sum + part.total, 0), keys: picked.map((row) => row.key), rows: new Map(picked.map((row) => [row.key, row])), important: important.length };
  }

  /** One account's part of a merged scope: enough newest rows to fill the window after merging. */
  private async orderedRows(scope: Extract<ListScope, { kind: 'unified' }>, accountId: string, window: ListWindow): Promise<{ total: number; rows: ThreadRow[] }> {
    const needed = window.offset + window.limit;
    return withRead(await this.open(accountId), ['Thread', 'Category'], async (tx) => {
      const folderId = await folderIdOfRole(tx, scope.role);
      if (folderId === null) return { total: 0, rows: [] };
      const range = prefixRange([folderId]);
      const [total, rows] = await Promise.all([
        tx.count('Thread', { index: BY_FOLDER, range }),
        tx.getAll('Thread', { index: BY_FOLDER, range, direction: 'prev', limit: needed }),
      ]);
      return { total, rows: rows.map((row) => toThreadRow(accountId, threadFromRow(row))) };
    });
  }
}
