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
}

export const DEFAULT_MIRROR_OPTIONS: MirrorOptions = {
  firstPageSize: 100,
  pageSize: 500,
  sweepIntervalMs: 15_000,
  backoffBaseMs: 500,
  backoffCapMs: 30_000,
  connectWaitMs: 15_000,
};

/** Without CONDSTORE, every this many sweeps each folder's flags are read again. */
export const FLAG_RECHECK_SWEEPS = 4;
/** How long sweeps leave a folder alone after its sync step failed (resyncNow still runs it). */
export const FAILED_FOLDER_COOLDOWN_MS = 60_000;
