/**
 * Setup shared by the mail engine's unit tests: a manual clock, a fresh fake-indexeddb per
 * test (a "browser profile" two engines can share, as a worker restart would), stored
 * accounts pointing at fake gateways, and a wait helper.
 */
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { accountFromLogin, type Account } from '../../../shared/account';
import type { Clock } from '../../../shared/clock';
import { ACCOUNTS_DATABASE, ACCOUNTS_SCHEMA } from '../../../src-worker/accounts/accounts-database';
import { AccountRepository } from '../../../src-worker/accounts/account-repository';
import { AccountDatabases } from '../../../src-worker/db/account-databases';
import { idbStoreFactory } from '../../../src-worker/db/idb-store';
import { lazyStore } from '../../../src-worker/db/lazy-store';
import { createMailEngine, type MailEngine, type MailEngineDeps } from '../../../src-worker/mail-engine';
import type { FakeMailServer } from './fake-mail-server';

/** Timers that run only when the test advances time. */
export function manualClock(start = Date.UTC(2026, 0, 15, 9, 30, 12)) {
  let now = start;
  let nextHandle = 1;
  const timers = new Map<number, { at: number; callback: () => void; every?: number }>();
  const clock: Clock & { advance(ms: number): void; pending(): number[] } = {
    now: () => now,
    setTimeout: (callback, ms) => {
      const handle = nextHandle++;
      timers.set(handle, { at: now + ms, callback });
      return handle;
    },
    clearTimeout: (handle) => void timers.delete(handle as number),
    setInterval: (callback, ms) => {
      const handle = nextHandle++;
      timers.set(handle, { at: now + ms, callback, every: ms });
      return handle;
    },
    clearInterval: (handle) => void timers.delete(handle as number),
    advance(ms) {
      const until = now + ms;
      for (;;) {
        const due = [...timers.entries()].filter(([, timer]) => timer.at <= until).sort((a, b) => a[1].at - b[1].at)[0];
        if (!due) break;
        const [handle, timer] = due;
        now = timer.at;
        if (timer.every) timers.set(handle, { ...timer, at: timer.at + timer.every });
        else timers.delete(handle);
        timer.callback();
      }
      now = until;
    },
    /** Delays (from now) of the timers waiting. */
    pending: () => [...timers.values()].map((timer) => timer.at - now).sort((a, b) => a - b),
  };
  return clock;
}

/** Polls until `check` is truthy (real time; fake-indexeddb needs the real event loop). */
export async function waitFor<T>(check: () => T | Promise<T>, what: string, timeoutMs = 3000): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

export function accountFor(server: FakeMailServer, email = `user${server.accountId}@example.com`): Account {
  return accountFromLogin({
    mailId: server.accountId,
    email,
    name: 'User',
    token: server.token,
    latestTxnId: 0,
    baseUrl: `https://gw${server.accountId}.test/api`,
    provider: 'dovecot',
    aliases: [],
    mailProperties: { folderSeparator: '/' },
  });
}

/** One browser profile: its IndexedDB, accounts and the fake gateways its accounts reach. */
export class Profile {
  readonly factory = new IDBFactory();
  readonly stores = idbStoreFactory(this.factory);
  readonly repository = new AccountRepository(lazyStore(this.stores, ACCOUNTS_DATABASE, ACCOUNTS_SCHEMA));

  constructor(readonly servers: readonly FakeMailServer[]) {}

  /** Routes each request to the server whose host it names. */
  readonly fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const url = new URL(String(input));
    const server = this.servers.find((candidate) => url.host === `gw${candidate.accountId}.test`) ?? this.servers[0]!;
    return server.fetch(input, init);
  };

  readonly connectSocket = (url: string) => {
    const server = this.servers.find((candidate) => new URL(url).host === `gw${candidate.accountId}.test`) ?? this.servers[0]!;
    return server.connectSocket(url);
  };

  async addAccounts(): Promise<void> {
    for (const server of this.servers) await this.repository.save(accountFor(server), { accountId: server.accountId, justLoggedIn: true, webSocketKind: null, trackingHeader: '0:1' });
  }

  /** A new engine over this profile (a fresh worker); its accounts start as soon as it is the writer. */
  async engine(overrides: Partial<MailEngineDeps> = {}): Promise<MailEngine & { databases: AccountDatabases }> {
    const databases = new AccountDatabases({ factory: this.stores, tabId: crypto.randomUUID(), channel: { postMessage: () => {}, addEventListener: () => {}, close: () => {} } });
    const engine = createMailEngine({
      databases,
      accounts: this.repository,
      fetch: this.fetch,
      connectSocket: this.connectSocket,
      statusUrl: `https://gw${this.servers[0]!.accountId}.test/status.png`,
      ...overrides,
    });
    // Not awaited: an engine that is not the writer waits for the lock here (tests wait for runtimes instead).
    void engine.syncAccounts();
    return Object.assign(engine, { databases });
  }
}

/** One server's account added to a new profile, and an engine caught up with it; `keep` holds the engine to close after the test. */
export async function syncedEngine(server: FakeMailServer, keep: { close(): void }[]) {
  const profile = new Profile([server]);
  await profile.addAccounts();
  const engine = await profile.engine();
  keep.push(engine);
  const runtime = await waitFor(() => engine.runtime(server.accountId), 'the runtime');
  await waitFor(() => runtime.sync.state.phase === 'idle' && runtime.sync.state.appliedTransactionId === server.latest, 'the sync');
  return { profile, engine, runtime };
}
