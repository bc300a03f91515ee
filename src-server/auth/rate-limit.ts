import { isIPv6 } from 'node:net';
import { TernError } from '../../shared/errors';

/**
 * Failed logins allowed per address from one IP in a window: enough for a person who
 * mistypes a few times (or whose mail app retries with an old password), far too few to
 * guess a password.
 */
export const PAIR_FAILURE_LIMIT = 10;
/**
 * Failed logins allowed per address from all IPs together: stops guessing one password
 * from many machines. Past it the address is refused everywhere except from the IPs that
 * logged into it before (KNOWN_PAIR_MS), so strangers' failures do not lock its owner out
 * at home or at work.
 */
export const ADDRESS_FAILURE_LIMIT = 10;
/**
 * Failed logins per client IP in a window before that IP is slowed down. An office or a
 * carrier NAT puts many people behind one IP, so the IP is never refused outright: past
 * the budget its attempts go one at a time (IP_SLOW_LANE_MS apart), the same long-run rate
 * a hard limit of 30 per window would allow a password sprayer, while a colleague's right
 * password still gets through and addresses it logged into before are not slowed at all.
 */
export const IP_FAILURE_LIMIT = 30;
/** Long enough to make online guessing useless (≤ 40 tries an hour), short enough that a locked-out person waits minutes, not hours. */
export const FAILURE_WINDOW_MS = 15 * 60 * 1000;
/** One attempt per this long from an IP over its failure budget (the budget's own average rate). */
export const IP_SLOW_LANE_MS = FAILURE_WINDOW_MS / IP_FAILURE_LIMIT;
/** How long a successful login makes its (IP, address) pair known: exempt from the address and IP limits. */
/**
 * Address checks (the email step's discovery) per IP and window: each costs the gateway DNS
 * and HTTP lookups, so one client may not make it a lookup service. A person types a few.
 */
export const IP_LOOKUP_LIMIT = 60;
export const KNOWN_PAIR_MS = 30 * 24 * 60 * 60 * 1000;
/** Stamps kept past a key's limit, for attempts in flight that may still be taken back (see SlidingWindow). */
const IN_FLIGHT_SLACK = 16;
/** Keys kept before expired ones are swept; bounds memory under a flood of made-up addresses. */
const MAX_KEYS = 100_000;

/**
 * Counts events per key over the last `windowMs` (a sliding log, not fixed buckets, so a
 * burst across a bucket edge cannot double the allowance). Only the newest `limit` stamps
 * of a key, plus IN_FLIGHT_SLACK, are kept: older ones cannot change the answer. The slack
 * is for `remove`: an attempt in flight that succeeds takes its stamp back, and had only
 * `limit` been kept, a real failure pushed out by that stamp would be lost with it.
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
    const keep = this.params.limit + IN_FLIGHT_SLACK;
    if (stamps.length > keep) stamps.splice(0, stamps.length - keep);
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

/** The groups of an IPv6 address, eight of them, `::` filled in (an embedded IPv4 tail counts as two). */
function ipv6Groups(ip: string): string[] {
  const [head = '', tail] = ip.split('::');
  const groups = (part: string) => (part ? part.split(':') : []);
  const width = (parts: string[]) => parts.reduce((sum, part) => sum + (part.includes('.') ? 2 : 1), 0);
  const fill = tail === undefined ? [] : Array<string>(8 - width(groups(head)) - width(groups(tail))).fill('0');
  return [...groups(head), ...fill, ...groups(tail ?? '')].map((group) => (group.includes('.') ? group : group.toLowerCase().replace(/^0+(?=.)/, '')));
}

/**
 * Who a client address stands for in the limits. One IPv6 host usually holds a whole /64
 * (SLAAC privacy addresses, hosting plans), so counting single IPv6 addresses would hand a
 * guesser 2^64 fresh allowances: the /64 is the unit. An IPv4-mapped address is its IPv4.
 */
export function ipKeyOf(ip: string): string {
  const address = ip.split('%', 1)[0]!; // no zone id
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  if (mapped) return mapped[1]!;
  if (isIPv6(address)) return `${ipv6Groups(address).slice(0, 4).join(':')}::/64`;
  return address;
}

/** One login attempt in flight; settle it with `LoginThrottle.succeeded` or `.failed`. */
export interface LoginAttempt {
  readonly address: string;
  /** The client's address as the limits count it (ipKeyOf). */
  readonly ip: string;
  /** The stamps this attempt added to each window, to take back when it was no failure. */
  readonly stamps: { readonly pair: number; readonly address: number; readonly ip: number; readonly slowLane: number | undefined };
}

export const pairKey = (ip: string, address: string) => `${ip} ${address}`;

/** Overrides of the limits (tests use small windows and a clock of their own). */
export interface ThrottleParams {
  readonly now?: () => number;
  readonly pairLimit?: number;
  readonly addressLimit?: number;
  readonly ipLimit?: number;
  readonly lookupLimit?: number;
  readonly windowMs?: number;
}

/** Every limit and window of the throttle, defaults filled in. */
export interface ThrottleLimits {
  readonly now: () => number;
  readonly pairLimit: number;
  readonly addressLimit: number;
  readonly ipLimit: number;
  readonly lookupLimit: number;
  readonly windowMs: number;
  /** The slow lane's window: one attempt per this long (the IP budget's average rate). */
  readonly slowLaneMs: number;
  /** Stamps a window keeps past its limit (see SlidingWindow). */
  readonly inFlightSlack: number;
}

export function throttleLimits(params: ThrottleParams = {}): ThrottleLimits {
  const windowMs = params.windowMs ?? FAILURE_WINDOW_MS;
  const ipLimit = params.ipLimit ?? IP_FAILURE_LIMIT;
  return {
    now: params.now ?? Date.now,
    pairLimit: params.pairLimit ?? PAIR_FAILURE_LIMIT,
    addressLimit: params.addressLimit ?? ADDRESS_FAILURE_LIMIT,
    ipLimit,
    lookupLimit: params.lookupLimit ?? IP_LOOKUP_LIMIT,
    windowMs,
    slowLaneMs: windowMs / ipLimit,
    inFlightSlack: IN_FLIGHT_SLACK,
  };
}

/** The refusal of every limit: the same error whichever node counted. */
export function tooManyRequests(waitMs: number): TernError {
  return new TernError('TooManyRequests', { detail: { retryAfterSeconds: Math.ceil(waitMs / 1000) } });
}

/**
 * The login rate limit of DESIGN §5, per address and per IP, keyed so that nobody's
 * failures refuse somebody else's right password:
 * - per (IP, address): PAIR_FAILURE_LIMIT, then that IP may not try that address;
 * - per address, from all IPs: ADDRESS_FAILURE_LIMIT, then only IPs that logged into it
 *   before may try it;
 * - per IP: IP_FAILURE_LIMIT, then that IP's attempts at addresses it has not logged into
 *   go one per IP_SLOW_LANE_MS (spraying one password over many addresses stays slow).
 * An attempt is counted when it starts, so a burst of parallel guesses is limited like a
 * sequence of them; a successful login takes its own counts back (successes never count),
 * clears the pair's failures and makes the pair known.
 *
 * Two implementations with the same limits and errors: MemoryLoginThrottle (one node) and
 * RedisLoginThrottle (counters every node shares, with TERN_REDIS_URL: DESIGN §7). The
 * memory one answers synchronously, hence the `| Promise` (callers await either).
 */
export interface LoginThrottle {
  /** Counts an address check from `ip`, or throws `TooManyRequests` (without counting) past the limit. */
  lookup(params: { ip: string }): void | Promise<void>;
  /** Counts an attempt, or throws `TooManyRequests` (without counting) when a limit is reached. */
  begin(params: { email: string; ip: string }): LoginAttempt | Promise<LoginAttempt>;
  /** The attempt logged in: its counts are taken back and the (IP, address) pair becomes known. */
  succeeded(attempt: LoginAttempt): void | Promise<void>;
  /**
   * A failure that says nothing about the password (e.g. an unknown domain) still costs the
   * IP one attempt, but not the address.
   */
  failed(attempt: LoginAttempt, params: { countsForAddress: boolean }): void | Promise<void>;
}

/** The LoginThrottle of one node: counters in this process. */
export class MemoryLoginThrottle implements LoginThrottle {
  private readonly byPair: SlidingWindow;
  private readonly byAddress: SlidingWindow;
  private readonly byIp: SlidingWindow;
  private readonly slowLane: SlidingWindow;
  private readonly lookups: SlidingWindow;
  /** (IP, address) pairs that logged in, with when that stops counting; oldest first. */
  private readonly knownPairs = new Map<string, number>();
  private readonly now: () => number;

  constructor(params: ThrottleParams = {}) {
    const limits = throttleLimits(params);
    const { now, windowMs } = limits;
    this.now = now;
    this.byPair = new SlidingWindow({ limit: limits.pairLimit, windowMs, now });
    this.byAddress = new SlidingWindow({ limit: limits.addressLimit, windowMs, now });
    this.byIp = new SlidingWindow({ limit: limits.ipLimit, windowMs, now });
    this.slowLane = new SlidingWindow({ limit: 1, windowMs: limits.slowLaneMs, now });
    this.lookups = new SlidingWindow({ limit: limits.lookupLimit, windowMs, now });
  }

  lookup(params: { ip: string }): void {
    const ip = ipKeyOf(params.ip);
    const wait = this.lookups.retryAfterMs(ip);
    if (wait > 0) throw tooManyRequests(wait);
    this.lookups.add(ip);
  }

  begin(params: { email: string; ip: string }): LoginAttempt {
    const address = throttleKeyOf(params.email);
    const ip = ipKeyOf(params.ip);
    const pair = pairKey(ip, address);
    const known = this.isKnown(pair);
    const slowed = !known && this.byIp.retryAfterMs(ip) > 0;
    const wait = Math.max(
      this.byPair.retryAfterMs(pair),
      known ? 0 : this.byAddress.retryAfterMs(address),
      slowed ? this.slowLane.retryAfterMs(ip) : 0,
    );
    if (wait > 0) throw tooManyRequests(wait);
    return {
      address,
      ip,
      stamps: {
        pair: this.byPair.add(pair),
        address: this.byAddress.add(address),
        ip: this.byIp.add(ip),
        slowLane: slowed ? this.slowLane.add(ip) : undefined,
      },
    };
  }

  succeeded(attempt: LoginAttempt): void {
    const pair = pairKey(attempt.ip, attempt.address);
    this.byPair.clear(pair);
    this.byAddress.remove(attempt.address, attempt.stamps.address);
    this.byIp.remove(attempt.ip, attempt.stamps.ip);
    if (attempt.stamps.slowLane !== undefined) this.slowLane.remove(attempt.ip, attempt.stamps.slowLane);
    this.knownPairs.delete(pair); // re-inserted last: the map stays oldest first
    this.knownPairs.set(pair, this.now() + KNOWN_PAIR_MS);
    for (const [key, until] of this.knownPairs) {
      if (this.knownPairs.size <= MAX_KEYS && until > this.now()) break;
      this.knownPairs.delete(key);
    }
  }

  failed(attempt: LoginAttempt, params: { countsForAddress: boolean }): void {
    if (params.countsForAddress) return;
    this.byPair.remove(pairKey(attempt.ip, attempt.address), attempt.stamps.pair);
    this.byAddress.remove(attempt.address, attempt.stamps.address);
  }

  private isKnown(pair: string): boolean {
    const until = this.knownPairs.get(pair);
    return until !== undefined && until > this.now();
  }
}
