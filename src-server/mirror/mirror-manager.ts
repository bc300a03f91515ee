import type { ImapFlow, MailboxObject } from 'imapflow';
import type { AccountStore } from '../accounts/account-store';
import type { SessionStore } from '../accounts/session-store';
import type { AccountLeases } from '../cluster/account-leases';
import { LeaseKeeper } from '../cluster/lease-keeper';
import { createImapClient, type ImapPurpose } from '../imap/imap-client';
import { LeanFetch } from '../imap/lean-fetch';
import { AccountMirror } from './account-mirror';
import type { MirrorOptions } from './mirror-options';
import type { MirrorStore } from './mirror-store';

export interface MirrorManagerDeps {
  readonly accounts: AccountStore;
  readonly sessions: SessionStore;
  readonly store: MirrorStore;
  readonly options?: Partial<MirrorOptions>;
  /** Where mirror failures are reported (connection drops are expected and retried). */
  readonly onError?: (accountId: number, error: unknown) => void;
  /** The FETCH fast path every mirror shares; the gateway gives it its reporter (a fallback is logged once). */
  readonly leanFetch?: LeanFetch;
  /**
   * With several gateway nodes on one database (PostgreSQL): an account is mirrored by the
   * node holding its lease, and every mirror write carries the lease's fencing token.
   * Without it (SQLite, one node) every account with a live session is mirrored here.
   */
  readonly ownership?: MirrorOwnership;
  /** Asks the node that mirrors the account to resync it (SharedState.resync); without it, a node without the mirror does nothing. */
  readonly askOwner?: (accountId: number, folderPath?: string) => void;
}

export interface MirrorOwnership {
  /** The keeper's leases: acquired, renewed and released here. */
  readonly leases: AccountLeases;
  /**
   * The leases whose `check` runs first in each mirror write's transaction, so on the store
   * the mirror writes through (default `leases`). The keeper's may sit on a connection of its
   * own, where renewals never queue behind the mirrors' traffic.
   */
  readonly fencing?: AccountLeases;
  /** The accounts this node should hold if free (default: every account with a live session, read through the sessions' store). */
  readonly wanted?: () => Promise<readonly number[]>;
  /** This process's name in the lease table: unique per process. */
  readonly holder: string;
  /** A lease's time to live: how long a dead node's accounts wait for another (renewed every third of it). */
  readonly ttlMs: number;
  /** Spread the accounts over the live nodes (LeaseKeeper's `spread`); absent: the first node to see an account takes it. */
  readonly spread?: { readonly slack: number };
  readonly onError?: (error: unknown) => void;
  /** Closes what the ownership opened (the keeper's connection), once the keeper has given its leases back. */
  readonly close?: () => Promise<void>;
}

/**
 * One AccountMirror per account with a live session: started at gateway start for the
 * accounts that have sessions, on each login, and stopped when the account's last session
 * ends or the gateway closes. Routes reach an account's mailbox through `withMailbox`.
 *
 * With `ownership` (DESIGN §7 "one IMAP owner per account") a LeaseKeeper decides instead:
 * the node that holds an account's lease mirrors it, a node that loses the lease stops at
 * once (and its late writes are refused by the token), and the accounts of a node that died
 * are taken over by the others when its leases expire.
 */
export class MirrorManager {
  private readonly mirrors = new Map<number, AccountMirror>();
  private closed = false;
  private readonly keeper: LeaseKeeper | null;
  private readonly onSessionEnded = ({ accountId }: { accountId: number }) => {
    if (this.keeper) {
      // The keeper gives up what no session wants any more (and stops its mirror).
      this.keeper.tick().catch((error: unknown) => this.deps.onError?.(accountId, error));
      return;
    }
    const stopUnlessLive = async () => {
      if (!(await this.deps.sessions.activeAccountIds()).includes(accountId)) await this.stop(accountId);
    };
    stopUnlessLive().catch((error: unknown) => this.deps.onError?.(accountId, error));
  };

  /** The FETCH fast path of every mirror: `leanFetch.status` says whether it serves the FETCHes. */
  readonly leanFetch: LeanFetch;

  constructor(private readonly deps: MirrorManagerDeps) {
    this.leanFetch = deps.leanFetch ?? new LeanFetch();
    const ownership = deps.ownership;
    this.keeper = ownership
      ? new LeaseKeeper({
          leases: ownership.leases,
          holder: ownership.holder,
          ttlMs: ownership.ttlMs,
          ...(ownership.spread ? { spread: ownership.spread } : {}),
          wanted: ownership.wanted ?? (() => deps.sessions.activeAccountIds()),
          onGained: (accountId, token) => {
            const fencing = ownership.fencing ?? ownership.leases;
            if (!this.closed) this.startMirror(accountId, deps.store.fenced((id) => fencing.check(id, token)));
          },
          onLost: (accountId) => void this.stop(accountId).catch((error: unknown) => deps.onError?.(accountId, error)),
          onError: ownership.onError,
        })
      : null;
    deps.sessions.on('ended', this.onSessionEnded);
  }

  /**
   * Where this node may write what a reader learns about the account's mirrored messages
   * (exact attachment sizes): its running mirror's store, fenced by the lease's token like
   * every other mirror write; on one node without leases (SQLite), the store itself. Null
   * when another node owns the account: its mirror is that node's to write.
   */
  writerFor(accountId: number): MirrorStore | null {
    const mirror = this.mirrors.get(accountId);
    if (mirror) return mirror.store;
    return this.keeper ? null : this.deps.store;
  }

  /** Starts mirrors for every account that has a live session (gateway start); with ownership, those this node can hold, and keeps the leases from now on. */
  async startActive(): Promise<void> {
    if (this.keeper) {
      await this.keeper.start(); // ready means: the accounts this node could take are mirroring
      return;
    }
    for (const accountId of await this.deps.sessions.activeAccountIds()) await this.onLogin(accountId);
  }

  /**
   * A successful login: start the account's mirror, or — if it runs — make it reconnect
   * now rather than after its backoff (the login may carry a changed password). With
   * ownership, the mirror starts here only if this node gets the account's lease; undefined
   * when another node mirrors it.
   */
  async onLogin(accountId: number): Promise<AccountMirror | undefined> {
    if (!this.mirrors.has(accountId) && !(await this.deps.accounts.get(accountId))) throw new Error(`No account ${accountId}`);
    if (this.keeper && !this.mirrors.has(accountId)) {
      await this.keeper.tick(); // takes the account's lease now if it is free, not at the next tick
      return this.mirrors.get(accountId);
    }
    // From here on synchronous: two logins at once find the one mirror the first started.
    const running = this.mirrors.get(accountId);
    if (running) {
      running.wake();
      return running;
    }
    return this.startMirror(accountId, this.deps.store);
  }

  private startMirror(accountId: number, store: MirrorStore): AccountMirror {
    const running = this.mirrors.get(accountId);
    if (running) return running;
    if (this.closed) throw new Error('The mirror manager is closed');
    const mirror = new AccountMirror({
      accountId,
      store,
      createClient: (purpose) => this.createClient(accountId, purpose),
      options: this.deps.options,
      leanFetch: this.leanFetch,
    });
    mirror.on('error', (error) => this.deps.onError?.(accountId, error));
    this.mirrors.set(accountId, mirror);
    mirror.start();
    return mirror;
  }

  get(accountId: number): AccountMirror | undefined {
    return this.mirrors.get(accountId);
  }

  /**
   * Runs a command on the account's mailbox: on its mirror's connection when this process
   * runs the mirror (commands take turns with the sync), else over a short-lived connection
   * of its own — a send finishing after the last logout, or, with several gateway nodes, a
   * request that reached a node other than the one mirroring the account (DESIGN §7).
   */
  async withMailbox<T>(accountId: number, path: string, fn: (client: ImapFlow, mailbox: MailboxObject) => Promise<T>): Promise<T> {
    const mirror = this.mirrors.get(accountId);
    if (mirror) return mirror.withMailbox(path, fn);
    const client = await this.createClient(accountId, 'sync');
    await client.connect();
    try {
      return await fn(client, await client.mailboxOpen(path));
    } finally {
      await client.logout().catch(() => client.close());
    }
  }

  /**
   * Brings the mirror up to date with the server now, where this process runs it (resolves
   * when done); elsewhere the node that mirrors the account is asked to (resolves at once:
   * the change reaches the log, and every node's push, when that node has synced).
   */
  async resyncNow(accountId: number, folderPath?: string): Promise<void> {
    const mirror = this.mirrors.get(accountId);
    if (mirror) return mirror.resyncNow(folderPath);
    this.deps.askOwner?.(accountId, folderPath);
  }

  /** Another node asked (SharedState.resync): resyncs the account if its mirror runs here. */
  resyncIfMirrored(accountId: number, folderPath?: string): void {
    this.mirrors.get(accountId)?.resyncNow(folderPath).catch((error: unknown) => this.deps.onError?.(accountId, error));
  }

  async stop(accountId: number): Promise<void> {
    const mirror = this.mirrors.get(accountId);
    if (!mirror) return;
    this.mirrors.delete(accountId);
    await mirror.stop();
  }

  /** Gateway shutdown: logs every connection out. */
  async stopAll(): Promise<void> {
    this.closed = true;
    this.deps.sessions.off('ended', this.onSessionEnded);
    // Released, not left to expire: the other nodes take the accounts over at once.
    await this.keeper?.stop();
    await this.deps.ownership?.close?.();
    await Promise.all([...this.mirrors.keys()].map((accountId) => this.stop(accountId)));
  }

  /** The account is read at every connect, so a changed password or server applies on reconnect. */
  private async createClient(accountId: number, purpose: ImapPurpose) {
    const account = await this.deps.accounts.get(accountId);
    if (!account) throw new Error(`No account ${accountId}`);
    return createImapClient({ account, password: await this.deps.accounts.password(accountId), purpose });
  }
}
