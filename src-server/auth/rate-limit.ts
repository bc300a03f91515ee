import { TernError } from '../../shared/errors';

/**
 * Failed logins allowed per address in a window: enough for a person who mistypes a few
 * times (or whose mail app retries with an old password), far too few to guess a password.
 */
export const ADDRESS_FAILURE_LIMIT = 10;
/**
 * Failed logins allowed per client IP in a window: higher than per address because an
 * office or a carrier NAT puts many people behind one IP, low enough that one machine
 * cannot spray a common password over many addresses.
 */
export const IP_FAILURE_LIMIT = 30;
/** Long enough to make online guessing useless (≤ 40 tries an hour), short enough that a locked-out person waits minutes, not hours. */
export const FAILURE_WINDOW_MS = 15 * 60 * 1000;
/** Keys kept before expired ones are swept; bounds memory under a flood of made-up addresses. */
const MAX_KEYS = 100_000;

/**
 * Counts events per key over the last `windowMs` (a sliding log, not fixed buckets, so a
 * burst across a bucket edge cannot double the allowance). Only the newest `limit` stamps
 * of a key are kept: older ones cannot change the answer.
 */
export class SlidingWindow {
  private readonly hits = new Map<string, number[]>();

  constructor(private readonly params: { limit: number; windowMs: number; now: () => number }) {}

  /** Events of `key` still inside the window. */
  count(key: string): number {
    return this.live(key).length;
  }

  /** Milliseconds until `key` drops below the limit again (0 when it is below already). */
  retryAfterMs(key: string): number {
    const stamps = this.live(key);
    if (stamps.length < this.params.limit) return 0;
    return stamps[stamps.length - this.params.limit]! + this.params.windowMs - this.params.now();
  }

  /** Records one event and returns its stamp (for `remove`). */
  add(key: string): number {
    const stamp = this.params.now();
    const stamps = this.live(key);
    stamps.push(stamp);
    if (stamps.length > this.params.limit) stamps.splice(0, stamps.length - this.params.limit);
    this.hits.set(key, stamps);
    if (this.hits.size > MAX_KEYS) this.sweep();
    return stamp;
  }

  /** Takes back one event recorded by `add` (an attempt that turned out not to be a failure). */
  remove(key: string, stamp: number): void {
    const stamps = this.hits.get(key);
    const index = stamps?.lastIndexOf(stamp) ?? -1;
    if (stamps && index >= 0) stamps.splice(index, 1);
    if (stamps?.length === 0) this.hits.delete(key);
  }

  clear(key: string): void {
    this.hits.delete(key);
  }

  private live(key: string): number[] {
    const stamps = this.hits.get(key);
    if (!stamps) return [];
    const oldest = this.params.now() - this.params.windowMs;
    const firstLive = stamps.findIndex((stamp) => stamp > oldest);
    if (firstLive === -1) {
      this.hits.delete(key);
      return [];
    }
    if (firstLive > 0) stamps.splice(0, firstLive);
    return stamps;
  }

  private sweep(): void {
    for (const key of [...this.hits.keys()]) this.live(key);
    // Still full of live keys: forget the oldest-inserted ones rather than grow without bound.
    for (const key of this.hits.keys()) {
      if (this.hits.size <= MAX_KEYS) break;
      this.hits.delete(key);
    }
  }
}

/** Two addresses that reach the same mailbox (case, `+suffix`) share one allowance. */
export function throttleKeyOf(email: string): string {
  const at = email.lastIndexOf('@');
  const local = email.slice(0, at).split('+')[0] ?? '';
  return `${local}@${email.slice(at + 1)}`.toLowerCase();
}

/** One login attempt in flight; settle it with `LoginThrottle.succeeded` or `.failed`. */
export interface LoginAttempt {
  readonly address: string;
  readonly ip: string;
  readonly addressStamp: number;
  readonly ipStamp: number;
}

/**
 * The login rate limit of DESIGN §5, per address and per IP. An attempt is counted when it
 * starts, so a burst of parallel guesses is limited like a sequence of them; a successful
 * login takes its own count back (successes never count) and clears the address's failures.
 */
export class LoginThrottle {
  private readonly byAddress: SlidingWindow;
  private readonly byIp: SlidingWindow;

  constructor(params: { now?: () => number; addressLimit?: number; ipLimit?: number; windowMs?: number } = {}) {
    const now = params.now ?? Date.now;
    const windowMs = params.windowMs ?? FAILURE_WINDOW_MS;
    this.byAddress = new SlidingWindow({ limit: params.addressLimit ?? ADDRESS_FAILURE_LIMIT, windowMs, now });
    this.byIp = new SlidingWindow({ limit: params.ipLimit ?? IP_FAILURE_LIMIT, windowMs, now });
  }

  /** Counts an attempt, or throws `TooManyRequests` (without counting) when a limit is reached. */
  begin(params: { email: string; ip: string }): LoginAttempt {
    const address = throttleKeyOf(params.email);
    const wait = Math.max(this.byAddress.retryAfterMs(address), this.byIp.retryAfterMs(params.ip));
    if (wait > 0) throw new TernError('TooManyRequests', { detail: { retryAfterSeconds: Math.ceil(wait / 1000) } });
    return { address, ip: params.ip, addressStamp: this.byAddress.add(address), ipStamp: this.byIp.add(params.ip) };
  }

  succeeded(attempt: LoginAttempt): void {
    this.byAddress.clear(attempt.address);
    this.byIp.remove(attempt.ip, attempt.ipStamp);
  }

  /**
   * A failure that says nothing about the password (e.g. an unknown domain) still costs the
   * IP one attempt, but not the address.
   */
  failed(attempt: LoginAttempt, params: { countsForAddress: boolean }): void {
    if (!params.countsForAddress) this.byAddress.remove(attempt.address, attempt.addressStamp);
  }
}
