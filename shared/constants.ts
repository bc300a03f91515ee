/** Business constants of spec §9 that more than one module reads. */

/** Time units in milliseconds. */
export const TIME = {
  second: 1_000,
  minute: 60_000,
  hour: 3_600_000,
  day: 86_400_000,
} as const;

/** Analytics queues (§3, §4, §9). */
export const ANALYTICS_LIMITS = {
  /** Most events in one POST. */
  batchSize: 100,
  /** Least time between two sends of one queue. */
  sendThrottleMs: 5 * TIME.second,
  /** Quiet time before a changed queue is written to IndexedDB. */
  persistDebounceMs: 2 * TIME.second,
  /** Longest wait between retries of a queue whose sends keep failing (offline, 5xx). */
  maxRetryDelayMs: 5 * TIME.minute,
} as const;

/** Types of a log line (spec §3 Log entity). */
export const LOG_TYPES = ['API', 'Error', 'Action', 'Performance', 'Info'] as const;
export type LogType = (typeof LOG_TYPES)[number];

/** The local log (§4, §9). */
export const LOG_LIMITS = {
  /** Buffered entries are written this often. */
  writeIntervalMs: 30 * TIME.second,
  /** Rows older than this are purged. */
  maxAgeMs: 5 * TIME.day,
  /** How often old rows are looked for. */
  ageCheckIntervalMs: TIME.day,
  /** How often browser storage is measured. */
  storageCheckIntervalMs: 2 * TIME.minute,
  /** Storage threshold: the smaller of this and `storageQuotaShare` of the quota. */
  maxStorageBytes: 2048 * 1024 * 1024,
  storageQuotaShare: 0.2,
  /** Share of the log rows deleted when storage is over the threshold. */
  deletedShareOnOverflow: 0.5,
  /**
   * Share of the in-memory buffer kept when it overflows (writes failing for a long
   * time): the newest 60 % stay, so the buffer cannot grow without bound.
   */
  overflowRatio: 0.6,
  /** Most entries held in memory between two writes. */
  maxBufferedEntries: 5_000,
} as const;

/** Schema versions of the per-account database (§3, §9). */
export const LOCAL_DB_VERSION = 19;
