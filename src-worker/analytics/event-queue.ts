/**
 * One analytics queue (spec §4, §9): events wait here, are written to storage 2 s after
 * the last change, and go out in batches of at most 100, at most one send every 5 s.
 * Batches that fail while offline or on a 5xx stay, and are retried with a growing wait.
 */
import type { Clock } from '../../shared/clock';
import { ANALYTICS_LIMITS } from '../../shared/constants';
import type { AnalyticsEventRecord } from '../../shared/analytics-events';
import { backoffDelay, type BackoffPolicy } from '../net/backoff';
import type { SendOutcome } from './analytics-transport';

/** After failed sends: the throttle, doubling up to the cap; exact (one queue per device, no herd). */
const ANALYTICS_BACKOFF: BackoffPolicy = { baseMs: ANALYTICS_LIMITS.sendThrottleMs, maxMs: ANALYTICS_LIMITS.maxRetryDelayMs };

export interface EventQueueDeps {
  readonly clock: Clock;
  /** Posts one batch (the target is resolved at send time: tokens change). */
  readonly send: (events: readonly AnalyticsEventRecord[]) => Promise<SendOutcome>;
  readonly persist: (events: readonly AnalyticsEventRecord[]) => Promise<void>;
  /** The server said InvalidToken: the account must be logged out. */
  readonly onLogout: () => void;
  /** A failure of persisting or sending that is not an outcome (a bug, storage full). */
  readonly onError: (error: unknown) => void;
}

export class EventQueue {
  private events: AnalyticsEventRecord[] = [];
  private started = false;
  private stopped = false;
  private lastSendAt = Number.NEGATIVE_INFINITY;
  /** Failed sends in a row; each doubles the wait before the next (0 after a success). */
  private failures = 0;
  private sendTimer: unknown = null;
  private persistTimer: unknown = null;
  private sending: Promise<void> | null = null;

  constructor(
    readonly id: string,
    private readonly deps: EventQueueDeps,
  ) {}

  get size(): number {
    return this.events.length;
  }

  /**
   * Starts persisting and sending, with the events stored by an earlier run put first.
   * Until then events only collect in memory (this engine is not the writer yet).
   */
  start(stored: readonly AnalyticsEventRecord[]): void {
    if (this.started || this.stopped) return;
    this.started = true;
    const known = new Set(this.events.map((event) => event.attrs.event_id));
    this.events = [...stored.filter((event) => !known.has(event.attrs.event_id)), ...this.events];
    this.schedulePersist();
    this.scheduleSend();
  }

  push(event: AnalyticsEventRecord): void {
    if (this.stopped) return;
    this.events.push(event);
    this.schedulePersist();
    this.scheduleSend();
  }

  /** Writes the queue now instead of after the debounce, and sends as soon as the throttle allows. */
  async flush(): Promise<void> {
    if (!this.started || this.stopped) return;
    this.deps.clock.clearTimeout(this.persistTimer);
    this.persistTimer = null;
    await this.persistNow();
    this.scheduleSend();
  }

  /** Stops for good and hands over the events not sent yet (the account was removed: they leave by another queue). */
  drain(): AnalyticsEventRecord[] {
    const left = this.events;
    this.stop();
    return left;
  }

  /** Stops for good (the account was removed); nothing more is written or sent. */
  stop(): void {
    this.stopped = true;
    this.deps.clock.clearTimeout(this.sendTimer);
    this.deps.clock.clearTimeout(this.persistTimer);
    this.events = [];
  }

  private schedulePersist(): void {
    if (!this.started || this.stopped) return;
    this.deps.clock.clearTimeout(this.persistTimer);
    this.persistTimer = this.deps.clock.setTimeout(() => {
      this.persistTimer = null;
      void this.persistNow();
    }, ANALYTICS_LIMITS.persistDebounceMs);
  }

  private async persistNow(): Promise<void> {
    try {
      await this.deps.persist(this.stopped ? [] : [...this.events]);
    } catch (error) {
      this.deps.onError(error);
    }
  }

  private scheduleSend(): void {
    if (!this.started || this.stopped || this.sendTimer !== null || this.sending || this.events.length === 0) return;
    const wait = Math.max(ANALYTICS_LIMITS.sendThrottleMs, this.failures > 0 ? backoffDelay(this.failures, ANALYTICS_BACKOFF) : 0);
    const due = Math.max(0, this.lastSendAt + wait - this.deps.clock.now());
    this.sendTimer = this.deps.clock.setTimeout(() => {
      this.sendTimer = null;
      this.sending = this.sendBatch().finally(() => {
        this.sending = null;
        this.scheduleSend();
      });
    }, due);
  }

  private async sendBatch(): Promise<void> {
    const batch = this.events.slice(0, ANALYTICS_LIMITS.batchSize);
    if (batch.length === 0 || this.stopped) return;
    this.lastSendAt = this.deps.clock.now();
    let outcome: SendOutcome;
    try {
      outcome = await this.deps.send(batch);
    } catch (error) {
      this.deps.onError(error);
      outcome = 'retry';
    }
    if (this.stopped) return;
    if (outcome === 'retry') {
      this.failures += 1;
      return;
    }
    this.failures = 0;
    const done = new Set(batch);
    this.events = this.events.filter((event) => !done.has(event));
    this.schedulePersist();
    if (outcome === 'logout') this.deps.onLogout();
  }
}
