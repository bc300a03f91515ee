import type { SqlStore } from '../store/sql';
import { afterFailure, DEFAULT_RETRY_POLICY, type RetryPolicy } from './retry-policy';

/**
 * Work that must happen later or survive a crash (DESIGN §7, issue 12 point 4), as rows of
 * the `jobs` table on the gateway's own database: the same code on SQLite (one node, one
 * worker loop) and on PostgreSQL (any number of nodes, each with its workers). A job is
 * `queued` until due, `running` while a worker holds its claim, then `done`, or queued again
 * after a failure (backoff, retry-policy.ts), or `dead` after its last attempt.
 *
 * A claim lasts `lockMs` (renewable with `extend`): a worker whose node dies leaves its jobs
 * `running` until their claims lapse, and then any worker claims them again. So a job runs
 * once while its worker lives, and at least once across a crash: a handler must be safe to
 * run again from the start (or record its own commit point, as the outbox does with
 * `committed_at`). `attempts` counts claims and fences them: the outcome of a lapsed claim
 * that another worker has taken since is refused, not recorded.
 *
 * A job may name a `lane`: at most one job of a lane runs at a time, the lane's first due job
 * first (the others wait, even when due). The outbox's lane is the account, so one account's
 * messages go one at a time and in order, whichever node claims them.
 *
 * How the mail features sit on it:
 * - outbox (outbox/outbox-jobs.ts): `enqueue('outbox.send', { outboxId }, now, \`outbox:${outboxId}\`,
 *   \`account:${accountId}\`)` in the transaction that stores the row; the handler
 *   (OutboxWorker.handle) runs the SMTP attempt for that one row, then enqueues its filing in
 *   Sent as an `outbox.file` job in the lane \`sent:${accountId}\`; the row's states (queued →
 *   sending → accepted → sent, commit point, `unknown`) stay in `outbox`. A lapsed claim is the
 *   "orphan" of a dead node: the next claim finds the row `sending` and resolves it. SMTP's
 *   5xx is a PermanentJobError; 4xx retries with the job's backoff.
 * - scheduled send and undo-send holds: the outbox row is written at once, its job enqueued
 *   with `runAt` = the chosen time (or now + the undo window); "send now", "cancel" or undo
 *   is `cancel(jobId)` (refused once the job is running: then it is too late to undo) plus
 *   the outbox row's own state change.
 * - reminders and snooze: `enqueue('reminder', { accountId, threadId }, remindAt,
 *   \`reminder:${accountId}:${threadId}\`)`: the dedupe key keeps one pending reminder per
 *   thread; changing its time is cancel + enqueue in one store transaction.
 * - auto-clean and imports: a job that enqueues its own next run (dedupe key per account),
 *   so exactly one is pending whatever the number of nodes.
 * Work bound to an account's IMAP connection (IDLE, sweeps) is not a job: it follows the
 * account's lease (cluster/account-leases.ts).
 */
export type JobState = 'queued' | 'running' | 'done' | 'dead';

/** A job as the table holds it (for operators and tests). */
export interface Job {
  readonly id: number;
  readonly kind: string;
  readonly payload: unknown;
  readonly dedupeKey: string | null;
  readonly state: JobState;
  readonly runAt: number;
  readonly attempts: number;
  readonly maxAttempts: number;
  readonly claimedBy: string | null;
  readonly lockedUntil: number | null;
  readonly lastError: string | null;
  readonly lane: string | null;
}

/** A job a worker has claimed. */
export interface ClaimedJob {
  readonly id: number;
  readonly kind: string;
  readonly payload: unknown;
  /** 1 for the first attempt. Also the claim's fence: reports from an older claim are refused. */
  readonly attempt: number;
  readonly maxAttempts: number;
}

export interface ClaimParams {
  /** The claiming worker's name (node and loop), recorded for operators. */
  readonly worker: string;
  /** The kinds this worker has handlers for (a node of an older build leaves the others). */
  readonly kinds: readonly string[];
  readonly limit: number;
  /** How long the claim holds before another worker may take the job. */
  readonly lockMs: number;
}

export interface JobQueueDeps {
  readonly store: SqlStore;
  readonly now?: () => number;
  /** Retry policy by kind; a kind not listed gets DEFAULT_RETRY_POLICY. */
  readonly policies?: Readonly<Record<string, Partial<RetryPolicy>>>;
}

const JOB_COLUMNS = `id, kind, payload, dedupe_key AS "dedupeKey", state, run_at AS "runAt", attempts, max_attempts AS "maxAttempts",
  claimed_by AS "claimedBy", locked_until AS "lockedUntil", last_error AS "lastError", lane`;
const INSERT = `INSERT INTO jobs (kind, payload, dedupe_key, lane, state, run_at, attempts, max_attempts, created_at, updated_at)
  VALUES (?, ?, ?, ?, 'queued', ?, 0, ?, ?, ?)
  ON CONFLICT (kind, dedupe_key) WHERE state IN ('queued', 'running') DO NOTHING
  RETURNING id`;
const PENDING_TWIN = "SELECT id FROM jobs WHERE kind = ? AND dedupe_key = ? AND state IN ('queued', 'running')";
const COMPLETE = "UPDATE jobs SET state = 'done', locked_until = NULL, last_error = NULL, updated_at = ? WHERE id = ? AND state = 'running' AND attempts = ?";
const FAIL = "UPDATE jobs SET state = ?, run_at = ?, locked_until = NULL, last_error = ?, updated_at = ? WHERE id = ? AND state = 'running' AND attempts = ?";
const EXTEND = "UPDATE jobs SET locked_until = ?, updated_at = ? WHERE id = ? AND state = 'running' AND attempts = ?";
const RELEASE = "UPDATE jobs SET locked_until = ?, updated_at = ? WHERE id = ? AND state = 'running' AND attempts = ?";
const RELEASE_ALL = "UPDATE jobs SET locked_until = ?, updated_at = ? WHERE state = 'running' AND locked_until > ?";
const CANCEL = "DELETE FROM jobs WHERE id = ? AND state = 'queued'";
const CANCEL_BY_KEY = "DELETE FROM jobs WHERE kind = ? AND dedupe_key = ? AND state = 'queued'";
const DELETE_DONE = "DELETE FROM jobs WHERE state = 'done' AND updated_at < ?";
const LAPSED_ON_LAST_ATTEMPT = 'Its worker stopped (its claim lapsed) during the last attempt.';

const list = (count: number) => Array.from({ length: count }, () => '?').join(', ');

export class JobQueue {
  readonly now: () => number;
  private readonly store: SqlStore;
  private policies: Readonly<Record<string, Partial<RetryPolicy>>>;
  /** After the due rows' SELECT: the one place the engines differ (see `claim`). */
  private readonly lockDue: string;

  constructor(deps: JobQueueDeps) {
    this.store = deps.store;
    this.now = deps.now ?? Date.now;
    this.policies = deps.policies ?? {};
    this.lockDue = deps.store.dialect === 'postgres' ? ' FOR UPDATE SKIP LOCKED' : '';
  }

  /**
   * Adds a job due at `runAt` (epoch ms): its id. With a `dedupeKey`, while a job of the same
   * kind and key is queued or running, no second one is added and that job's id comes back.
   * With a `lane`, it waits for the lane's earlier jobs (see the header).
   */
  async enqueue(kind: string, payload: unknown, runAt: number, dedupeKey?: string, lane?: string): Promise<number> {
    const now = this.now();
    const values = [kind, JSON.stringify(payload ?? null), dedupeKey ?? null, lane ?? null, runAt, this.policy(kind).maxAttempts, now, now];
    // The twin may finish between the refused insert and the look-up: then the insert goes through.
    for (let tries = 0; tries < 5; tries++) {
      const inserted = await this.store.get<{ id: number }>(INSERT, values);
      if (inserted) return inserted.id;
      const twin = await this.store.get<{ id: number }>(PENDING_TWIN, [kind, dedupeKey ?? null]);
      if (twin) return twin.id;
    }
    throw new Error(`The job ${kind} (${dedupeKey}) could not be enqueued: its twin kept finishing and being enqueued again.`);
  }

  /**
   * Claims up to `limit` due jobs of `kinds` (queued and due, or running under a lapsed
   * claim) for `lockMs`. One transaction: on PostgreSQL the due rows are selected FOR UPDATE
   * SKIP LOCKED, so concurrent workers on any node take disjoint rows without waiting for
   * each other, and a row another claim updated meanwhile is checked again on its newest
   * version; on SQLite the transaction holds the whole database. A lapsed claim on the last
   * attempt makes the job dead rather than run it again.
   *
   * Lanes: a laned job is claimable only while no other job of its lane is running and none
   * queued is due before it. Two claims racing for one lane cannot both win: the first due job
   * is the only candidate and its row is locked by the first claim (SKIP LOCKED), and a claim
   * whose snapshot predates the other's commit still sees that job queued ahead of the rest.
   */
  async claim(params: ClaimParams): Promise<ClaimedJob[]> {
    if (params.kinds.length === 0 || params.limit <= 0) return [];
    const now = this.now();
    return this.store.transaction(async (tx) => {
      type Due = { id: number; state: JobState; runAt: number; attempts: number; maxAttempts: number };
      // Two walks in claim order, merged: a single one over both states could not follow an
      // index and judged every due job before sorting (10,000 due sends: 20 ms a claim, once per
      // job). Queued jobs come from jobs_due in (run_at, id) order and the walk stops at `limit`.
      const queued = await tx.all<Due>(
        `SELECT id, state, run_at AS "runAt", attempts, max_attempts AS "maxAttempts" FROM jobs
          WHERE state = 'queued' AND run_at <= ? AND kind IN (${list(params.kinds.length)})
            AND (lane IS NULL OR (NOT EXISTS (SELECT 1 FROM jobs busy WHERE busy.lane = jobs.lane AND busy.state = 'running')
              AND jobs.id = (SELECT head.id FROM jobs head WHERE head.lane = jobs.lane AND head.state = 'queued' ORDER BY head.run_at, head.id LIMIT 1)))
          ORDER BY run_at, id LIMIT ?${this.lockDue}`,
        [now, ...params.kinds, params.limit],
      );
      // Claims that lapsed (their worker is gone): few, so judged one by one.
      const lapsed = await tx.all<Due>(
        `SELECT id, state, run_at AS "runAt", attempts, max_attempts AS "maxAttempts" FROM jobs
          WHERE state = 'running' AND locked_until <= ? AND kind IN (${list(params.kinds.length)})
            AND (lane IS NULL OR NOT EXISTS (SELECT 1 FROM jobs ahead WHERE ahead.lane = jobs.lane AND ahead.id <> jobs.id
              AND (ahead.state = 'running' OR (ahead.state = 'queued' AND (ahead.run_at < jobs.run_at OR (ahead.run_at = jobs.run_at AND ahead.id < jobs.id))))))
          ORDER BY run_at, id LIMIT ?${this.lockDue}`,
        [now, ...params.kinds, params.limit],
      );
      const due = [...queued, ...lapsed].sort((a, b) => Number(a.runAt) - Number(b.runAt) || a.id - b.id).slice(0, params.limit);
      const spent = due.filter((row) => row.state === 'running' && row.attempts >= row.maxAttempts).map((row) => row.id);
      const ids = due.filter((row) => !spent.includes(row.id)).map((row) => row.id);
      if (spent.length > 0) {
        await tx.run(`UPDATE jobs SET state = 'dead', locked_until = NULL, last_error = ?, updated_at = ? WHERE id IN (${list(spent.length)})`, [LAPSED_ON_LAST_ATTEMPT, now, ...spent]);
      }
      if (ids.length === 0) return [];
      const claimed = await tx.all<{ id: number; kind: string; payload: string; attempts: number; maxAttempts: number }>(
        `UPDATE jobs SET state = 'running', attempts = attempts + 1, claimed_by = ?, locked_until = ?, updated_at = ?
          WHERE id IN (${list(ids.length)}) RETURNING id, kind, payload, attempts, max_attempts AS "maxAttempts"`,
        [params.worker, now + params.lockMs, now, ...ids],
      );
      return claimed
        .sort((a, b) => ids.indexOf(a.id) - ids.indexOf(b.id))
        .map((row) => ({ id: row.id, kind: row.kind, payload: JSON.parse(row.payload) as unknown, attempt: row.attempts, maxAttempts: row.maxAttempts }));
    });
  }

  /** Records the job done. False when its claim had lapsed and another worker has taken it since. */
  async complete(job: ClaimedJob): Promise<boolean> {
    return (await this.store.run(COMPLETE, [this.now(), job.id, job.attempt])).changes === 1;
  }

  /**
   * Records a failed attempt: queued again after the kind's backoff, or dead after the last
   * attempt or a permanent failure. 'lost' when the claim had lapsed and been taken since.
   */
  async fail(job: ClaimedJob, reason: string, permanent = false): Promise<'queued' | 'dead' | 'lost'> {
    const now = this.now();
    const outcome = afterFailure({ attempt: job.attempt, maxAttempts: job.maxAttempts, permanent, now, policy: this.policy(job.kind) });
    const runAt = outcome.state === 'queued' ? outcome.runAt : now;
    const { changes } = await this.store.run(FAIL, [outcome.state, runAt, reason.slice(0, 2000), now, job.id, job.attempt]);
    return changes === 1 ? outcome.state : 'lost';
  }

  /** Keeps a long job's claim for `lockMs` more. False when it had lapsed and been taken. */
  async extend(job: ClaimedJob, lockMs: number): Promise<boolean> {
    const now = this.now();
    return (await this.store.run(EXTEND, [now + lockMs, now, job.id, job.attempt])).changes === 1;
  }

  /**
   * Hands a claim back at once (a stopping worker gives up on a job still running): the next
   * claim need not wait for the lapse. Its late report is refused like any lapsed claim's.
   */
  async release(job: ClaimedJob): Promise<boolean> {
    const now = this.now();
    return (await this.store.run(RELEASE, [now, now, job.id, job.attempt])).changes === 1;
  }

  /**
   * Every live claim lapses now. Only for the one worker of a database no other node uses
   * (SQLite): at its start, whatever is `running` was left by a process that is gone.
   */
  async releaseAll(): Promise<number> {
    const now = this.now();
    return (await this.store.run(RELEASE_ALL, [now, now, now])).changes;
  }

  /** When the job would run again if its attempt failed now (null: it would be dead). */
  retryAt(job: ClaimedJob): number | null {
    const outcome = afterFailure({ attempt: job.attempt, maxAttempts: job.maxAttempts, permanent: false, now: this.now(), policy: this.policy(job.kind) });
    return outcome.state === 'queued' ? outcome.runAt : null;
  }

  /** Sets a kind's retry policy (a feature registering its handler). */
  definePolicy(kind: string, policy: Partial<RetryPolicy>): void {
    this.policies = { ...this.policies, [kind]: policy };
  }

  /** Removes a job that has not started. False once it runs (too late) or is finished. */
  async cancel(id: number): Promise<boolean> {
    return (await this.store.run(CANCEL, [id])).changes === 1;
  }

  /** Removes the pending job of a kind and dedupe key that has not started. False once it runs, or when there is none. */
  async cancelPending(kind: string, dedupeKey: string): Promise<boolean> {
    return (await this.store.run(CANCEL_BY_KEY, [kind, dedupeKey])).changes === 1;
  }

  async get(id: number): Promise<Job | undefined> {
    const row = await this.store.get<Job & { payload: string }>(`SELECT ${JOB_COLUMNS} FROM jobs WHERE id = ?`, [id]);
    return row && { ...row, payload: JSON.parse(row.payload) as unknown };
  }

  /** When the next job of `kinds` becomes claimable (due, or its claim lapses); null when none waits. */
  async nextDueAt(kinds: readonly string[]): Promise<number | null> {
    if (kinds.length === 0) return null;
    // Two look-ups along jobs_due rather than one MIN over every pending job (the loop asks after each job).
    const marks = list(kinds.length);
    const queued = await this.store.get<{ at: number }>(`SELECT run_at AS "at" FROM jobs WHERE state = 'queued' AND kind IN (${marks}) ORDER BY run_at LIMIT 1`, [...kinds]);
    const lapsing = await this.store.get<{ at: number | null }>(`SELECT MIN(locked_until) AS "at" FROM jobs WHERE state = 'running' AND kind IN (${marks})`, [...kinds]);
    const times = [queued?.at, lapsing?.at].filter((at): at is number => at !== null && at !== undefined).map(Number);
    return times.length === 0 ? null : Math.min(...times);
  }

  /** Deletes done jobs last touched before `before` (dead ones stay for the operator). How many. */
  async deleteDone(before: number): Promise<number> {
    return (await this.store.run(DELETE_DONE, [before])).changes;
  }

  private policy(kind: string): RetryPolicy {
    return { ...DEFAULT_RETRY_POLICY, ...this.policies[kind] };
  }
}
