/**
 * When a failed gateway request is tried again (spec §4 "Retry", §9 default delay 50 ms):
 * unless its error is on the no-retry list, or the reply says `retry: false`.
 */
import { ERROR_CATALOGUE, TernError, type ErrorName } from '../../shared/errors';
import { backoffDelay } from '../net/backoff';

/** Spec §9: the retry helper's default delay. Later attempts double it. */
export const DEFAULT_RETRY_DELAY_MS = 50;
/** Attempts after the first; a sync or outbox loop retries beyond that with its own backoff. */
export const DEFAULT_RETRIES = 2;

/**
 * 4xx answers that are worth another try: the request itself was fine, the moment was not.
 * Every other 4xx means the same request will get the same answer.
 */
const RETRYABLE_CLIENT_ERRORS: ReadonlySet<ErrorName> = new Set(['RequestTimeout', 'TooManyRequests']);

/** 5xx and status-less errors that another try cannot fix (a provider we do not support, local storage). */
const PERMANENT_OTHER_ERRORS: readonly ErrorName[] = [
  'ImapHostNotFound',
  'UnsupportedNonStickyImapProvider',
  'ServiceNotFound',
  'QuotaExceeded',
  'DatabaseClosed',
  'DatabaseError',
];

/** The no-retry list: every catalogue error a repeat cannot change. */
export const NO_RETRY_ERRORS: ReadonlySet<ErrorName> = new Set([
  ...(Object.keys(ERROR_CATALOGUE) as ErrorName[]).filter((name) => {
    const status = ERROR_CATALOGUE[name].status;
    return status !== null && status >= 400 && status < 500 && !RETRYABLE_CLIENT_ERRORS.has(name);
  }),
  ...PERMANENT_OTHER_ERRORS,
]);

/** Whether the reply body forbids a retry (`{ retry: false }`, at the top or in `detail`). */
export function replyForbidsRetry(body: unknown): boolean {
  if (typeof body !== 'object' || body === null) return false;
  const record = body as { retry?: unknown; detail?: unknown };
  if (record.retry === false) return true;
  return typeof record.detail === 'object' && record.detail !== null && (record.detail as { retry?: unknown }).retry === false;
}

/** True for the error the HTTP client throws when no answer came at all (offline, connection refused). */
export function isNetworkError(error: unknown): boolean {
  return error instanceof TernError && error.name === 'OperationFailed' && (error.detail as { network?: unknown } | undefined)?.network === true;
}

/** Whether another attempt may succeed. */
export function isRetryable(error: unknown, replyBody?: unknown): boolean {
  if (!(error instanceof TernError)) return false; // a bug or an abort, not the network
  if (replyBody !== undefined && replyForbidsRetry(replyBody)) return false;
  return !NO_RETRY_ERRORS.has(error.name);
}

/** Delay before retry number `attempt` (1-based): 50, 100, 200 … ms. */
export function retryDelay(attempt: number, baseMs = DEFAULT_RETRY_DELAY_MS): number {
  // No jitter: two retries of one request are a few ms apart; the loops above add their own.
  return backoffDelay(attempt, { baseMs, maxMs: Number.POSITIVE_INFINITY });
}
