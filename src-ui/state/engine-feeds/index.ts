/**
 * THE module where the engine's data enters jotai (STYLE item 13): account-list pushes,
 * thread-list snapshots and patches, command outcomes, folder and count queries. Each
 * arrives through this folder's feeds (one file per feed) and is written with `store.set`;
 * components only read the atoms. This index is the folder's one entry: it starts and stops
 * the engine's subscriptions and hands each push to its feed.
 *
 * Pushes are applied as they arrive, so a change made in another tab (or by new mail)
 * shows in this one at once.
 */
import type { PublicAccount } from '../../../shared/account';
import type { ListScope, ListWindow } from '../../../shared/worker-mail-api';
import { accountsAtom, type Toast } from '../atoms';
import type { UiEngine } from '../engine-port';
import { createAccountsFeed } from './accounts-feed';
import { createCommandFeed } from './command-feed';
import type { FeedContext, Store } from './feed-context';
import { createMailboxCounts } from './mailbox-counts';
import { createOpenThreadFeed, type ThreadToOpen } from './open-thread-feed';
import { createSyncFeed } from './sync-feed';
import { createSettingsFeed } from './settings-feed';
import { createThreadListFeed } from './thread-list-feed';
import { createToastFeed } from './toasts';
import type { Phrase } from '../../../shared/strings';

export { MAILBOX_REFRESH_DELAY_MS } from './mailbox-counts';
export type { ThreadToOpen } from './open-thread-feed';
export { scopeKeyOf } from './thread-list-feed';
export { MAX_ERROR_TOASTS, TOAST_MS, withToast } from './toasts';

export interface WorkerBridge {
  /** Loads the accounts and subscribes to account and command pushes. */
  start(): Promise<void>;
  /** Ends subscriptions and timers (the app unmounts). */
  stop(): void;
  /** Puts an account in the list at once (the push confirms it). */
  accountAdded(account: PublicAccount): void;
  /** Takes an account out at once (the push confirms it). */
  accountRemoved(accountId: string): void;
  /** Shows a scope's threads; replaces the list shown before. */
  openThreadList(scope: ListScope, window: ListWindow): Promise<void>;
  /** Opens the list a mailbox is about to show, ahead of it (thread-list-feed.ts). */
  openThreadListAhead(scope: ListScope, window: ListWindow): void;
  /** Moves the shown list's window; calls made while one is under way collapse into the latest. */
  moveThreadListWindow(window: ListWindow): void;
  /** Ends the list of a scope if it is still the one shown. */
  closeThreadList(scope: ListScope): void;
  /** Watches the open conversation (openThreadAtom); null closes it. */
  openThread(thread: ThreadToOpen | null): void;
  /** Asks folders and counts again, soon (debounced). */
  refreshMailboxes(accountIds?: readonly string[]): void;
  /**
   * Moves inbox unread counts by what a command does to the rows shown, in the same step as
   * the rows (unread-follow.ts); answers already on their way from before are dropped, and the
   * engine's next count replaces these.
   */
  adjustInboxUnread(changes: ReadonlyMap<string, number>): void;
  /**
   * A command this tab ran: its failure is this tab's to show, and its success too when
   * `doneMessage` says what to show. `onFailed` runs just before the failure's toast (a move
   * withdraws its "moved" confirmation, so the two never show side by side).
   */
  trackCommand(commandId: string, label?: Phrase, doneMessage?: Phrase, onFailed?: () => void): void;
  /** Shows a toast; answers its id (to dismiss it early). */
  toast(toast: Omit<Toast, 'id'>): number;
  dismissToast(id: number): void;
  /** Reads the engine's send notices again (after one was dismissed or sent again). */
  refreshSendNotices(): Promise<void>;
}

export function createWorkerBridge(params: { engine: UiEngine; store: Store; bootStorage?: Pick<Storage, 'setItem'> }): WorkerBridge {
  const { engine, store } = params;
  const timers = new Set<ReturnType<typeof setTimeout>>();
  let stopped = false;
  const context: FeedContext = {
    engine,
    store,
    later(ms, run) {
      const timer = setTimeout(() => {
        timers.delete(timer);
        run();
      }, ms);
      timers.add(timer);
      return timer;
    },
    isStopped: () => stopped,
  };
  const toasts = createToastFeed(context);
  const counts = createMailboxCounts(context);
  const commands = createCommandFeed(context, { counts, toasts });
  const accounts = createAccountsFeed(context, { counts, commands, toasts });
  const threadList = createThreadListFeed(context, { counts, toasts });
  const openThread = createOpenThreadFeed(context);
  const onSyncStatus = createSyncFeed(context, counts);
  const settings = createSettingsFeed(context, params.bootStorage);

  // ── subscriptions of the whole tab ──────────────────────────────────────────
  const subscriptions: { commands: string | null; sync: string | null; accounts: string | null } = { commands: null, sync: null, accounts: null };
  function unsubscribe(kind: keyof typeof subscriptions, id: string) {
    const ending =
      kind === 'commands'
        ? engine.commands.unwatchCommands({ subscriptionId: id })
        : kind === 'sync'
          ? engine.mail.unwatchSync({ subscriptionId: id })
          : engine.accounts.unwatch({ subscriptionId: id });
    void ending.catch(() => undefined);
  }

  return {
    async start() {
      const subscribe = (kind: keyof typeof subscriptions, started: Promise<{ subscriptionId: string }>) =>
        started.then(
          ({ subscriptionId }) => {
            if (stopped) unsubscribe(kind, subscriptionId);
            else subscriptions[kind] = subscriptionId;
          },
          () => undefined, // an engine without this service yet: nothing to follow
        );
      threadList.openFirstList();
      void subscribe('commands', engine.commands.watchCommands(commands.onCommandStatus));
      if (typeof document !== 'undefined') document.addEventListener('visibilitychange', commands.onVisibility);
      void subscribe('sync', engine.mail.watchSync(onSyncStatus));
      void settings.start();
      try {
        // Asked by the entry already, in the handshake's round trip.
        const early = engine.startup?.accounts;
        accounts.setAccounts((await (early ?? engine.accounts.initialise())).accounts);
      } catch (error) {
        // No account service (yet) or a broken store: nobody is logged in, the login screen says what fails.
        console.warn('The engine could not list accounts:', error);
        store.set(accountsAtom, []);
      }
      // A reload after a forced logout still says why it is on the sign-in screen.
      void accounts.refreshEndedSessions({ announce: false });
      void subscribe('accounts', engine.accounts.watch((list) => !stopped && accounts.onAccounts(list)));
    },
    stop() {
      stopped = true;
      if (typeof document !== 'undefined') document.removeEventListener('visibilitychange', commands.onVisibility);
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      threadList.stop();
      settings.stop();
      openThread.stop();
      for (const kind of Object.keys(subscriptions) as (keyof typeof subscriptions)[]) {
        const id = subscriptions[kind];
        if (id) unsubscribe(kind, id);
        subscriptions[kind] = null;
      }
    },
    accountAdded(account) {
      const known = store.get(accountsAtom) ?? [];
      accounts.setAccounts([...known.filter((other) => other.accountId !== account.accountId), account]);
    },
    accountRemoved(accountId) {
      accounts.setAccounts((store.get(accountsAtom) ?? []).filter((account) => account.accountId !== accountId));
    },
    openThreadList: threadList.openThreadList,
    openThreadListAhead: threadList.openThreadListAhead,
    moveThreadListWindow: threadList.moveThreadListWindow,
    closeThreadList: threadList.closeThreadList,
    openThread: openThread.openThread,
    refreshMailboxes: counts.refreshMailboxes,
    adjustInboxUnread: counts.adjustInboxUnread,
    trackCommand: commands.trackCommand,
    toast: toasts.toast,
    dismissToast: toasts.dismissToast,
    refreshSendNotices: commands.refreshSendNotices,
  };
}
