/**
 * The recipient suggestion indexes of the accounts (suggestion-index.ts), in the worker's
 * memory: built from the Contact table and the contact lists the first time an account is
 * asked (or warmed after its first sync), then kept current — the rows a delta page ranked
 * come with its change (change-feed.ts `contacts`), and the address book tells which rows it
 * changed (a card saved, pulled, merged, a suggestion removed), which are read again. Like
 * the search index it is never stored: building it costs one read of the table.
 */
import type { ContactList } from '../../shared/api/contact-lists';
import type { SuggestedAddress } from '../../shared/worker-mail-api';
import type { MailTable } from '../db/mail-schema';
import { withRead, type KeyRange, type LocalStore, type StoredRow } from '../db/store';
import type { ChangeFeed, MailChange } from '../mail-store/change-feed';
import { readContactLists } from '../mail-store/contact-cards';
import { SuggestionIndex } from './suggestion-index';
import { compareSuggestions, type SuggestionCandidate } from './suggestion-order';

/** Contact rows read per transaction while building: bounded so tabs' reads get their turn. */
const BUILD_BATCH = 5000;
/** Contact lists take at most this many of the places, the last ones (people first: Nextcloud Mail #29's order). */
const MAX_LISTS = 2;

export interface SuggestionIndexesDeps {
  readonly open: (accountId: string) => Promise<LocalStore<MailTable>>;
  readonly changes: ChangeFeed;
  readonly onError?: (error: unknown) => void;
}

/** What changed in an account's book outside delta pages: Contact rows by key (`card:<id>`, an address), and/or its lists. */
export interface BookChange {
  readonly keys?: readonly string[];
  readonly lists?: boolean;
}

interface AccountIndex {
  readonly index: SuggestionIndex;
  /** The build, then every update, in order: a lookup waits for the work queued before it. */
  work: Promise<void>;
}

export class SuggestionIndexes {
  private readonly accounts = new Map<string, AccountIndex>();

  constructor(private readonly deps: SuggestionIndexesDeps) {
    deps.changes.subscribe((change) => this.changed(change));
  }

  /** The suggestions for a typed prefix over these accounts: people best first, then up to two lists. */
  async suggest(params: { accountIds: readonly string[]; prefix: string; limit: number }): Promise<SuggestedAddress[]> {
    const needle = params.prefix.trim().toLowerCase();
    if (!needle) return [];
    const best = new Map<string, SuggestionCandidate>();
    const lists: SuggestedAddress[] = [];
    for (const accountId of params.accountIds) {
      const index = await this.ready(accountId);
      // An account's best `limit` hold every address that can make the best `limit` of all.
      for (const candidate of index.people(needle, params.limit)) {
        const earlier = best.get(candidate.address.email);
        if (!earlier || earlier.rank < candidate.rank || (earlier.rank === candidate.rank && candidate.card && !earlier.card)) best.set(candidate.address.email, candidate);
      }
      lists.push(...index.listsFor(needle));
    }
    const shownLists = lists.slice(0, Math.min(MAX_LISTS, params.limit));
    const people = [...best.values()].sort(compareSuggestions).slice(0, params.limit - shownLists.length);
    return [...people.map((candidate) => candidate.address), ...shownLists];
  }

  /** Builds an account's index ahead of its first lookup. */
  warm(accountId: string): Promise<void> {
    return this.entry(accountId).work;
  }

  /** The address book changed these rows (or its lists) of an account: they are read again. */
  bookChanged(accountId: string, change: BookChange): void {
    const entry = this.accounts.get(accountId);
    if (!entry) return; // built from the table when first asked
    const keys = [...new Set(change.keys ?? [])];
    this.enqueue(accountId, entry, async () => {
      const store = await this.deps.open(accountId);
      const { rows, lists } = await withRead(store, ['Contact', 'JSONBlob'], async (tx) => ({
        rows: keys.length > 0 ? await tx.getMany('Contact', keys) : [],
        lists: change.lists ? (await readContactLists(tx)).lists : null,
      }));
      keys.forEach((key, i) => {
        const row = rows[i];
        if (row) entry.index.put(row);
        else entry.index.remove(key);
      });
      if (lists) entry.index.setLists(lists);
    });
  }

  /** Forgets an account's index (its ranks were rebuilt, a logout): built from the table when next asked. */
  drop(accountId: string): void {
    this.accounts.delete(accountId);
  }

  /** Addresses an account's index can suggest (null: not built). */
  size(accountId: string): number | null {
    return this.accounts.get(accountId)?.index.size ?? null;
  }

  private async ready(accountId: string): Promise<SuggestionIndex> {
    await this.deps.open(accountId); // AccountNotFound before any work
    let entry = this.entry(accountId);
    await entry.work;
    // Its build failed (or a cache clear dropped it meanwhile): one more try with a fresh one.
    if (this.accounts.get(accountId) !== entry) {
      entry = this.entry(accountId);
      await entry.work;
    }
    return entry.index;
  }

  private entry(accountId: string): AccountIndex {
    const existing = this.accounts.get(accountId);
    if (existing) return existing;
    const entry: AccountIndex = { index: new SuggestionIndex(), work: Promise.resolve() };
    this.accounts.set(accountId, entry);
    this.enqueue(accountId, entry, () => this.build(accountId, entry.index));
    return entry;
  }

  private enqueue(accountId: string, entry: AccountIndex, job: () => Promise<void>): void {
    entry.work = entry.work.then(job).catch((error: unknown) => {
      // A half-built or stale index must not answer: the next lookup builds a new one.
      if (this.accounts.get(accountId) === entry) this.accounts.delete(accountId);
      this.deps.onError?.(error);
    });
  }

  private async build(accountId: string, index: SuggestionIndex): Promise<void> {
    const store = await this.deps.open(accountId);
    let after: string | null = null;
    for (;;) {
      const range: KeyRange | undefined = after === null ? undefined : { lower: after, lowerOpen: true };
      const { rows, lists }: { rows: StoredRow[]; lists: ContactList[] | null } = await withRead(store, ['Contact', 'JSONBlob'], async (tx) => ({
        rows: await tx.getAll('Contact', { ...(range ? { range } : {}), limit: BUILD_BATCH }),
        lists: after === null ? (await readContactLists(tx)).lists : null,
      }));
      if (lists) index.setLists(lists);
      for (const row of rows) index.put(row);
      if (rows.length < BUILD_BATCH) break;
      after = rows[rows.length - 1]!.id;
    }
  }

  private changed(change: MailChange): void {
    const entry = this.accounts.get(change.accountId);
    if (!entry) return;
    if (change.everything) {
      // A cache clear or a new session: built again from the table when next asked.
      this.accounts.delete(change.accountId);
      return;
    }
    const rows: readonly StoredRow[] | undefined = change.contacts;
    if (!rows || rows.length === 0) return;
    // The rows as committed: nothing to read back.
    this.enqueue(change.accountId, entry, async () => {
      for (const row of rows) entry.index.put(row);
    });
  }
}
