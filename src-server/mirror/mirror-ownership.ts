import { SessionStore } from '../accounts/session-store';
import { AccountLeases } from '../cluster/account-leases';
import { PostgresStore } from '../store/postgres-store';
import type { SqlStore } from '../store/sql';
import type { MirrorOwnership } from './mirror-manager';

/**
 * A node's share of the accounts on PostgreSQL (DESIGN §7 "one IMAP owner per account"). The
 * lease keeper works on a connection of its own: on the main pool its renewals queued behind
 * the mirrors' traffic, and a node that had just taken over hundreds of accounts (whose
 * mirrors all start at once) kept them waiting past the TTL and lost every lease it had
 * taken (the failover-300 benchmark). The fencing check stays on the main store: it runs
 * inside each mirror write's transaction. `close` (MirrorManager.stopAll) ends the connection.
 */
export function postgresOwnership(params: {
  /** The main store, which the mirrors write through. */
  readonly store: SqlStore;
  readonly databaseUrl: string;
  readonly holder: string;
  readonly ttlMs: number;
  readonly spread?: MirrorOwnership['spread'];
  readonly onError?: (error: unknown) => void;
}): MirrorOwnership {
  const own = PostgresStore.connect(params.databaseUrl, { max: 1 });
  const sessions = new SessionStore(own);
  return {
    leases: new AccountLeases({ store: own }),
    fencing: new AccountLeases({ store: params.store }),
    wanted: () => sessions.activeAccountIds(),
    holder: params.holder,
    ttlMs: params.ttlMs,
    ...(params.spread ? { spread: params.spread } : {}),
    onError: params.onError,
    close: () => own.close(),
  };
}
