/**
 * Scores new Inbox mail (issue 17 point 4) and lets the verdict roam: the threads of the
 * important messages get $Important through the ordinary label command (optimistic here, on
 * the mail server through the outbox), so every device and mail program sees the same state.
 *
 * Off the sync's hot path: a delta page only schedules a scan of its account (after a short
 * wait, so a backfill's pages make one scan), and a scan reads in batches between which it
 * yields. What is "new" is the Inbox mail received after the account's `priorityScoredThrough`
 * (a preference, so it roams: a second device does not score — and mark again — what a first
 * one scored and the person has unmarked since). An account never scanned looks back a week.
 * A scan waits for the account's first sync to catch up: pages come newest first, and the
 * mark moved past a page's mail would leave the older pages' mail unscored.
 */
import type { MessageMeta, ThreadSummary } from '../../shared/api/mail';
import type { Clock } from '../../shared/clock';
import { systemClock } from '../../shared/clock';
import { readPreferenceValues, type PreferencePatch, type PreferenceValues } from '../../shared/preferences';
import { DEFAULT_PRIORITY_MODEL, hasImportantKeyword, scorePriority } from '../../shared/priority-score';
import type { MailTable } from '../db/mail-schema';
import { withRead, type LocalStore, type ReadTransaction } from '../db/store';
import { folderFromRow, messageFromRow, threadFromRow } from '../mail-store/mail-rows';
import { readCachedIdentities, readCachedPreferences } from '../mail-store/settings-rows';
import { gatherPriorityInputs, isOwnMessage, type PriorityContext } from './priority-inputs';

/** How far back an account's first scan looks. */
export const FIRST_SCAN_DAYS = 7;
/** A delta page's scan waits this long for the next page. */
export const SCAN_DELAY_MS = 500;
/** Threads whose messages are read and scored per read transaction; the scan yields between batches. */
const BATCH_THREADS = 2000;
/** Threads per label command (the gateway's bulk limit is higher; smaller commands go out sooner). */
const MARK_BATCH = 200;
const BY_FOLDER = 'category_timestamps';

export interface PriorityScanDeps {
  readonly open: (accountId: string) => Promise<LocalStore<MailTable>>;
  /** The account's address and aliases (its identities are read from the cache); null when it is gone. */
  readonly accountAddresses: (accountId: string) => Promise<readonly string[] | null>;
  /** Whether this engine syncs the account (only the writer scores: one label command, not one per tab). */
  readonly active: (accountId: string) => boolean;
  /** Whether the account has caught up with the gateway at least once. */
  readonly settled: (accountId: string) => Promise<boolean>;
  /** Gives the threads $Important (the label command). */
  readonly mark: (accountId: string, threadIds: readonly string[]) => Promise<unknown>;
  /** Changes the account's preferences (here: how far it was scored). */
  readonly savePreferences: (accountId: string, patch: PreferencePatch) => Promise<unknown>;
  readonly clock?: Clock;
  readonly onError?: (error: unknown) => void;
}

/** What one scan did (tests, figures). */
export interface ScanResult {
  readonly scored: number;
  readonly marked: readonly string[];
}

const NOTHING: ScanResult = { scored: 0, marked: [] };

/** Whether the account wants verdicts at all: the priority inbox is on, or it notifies only of important mail. */
export const wantsVerdicts = (values: Pick<PreferenceValues, 'priorityInbox' | 'notifyMail'>) => values.priorityInbox || values.notifyMail === 'important';

/** The account's own addresses: its address, aliases and identities, lowercased. */
export async function ownAddresses(tx: ReadTransaction<MailTable>, accountAddresses: readonly string[]): Promise<Set<string>> {
  const identities = (await readCachedIdentities(tx))?.identities ?? [];
  return new Set([...accountAddresses, ...identities.map((identity) => identity.email)].map((email) => email.trim().toLowerCase()));
}

export async function readPreferences(tx: ReadTransaction<MailTable>): Promise<PreferenceValues> {
  const cached = await readCachedPreferences(tx);
  return readPreferenceValues({ ...(cached.doc?.values ?? {}), ...(cached.pending ?? {}) });
}

const yieldToOthers = (clock: Clock) => new Promise<void>((resolve) => clock.setTimeout(resolve, 0));

export class PriorityScanner {
  private readonly timers = new Map<string, unknown>();
  private readonly running = new Map<string, Promise<ScanResult>>();
  private readonly again = new Set<string>();

  constructor(private readonly deps: PriorityScanDeps) {}

  private get clock(): Clock {
    return this.deps.clock ?? systemClock;
  }

  /** New mail or a preference changed: scan the account a little later (once for many calls). */
  schedule(accountId: string, delayMs = SCAN_DELAY_MS): void {
    if (!this.deps.active(accountId) || this.timers.has(accountId)) return;
    this.timers.set(
      accountId,
      this.clock.setTimeout(() => {
        this.timers.delete(accountId);
        void this.scan(accountId).catch((error: unknown) => this.deps.onError?.(error));
      }, delayMs),
    );
  }

  /** Scans now; a scan asked for while one runs runs once more after it. */
  async scan(accountId: string): Promise<ScanResult> {
    const running = this.running.get(accountId);
    if (running) {
      this.again.add(accountId);
      return running;
    }
    const run = this.scanOnce(accountId).finally(() => {
      this.running.delete(accountId);
      if (this.again.delete(accountId)) this.schedule(accountId, 0);
    });
    this.running.set(accountId, run);
    return run;
  }

  stop(): void {
    for (const timer of this.timers.values()) this.clock.clearTimeout(timer);
    this.timers.clear();
  }

  private async scanOnce(accountId: string): Promise<ScanResult> {
    const addresses = await this.deps.accountAddresses(accountId);
    if (!addresses || !this.deps.active(accountId)) return NOTHING;
    const store = await this.deps.open(accountId);
    const now = this.clock.now();
    const start = await withRead(store, ['JSONBlob', 'FeatureSettings', 'Category'], async (tx) => {
      const values = await readPreferences(tx);
      const folders = (await tx.getAll('Category')).map(folderFromRow);
      return {
        values,
        own: await ownAddresses(tx, addresses),
        inbox: folders.find((folder) => folder.specialUse === 'inbox')?.id ?? null,
        sent: folders.find((folder) => folder.specialUse === 'sent')?.id ?? null,
      };
    });
    if (!wantsVerdicts(start.values) || start.inbox === null) return NOTHING;
    if (!(await this.deps.settled(accountId))) {
      this.schedule(accountId, SCAN_DELAY_MS * 4); // the first sync is still under way: look again later
      return NOTHING;
    }
    const since = start.values.priorityScoredThrough || now - FIRST_SCAN_DAYS * 86_400_000;
    const model = start.values.priorityModel ?? DEFAULT_PRIORITY_MODEL;
    const context: PriorityContext = { own: start.own, sentFolderId: start.sent, now };
    const inbox = start.inbox;
    // The Inbox's threads with mail after `since`: one read of the index (a week of mail is a
    // few thousand rows), then their messages read and scored a batch at a time, yielding between.
    const threads = await withRead(store, ['Thread'], async (tx) =>
      (await tx.getAll('Thread', { index: BY_FOLDER, range: { lower: [inbox, since], lowerOpen: true, upper: [inbox, []] } })).map((row) => threadFromRow(row).summary),
    );
    const byId = new Map(threads.map((thread) => [thread.id, thread]));
    let through = since;
    let scored = 0;
    const marked: string[] = [];
    for (let i = 0; i < threads.length; i += BATCH_THREADS) {
      if (i > 0) await yieldToOthers(this.clock);
      const ids = threads.slice(i, i + BATCH_THREADS).flatMap((thread) => thread.messageIds);
      const batch = await withRead(store, ['Message', 'Contact'], async (tx) => {
        const messages = (await tx.getMany('Message', ids)).flatMap((row) => {
          if (!row) return [];
          const { meta, deleted } = messageFromRow(row);
          return !deleted && meta.folderId === inbox && meta.receivedAt > since ? [meta] : [];
        });
        const fresh = messages.filter((meta) => !meta.draft && !isOwnMessage(meta, context.own) && !hasImportantKeyword(meta.keywords));
        return { messages, fresh, inputs: await gatherPriorityInputs(tx, fresh, byId, context) };
      });
      const important = new Set<string>();
      for (const meta of batch.fresh) {
        const input = batch.inputs.get(meta.id);
        if (input && scorePriority(input, model).important) important.add(meta.threadId);
      }
      scored += batch.fresh.length;
      for (const meta of batch.messages) through = Math.max(through, meta.receivedAt);
      marked.push(...important);
    }
    for (let i = 0; i < marked.length; i += MARK_BATCH) await this.deps.mark(accountId, marked.slice(i, i + MARK_BATCH));
    if (through > start.values.priorityScoredThrough) await this.deps.savePreferences(accountId, { priorityScoredThrough: Math.floor(through) });
    return { scored, marked };
  }
}
