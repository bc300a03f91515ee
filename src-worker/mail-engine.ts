/**
 * The mail half of the engine: one runtime (sync, websocket, outbox) per stored account,
 * and the two services tabs call, MailQueryService and MailCommandService. engine.ts
 * builds it once per worker and tells it when the stored accounts change.
 */
import { resetSyncState, senderName, type Account } from '../shared/account';
import { SEARCH_MATCH_LIMIT } from '../shared/api/reading';
import { systemClock, type Clock } from '../shared/clock';
import type { LogType } from '../shared/constants';
import { TernError } from '../shared/errors';
import type { RulesActivity } from '../shared/mail-rules';
import type { FolderCommandService, MailCommandService, MailQueryService } from '../shared/worker-mail-api';
import { GatewayClient } from './api/gateway-client';
import { MailGateway } from './api/mail-gateway';
import { createRequestIds, type RequestType } from './api/request-id';
import { EngineFolderCommands } from './folders/folder-commands';
import type { BroadcastPort } from './db/account-databases';
import type { MailTable } from './db/mail-schema';
import { withRead, type LocalStore } from './db/store';
import { createCommandStatusFeed } from './outbox/command-status-feed';
import { EngineMailCommands } from './outbox/mail-command-service';
import { liveRows, OUTBOX_TABLE } from './mail-store/outbox-rows';
import { ListSubscriptions } from './queries/list-subscriptions';
import { ThreadSubscriptions } from './queries/thread-subscriptions';
import { EngineMailQueries } from './queries/mail-query-service';
import { MessageReads } from './queries/message-reads';
import { createStartupGate, type StartupGate } from './queries/startup-gate';
import { ThreadListReader } from './queries/thread-list-reader';
import { SearchIndexes } from './search/search-indexes';
import { SuggestionIndexes } from './queries/suggestion-indexes';
import { rebuildRanks, ranksCurrent } from './mail-store/rank-rebuild';
import { createAccountRuntime, type AccountRuntime } from './account-runtime';
import { createChangeFeed, type ChangeFeed } from './mail-store/change-feed';
import { createMailRelay } from './boundary/mail-relay';
import { createOnlineStatus, type BrowserOnlineSignal, type OnlineStatus } from './net/online-status';
import type { ConnectSocket } from './sync/push-socket';
import { createSyncStatusFeed } from './sync/sync-status-feed';

export interface MailEngineDeps {
  /** Per-account databases (db/account-databases.ts). */
  readonly databases: { open(accountId: string): Promise<LocalStore<MailTable>>; reset(accountId: string): Promise<void> };
  /** The stored accounts (accounts/account-repository.ts). */
  readonly accounts: {
    list(): Promise<Account[]>;
    get(accountId: string): Promise<Account | undefined>;
    update(accountId: string, change: (account: Account) => Account): Promise<Account | undefined>;
    deviceId(): Promise<string>;
  };
  readonly fetch: typeof fetch;
  /** Opens a push websocket; none (Node without `ws`): the sync polls instead. */
  readonly connectSocket?: ConnectSocket;
  /** The online-status image (spec §7), e.g. `https://mail.example.com/status.png`. */
  readonly statusUrl: string;
  readonly browserOnline?: BrowserOnlineSignal;
  /** Syncing and sending start once this engine is elected writer (boundary/writer-election.ts). */
  readonly writerElected?: Promise<void>;
  readonly clock?: Clock;
  readonly random?: () => number;
  readonly pageSize?: number;
  readonly log?: (type: LogType, message: string) => void;
  /**
   * The gateway ended an account's session (sync, websocket, a command or a read met 401
   * InvalidToken or the like): it must log in again. Told once per session; `token` names
   * it, so a late answer for a session a new login replaced can be told apart.
   */
  readonly onSessionEnded?: (params: { accountId: string; token: string; error: TernError }) => void;
  /** Talks to the other engines of this browser (dedicated workers): boundary/mail-relay.ts. */
  readonly relay?: { readonly channel: BroadcastPort; readonly engineId: string };
  /**
   * How long sync start-up and the search index build wait for the first thread list to
   * be answered (queries/startup-gate.ts); 0 (the default) waits for nothing.
   */
  readonly firstScreenWaitMs?: number;
  /**
   * An account's runtime started (engine start, sign-in, new token) and its first screen is
   * stored: the settings service loads its preferences and plan. Then again whenever a delta
   * page carried them.
   */
  readonly onAccountStarted?: (accountId: string) => void;
  readonly onSettingsChanged?: (accountId: string) => void;
  /** A delta page said the account's address book changed (any device): the contacts service pulls it. */
  readonly onContactsChanged?: (accountId: string) => void;
  /** A delta page said the account's templates changed (any device): the templates service pulls them. */
  readonly onTemplatesChanged?: (accountId: string) => void;
  /** A delta page brought the account's rules activity (a save anywhere, a run's progress): the rules service tells the tabs. */
  readonly onRulesActivity?: (accountId: string, activity: RulesActivity) => void;
  /** A delta page carried the account's snoozes, reminders and follow-ups (already stored): the timers service tells the tabs. */
  readonly onTimersChanged?: (accountId: string) => void;
}

export interface MailEngine {
  readonly queries: MailQueryService;
  /** What each commit changed (the engine's notifications read the new messages of delta pages). */
  readonly changes: Pick<ChangeFeed, 'subscribe'>;
  readonly commands: MailCommandService;
  readonly folders: FolderCommandService;
  readonly online: OnlineStatus;
  /** Starts, restarts (new token) and stops account runtimes to match the stored accounts. */
  syncAccounts(): Promise<void>;
  /** The running runtime of an account (tests, figures). */
  runtime(accountId: string): AccountRuntime | undefined;
  /** The in-memory search indexes (tests, figures). */
  readonly search: SearchIndexes;
  /** The in-memory recipient suggestions; the address book tells it what it changed (engine.ts). */
  readonly suggestions: SuggestionIndexes;
  /** Opens once the first screen is answered: start-up work waits for it (queries/startup-gate.ts). */
  readonly startup: StartupGate;
  /** Whether the account has commands the gateway has not confirmed yet (kept over a forced logout). */
  hasPendingCommands(accountId: string): Promise<boolean>;
  /** Whether the account has caught up with the gateway at least once (ListSnapshot.complete's rule). */
  settled(accountId: string): Promise<boolean>;
  close(): void;
}

/** Pulls a folder command waits for before it answers (the change is on the gateway either way). */
const MAX_CATCH_UP_PULLS = 5;

export function createMailEngine(deps: MailEngineDeps): MailEngine {
  const clock = deps.clock ?? systemClock;
  const changes = createChangeFeed((error) => deps.log?.('Error', `live list: ${String(error)}`));
  const statuses = createCommandStatusFeed();
  const syncStatus = createSyncStatusFeed();
  const online = createOnlineStatus({ fetch: deps.fetch, statusUrl: deps.statusUrl, clock, ...(deps.browserOnline ? { browser: deps.browserOnline } : {}) });
  const runtimes = new Map<string, AccountRuntime>();
  const starting = new Map<string, Promise<void>>();
  let requestIds: Promise<(type: RequestType) => string> | null = null;
  let syncing: Promise<void> = Promise.resolve();
  let closed = false;
  const startup = createStartupGate({ waitMs: deps.firstScreenWaitMs ?? 0 });

  const requestId = () => (requestIds ??= deps.accounts.deviceId().then((installationId) => createRequestIds({ installationId, now: () => clock.now() })));

  /** Sessions already reported as ended (`accountId token`): every path that meets the 401 says so, the account hears it once. */
  const endedSessions = new Set<string>();
  const sessionEnded = (account: Account, error: TernError) => {
    const key = `${account.accountId} ${account.token}`;
    if (endedSessions.has(key)) return;
    endedSessions.add(key);
    deps.log?.('Info', `The gateway ended the session of account ${account.accountId} (${error.name}).`);
    deps.onSessionEnded?.({ accountId: account.accountId, token: account.token, error });
  };

  /** A tab may only name accounts that are stored: opening would otherwise create a database for any id. */
  const open = async (accountId: string) => {
    if (!runtimes.has(accountId) && !(await deps.accounts.get(accountId))) throw new TernError('AccountNotFound', { detail: { accountId } });
    return deps.databases.open(accountId);
  };

  /** The gateway of an account: its runtime's, or one made for a read in an engine that does not sync. */
  const gatewayOf = async (accountId: string): Promise<MailGateway> => {
    const running = runtimes.get(accountId);
    if (running) return running.gateway;
    const account = await deps.accounts.get(accountId);
    if (!account) throw new TernError('AccountNotFound', { detail: { accountId } });
    const ids = await requestId();
    return new MailGateway(
      new GatewayClient({ fetch: deps.fetch, session: () => ({ api: account.api, token: account.token }), requestId: ids, clock, onSessionEnded: (error) => sessionEnded(account, error) }),
    );
  };

  const publishSync = (accountId: string, state: AccountRuntime['sync']['state']) => {
    syncStatus.publish({ accountId, phase: state.phase, appliedTransactionId: state.appliedTransactionId, latestTxnId: state.latestTxnId, online: online.last, error: state.error });
    noteCaughtUp(accountId, state);
  };

  /**
   * Which accounts' lists are complete (ListSnapshot.complete): an account that caught up
   * with the gateway here (a pull ended with nothing more, having applied something) is,
   * for good. One this engine started cold is not until then — its stored cursor may look
   * caught up after the first page of a backfill. Any other is judged by its stored state
   * (a warm start, before its runtime runs; an account another engine syncs).
   */
  const caughtUp = new Set<string>();
  const startedCold = new Set<string>();
  const noteCaughtUp = (accountId: string, state: AccountRuntime['sync']['state']) => {
    if (state.phase !== 'idle' || state.appliedTransactionId === 0 || caughtUp.has(accountId)) return;
    caughtUp.add(accountId);
    startedCold.delete(accountId);
    lists.settled(accountId);
    wakeSettled(accountId);
  };
  const settled = async (accountId: string): Promise<boolean> => {
    if (caughtUp.has(accountId)) return true;
    if (startedCold.has(accountId)) return false;
    const stored = await deps.accounts.get(accountId);
    return stored !== undefined && stored.appliedTransactionId > 0 && stored.appliedTransactionId >= stored.cursor;
  };
  /** Who waits for an account to settle (background work that must not compete with its first sync). */
  const settledWaiters = new Map<string, (() => void)[]>();
  const wakeSettled = (accountId: string) => {
    const waiting = settledWaiters.get(accountId);
    settledWaiters.delete(accountId);
    for (const wake of waiting ?? []) wake();
  };
  /** Resolves once the account has caught up with the gateway (at once when it has); also when it is gone. */
  const whenSettled = async (accountId: string): Promise<void> => {
    // Listed before the check, so a catch-up during the check's read is not missed.
    const done = new Promise<void>((resolve) => settledWaiters.set(accountId, [...(settledWaiters.get(accountId) ?? []), resolve]));
    if (await settled(accountId)) wakeSettled(accountId);
    await done;
  };

  // The tabs' offline banner follows the online check too, not only sync phases.
  online.subscribe(() => {
    for (const [accountId, runtime] of runtimes) publishSync(accountId, runtime.sync.state);
  });

  const startRuntime = async (account: Account) => {
    const accountId = account.accountId;
    if (account.appliedTransactionId === 0 && !caughtUp.has(accountId)) startedCold.add(accountId);
    const runtime = createAccountRuntime({
      account,
      store: () => deps.databases.open(accountId),
      fetch: deps.fetch,
      ...(deps.connectSocket ? { connectSocket: deps.connectSocket } : {}),
      requestId: await requestId(),
      online,
      clock,
      ...(deps.random ? { random: deps.random } : {}),
      ...(deps.pageSize ? { pageSize: deps.pageSize } : {}),
      changes,
      statuses,
      saveCursor: async (state) => {
        await deps.accounts.update(accountId, (stored) => ({ ...stored, cursor: Math.max(stored.cursor, state.cursor), appliedTransactionId: state.appliedTransactionId }));
      },
      onSyncState: (state) => publishSync(accountId, state),
      onSessionEnded: (error) => {
        syncStatus.publish({ accountId, phase: 'signed-out', appliedTransactionId: runtime.sync.state.appliedTransactionId, latestTxnId: runtime.sync.state.latestTxnId, online: online.last, error: { name: error.name, message: error.message } });
        sessionEnded(account, error);
      },
      clearCache: async () => {
        caughtUp.delete(accountId);
        startedCold.add(accountId);
        await deps.databases.reset(accountId);
        await deps.accounts.update(accountId, resetSyncState);
        changes.emit({ accountId, threadIds: [], foldersChanged: true, everything: true });
      },
      ...(deps.log ? { log: deps.log } : {}),
      onSettingsChanged: () => deps.onSettingsChanged?.(accountId),
      onContactsChanged: () => deps.onContactsChanged?.(accountId),
      onTemplatesChanged: () => deps.onTemplatesChanged?.(accountId),
      onPendingSendsChanged: () => commands.pending.changed(accountId),
      onRulesActivity: (activity) => deps.onRulesActivity?.(accountId, activity),
      onTimersChanged: () => deps.onTimersChanged?.(accountId),
      // Not before: the first screen's requests go out alone (account-runtime.ts onFirstScreen).
      onFirstScreen: () => {
        if (runtimes.get(accountId) === runtime && !closed) deps.onAccountStarted?.(accountId);
      },
    });
    runtimes.set(accountId, runtime);
    await runtime.start();
    // The first search must not wait for the index to be read from IndexedDB: build it now,
    // after the first sync (during a cold backfill every page would make it re-read threads).
    if (runtimes.get(accountId) === runtime && !closed) {
      void search.warm(accountId);
      // The composer's first letter likewise (one read of the Contact table), after the ranks
      // are rebuilt if this database's were made by an older rule (rank-rebuild.ts).
      void ensureRanks(accountId).then(() => suggestions.warm(accountId));
    }
  };

  /** Rebuilds the account's ranks from its cached mail when they follow an older rule (once, in the engine: off the tabs' main thread). */
  const ensureRanks = async (accountId: string) => {
    try {
      const store = await open(accountId);
      if (await ranksCurrent(store)) return;
      const started = clock.now();
      const rebuilt = await rebuildRanks(store);
      suggestions.drop(accountId);
      deps.log?.('Info', `ranks of ${accountId} rebuilt from ${rebuilt.messages} messages (${rebuilt.addresses} addresses) in ${clock.now() - started} ms`);
    } catch (error) {
      deps.log?.('Error', `rebuilding the ranks of ${accountId}: ${String(error)}`);
    }
  };

  const reconcile = async () => {
    const stored = await deps.accounts.list();
    // Nothing cached (logged out, or only a login in progress): no first screen to read from
    // IndexedDB, so nothing to hold back for.
    if (!stored.some((account) => account.appliedTransactionId > 0)) startup.open('nothing cached');
    const wanted = new Map(stored.map((account) => [account.accountId, account]));
    for (const [accountId, runtime] of runtimes) {
      const account = wanted.get(accountId);
      // A new token (login again) or a cache clear (nothing applied any more) needs a fresh runtime.
      const cleared = account !== undefined && account.appliedTransactionId === 0 && runtime.sync.state.appliedTransactionId > 0;
      if (account && account.token === runtime.account.token && account.api === runtime.account.api && !cleared) continue;
      runtime.stop();
      runtimes.delete(accountId);
      if (!account) {
        wakeSettled(accountId); // its waiters meet AccountNotFound instead of waiting for ever
        caughtUp.delete(accountId);
        startedCold.delete(accountId);
        syncStatus.forget(accountId);
        search.drop(accountId);
      }
    }
    if (deps.writerElected) await deps.writerElected;
    // A tab's first screen is read from IndexedDB before the sync starts (and, after the
    // sync, the search index build).
    await startup.opened;
    const started: string[] = [];
    for (const account of stored) {
      if (closed || runtimes.has(account.accountId) || starting.has(account.accountId)) continue;
      const start = startRuntime(account).finally(() => starting.delete(account.accountId));
      starting.set(account.accountId, start);
      started.push(account.accountId);
    }
    // A cache clear or a new login may have changed anything of those accounts: their live
    // lists look again (and their search indexes are rebuilt). The others did not change.
    for (const accountId of started) changes.emit({ accountId, threadIds: [], foldersChanged: true, everything: true });
  };

  // Subscribed to the change feed before the live lists: a list re-reading after a change finds the index updated.
  const search = new SearchIndexes({ open, changes, onError: (error) => deps.log?.('Error', `search index: ${String(error)}`) });
  // "Search the server for more" (a cached search cut at the match limit): the gateway's search, as many matches as it allows.
  const serverSearch = async (accountId: string, query: string) => (await gatewayOf(accountId)).search({ q: query, limit: SEARCH_MATCH_LIMIT });
  const reader = new ThreadListReader(open, search, serverSearch);
  const lists = new ListSubscriptions({ reader, changes, settled, onError: (error) => deps.log?.('Error', `live list: ${String(error)}`) });
  const reads = new MessageReads({ open, gateway: gatewayOf, now: () => clock.now() });
  const threads = new ThreadSubscriptions({ reads, changes, onError: (error) => deps.log?.('Error', `live thread: ${String(error)}`) });
  const suggestions = new SuggestionIndexes({ open, changes, onError: (error) => deps.log?.('Error', `suggestion index: ${String(error)}`) });
  const queries = new EngineMailQueries({
    open,
    lists,
    threads,
    reads,
    suggestions,
    syncStatus,
    onListAnswered: () => startup.open('first list'),
    settled,
    whenSettled,
  });
  // An engine that does not sync an account (a dedicated worker that is not the writer) learns
  // of its catch-up through the relayed changes: its waiters look again at each.
  changes.subscribe((change) => {
    if (settledWaiters.has(change.accountId)) void settled(change.accountId).then((done) => done && wakeSettled(change.accountId));
  });
  const kickLocal = (accountId: string) => runtimes.get(accountId)?.outbox.kick();
  const relay = deps.relay ? createMailRelay({ ...deps.relay, changes, statuses, kickLocal }) : null;
  const commands = new EngineMailCommands({
    open,
    gateway: gatewayOf,
    sender: async (accountId) => {
      const account = await deps.accounts.get(accountId);
      return account && { name: senderName(account), email: account.emailAddress };
    },
    kick: (accountId) => {
      kickLocal(accountId);
      relay?.kick(accountId); // the writer may be another engine
    },
    accountIds: async () => (await deps.accounts.list()).map((account) => account.accountId),
    outboxIdle: async (accountId) => runtimes.get(accountId)?.outbox.idle(),
    statuses,
    changes,
    clock,
    scopeThreads: (scope) => reader.threadIds(scope),
  });

  const folders = new EngineFolderCommands({
    gateway: gatewayOf,
    catchUp: async (accountId, latestTxnId) => {
      const sync = runtimes.get(accountId)?.sync;
      // A pull already under way may end short of the change (single flight): pull until it is applied.
      for (let tries = 0; sync && sync.state.appliedTransactionId < latestTxnId && tries < MAX_CATCH_UP_PULLS; tries++) await sync.pull();
    },
  });

  return {
    queries,
    changes,
    commands,
    folders,
    online,
    syncAccounts() {
      // One reconcile at a time, in call order: two quick account changes must not start a runtime twice.
      syncing = syncing.catch(() => undefined).then(reconcile);
      return syncing;
    },
    runtime: (accountId) => runtimes.get(accountId),
    search,
    suggestions,
    startup,
    settled,
    async hasPendingCommands(accountId) {
      const rows = await withRead(await open(accountId), [OUTBOX_TABLE], liveRows);
      return rows.length > 0;
    },
    close() {
      closed = true;
      for (const runtime of runtimes.values()) runtime.stop();
      runtimes.clear();
      online.dispose();
    },
  };
}
