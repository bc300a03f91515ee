import type { ClaimedJob, JobQueue } from './job-queue';

/** A failure retrying cannot mend (the server refused the address for good): the job dies at once. */
export class PermanentJobError extends Error {
  override readonly name = 'PermanentJobError';
}

/** What a handler may do beside its work. */
export interface JobContext {
  readonly job: ClaimedJob;
  /** Keeps the claim for another `lockMs` (a long job); false when it had lapsed and another worker took the job: stop. */
  extendClaim(): Promise<boolean>;
}

/** Runs one job. Resolves: done. Throws: a failed attempt (PermanentJobError: dead at once). */
export type JobHandler = (payload: unknown, context: JobContext) => Promise<void>;

export interface JobWorkerOptions {
  /** Jobs run side by side at most. */
  readonly concurrency: number;
  /** How long a claim holds before another worker may take the job (longer than a job lasts, or extend it). */
  readonly lockMs: number;
  /** Longest sleep between looks at the table (jobs another node enqueued, claims that lapse). */
  readonly idleCheckMs: number;
  /** How long `stop()` waits for the jobs under way; one that runs longer is left to its claim's lapse. */
  readonly stopWaitMs: number;
}

export const DEFAULT_JOB_WORKER_OPTIONS: JobWorkerOptions = { concurrency: 4, lockMs: 5 * 60_000, idleCheckMs: 5_000, stopWaitMs: 10_000 };

export interface JobWorkerDeps {
  readonly queue: JobQueue;
  /** This worker's name in the table's claimed_by (node id and loop). */
  readonly name: string;
  readonly handlers: Readonly<Record<string, JobHandler>>;
  readonly options?: Partial<JobWorkerOptions>;
  /** A handler's error, or the loop's own (a database down): the loop goes on. */
  readonly onError?: (error: unknown, job?: ClaimedJob) => void;
}

/**
 * The loop that runs a node's jobs: claims what is due for the kinds it has handlers for,
 * runs each, records the outcome. On SQLite one such loop serves the one node; on PostgreSQL
 * every node runs one and the queue's claim keeps them apart. Between passes it sleeps until
 * the next job is due, at most `idleCheckMs` (jobs enqueued on another node are seen then;
 * `kick()` wakes it for one enqueued here).
 */
export class JobWorker {
  private readonly options: JobWorkerOptions;
  private readonly kinds: readonly string[];
  private readonly inFlight = new Set<Promise<void>>();
  /** Slots promised to claims still under way (two passes close together must not both fill them). */
  private reserved = 0;
  /** Claims under way: `stop` waits for them, then for the jobs they brought. */
  private readonly claiming = new Set<Promise<unknown>>();
  private timer: NodeJS.Timeout | null = null;
  /** The timer loop is off (never started, or stopped); `runDue` still works (tests call it). */
  private stopped = true;
  /** `stop` was called: nothing more is claimed. */
  private closing = false;

  constructor(private readonly deps: JobWorkerDeps) {
    this.options = { ...DEFAULT_JOB_WORKER_OPTIONS, ...deps.options };
    this.kinds = Object.keys(deps.handlers);
  }

  start(): void {
    this.stopped = false;
    this.closing = false;
    this.kick();
  }

  /** Looks at the table soon (a job enqueued here, a slot freed). */
  kick(): void {
    this.schedule(0);
  }

  /** Stops claiming and waits (up to stopWaitMs) for the jobs under way; a job still running then is claimed again once its claim lapses. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.closing = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    let waited: NodeJS.Timeout | undefined;
    const limit = new Promise<void>((resolve) => (waited = setTimeout(resolve, this.options.stopWaitMs)));
    const drained = (async () => {
      while (this.claiming.size > 0 || this.inFlight.size > 0) await Promise.allSettled([...this.claiming, ...this.inFlight]);
    })();
    await Promise.race([drained, limit]);
    clearTimeout(waited);
  }

  /** One pass: claims what is due into the free slots and runs it; resolves when those jobs end (how many ran). */
  async runDue(): Promise<number> {
    const free = this.options.concurrency - this.inFlight.size - this.reserved;
    if (free <= 0 || this.closing) return 0;
    this.reserved += free;
    const claim = this.deps.queue.claim({ worker: this.deps.name, kinds: this.kinds, limit: free, lockMs: this.options.lockMs });
    this.claiming.add(claim);
    let jobs: ClaimedJob[];
    try {
      jobs = await claim;
    } finally {
      this.reserved -= free;
      this.claiming.delete(claim);
    }
    const runs = jobs.map((job) => this.track(this.run(job)));
    await Promise.all(runs);
    return jobs.length;
  }

  private track(run: Promise<void>): Promise<void> {
    const tracked = run.finally(() => {
      this.inFlight.delete(tracked);
      this.kick();
    });
    this.inFlight.add(tracked);
    return tracked;
  }

  private async run(job: ClaimedJob): Promise<void> {
    const { queue } = this.deps;
    const context: JobContext = { job, extendClaim: () => queue.extend(job, this.options.lockMs) };
    try {
      await this.deps.handlers[job.kind]!(job.payload, context);
    } catch (error) {
      this.deps.onError?.(error, job);
      await queue.fail(job, reasonOf(error), error instanceof PermanentJobError).catch((failError: unknown) => this.deps.onError?.(failError, job));
      return;
    }
    await queue.complete(job).catch((error: unknown) => this.deps.onError?.(error, job));
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.pass(), Math.max(0, delayMs));
    this.timer.unref();
  }

  private async pass(): Promise<void> {
    this.timer = null;
    if (this.stopped) return;
    let next: number | null = null;
    try {
      // The jobs run on by themselves; each kicks the loop when it ends.
      void this.runDue().catch((error: unknown) => this.deps.onError?.(error));
      next = await this.deps.queue.nextDueAt(this.kinds);
    } catch (error) {
      this.deps.onError?.(error);
    }
    if (!this.timer) this.schedule(sleepMs(next, this.deps.queue.now(), this.options.idleCheckMs));
  }
}

/** How long the loop sleeps: until the next job is due, at most `idleCheckMs`; a job already due waits for a kick. */
export function sleepMs(nextDueAt: number | null, now: number, idleCheckMs: number): number {
  if (nextDueAt === null || nextDueAt <= now) return idleCheckMs;
  return Math.min(idleCheckMs, nextDueAt - now);
}

function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
