/**
 * "Keep recent mail offline" (issue 20 point 3): the bodies (text and HTML parts, their
 * small inline images; never attachments) of every message of the last `days` days that
 * this device has not fetched yet, newest first, into MessageBody — the cache opening a
 * message already reads (message-reads.ts), so a prefetched message opens offline.
 *
 * Polite: not before the accounts' first sync is done, then one body at a time in idle time —
 * never while a tab's ask is being answered nor within a second after one, and resting four
 * times as long as each body took — none while the browser asks to save data, and it stops at the first
 * sign of no network (it runs again when asked, e.g. on the next start). One run at a time
 * for every tab: a second ask joins the run under way.
 */
import { TernError } from '../../shared/errors';
import type { BodyProgress } from '../../shared/worker-mail-api';
import { withRead } from '../db/store';
import { messageFromRow } from '../mail-store/mail-rows';
import type { OpenStore } from './thread-list-reader';

export interface BodyPrefetchDeps {
  readonly open: OpenStore;
  /** Fetches and caches one body (MessageReads.body). */
  readonly fetchBody: (params: { accountId: string; messageId: string }) => Promise<unknown>;
  readonly now?: () => number;
  /** The pause between two bodies (ms). */
  readonly pauseMs?: number;
  /** The browser asks sites to save data (Network Information API's saveData). */
  readonly saveData?: () => boolean;
  /** When a tab last asked for something a person waits on (a thread opened, the list moved): the download waits a moment after it. */
  readonly lastAsked?: () => number;
  /** How many of those asks are being answered now: the download waits until none is. */
  readonly asking?: () => number;
  /**
   * Resolves once the account's first sync is done: until then every body would compete with
   * the backfill's pages for the network, the CPU and IndexedDB, and the mail to choose from
   * is not all there yet.
   */
  readonly firstSync?: (accountId: string) => Promise<void>;
}

/**
 * A person's asks go first: no body is fetched until this long after the last one. Each body
 * is a gateway round trip and an IndexedDB write; between a person's clicks they slowed an
 * open thread by 80 % (the bench's prefetch figure).
 */
export const YIELD_MS = 1_000;

/**
 * Idle time only: after each body the download rests this many times as long as the body
 * took, so it keeps the engine (and, on a small machine, the cores the page paints with)
 * busy at most a fifth of the time. The bench's prefetch figure: with one body after another
 * and a 50 ms pause, j, k and a cached open were up to 99 % slower while it ran.
 */
export const REST_FACTOR = 4;

const DAY_MS = 86_400_000;

/** The messages of the last `days` days with no cached body, newest first. */
export async function missingBodies(open: OpenStore, accountId: string, since: number): Promise<{ accountId: string; messageId: string; date: number }[]> {
  return withRead(await open(accountId), ['Message', 'MessageBody'], async (tx) => {
    const recent = (await tx.getAll('Message'))
      .map(messageFromRow)
      .filter((message) => !message.deleted && message.meta.date >= since && !message.meta.draft)
      .sort((a, b) => b.meta.date - a.meta.date);
    const cached = new Set(await tx.getAllKeys('MessageBody'));
    return recent.filter((message) => !cached.has(message.meta.id)).map((message) => ({ accountId, messageId: message.meta.id, date: message.meta.date }));
  });
}

const isNetworkFailure = (error: unknown) => error instanceof TernError && (error.detail as { network?: boolean } | undefined)?.network === true;

export class BodyPrefetch {
  private running: Promise<BodyProgress> | null = null;
  private readonly listeners = new Set<(progress: BodyProgress) => void>();
  private last: BodyProgress = { done: 0, total: 0, state: 'idle' };

  constructor(private readonly deps: BodyPrefetchDeps) {}

  /** The last progress (for a tab that opens the page while a run goes on). */
  progress(): BodyProgress {
    return this.last;
  }

  run(params: { accountIds: readonly string[]; days: number }, onProgress?: (progress: BodyProgress) => void): Promise<BodyProgress> {
    if (onProgress) {
      this.listeners.add(onProgress);
      onProgress(this.last);
    }
    this.running ??= this.runAll(params).finally(() => (this.running = null));
    return this.running.finally(() => onProgress && this.listeners.delete(onProgress));
  }

  private report(progress: BodyProgress) {
    this.last = progress;
    for (const listener of this.listeners) listener(progress);
  }

  private async runAll({ accountIds, days }: { accountIds: readonly string[]; days: number }): Promise<BodyProgress> {
    const firstSync = this.deps.firstSync;
    if (firstSync) await Promise.all(accountIds.map((accountId) => firstSync(accountId)));
    const since = (this.deps.now ?? Date.now)() - days * DAY_MS;
    const missing = (await Promise.all(accountIds.map((accountId) => missingBodies(this.deps.open, accountId, since)))).flat().sort((a, b) => b.date - a.date);
    let done = 0;
    const total = missing.length;
    this.report({ done, total, state: total === 0 ? 'done' : 'running' });
    for (const message of missing) {
      if (this.deps.saveData?.()) return this.finish({ done, total, state: 'paused' });
      await this.yieldToPeople();
      const started = (this.deps.now ?? Date.now)();
      try {
        await this.deps.fetchBody({ accountId: message.accountId, messageId: message.messageId });
      } catch (error) {
        if (isNetworkFailure(error)) return this.finish({ done, total, state: 'offline' });
        // One body the gateway refuses (gone, too large) does not stop the others.
      }
      done++;
      this.report({ done, total, state: done === total ? 'done' : 'running' });
      const took = (this.deps.now ?? Date.now)() - started;
      await new Promise((resolve) => setTimeout(resolve, Math.max(this.deps.pauseMs ?? 50, took * REST_FACTOR)));
    }
    return this.finish({ done, total, state: 'done' });
  }

  private async yieldToPeople(): Promise<void> {
    const now = this.deps.now ?? Date.now;
    for (;;) {
      // An ask still being answered counts as asked now (its end sets lastAsked again).
      const wait = (this.deps.asking?.() ?? 0) > 0 ? YIELD_MS : (this.deps.lastAsked?.() ?? 0) + YIELD_MS - now();
      if (wait <= 0) return;
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }

  private finish(progress: BodyProgress): BodyProgress {
    this.report(progress);
    return progress;
  }
}
