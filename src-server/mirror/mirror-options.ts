/** Tuning of an account's mirror; the defaults suit a webmail against a typical provider. */
export interface MirrorOptions {
  /** Messages in the very first INBOX step: small, so the first screen can show at once. */
  readonly firstPageSize: number;
  /** Messages per later step (backfill, big arrivals). */
  readonly pageSize: number;
  /** How often the STATUS sweep looks for changes made by other clients. */
  readonly sweepIntervalMs: number;
  readonly backoffBaseMs: number;
  readonly backoffCapMs: number;
  /** How long `withMailbox` waits for a connection before failing. */
  readonly connectWaitMs: number;
  /**
   * A connection quiet this long is proved alive before it is trusted: the IDLE watcher
   * leaves IDLE for a NOOP (and so re-issues IDLE, well under RFC 2177's 29 minutes), the
   * sync connection sends a NOOP before its next command.
   */
  readonly livenessCheckMs: number;
  /** How long a liveness NOOP may take before the connection is closed as dead and reopened. */
  readonly livenessTimeoutMs: number;
  /** How long one STATUS sweep (one LIST round trip, or a STATUS per folder) may take before the connection is dropped as dead. */
  readonly sweepTimeoutMs: number;
}

export const DEFAULT_MIRROR_OPTIONS: MirrorOptions = {
  firstPageSize: 100,
  pageSize: 500,
  sweepIntervalMs: 15_000,
  backoffBaseMs: 500,
  backoffCapMs: 30_000,
  connectWaitMs: 15_000,
  // Home routers and mobile carriers forget a quiet TCP mapping after 2–5 minutes; a
  // minute keeps the IDLE connection's mapping alive and finds a dead one in time.
  livenessCheckMs: 60_000,
  livenessTimeoutMs: 10_000,
  // One LIST-STATUS round trip normally; a STATUS per folder without LIST-STATUS. A dead sync
  // connection is then found within a sweep interval plus this (it was the 120 s socket timeout).
  sweepTimeoutMs: 20_000,
};

/** Without CONDSTORE, every this many sweeps each folder's flags are read again. */
export const FLAG_RECHECK_SWEEPS = 4;
/** How long sweeps leave a folder alone after its sync step failed (resyncNow still runs it). */
export const FAILED_FOLDER_COOLDOWN_MS = 60_000;
