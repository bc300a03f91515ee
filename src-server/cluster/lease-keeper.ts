import type { AccountLeases } from './account-leases';

export interface LeaseKeeperDeps {
  readonly leases: AccountLeases;
  /** This node's holder name: unique per process (a restarted node is a new holder). */
  readonly holder: string;
  /** A lease's time to live; the keeper renews every third of it, so two renewals may fail before it lapses. */
  readonly ttlMs: number;
  /** The accounts this node should run if free (every account, or the node's share). */
  readonly wanted: () => Promise<readonly number[]>;
  /** The node now owns the account: start its mirror, writing under `token`. */
  readonly onGained: (accountId: number, token: number) => void;
  /** The node no longer owns it (lost, expired, released): stop its mirror at once. */
  readonly onLost: (accountId: number, token: number) => void;
  /** At most this many accounts held at once; unlimited when absent. */
  readonly maxHeld?: number;
  /**
   * Spread the accounts over the live nodes (each keeper's heartbeat counts them): a node
   * takes accounts only while it holds fewer than its share, ceil(wanted / live nodes), and
   * gives up the ones over share + `slack` (the newest accounts first) for the others to take.
   * The slack keeps an account's mirror from moving at every small change of the count.
   * Absent: no spreading (the first node to see an account takes it).
   */
  readonly spread?: { readonly slack: number };
  readonly onError?: (error: unknown) => void;
}

/**
 * Keeps this node's account leases (DESIGN §7 "one IMAP owner per account"): each `tick`
 * renews what it holds, tells `onLost` about any it could not renew, gives up the ones no
 * longer wanted, and acquires wanted accounts that are free or whose holder died. The
 * mirror starts an account on `onGained` and stops it on `onLost`; its writes carry the
 * token and are checked (AccountLeases.check), so a stop that comes late still writes
 * nothing. `start` ticks every ttl/3 on a timer; tests call `tick` with their own clock.
 *
 * With `spread`, the nodes share the accounts out evenly and deterministically: every node
 * sees the same wanted accounts (live sessions) and the same count of live nodes, so each
 * fills up to the same share; a node that joins takes what the others shed above theirs,
 * and when a node dies its heartbeat lapses with its leases and the others' shares grow.
 */
/** How long after another holder's lease lapses the keeper looks: clocks and the database's own timing agree to this much. */
const LAPSE_MARGIN_MS = 50;

export class LeaseKeeper {
  private readonly held = new Map<number, number>();
  private timer: NodeJS.Timeout | null = null;
  /** A one-shot tick at the next lapse of a wanted account's lease elsewhere, when that comes before the regular tick. */
  private wake: NodeJS.Timeout | null = null;
  private ticking: Promise<void> | null = null;
  private lapseInMs: number | null = null;

  constructor(private readonly deps: LeaseKeeperDeps) {}

  /** The accounts held and their tokens (for routing and the status page). */
  holdings(): ReadonlyMap<number, number> {
    return this.held;
  }

  /**
   * After a round: the ms until the first live lease of a wanted account held by another node
   * lapses unrenewed (null: none is held elsewhere). A live holder renews every third of the
   * ttl, so its leases never lapse before this node's next regular tick; one that does lapse
   * first is a dead holder's, and waking then rather than up to ttl/3 later shortens a takeover.
   */
  nextLapseInMs(): number | null {
    return this.lapseInMs;
  }

  /** Ticks every ttl/3 from now on, and at a dead holder's lapse; resolves once the first tick is done (its failure reported, not thrown). */
  start(): Promise<void> {
    if (this.timer) return Promise.resolve();
    const everyMs = Math.max(1, Math.floor(this.deps.ttlMs / 3));
    const tick = (): Promise<void> =>
      this.tick().then(
        () => this.wakeAtLapse(everyMs, tick),
        (error: unknown) => this.deps.onError?.(error),
      );
    this.timer = setInterval(() => void tick(), everyMs);
    this.timer.unref();
    return tick();
  }

  private wakeAtLapse(everyMs: number, tick: () => Promise<void>): void {
    if (this.timer === null || this.wake !== null || this.lapseInMs === null || this.lapseInMs >= everyMs) return;
    this.wake = setTimeout(() => {
      this.wake = null;
      void tick();
    }, this.lapseInMs + LAPSE_MARGIN_MS);
    this.wake.unref();
  }

  /** Stops ticking and releases every lease, so other nodes take the accounts at once rather than after the ttl. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    if (this.wake) clearTimeout(this.wake);
    this.timer = null;
    this.wake = null;
    await this.ticking?.catch(() => undefined);
    for (const [accountId, token] of [...this.held]) {
      this.held.delete(accountId);
      this.deps.onLost(accountId, token);
      await this.deps.leases.release(accountId, this.deps.holder, token).catch((error: unknown) => this.deps.onError?.(error));
    }
    if (this.deps.spread) await this.deps.leases.leave(this.deps.holder).catch((error: unknown) => this.deps.onError?.(error));
  }

  /** One round: renew, give up, acquire. One at a time: a tick asked for during another waits for it. */
  async tick(): Promise<void> {
    while (this.ticking) await this.ticking.catch(() => undefined);
    this.ticking = this.round();
    try {
      await this.ticking;
    } finally {
      this.ticking = null;
    }
  }

  private async round(): Promise<void> {
    const { leases, holder, ttlMs, spread } = this.deps;
    const liveNodes = spread ? await leases.heartbeat(holder, ttlMs) : 1;
    // One statement renews them all, however many the node holds.
    const renewed = await leases.renewAll(holder, ttlMs);
    for (const [accountId, token] of [...this.held]) {
      if (renewed.get(accountId) === token) continue;
      this.held.delete(accountId);
      this.deps.onLost(accountId, token);
    }
    // A live lease of ours the keeper does not know (an acquire whose answer was lost): let it go; it may be taken again below.
    for (const [accountId, token] of renewed) if (!this.held.has(accountId)) await leases.release(accountId, holder, token);
    const wanted = new Set(await this.deps.wanted());
    for (const [accountId, token] of [...this.held]) {
      if (wanted.has(accountId)) continue;
      this.held.delete(accountId);
      this.deps.onLost(accountId, token);
      await leases.release(accountId, holder, token);
    }
    let share = this.deps.maxHeld ?? Infinity;
    if (spread) {
      share = Math.min(share, Math.ceil(wanted.size / Math.max(1, liveNodes)));
      // Over share + slack: the newest accounts go back, for the nodes under their share to take.
      const excess = this.held.size > share + spread.slack ? this.held.size - share : 0;
      const over = [...this.held.keys()].sort((a, b) => b - a).slice(0, excess);
      for (const accountId of over) {
        const token = this.held.get(accountId)!;
        this.held.delete(accountId);
        this.deps.onLost(accountId, token);
        await leases.release(accountId, holder, token);
      }
    }
    const room = Math.max(0, share - this.held.size);
    const taken = await leases.heldElsewhere(holder);
    const lapses = [...wanted].flatMap((accountId) => (taken.has(accountId) ? [taken.get(accountId)!] : []));
    this.lapseInMs = lapses.length > 0 ? Math.min(...lapses) : null;
    const free = [...wanted].filter((accountId) => !this.held.has(accountId) && !taken.has(accountId)).slice(0, room);
    if (free.length === 0) return;
    // All in one statement: a round that took one lease per round trip, while the mirrors it
    // had started crowded the same connection pool, could outlast the TTL on a node taking
    // over hundreds of accounts, and its first leases lapsed before the next round renewed them.
    const tokens = await leases.acquireMany(free, holder, ttlMs);
    for (const accountId of free) {
      const token = tokens.get(accountId);
      if (token === undefined) continue; // another node was quicker
      this.held.set(accountId, token);
      this.deps.onGained(accountId, token);
    }
  }
}
