import type { ClaimedJob, JobQueue } from './job-queue';
import type { RetryPolicy } from './retry-policy';

/** A failure retrying cannot mend (the server refused the address for good): the job dies at once. */
export class PermanentJobError extends Error {
  override readonly name = 'PermanentJobError';
}

/** A failure the handler has recorded where it belongs (e.g. a refused send on its outbox row): retried after the backoff, not reported as an error. */
export class RetryJobError extends Error {
  override readonly name = 'RetryJobError';
}

/** What a handler may do beside its work. */
export interface JobContext {
  readonly job: ClaimedJob;
  /** Keeps the claim for another `lockMs` (the worker also does so every `renewEveryMs`); false when it had lapsed and another worker took the job: stop. */
  extendClaim(): Promise<boolean>;
  /** Aborted when the claim is lost (a renewal refused) or handed back by a stop that gave up waiting: write nothing more. */
  readonly signal: AbortSignal;
  /** When the job runs again if this attempt fails now; null when this is its last attempt. */
  retryAt(): number | null;
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
  /** How long `stop()` waits for the jobs under way; one that runs longer has its claim handed back. */
  readonly stopWaitMs: number;
  /**
   * How often a running job's claim is renewed: a job runs as long as it needs while its node
   * lives, and a dead node's jobs are taken over `lockMs` after its last renewal.
   */
  readonly renewEveryMs: number;
  /**
   * This is the database's only worker (SQLite: one node): at start, every `running` job was
   * left by a process that is gone, so its claim lapses at once instead of after `lockMs`.
   */
  readonly soleWorker: boolean;
  /** Finished jobs are kept this long (for operators), then deleted by the started loop, hourly; dead ones stay. */
  readonly keepDoneMs: number;
}

export const DEFAULT_JOB_WORKER_OPTIONS: JobWorkerOptions = {
  // Most jobs wait on a mail server (SMTP, IMAP), not on this process: 8 at a time sent a burst of
  // 10,000 scheduled messages in 11 s and filed them in 113 s, where 4 took 23 s and over 150 s,
  // with the mirror's new mail still within its second (issue 15's benchmark, 2 busy cores).
  concurrency: 8,
  lockMs: 30_000,
  idleCheckMs: 5_000,
  stopWaitMs: 10_000,
  renewEveryMs: 10_000,
  soleWorker: false,
  keepDoneMs: 24 * 60 * 60_000,
};

/** How often a started loop deletes the finished jobs older than keepDoneMs. */
const CLEAN_EVERY_MS = 60 * 60_000;

export interface JobWorkerDeps {
  readonly queue: JobQueue;
  /** This worker's name in the table's claimed_by (node id and loop). */
  readonly name: string;
  /** Handlers known at construction; features may add theirs with `register` before `start`. */
  readonly handlers?: Readonly<Record<string, JobHandler>>;
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
  private readonly handlers: Record<string, JobHandler>;
  private kinds: readonly string[];
  private readonly inFlight = new Set<Promise<void>>();
  /** The jobs running, with what aborts each (a stop that gives up hands their claims back). */
  private readonly running = new Map<ClaimedJob, AbortController>();
  /** Slots promised to claims still under way (two passes close together must not both fill them). */
  private reserved = 0;
  /** Claims under way: `stop` waits for them, then for the jobs they brought. */
  private readonly claiming = new Set<Promise<unknown>>();
  private timer: NodeJS.Timeout | null = null;
  private cleaner: NodeJS.Timeout | null = null;
  /** A kick came while a claim was under way (its pass found no free slot): one more pass after the claim. */
  private lookAgain = false;
  /** The timer loop is off (never started, or stopped); `runDue` still works (tests call it). */
  private stopped = true;
  /** `stop` was called: nothing more is claimed. */
  private closing = false;

  constructor(private readonly deps: JobWorkerDeps) {
    this.options = { ...DEFAULT_JOB_WORKER_OPTIONS, ...deps.options };
    this.handlers = { ...deps.handlers };
    this.kinds = Object.keys(this.handlers);
  }

  /** Adds the handler of a kind (and its retry policy); a feature calls it while the node is built. */
  register(kind: string, handler: JobHandler, policy?: Partial<RetryPolicy>): void {
    this.handlers[kind] = handler;
    this.kinds = Object.keys(this.handlers);
    if (policy) this.deps.queue.definePolicy(kind, policy);
  }

  /** Starts the loop; the sole worker of a database first lets the claims of a previous process lapse. */
  async start(): Promise<void> {
    if (this.options.soleWorker) await this.deps.queue.releaseAll();
    this.stopped = false;
    this.closing = false;
    this.kick();
    const clean = () => void this.deps.queue.deleteDone(this.deps.queue.now() - this.options.keepDoneMs).catch((error: unknown) => this.deps.onError?.(error));
    clean();
    this.cleaner = setInterval(clean, CLEAN_EVERY_MS);
    this.cleaner.unref();
  }

  /** Looks at the table soon (a job enqueued here, a slot freed). */
  kick(): void {
    // A claim under way holds the free slots and may have read the table before the job came: look again after it.
    if (this.claiming.size > 0) this.lookAgain = true;
    this.schedule(0);
  }

  /** Stops claiming and waits (up to stopWaitMs) for the jobs under way; a job still running then is claimed again once its claim lapses. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.closing = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.cleaner) clearInterval(this.cleaner);
    this.cleaner = null;
    let waited: NodeJS.Timeout | undefined;
    const limit = new Promise<void>((resolve) => (waited = setTimeout(resolve, this.options.stopWaitMs)));
    const drained = (async () => {
      while (this.claiming.size > 0 || this.inFlight.size > 0) await Promise.allSettled([...this.claiming, ...this.inFlight]);
    })();
    await Promise.race([drained, limit]);
    clearTimeout(waited);
    // Jobs still running are given up: their claims go back now, so another worker (or this
    // node's next start) takes them without waiting for the lapse; their late writes are fenced.
    const abandoned = [...this.running];
    this.running.clear();
    for (const [, abort] of abandoned) abort.abort();
    await Promise.all(abandoned.map(([job]) => this.deps.queue.release(job).catch((error: unknown) => this.deps.onError?.(error, job))));
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
      if (this.lookAgain && this.claiming.size === 0) {
        this.lookAgain = false;
        this.kick();
      }
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
    const abort = new AbortController();
    this.running.set(job, abort);
    const extendClaim = async () => {
      const kept = await queue.extend(job, this.options.lockMs);
      if (!kept) abort.abort();
      return kept;
    };
    const renewal = setInterval(() => {
      if (!abort.signal.aborted) extendClaim().catch((error: unknown) => this.deps.onError?.(error, job));
    }, this.options.renewEveryMs);
    renewal.unref();
    const context: JobContext = { job, extendClaim, signal: abort.signal, retryAt: () => queue.retryAt(job) };
    try {
      await this.handlers[job.kind]!(job.payload, context);
    } catch (error) {
      if (abort.signal.aborted) return; // the claim is gone: its outcome is not ours to record
      // The handler's own verdicts (a retry, a refusal for good) are recorded, not reported as errors.
      if (!(error instanceof RetryJobError || error instanceof PermanentJobError)) this.deps.onError?.(error, job);
      await queue.fail(job, reasonOf(error), error instanceof PermanentJobError).catch((failError: unknown) => this.deps.onError?.(failError, job));
      return;
    } finally {
      clearInterval(renewal);
      this.running.delete(job);
    }
    if (abort.signal.aborted) return;
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
