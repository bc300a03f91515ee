/**
 * What happens to a job after a failed attempt: pure, so the queue's SQL only records the
 * decision. Exponential backoff with a cap, then `dead` after the last attempt (kept for the
 * operator to read, never run again on its own).
 */
export interface RetryPolicy {
  /** Attempts in all, the first included; a job that dies on its last one is dead. */
  readonly maxAttempts: number;
  /** Wait after the first failure. */
  readonly firstDelayMs: number;
  /** Each further failure multiplies the wait by this. */
  readonly factor: number;
  /** The wait never grows past this. */
  readonly maxDelayMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxAttempts: 5,
  firstDelayMs: 5_000,
  factor: 4,
  maxDelayMs: 30 * 60_000,
};

/** The wait before the attempt after attempt number `attempt` (1 for the first) failed. */
export function retryDelayMs(attempt: number, policy: RetryPolicy): number {
  const delay = policy.firstDelayMs * policy.factor ** Math.max(0, attempt - 1);
  return Math.min(policy.maxDelayMs, delay);
}

export type FailureOutcome = { readonly state: 'queued'; readonly runAt: number } | { readonly state: 'dead' };

/**
 * After attempt `attempt` failed at `now`: queued again after the backoff, or dead when it
 * was the last attempt or the failure is permanent (retrying cannot help: a refused address).
 */
export function afterFailure(params: { readonly attempt: number; readonly maxAttempts: number; readonly permanent: boolean; readonly now: number; readonly policy: RetryPolicy }): FailureOutcome {
  if (params.permanent || params.attempt >= params.maxAttempts) return { state: 'dead' };
  return { state: 'queued', runAt: params.now + retryDelayMs(params.attempt, params.policy) };
}
