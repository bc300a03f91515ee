/**
 * The engine's one backoff: how long to wait before the next attempt after `failures`
 * failed ones, doubling from a base to a cap, with jitter where many engines may fail
 * together (sync pulls, websocket reconnects, outbox sends: every tab's engine that lost
 * the gateway at once must not come back in the same millisecond). Every other doubling
 * delay of the engine (the HTTP retry, the online re-check, the send follow-up, the
 * analytics queue) is this function with its own policy, so they cannot drift apart.
 */
export interface BackoffPolicy {
  /** The delay after the first failure. */
  readonly baseMs: number;
  /** No delay grows beyond this. */
  readonly maxMs: number;
  /**
   * The random share of each delay, 0..1: 0.5 is "equal jitter" (never less than half the
   * doubled delay, so a broken gateway is not hammered); 0 is an exact, repeatable delay.
   */
  readonly jitter?: number;
}

export const SYNC_BACKOFF: BackoffPolicy = { baseMs: 1_000, maxMs: 60_000, jitter: 0.5 };
export const SOCKET_BACKOFF: BackoffPolicy = { baseMs: 500, maxMs: 30_000, jitter: 0.5 };

/**
 * The delay before attempt number `failures` + 1: `baseMs` after one failure, doubled
 * after each further one, never above `maxMs`; then the `jitter` share of it is random.
 */
export function backoffDelay(failures: number, policy: BackoffPolicy, random: () => number = Math.random): number {
  const doubled = Math.min(policy.maxMs, policy.baseMs * 2 ** Math.max(0, failures - 1));
  const jitter = Math.min(1, Math.max(0, policy.jitter ?? 0));
  if (jitter === 0) return doubled;
  return Math.round(doubled * (1 - jitter) + doubled * jitter * random());
}
