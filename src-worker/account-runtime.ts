/**
 * Everything that runs for one logged-in account: its HTTP client, sync loop, push
 * websocket and outbox, wired together. Built by the mail engine when an account appears
 * (or its token changes) and stopped when it goes.
 */
import type { Account } from '../shared/account';
import type { Clock } from '../shared/clock';
import type { LogType } from '../shared/constants';
import type { RulesActivity } from '../shared/mail-rules';
import type { TernError } from '../shared/errors';
import { GatewayClient } from './api/gateway-client';
import { MailGateway } from './api/mail-gateway';
import type { RequestType } from './api/request-id';
import type { MailTable } from './db/mail-schema';
import type { LocalStore } from './db/store';
import { reconcileConfirmed } from './outbox/action-store';
import type { CommandStatusFeed } from './outbox/command-status-feed';
import { createOutboxSender, type OutboxSender } from './outbox/outbox-sender';
import { createAccountSync, type AccountSync, type AccountSyncState } from './sync/account-sync';
import type { ChangeFeed } from './mail-store/change-feed';
import { DeltaApplier, type SyncState } from './sync/delta-applier';
import { primeFirstScreen } from './sync/first-screen';
import type { OnlineStatus } from './net/online-status';
import { createPushSocket, pushSocketUrl, type ConnectSocket, type PushSocket } from './sync/push-socket';

/** Without a websocket (none in this runtime, or switched off for the account) the sync polls this often. */
export const POLL_INTERVAL_MS = 30_000;

export interface AccountRuntimeDeps {
  readonly account: Account;
  readonly store: () => Promise<LocalStore<MailTable>>;
  readonly fetch: typeof fetch;
  readonly connectSocket?: ConnectSocket;
  readonly requestId: (type: RequestType) => string;
  readonly online: OnlineStatus;
  readonly clock: Clock;
  readonly random?: () => number;
  readonly changes: ChangeFeed;
  readonly statuses: CommandStatusFeed;
  readonly pageSize?: number;
  /** Copies the sync state onto the stored Account (cursor, appliedTransactionId). */
  readonly saveCursor: (state: SyncState) => Promise<void>;
  readonly onSyncState: (state: AccountSyncState) => void;
  readonly onSessionEnded: (error: TernError) => void;
  /** ClearClientCache from the gateway: empty the account's database. */
  readonly clearCache: () => Promise<void>;
  readonly log?: (type: LogType, message: string) => void;
  /** A delta page carried the account's preferences or plan (already stored): the settings service tells the tabs. */
  readonly onSettingsChanged?: () => void;
  /** A delta page said the address book changed on the gateway: the contacts service pulls the cards. */
  readonly onContactsChanged?: () => void;
  /** A delta page said the templates changed on the gateway: the templates service pulls them. */
  readonly onTemplatesChanged?: () => void;
  /** A delta page carried the gateway's waiting sends (held, scheduled): the tabs' lists read them again. */
  readonly onPendingSendsChanged?: () => void;
  /** A delta page brought the rules' revision and runs (a save on another device, a run's progress): the rules service tells the tabs. */
  readonly onRulesActivity?: (activity: RulesActivity) => void;
  /** A delta page carried the account's snoozes, reminders and follow-ups: the tabs' views read them again. */
  readonly onTimersChanged?: () => void;
  /**
   * The account's first screen is in its database (primed, a delta page committed, or already
   * there), or priming failed:
   * what the first screen does not show (preferences, address book, templates) may load now
   * without holding the folders and threads requests back (issue 13: a sign-in's first rows
   * waited behind eight requests sent together).
   */
  readonly onFirstScreen?: () => void;
}

export interface AccountRuntime {
  readonly account: Account;
  readonly gateway: MailGateway;
  readonly sync: AccountSync;
  readonly outbox: OutboxSender;
  /** Resolves once the first pull (and the first screen before it) is done or failed. */
  start(): Promise<void>;
  stop(): void;
}

export function createAccountRuntime(deps: AccountRuntimeDeps): AccountRuntime {
  const { account, clock } = deps;
  const accountId = account.accountId;
  const client = new GatewayClient({
    fetch: deps.fetch,
    session: () => ({ api: account.api, token: account.token }),
    requestId: deps.requestId,
    clock,
    ...(deps.log ? { log: deps.log } : {}),
    // Any request may be the first to learn the session is over (a command before the next pull).
    onSessionEnded: (error) => deps.onSessionEnded(error),
  });
  const gateway = new MailGateway(client);
  const applier = new DeltaApplier({ accountId, store: deps.store, reconcile: reconcileConfirmed });
  let socket: PushSocket | null = null;
  let pollTimer: unknown = null;
  // Told once, by whichever comes first: the primed first screen or a committed delta page.
  let firstScreenTold = false;
  const firstScreen = () => {
    if (firstScreenTold) return;
    firstScreenTold = true;
    deps.onFirstScreen?.();
  };

  const sync = createAccountSync({
    delta: (params) => gateway.delta(params),
    applier,
    online: deps.online,
    clock,
    ...(deps.random ? { random: deps.random } : {}),
    ...(deps.pageSize ? { pageSize: deps.pageSize } : {}),
    onPage: async (page) => {
      deps.changes.emit({ accountId, threadIds: page.threadIds, foldersChanged: page.foldersChanged, messages: page.messages, contacts: page.contacts });
      firstScreen();
      for (const status of page.finished) deps.statuses.publish(status);
      if (page.settingsChanged) deps.onSettingsChanged?.();
      if (page.contactsRevision !== null) deps.onContactsChanged?.();
      if (page.templatesRevision !== null) deps.onTemplatesChanged?.();
      if (page.pendingSendsChanged) deps.onPendingSendsChanged?.();
      if (page.rulesActivity) deps.onRulesActivity?.(page.rulesActivity);
      if (page.timersChanged) deps.onTimersChanged?.();
      await deps.saveCursor(page.state).catch((error: unknown) => deps.log?.('Error', `saving the cursor of ${accountId}: ${String(error)}`));
    },
    onState: deps.onSyncState,
    onSessionEnded: (error) => {
      socket?.stop();
      deps.onSessionEnded(error);
    },
    onCacheCleared: deps.clearCache,
  });

  const outbox = createOutboxSender({
    accountId,
    store: deps.store,
    gateway,
    requestPull: () => void sync.pull().catch(() => undefined),
    online: deps.online,
    statuses: deps.statuses,
    changes: deps.changes,
    clock,
    ...(deps.random ? { random: deps.random } : {}),
    onSessionEnded: (error) => deps.onSessionEnded(error),
  });

  const poll = () => {
    pollTimer = clock.setTimeout(() => {
      void sync.pull().catch(() => undefined);
      poll();
    }, POLL_INTERVAL_MS);
  };

  return {
    account,
    gateway,
    sync,
    outbox,
    async start() {
      outbox.kick(); // commands left by an earlier run go out first
      // A gateway that mirrored this mailbox before has its newest inbox threads at hand:
      // show them while the log replays (skipped once a delta page is in).
      const priming = applier
        .state()
        .then((state) => (state.appliedTransactionId === 0 ? primeFirstScreen({ accountId, store: deps.store, gateway }) : null))
        .then((primed) => primed && deps.changes.emit({ accountId, threadIds: primed.threadIds, foldersChanged: true }))
        .catch(() => undefined)
        .then(firstScreen);
      if (deps.connectSocket && account.webSocketEnabled) {
        socket = createPushSocket({
          accountId,
          url: () => pushSocketUrl(account),
          connect: deps.connectSocket,
          online: deps.online,
          clock,
          ...(deps.random ? { random: deps.random } : {}),
          onAnnounce: (latestTxnId) => sync.announce(latestTxnId),
          onEnded: (error) => {
            sync.stop();
            deps.onSessionEnded(error);
          },
        });
        socket.start();
      } else {
        poll();
      }
      await Promise.all([priming, sync.pull().catch(() => undefined)]); // the sync retries by itself; its state tells the tabs
    },
    stop() {
      sync.stop();
      socket?.stop();
      outbox.stop();
      if (pollTimer !== null) clock.clearTimeout(pollTimer);
    },
  };
}
