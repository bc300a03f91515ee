import type { JobQueue } from '../jobs/job-queue';
import type { SqlStore } from '../store/sql';
import type { RetryPolicy } from '../jobs/retry-policy';
import type { OutboxStore } from './outbox-store';

/** The job that sends one outbox row (or resolves it after a crash): OutboxWorker.handle. */
export const OUTBOX_SEND = 'outbox.send';
/** The job that files an accepted row in Sent and finishes it: OutboxWorker.handleFiling. */
export const OUTBOX_FILE = 'outbox.file';

/**
 * The backoff between a row's attempts: SMTP refusals the server calls temporary (4xx, a
 * connection refused), filing in Sent that failed, an orphan that could not be looked at.
 * How many attempts a row gets is the outbox's own count (OutboxOptions), not the job's:
 * a row must never be left `sending` by a job that died on a lapsed last claim, so the
 * job's own limit is only a safety net far beyond the outbox's.
 */
export const OUTBOX_RETRY_POLICY: RetryPolicy = { maxAttempts: 100, firstDelayMs: 5_000, factor: 6, maxDelayMs: 30 * 60_000 };

/**
 * How outbox rows become jobs (DESIGN §7, issue 12 point 4): one `outbox.send` job per row
 * with work left, deduplicated by the row's id, in the lane of its account so one account's
 * messages go one at a time and in order, on whichever node claims them. Once SMTP took the
 * row, an `outbox.file` job in the account's filing lane puts its copy in Sent: the IMAP
 * round trips of filing (and the mirror's sync after it) no longer hold up the account's next
 * handoff to SMTP (issue 15's benchmark: 10,000 due in one minute). A filing job is due when
 * enqueued, so due sends, which wait longer, are claimed before it.
 */
export class OutboxJobs {
  constructor(
    private readonly queue: JobQueue,
    private readonly sql: SqlStore,
  ) {}

  /**
   * The row's job, due at `runAt`. Call it in the store transaction that queued the row (a
   * new send, a resend, a confirmation): the row and its job commit together or not at all.
   */
  enqueue(row: { readonly id: number; readonly accountId: number }, runAt = this.queue.now()): Promise<number> {
    return this.queue.enqueue(OUTBOX_SEND, { outboxId: row.id }, runAt, `outbox:${row.id}`, `account:${row.accountId}`);
  }

  /** The accepted row's filing job (one per row, whoever asks twice); its lane keeps one account's copies in order. */
  enqueueFiling(row: { readonly id: number; readonly accountId: number }): Promise<number> {
    return this.queue.enqueue(OUTBOX_FILE, { outboxId: row.id }, this.queue.now(), `outbox:${row.id}`, `sent:${row.accountId}`);
  }

  /** Removes the row's job before it runs (undo, cancel); false once a worker has claimed it (too late). */
  cancel(row: { readonly id: number }): Promise<boolean> {
    return this.queue.cancelPending(OUTBOX_SEND, `outbox:${row.id}`);
  }

  /**
   * A state change that gives a finished row work again (resend, confirm an `unknown` one)
   * and its job, in one transaction. False when the change did not apply.
   */
  reopen(row: { readonly id: number; readonly accountId: number }, change: () => Promise<boolean>): Promise<boolean> {
    return this.sql.transaction(async () => {
      if (!(await change())) return false;
      await this.enqueue(row);
      return true;
    });
  }

  /**
   * At a node's start: a job for every row with work left and none pending — rows queued
   * before the outbox ran on jobs, or whose job gave up. The dedupe key makes it a no-op for
   * rows that have one, so every node may run it at once.
   */
  async adoptUnfinished(store: OutboxStore): Promise<void> {
    for (const row of await store.unfinished()) await this.enqueue(row, row.nextAttemptAt);
  }
}
