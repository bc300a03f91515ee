/**
 * The local log (spec §4, §9): lines are buffered and written to the primary account's
 * Log table every 30 s; rows older than 5 days are purged (checked every 24 h); browser
 * storage is measured every 2 min and over the threshold the oldest half of the rows
 * goes. Inactive (nothing kept) after logout or a cache clear, until activated again.
 */
import { systemClock, type Clock } from '../../shared/clock';
import { LOG_LIMITS, type LogType } from '../../shared/constants';
import type { MailTable } from '../db/mail-schema';
import { withRead, withWrite, type LocalStore } from '../db/store';
import { LogEntryModel } from '../model/log-entry';
import { maskEmails } from './mask-emails';

/** What navigator.storage.estimate answers. */
export interface StorageEstimate {
  readonly usage?: number;
  readonly quota?: number;
}

export interface LoggerDeps {
  readonly clock?: Clock;
  /** navigator.storage.estimate, injected; without it the storage check is skipped. */
  readonly estimateStorage?: () => Promise<StorageEstimate>;
  /** Where a failure of the logger itself goes (it cannot log to itself). */
  readonly onError?: (error: unknown) => void;
  /** Resolves once this engine may write (the elected writer); until then lines only buffer. */
  readonly writerElected?: Promise<void>;
}

/** Where the log is written: the primary account's database, opened when needed. */
export interface LogTarget {
  readonly accountId: string;
  readonly open: () => Promise<LocalStore<MailTable>>;
}

interface BufferedLine {
  readonly timestamp: number;
  readonly type: LogType;
  readonly logs: string;
}

/** The storage threshold: the smaller of 2048 MB and 20 % of the quota. */
export function storageThreshold(quota: number | undefined): number {
  const share = quota && quota > 0 ? quota * LOG_LIMITS.storageQuotaShare : Infinity;
  return Math.min(LOG_LIMITS.maxStorageBytes, share);
}

export class Logger {
  private buffer: BufferedLine[] = [];
  private target: LogTarget | null = null;
  private timers: unknown[] = [];
  private flushing: Promise<void> | null = null;
  private readonly clock: Clock;

  constructor(private readonly deps: LoggerDeps = {}) {
    this.clock = deps.clock ?? systemClock;
  }

  get active(): boolean {
    return this.target !== null;
  }

  /** Starts writing to `target` (login, initialise, a new primary account). */
  activate(target: LogTarget): void {
    this.stopTimers();
    this.target = target;
    void (this.deps.writerElected ?? Promise.resolve()).then(() => {
      if (this.target === target && this.timers.length === 0) this.startTimers();
    });
  }

  /** Stops and forgets unwritten lines (logout, cache clear: the database is going away). */
  deactivate(): void {
    this.stopTimers();
    this.target = null;
    this.buffer = [];
  }

  /** Buffers one line; email addresses are masked before anything is kept. */
  log(type: LogType, message: string): void {
    if (!this.target) return;
    this.buffer.push({ timestamp: this.clock.now(), type, logs: maskEmails(message) });
    if (this.buffer.length > LOG_LIMITS.maxBufferedEntries) {
      // Writes have been failing for a while: keep the newest share rather than grow.
      this.buffer = this.buffer.slice(-Math.floor(LOG_LIMITS.maxBufferedEntries * LOG_LIMITS.overflowRatio));
    }
  }

  /** Writes the buffered lines now (single flight); on failure they stay buffered. */
  flush(): Promise<void> {
    this.flushing ??= this.writeBuffer().finally(() => (this.flushing = null));
    return this.flushing;
  }

  /** Deletes rows older than 5 days; returns how many. */
  async purgeOld(): Promise<number> {
    const target = this.target;
    if (!target) return 0;
    const cutoff = this.clock.now() - LOG_LIMITS.maxAgeMs;
    return withWrite(await target.open(), ['Log'], async (tx) => {
      const old = await tx.getAllKeys('Log', { index: 'timestamp', range: { upper: cutoff, upperOpen: true } });
      await tx.delete('Log', old);
      return old.length;
    });
  }

  /** Measures storage; over the threshold, deletes the oldest half of the rows. Returns how many went. */
  async checkStorage(): Promise<number> {
    const target = this.target;
    if (!target || !this.deps.estimateStorage) return 0;
    const { usage, quota } = await this.deps.estimateStorage();
    if (usage === undefined || usage <= storageThreshold(quota)) return 0;
    return this.deleteOldestShare(target);
  }

  private async deleteOldestShare(target: LogTarget): Promise<number> {
    const store = await target.open();
    const total = await withRead(store, ['Log'], (tx) => tx.count('Log'));
    const doomed = Math.floor(total * LOG_LIMITS.deletedShareOnOverflow);
    if (doomed === 0) return 0;
    return withWrite(store, ['Log'], async (tx) => {
      const oldest = await tx.getAllKeys('Log', { index: 'timestamp', limit: doomed });
      await tx.delete('Log', oldest);
      return oldest.length;
    });
  }

  private async writeBuffer(): Promise<void> {
    const target = this.target;
    if (!target || this.buffer.length === 0) return;
    const lines = this.buffer;
    this.buffer = [];
    try {
      const rows = lines.map((line) =>
        LogEntryModel.toRow(LogEntryModel.create({ accountId: target.accountId, timestamp: new Date(line.timestamp), logs: line.logs, type: line.type })),
      );
      await withWrite(await target.open(), ['Log'], async (tx) => {
        for (const row of rows) await tx.put('Log', row);
      });
    } catch (error) {
      // Keep the lines for the next attempt unless the logger was stopped meanwhile.
      if (this.target === target) this.buffer = [...lines, ...this.buffer];
      if ((error as { name?: unknown }).name === 'QuotaExceeded') await this.deleteOldestShare(target).catch(() => 0);
      throw error;
    }
  }

  private startTimers(): void {
    const { clock } = this;
    const run = (work: () => Promise<unknown>) => () => void work().catch((error: unknown) => this.deps.onError?.(error));
    this.timers = [
      clock.setInterval(run(() => this.flush()), LOG_LIMITS.writeIntervalMs),
      clock.setInterval(run(() => this.purgeOld()), LOG_LIMITS.ageCheckIntervalMs),
      clock.setInterval(run(() => this.checkStorage()), LOG_LIMITS.storageCheckIntervalMs),
    ];
    // A worker rarely lives 24 h: look for old rows once at start too.
    run(() => this.purgeOld())();
  }

  private stopTimers(): void {
    for (const timer of this.timers) this.clock.clearInterval(timer);
    this.timers = [];
  }
}
