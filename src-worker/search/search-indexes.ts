/**
 * The search indexes of the accounts (search-index.ts), kept in the worker's memory: built
 * from the Message table the first time an account is searched (or warmed once its first
 * sync is done), then kept current from the change feed — after each committed change the
 * messages of the threads it names are read again. The index is never written to
 * IndexedDB: rebuilding it costs one read of the table, and a second copy of every word
 * would double the disk use and the cost of every delta page. (The spec's SearchThread
 * table holds the gateway's search results, not an index.)
 */
import { systemClock, type Clock } from '../../shared/clock';
import type { Folder } from '../../shared/api/mail';
import type { MailTable } from '../db/mail-schema';
import { only, withRead, type KeyRange, type LocalStore, type StoredRow } from '../db/store';
import type { ChangeFeed, MailChange, MessageRowChanges } from '../mail-store/change-feed';
import { folderFromRow, messageFromRow } from '../mail-store/mail-rows';
import { readCachedLabels } from '../mail-store/settings-rows';
import type { Label } from '../../shared/labels';
import { labelNameKey } from '../../shared/search-syntax';
import { SearchIndex, type SearchHits, type SenderStat } from './search-index';
import { isEmptySearch, searchFolderIds, type ParsedSearch } from './search-query';

/** Messages read per transaction while building: bounded so tabs' reads get their turn. */
const BUILD_BATCH = 2000;
/**
 * Rows handed over by delta pages wait this long for more before they are indexed: a
 * backfill's pages come one after another, and indexing them as they come would take the
 * CPU the sync needs. A search indexes what waits first, so it never answers stale.
 */
export const INDEX_DELAY_MS = 1000;
/** …unless this many rows wait (memory). */
const MAX_WAITING_ROWS = 20_000;

export interface SearchIndexesDeps {
  /** An account's database (AccountNotFound for an account that is not stored). */
  readonly open: (accountId: string) => Promise<LocalStore<MailTable>>;
  readonly changes: ChangeFeed;
  readonly onError?: (error: unknown) => void;
  readonly clock?: Clock;
}

interface AccountIndex {
  readonly index: SearchIndex;
  /** The build, then every update, in order: a search waits for the work queued before it. */
  work: Promise<void>;
  folders: Folder[] | null;
  /** Committed rows not indexed yet, oldest first (see INDEX_DELAY_MS). */
  readonly waiting: MessageRowChanges[];
  waitingRows: number;
  timer: unknown;
}

const NO_HITS: SearchHits = { threads: [], matchedMessages: 0, truncated: false };

export class SearchIndexes {
  private readonly accounts = new Map<string, AccountIndex>();

  constructor(private readonly deps: SearchIndexesDeps) {
    deps.changes.subscribe((change) => this.changed(change));
  }

  /** Matching threads of one account, newest first (at most MATCH_LIMIT messages match). */
  async search(params: { accountId: string; query: ParsedSearch }): Promise<SearchHits> {
    const { accountId, query } = params;
    const store = await this.deps.open(accountId); // AccountNotFound before any work
    if (isEmptySearch(query)) return NO_HITS;
    const { entry } = await this.ready(accountId);
    const keywords = query.labels.length > 0 ? labelKeywords(query.labels, (await withRead(store, ['FeatureSettings'], readCachedLabels)).labels) : [];
    // A label this account does not have: none of its mail has it (another account's may).
    if (keywords === null) return NO_HITS;
    return entry.index.search(query, { folderIds: searchFolderIds(entry.folders!, query), keywords });
  }

  /** An account's senders with the most mail (Manage senders; at most `limit`): counted over every folder but Trash, Spam, Sent and Drafts. */
  async senders(accountId: string, limit?: number): Promise<SenderStat[]> {
    const { entry, folders } = await this.ready(accountId);
    return entry.index.senderStats(senderFolderIds(folders), limit);
  }

  /** The threads with mail from `email` in those folders, newest first (a sender's bulk actions). */
  async senderThreads(accountId: string, email: string): Promise<SearchHits['threads']> {
    const { entry, folders } = await this.ready(accountId);
    return entry.index.senderThreads(email, senderFolderIds(folders));
  }

  /** The account's index with every committed row in it (its build failed or was dropped meanwhile: one more try), and its folders. */
  private async ready(accountId: string): Promise<{ entry: AccountIndex; folders: Folder[] }> {
    const store = await this.deps.open(accountId);
    let entry = this.entry(accountId);
    this.indexWaiting(accountId, entry);
    await entry.work;
    if (this.accounts.get(accountId) !== entry) {
      entry = this.entry(accountId);
      await entry.work;
    }
    entry.folders ??= await withRead(store, ['Category'], async (tx) => (await tx.getAll('Category')).map(folderFromRow));
    return { entry, folders: entry.folders };
  }

  /** Builds an account's index ahead of its first search (after its first sync). */
  warm(accountId: string): Promise<void> {
    return this.entry(accountId).work;
  }

  /** Forgets an account's index (logout). */
  drop(accountId: string): void {
    this.forget(accountId);
  }

  /** Messages indexed for an account (null: no index yet); rows still waiting are not. */
  size(accountId: string): number | null {
    return this.accounts.get(accountId)?.index.size ?? null;
  }

  private entry(accountId: string): AccountIndex {
    const existing = this.accounts.get(accountId);
    if (existing) return existing;
    const entry: AccountIndex = { index: new SearchIndex(), work: Promise.resolve(), folders: null, waiting: [], waitingRows: 0, timer: null };
    this.accounts.set(accountId, entry);
    this.enqueue(accountId, entry, () => this.build(accountId, entry));
    return entry;
  }

  private enqueue(accountId: string, entry: AccountIndex, job: () => Promise<void>): void {
    entry.work = entry.work.then(job).catch((error: unknown) => {
      // A half-built or stale index must not answer: the next search builds a new one.
      if (this.accounts.get(accountId) === entry) this.forget(accountId);
      this.deps.onError?.(error);
    });
  }

  private forget(accountId: string): void {
    const entry = this.accounts.get(accountId);
    if (entry) stopTimer(entry, this.clock);
    this.accounts.delete(accountId);
  }

  private get clock(): Clock {
    return this.deps.clock ?? systemClock;
  }

  /** Committed rows wait a little (INDEX_DELAY_MS) for the next page's. */
  private wait(accountId: string, entry: AccountIndex, rows: MessageRowChanges): void {
    entry.waiting.push(rows);
    entry.waitingRows += rows.put.length + rows.removed.length;
    if (entry.waitingRows >= MAX_WAITING_ROWS) {
      this.indexWaiting(accountId, entry);
      return;
    }
    stopTimer(entry, this.clock);
    entry.timer = this.clock.setTimeout(() => {
      entry.timer = null;
      this.indexWaiting(accountId, entry);
    }, INDEX_DELAY_MS);
  }

  /** Queues the waiting rows for indexing, in commit order, before any later work. */
  private indexWaiting(accountId: string, entry: AccountIndex): void {
    stopTimer(entry, this.clock);
    if (entry.waiting.length === 0) return;
    const batches = entry.waiting.splice(0);
    entry.waitingRows = 0;
    this.enqueue(accountId, entry, async () => {
      for (const rows of batches) entry.index.apply(rows);
    });
  }

  private async build(accountId: string, entry: AccountIndex): Promise<void> {
    const store = await this.deps.open(accountId);
    entry.index.beginBulk();
    let after: string | null = null;
    for (;;) {
      const range: KeyRange | undefined = after === null ? undefined : { lower: after, lowerOpen: true };
      const rows: StoredRow[] = await withRead(store, ['Message'], (tx) => tx.getAll('Message', { ...(range ? { range } : {}), limit: BUILD_BATCH }));
      for (const row of rows) {
        const { meta, deleted } = messageFromRow(row);
        entry.index.put(meta, deleted);
      }
      if (rows.length < BUILD_BATCH) break;
      after = rows[rows.length - 1]!.id;
    }
    entry.index.endBulk();
  }

  /** After a commit: the named threads' messages are read again; a cache clear starts over. */
  private changed(change: MailChange): void {
    const entry = this.accounts.get(change.accountId);
    if (!entry) return; // built from the table when first searched
    if (change.everything) {
      // A cache clear or a new session: built again from the table (the runtime warms it after its first sync).
      this.forget(change.accountId);
      return;
    }
    if (change.foldersChanged) entry.folders = null;
    const { messages } = change;
    if (messages) {
      // The rows as committed: nothing to read back (a backfill page holds a thousand).
      this.wait(change.accountId, entry, messages);
      return;
    }
    if (change.threadIds.length === 0) return;
    this.indexWaiting(change.accountId, entry); // what committed before this change comes first
    const threadIds = [...new Set(change.threadIds)];
    this.enqueue(change.accountId, entry, async () => {
      const store = await this.deps.open(change.accountId);
      const threads = await withRead(store, ['Message'], (tx) =>
        Promise.all(threadIds.map(async (threadId) => ({ threadId, rows: await tx.getAll('Message', { index: 'thread_id', range: only(threadId) }) }))),
      );
      for (const { threadId, rows } of threads) entry.index.replaceThread(threadId, rows.map(messageFromRow));
    });
  }
}

/**
 * The keywords `label:` names stand for in one account's label table (names compared case
 * aside, shared/search-syntax.ts); null when a wanted label is not among them. A `-label:`
 * this account lacks leaves nothing out.
 */
export function labelKeywords(wanted: ParsedSearch['labels'], labels: readonly Label[]): { keyword: string; negated: boolean }[] | null {
  const table = new Map(labels.map((label) => [labelNameKey(label.name), label.keyword]));
  const keywords: { keyword: string; negated: boolean }[] = [];
  for (const { name, negated } of wanted) {
    const keyword = table.get(labelNameKey(name));
    if (keyword !== undefined) keywords.push({ keyword, negated });
    else if (!negated) return null;
  }
  return keywords;
}

/** Where a sender's mail counts: what search looks in (all but Trash and Spam), less Sent and Drafts (mail from oneself). */
function senderFolderIds(folders: readonly Folder[]): Set<string> {
  const ids = searchFolderIds(folders, { folders: [], notFolders: [] });
  for (const folder of folders) if (folder.specialUse === 'sent' || folder.specialUse === 'drafts') ids.delete(folder.id);
  return ids;
}

function stopTimer(entry: AccountIndex, clock: Clock): void {
  if (entry.timer === null) return;
  clock.clearTimeout(entry.timer);
  entry.timer = null;
}
