import type { SqlStore } from '../store/sql';

/**
 * One IMAP owner per account (DESIGN §7, issue 12 point 3): a lease row per account in the
 * shared database, with a fencing token. A node acquires the lease before it starts an
 * account's mirror, renews it well inside its time to live, and stops the mirror when a
 * renewal fails. Another node takes the account over once the lease has expired (its holder
 * died or stalled); the token goes up by one on every acquire, so it only grows, across
 * takeovers too.
 *
 * Expiry alone cannot stop a stalled holder (a long GC pause, a frozen VM) from writing
 * after the takeover: every mirror write therefore runs `check(accountId, token)` in its own
 * transaction first, and a stale token refuses the write. On PostgreSQL the check holds a
 * share lock on the lease row until that transaction ends, so a takeover waits for a write
 * already checked (and any write after the takeover sees the new token); on SQLite every
 * transaction holds the whole database, which gives the same order.
 *
 * Each step is one statement, atomic on its own under PostgreSQL's READ COMMITTED with any
 * number of nodes: acquire is an INSERT … ON CONFLICT DO UPDATE … WHERE (the conflicting row
 * is locked and the condition evaluated on its newest version), renew and release are
 * conditional UPDATEs. Time is the injected clock's; the nodes' clocks must agree to well
 * within the time to live (the fencing token keeps writes safe even when they do not).
 */
export interface AccountLease {
  readonly accountId: number;
  /** The node (process) holding it: unique per process, so a restarted node is a new holder. */
  readonly holder: string;
  readonly token: number;
  /** Epoch ms; the lease is live while now < expiresAt. */
  readonly expiresAt: number;
}

/** A mirror write refused: the token it carries is no longer the account's live lease. */
export class StaleLeaseError extends Error {
  override readonly name = 'StaleLeaseError';
  constructor(
    readonly accountId: number,
    readonly token: number,
    /** What the database holds now (null: no lease was ever taken for the account). */
    readonly current: AccountLease | null,
    now: number,
  ) {
    super(staleReason(accountId, token, current, now));
  }
}

export interface AccountLeasesDeps {
  readonly store: SqlStore;
  readonly now?: () => number;
}

// A released lease keeps its row (and token) with expires_at 0: the next acquire goes on from it.
const ACQUIRE = `INSERT INTO account_leases (account_id, holder, token, expires_at) VALUES (?, ?, 1, ?)
  ON CONFLICT (account_id) DO UPDATE SET holder = excluded.holder, token = account_leases.token + 1, expires_at = excluded.expires_at
  WHERE account_leases.expires_at <= ? OR account_leases.holder = excluded.holder
  RETURNING token`;
/** ACQUIRE for many accounts in one statement: the rows it took come back (a live lease of another holder's is skipped). */
const acquireMany = (count: number) => `INSERT INTO account_leases (account_id, holder, token, expires_at) VALUES ${Array.from({ length: count }, () => '(?, ?, 1, ?)').join(', ')}
  ON CONFLICT (account_id) DO UPDATE SET holder = excluded.holder, token = account_leases.token + 1, expires_at = excluded.expires_at
  WHERE account_leases.expires_at <= ? OR account_leases.holder = excluded.holder
  RETURNING account_id AS "accountId", token`;
/** Accounts per acquireMany statement: 3 values each, far under both engines' limits on parameters. */
const ACQUIRE_CHUNK = 500;
const RENEW = 'UPDATE account_leases SET expires_at = ? WHERE account_id = ? AND holder = ? AND token = ? AND expires_at > ?';
const RELEASE = 'UPDATE account_leases SET expires_at = 0 WHERE account_id = ? AND holder = ? AND token = ?';
const RENEW_ALL = 'UPDATE account_leases SET expires_at = ? WHERE holder = ? AND expires_at > ? RETURNING account_id AS "accountId", token';
const HELD_ELSEWHERE = 'SELECT account_id AS "accountId", expires_at AS "expiresAt" FROM account_leases WHERE holder <> ? AND expires_at > ?';
const HEARTBEAT = `INSERT INTO cluster_nodes (holder, expires_at) VALUES (?, ?)
  ON CONFLICT (holder) DO UPDATE SET expires_at = excluded.expires_at`;
const LIVE_NODES = 'SELECT COUNT(*) AS "count" FROM cluster_nodes WHERE expires_at > ?';
const FORGET_NODES = 'DELETE FROM cluster_nodes WHERE expires_at <= ?';
const LEAVE = 'DELETE FROM cluster_nodes WHERE holder = ?';
const CURRENT = 'SELECT account_id AS "accountId", holder, token, expires_at AS "expiresAt" FROM account_leases WHERE account_id = ?';

export class AccountLeases {
  private readonly store: SqlStore;
  private readonly now: () => number;
  /** The check's read; on PostgreSQL it locks the row until the write's transaction ends. */
  private readonly checkSql: string;

  constructor(deps: AccountLeasesDeps) {
    this.store = deps.store;
    this.now = deps.now ?? Date.now;
    // The one place the engines differ: SQLite has no row locks (a transaction holds the whole file).
    this.checkSql = deps.store.dialect === 'postgres' ? `${CURRENT} FOR SHARE` : CURRENT;
  }

  /**
   * Takes the account's lease for `ttlMs` when it is free, released or expired (or already
   * `holder`'s): the new fencing token, greater than every token given for the account
   * before. Null while another holder's lease is live.
   */
  async acquire(accountId: number, holder: string, ttlMs: number): Promise<number | null> {
    assertHolder(holder);
    assertTtl(ttlMs);
    const now = this.now();
    const row = await this.store.get<{ token: number }>(ACQUIRE, [accountId, holder, now + ttlMs, now]);
    return row?.token ?? null;
  }

  /**
   * `acquire` for many accounts, a statement per 500 of them rather than one each: a node
   * taking over hundreds of accounts from a dead one holds them all within a round trip or
   * two. The new tokens of the accounts it took; the others' live leases are another's.
   */
  async acquireMany(accountIds: readonly number[], holder: string, ttlMs: number): Promise<Map<number, number>> {
    assertHolder(holder);
    assertTtl(ttlMs);
    const now = this.now();
    const tokens = new Map<number, number>();
    // One statement may not upsert a row twice (PostgreSQL refuses it).
    const unique = [...new Set(accountIds)];
    for (let start = 0; start < unique.length; start += ACQUIRE_CHUNK) {
      const chunk = unique.slice(start, start + ACQUIRE_CHUNK);
      const rows = await this.store.all<{ accountId: number; token: number }>(acquireMany(chunk.length), [...chunk.flatMap((accountId) => [accountId, holder, now + ttlMs]), now]);
      for (const row of rows) tokens.set(row.accountId, row.token);
    }
    return tokens;
  }

  /**
   * Extends a live lease to now + `ttlMs`. False once it is lost: expired (another node may
   * have taken it, or may any moment), released, or taken over. The holder then stops
   * writing and may try `acquire` again, which gives a new token.
   */
  async renew(accountId: number, holder: string, token: number, ttlMs: number): Promise<boolean> {
    assertTtl(ttlMs);
    const now = this.now();
    return (await this.store.run(RENEW, [now + ttlMs, accountId, holder, token, now])).changes === 1;
  }

  /**
   * `renew` for every live lease of `holder` in one statement (a node holding a thousand
   * accounts renews them in one round trip): the accounts renewed, with their tokens.
   */
  async renewAll(holder: string, ttlMs: number): Promise<Map<number, number>> {
    assertTtl(ttlMs);
    const now = this.now();
    const rows = await this.store.all<{ accountId: number; token: number }>(RENEW_ALL, [now + ttlMs, holder, now]);
    return new Map(rows.map((row) => [row.accountId, row.token]));
  }

  /** The accounts whose live lease another holder has (not worth an acquire now), each with the ms left until it lapses unrenewed. */
  async heldElsewhere(holder: string): Promise<Map<number, number>> {
    const now = this.now();
    const rows = await this.store.all<{ accountId: number; expiresAt: number }>(HELD_ELSEWHERE, [holder, now]);
    return new Map(rows.map((row) => [row.accountId, row.expiresAt - now]));
  }

  /** Gives the lease up (a node stopping, an account moved): free at once for another node. False when it was no longer held. */
  async release(accountId: number, holder: string, token: number): Promise<boolean> {
    return (await this.store.run(RELEASE, [accountId, holder, token])).changes === 1;
  }

  /**
   * The node says it is alive for `ttlMs` more (with its leases' renewal): how many nodes are
   * alive now, itself included. Nodes dead for a while are forgotten on the way.
   */
  async heartbeat(holder: string, ttlMs: number): Promise<number> {
    assertHolder(holder);
    assertTtl(ttlMs);
    const now = this.now();
    await this.store.run(HEARTBEAT, [holder, now + ttlMs]);
    await this.store.run(FORGET_NODES, [now - 10 * ttlMs]);
    return Number((await this.store.get<{ count: number | string }>(LIVE_NODES, [now]))?.count ?? 1);
  }

  /** The node stops: it no longer counts among the live ones (the others' shares grow at once). */
  async leave(holder: string): Promise<void> {
    await this.store.run(LEAVE, [holder]);
  }

  /**
   * For every mirror write, inside the write's own transaction and before it: throws
   * StaleLeaseError unless `token` is the account's live lease. On PostgreSQL the row stays
   * share-locked until that transaction ends, so no takeover can slip between check and write.
   */
  async check(accountId: number, token: number): Promise<void> {
    const current = (await this.store.get<AccountLease>(this.checkSql, [accountId])) ?? null;
    const now = this.now();
    if (!current || current.token !== token || current.expiresAt <= now) throw new StaleLeaseError(accountId, token, current, now);
  }

  /** The live lease of the account, or null: where its commands go (the owner's node). */
  async current(accountId: number): Promise<AccountLease | null> {
    const row = await this.store.get<AccountLease>(CURRENT, [accountId]);
    return row && row.expiresAt > this.now() ? row : null;
  }
}

function staleReason(accountId: number, token: number, current: AccountLease | null, now: number): string {
  const refused = `A write for account ${accountId} under lease token ${token} was refused`;
  if (!current) return `${refused}: no node has ever held that account's lease.`;
  if (current.token !== token) return `${refused}: the lease has moved on to token ${current.token} (held by ${current.holder}).`;
  if (current.expiresAt === 0) return `${refused}: its holder ${current.holder} released the lease.`;
  return `${refused}: the lease expired ${now - current.expiresAt} ms ago and another node may take the account over.`;
}

function assertHolder(holder: string): void {
  if (holder === '') throw new Error('A lease holder needs a name (the node that holds it).');
}

function assertTtl(ttlMs: number): void {
  if (!Number.isFinite(ttlMs) || ttlMs <= 0) throw new Error(`A lease's time to live must be a positive number of milliseconds, not ${ttlMs}.`);
}
