/**
 * Waits between failed attempts (sync pulls, websocket reconnects, outbox sends):
 * doubling from a base to a cap, with jitter so that many tabs' engines that lost the
 * gateway together do not come back in the same millisecond.
 */
export interface BackoffPolicy {
  readonly baseMs: number;
  readonly maxMs: number;
}

export const SYNC_BACKOFF: BackoffPolicy = { baseMs: 1_000, maxMs: 60_000 };
export const SOCKET_BACKOFF: BackoffPolicy = { baseMs: 500, maxMs: 30_000 };

/**
 * The delay before attempt number `failures` + 1. Half of it is fixed and half random
 * ("equal jitter"): never less than half the doubled delay, so a broken gateway is not hammered.
 */
export function backoffDelay(failures: number, policy: BackoffPolicy, random: () => number = Math.random): number {
  const doubled = Math.min(policy.maxMs, policy.baseMs * 2 ** Math.max(0, failures - 1));
  return Math.round(doubled / 2 + (doubled / 2) * random());
}
