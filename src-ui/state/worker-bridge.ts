/**
 * THE module where the engine's data enters jotai (STYLE item 13): account-list pushes,
 * thread-list snapshots and patches, command outcomes, folder and count queries. Each
 * arrives here and is written with `store.set`; components only read the atoms.
 *
 * Pushes are applied as they arrive, so a change made in another tab (or by new mail)
 * shows in this one at once.
 */
import type { createStore } from 'jotai';
import { primaryAccountId, type PublicAccount } from '../../shared/account';
import { TernError } from '../../shared/errors';
import { partnerThemeOf } from '../../shared/partner-theme';
import type { CommandStatus, ListPatch, ListScope, ListWindow, SyncStatus } from '../../shared/worker-mail-api';
import { rememberAccountIds } from '../engine/first-screen';
import { applyListPatch, heldFromSnapshot } from '../thread-list/list-patch';
import {
  accountsAtom,
  composerAtom,
  draftStatusAtom,
  foldersAtom,
  IDLE_THREAD_LIST,
  inboxUnreadAtom,
  partnerThemeAtom,
  sendNoticesAtom,
  syncStatusAtom,
  threadListAtom,
  toastsAtom,
  type Toast,
} from './atoms';
import type { UiEngine } from './engine-port';
import { endedSessionsAtom, newlyEnded, sessionEndedMessage } from './ended-sessions';

type Store = ReturnType<typeof createStore>;

/** Quiet time before folders and counts are asked again after changes (a burst of patches is one refresh). */
export const MAILBOX_REFRESH_DELAY_MS = 400;
/** How long a toast stays. */
export const TOAST_MS = 6_000;
/** Outcomes of commands this tab has not been told the id of yet are kept this long. */
const EARLY_STATUS_MS = 30_000;

/** The words a failure toast starts with, per command kind. */
const FAILED_TITLE: Record<CommandStatus['kind'], string> = {
  markRead: 'Could not change read state',
  star: 'Could not change the star',
  move: 'Could not move',
  archive: 'Could not archive',
  trash: 'Could not delete',
  spam: 'Could not report spam',
  notspam: 'Could not move to Inbox',
  delete: 'Could not delete forever',
  restore: 'Could not undo',
  saveDraft: 'Could not save the draft',
  send: 'Message not sent',
  discardDraft: 'Could not discard the draft',
};

/** Failures shown at once at most; the oldest goes first. */
export const MAX_ERROR_TOASTS = 2;

/**
 * The toasts once `added` is shown. Confirmations share one place (Gmail's): a new one
 * replaces the one before ("Action undone." after "Conversation archived.", never a pile of
 * them). Failures stack, at most MAX_ERROR_TOASTS, so a burst of them cannot fill the screen.
 */
export function withToast(toasts: readonly Toast[], added: Toast): readonly Toast[] {
  if (added.tone !== 'error') return [...toasts.filter((toast) => toast.tone === 'error'), added];
  const errors = toasts.filter((toast) => toast.tone === 'error').slice(-(MAX_ERROR_TOASTS - 1));
  return [...toasts.filter((toast) => toast.tone !== 'error'), ...errors, added];
}

export const scopeKeyOf = (scope: ListScope): string => JSON.stringify(scope);

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
  /** Moves the shown list's window; calls made while one is under way collapse into the latest. */
  moveThreadListWindow(window: ListWindow): void;
  /** Ends the list of a scope if it is still the one shown. */
  closeThreadList(scope: ListScope): void;
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
  trackCommand(commandId: string, label?: string, doneMessage?: string, onFailed?: () => void): void;
  /** Shows a toast; answers its id (to dismiss it early). */
  toast(toast: Omit<Toast, 'id'>): number;
  dismissToast(id: number): void;
  /** Reads the engine's send notices again (after one was dismissed or sent again). */
  refreshSendNotices(): Promise<void>;
}

export function createWorkerBridge(params: { engine: UiEngine; store: Store }): WorkerBridge {
  const { engine, store } = params;
  const timers = new Set<ReturnType<typeof setTimeout>>();
  const later = (ms: number, run: () => void) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      run();
    }, ms);
    timers.add(timer);
    return timer;
  };
  let stopped = false;
  let nextToastId = 1;

  // ── toasts ──────────────────────────────────────────────────────────────────
  const dismissToast = (id: number) => store.set(toastsAtom, (toasts) => toasts.filter((toast) => toast.id !== id));
  const toast = (value: Omit<Toast, 'id'>) => {
    const id = nextToastId++;
    store.set(toastsAtom, (toasts) => withToast(toasts, { ...value, id }));
    // An error with a button (Reload) stays until used or dismissed; the rest go on their own,
    // those with something to read or do (a failure, Undo) later.
    if (value.tone !== 'error' || !value.action) later(value.tone === 'error' || value.action ? TOAST_MS * 1.5 : TOAST_MS, () => dismissToast(id));
    return id;
  };

  // ── folders and counts ──────────────────────────────────────────────────────
  const dueRefresh = new Set<string>();
  let refreshTimer: ReturnType<typeof setTimeout> | null = null;
  /**
   * Refreshes overlap (an immediate one after a command, a debounced one after patches): an
   * answer older than one already shown for an account is dropped, or counts would step back.
   */
  let refreshSeq = 0;
  const shownSeq = new Map<string, number>();
  async function refreshNow(accountIds: readonly string[]) {
    const known = new Set((store.get(accountsAtom) ?? []).map((account) => account.accountId));
    const ids = accountIds.filter((id) => known.has(id));
    if (ids.length === 0) return;
    const seq = ++refreshSeq;
    const [folderLists, counts] = await Promise.all([
      Promise.all(ids.map((accountId) => engine.mail.listFolders({ accountId }).catch(() => null))),
      engine.mail.counts({ accountIds: ids }).catch(() => null),
    ]);
    if (stopped) return;
    const fresh = new Set(ids.filter((accountId) => (shownSeq.get(accountId) ?? 0) < seq));
    for (const accountId of fresh) shownSeq.set(accountId, seq);
    store.set(foldersAtom, (current) => {
      const next = { ...current };
      ids.forEach((accountId, i) => {
        const folders = folderLists[i];
        if (folders && fresh.has(accountId)) next[accountId] = folders;
      });
      return next;
    });
    const freshCounts = (counts ?? []).filter((count) => fresh.has(count.accountId));
    if (freshCounts.length > 0) {
      // During an account's first sync its count is of the threads arrived so far (28 of 59):
      // none is shown until the account has caught up (the sync status asks again then).
      store.set(inboxUnreadAtom, (current) => {
        const next = { ...current };
        for (const count of freshCounts) {
          if (count.complete === false) delete next[count.accountId];
          else next[count.accountId] = count.inboxUnread;
        }
        return next;
      });
    }
  }
  function adjustInboxUnread(changes: ReadonlyMap<string, number>) {
    if (changes.size === 0) return;
    const seq = ++refreshSeq;
    for (const accountId of changes.keys()) shownSeq.set(accountId, seq);
    store.set(inboxUnreadAtom, (current) => {
      const next = { ...current };
      for (const [accountId, change] of changes) if (next[accountId] !== undefined) next[accountId] = Math.max(0, next[accountId] + change);
      return next;
    });
  }
  function refreshMailboxes(accountIds?: readonly string[]) {
    for (const id of accountIds ?? (store.get(accountsAtom) ?? []).map((account) => account.accountId)) dueRefresh.add(id);
    if (refreshTimer !== null) return;
    refreshTimer = later(MAILBOX_REFRESH_DELAY_MS, () => {
      refreshTimer = null;
      const ids = [...dueRefresh];
      dueRefresh.clear();
      void refreshNow(ids);
    });
  }

  // ── accounts ────────────────────────────────────────────────────────────────
  let partnerFor: string | null = null;
  async function updatePartner(accounts: readonly PublicAccount[]) {
    const primary = primaryAccountId(accounts.map((account) => account.accountId));
    if (primary === partnerFor) return;
    partnerFor = primary;
    if (!primary) return store.set(partnerThemeAtom, null);
    const info = await engine.accounts.info({ accountId: primary }).catch(() => null);
    if (!stopped && partnerFor === primary) store.set(partnerThemeAtom, partnerThemeOf(info?.partner?.companyName));
  }
  /** Primary account first (spec §4), then in the order they were added. */
  function sortAccounts(accounts: readonly PublicAccount[]): readonly PublicAccount[] {
    const primary = primaryAccountId(accounts.map((account) => account.accountId));
    return [...accounts].sort((a, b) => Number(b.accountId === primary) - Number(a.accountId === primary));
  }
  function setAccounts(accounts: readonly PublicAccount[]) {
    const before = new Set((store.get(accountsAtom) ?? []).map((account) => account.accountId));
    const sorted = sortAccounts(accounts);
    store.set(accountsAtom, sorted);
    // The next start asks for the unified list before it knows the accounts (engine/first-screen.ts).
    rememberAccountIds(sorted.map((account) => account.accountId));
    const ids = new Set(sorted.map((account) => account.accountId));
    const drop = <T>(record: Readonly<Record<string, T>>) => Object.fromEntries(Object.entries(record).filter(([id]) => ids.has(id)));
    store.set(foldersAtom, drop);
    store.set(inboxUnreadAtom, drop);
    store.set(syncStatusAtom, drop);
    // A composer of an account that left has nothing to save to: closed. After a forced logout its
    // unsent text is kept by the engine and, at the next sign-in, is in Drafts (the tab reopens it).
    const composer = store.get(composerAtom);
    if (composer && !ids.has(composer.initial.accountId)) store.set(composerAtom, null);
    const added = sorted.filter((account) => !before.has(account.accountId)).map((account) => account.accountId);
    if (added.length > 0) void refreshNow(added);
    void updatePartner(sorted);
    void refreshSendNotices();
  }

  // ── sessions the gateway ended ──────────────────────────────────────────────
  /** The engine's list changed: when an account went, ask whether the gateway ended its session (the login screen or a toast says so). */
  function onAccounts(accounts: readonly PublicAccount[]) {
    const gone = (store.get(accountsAtom) ?? []).some((known) => !accounts.some((account) => account.accountId === known.accountId));
    setAccounts(accounts);
    if (gone) void refreshEndedSessions({ announce: accounts.length > 0 });
  }
  /** With other accounts left the tab stays on the mail, so a toast tells; without, the login screen does. */
  async function refreshEndedSessions({ announce }: { announce: boolean }) {
    const ended = await engine.accounts.endedSessions?.().catch(() => undefined);
    if (!ended || stopped) return;
    const fresh = newlyEnded(ended, store.get(endedSessionsAtom));
    store.set(endedSessionsAtom, ended);
    if (announce) for (const session of fresh) toast({ tone: 'error', message: sessionEndedMessage(session) });
  }

  // ── command outcomes ────────────────────────────────────────────────────────
  const tracked = new Map<string, { label: string | undefined; doneMessage: string | undefined; onFailed: (() => void) | undefined }>();
  const early = new Map<string, CommandStatus>();
  function showFailure(status: CommandStatus, label: string | undefined) {
    const error = status.error ? TernError.from({ name: status.error.name, message: status.error.message }) : new TernError('OperationFailed');
    toast({ tone: 'error', title: label ?? FAILED_TITLE[status.kind], message: status.error?.message || error.message });
  }
  /** The engine keeps the notices (a reload shows them again); the atom mirrors them. */
  async function refreshSendNotices() {
    const accountIds = (store.get(accountsAtom) ?? []).map((account) => account.accountId);
    const notices = accountIds.length === 0 ? [] : await engine.commands.sendNotices({ accountIds }).catch(() => null);
    if (notices && !stopped) store.set(sendNoticesAtom, notices);
  }
  /** A notice dismissed (or sent again) in another tab: this one reads them again when it comes into view. */
  function onVisibility() {
    if (document.visibilityState === 'visible') void refreshSendNotices();
  }
  function onCommandStatus(status: CommandStatus) {
    // The composer of that draft reads its save's or send's latest outcome (its save indicator, a failed send).
    const draftId = status.draftId;
    if (draftId) store.set(draftStatusAtom, (all) => ({ ...all, [draftId]: status }));
    if (status.notice) void refreshSendNotices();
    // Counts move with the action, at once: its optimistic change is in the engine's rows when
    // it says pending, and its revert when it says failed (not 400 ms later, after the list).
    if (status.kind !== 'saveDraft' && status.kind !== 'send' && status.status !== 'cancelled') void refreshNow([status.accountId]);
    if (status.status === 'pending') return;
    if (status.status === 'cancelled') {
      tracked.delete(status.commandId); // an undone send: nothing to report
      return;
    }
    refreshMailboxes([status.accountId]);
    const mine = tracked.get(status.commandId);
    if (mine) {
      tracked.delete(status.commandId);
      // A send that left a notice is told by the notice (it stays until dismissed), not by a toast as well.
      if (status.status === 'failed') {
        mine.onFailed?.();
        if (!status.notice) showFailure(status, mine.label);
      }
      else if (mine.doneMessage && !status.notice) toast({ tone: 'info', message: mine.doneMessage });
    } else if (status.status === 'failed') {
      // The outcome may beat `run`'s reply to this tab; keep it until trackCommand or expiry.
      early.set(status.commandId, status);
      later(EARLY_STATUS_MS, () => early.delete(status.commandId));
    }
  }

  // ── sync status ─────────────────────────────────────────────────────────────
  /**
   * Folders and counts follow each account's sync, whatever is on screen. List patches
   * refresh only the account of the list shown, so an account whose first sync finished
   * while another account's folder was open kept an empty folder list in the sidebar (and
   * mail arriving in it, a stale unread count) until something else asked again.
   */
  function onSyncStatus(status: SyncStatus) {
    if (stopped) return;
    const before = store.get(syncStatusAtom)[status.accountId];
    store.set(syncStatusAtom, (all) => ({ ...all, [status.accountId]: status }));
    // The first status of an account only says where it stands (setAccounts has just asked).
    if (!before) return;
    const applied = status.appliedTransactionId !== before.appliedTransactionId;
    const caughtUp = status.phase === 'idle' && before.phase !== 'idle';
    if (applied || caughtUp) refreshMailboxes([status.accountId]);
  }

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

  // ── the thread list ─────────────────────────────────────────────────────────
  let listSeq = 0;
  let subscriptionId: string | null = null;
  let moving: Promise<void> | null = null;
  let queuedWindow: ListWindow | null = null;

  function onListPatch(patch: ListPatch) {
    if (stopped) return;
    const state = store.get(threadListAtom);
    if (state.held && state.held.subscriptionId === patch.subscriptionId) {
      store.set(threadListAtom, { ...state, held: applyListPatch(state.held, patch) });
      const scope = state.scope;
      refreshMailboxes(scope && 'accountId' in scope ? [scope.accountId] : undefined);
    } else if (subscriptionId === null) {
      earlyPatches.push(patch); // arrived before the snapshot that starts the subscription
    }
  }
  let earlyPatches: ListPatch[] = [];

  /** The list the entry asked for at start-up (engine/first-screen.ts), until a mailbox takes or refuses it. */
  let firstList = engine.startup?.firstList ?? null;
  function takeFirstList(scopeKey: string, window: ListWindow) {
    const early = firstList;
    firstList = null;
    if (!early) return null;
    const fits = scopeKeyOf(early.scope) === scopeKey && early.window.offset === window.offset && early.window.limit === window.limit;
    if (fits) return early.adopt(onListPatch);
    early.drop();
    return null;
  }

  /**
   * The start-up list is opened by `start` itself, so its rows are in the store before the
   * mailbox first renders; the mailbox's own open of the same list then keeps it.
   */
  let openedAtStart: string | null = null;
  const listKeyOf = (scope: ListScope, window: ListWindow) => `${scopeKeyOf(scope)} ${window.offset} ${window.limit}`;

  async function openThreadList(scope: ListScope, window: ListWindow) {
    if (openedAtStart !== null) {
      const same = openedAtStart === listKeyOf(scope, window);
      openedAtStart = null;
      const shown = store.get(threadListAtom);
      if (same && shown.scopeKey === scopeKeyOf(scope) && shown.status !== 'failed') return;
    }
    const seq = ++listSeq;
    const scopeKey = scopeKeyOf(scope);
    const previous = subscriptionId;
    subscriptionId = null;
    earlyPatches = [];
    queuedWindow = null;
    if (previous) void engine.mail.unwatch({ subscriptionId: previous }).catch(() => undefined);
    store.set(threadListAtom, { ...IDLE_THREAD_LIST, scopeKey, scope, status: 'loading', window });
    try {
      const watch = () => engine.mail.watchThreadList({ scope, window }, onListPatch);
      // The start-up list, when it is this one; if it failed (accounts changed since), asked again as usual.
      const snapshot = await (takeFirstList(scopeKey, window)?.catch(watch) ?? watch());
      if (seq !== listSeq || stopped) {
        void engine.mail.unwatch({ subscriptionId: snapshot.subscriptionId }).catch(() => undefined);
        return;
      }
      subscriptionId = snapshot.subscriptionId;
      let held = heldFromSnapshot(snapshot);
      for (const patch of earlyPatches) held = applyListPatch(held, patch);
      earlyPatches = [];
      store.set(threadListAtom, { scopeKey, scope, status: 'ready', window, held, error: null });
    } catch (error) {
      if (seq !== listSeq) return;
      store.set(threadListAtom, { ...IDLE_THREAD_LIST, scopeKey, scope, status: 'failed', window, error: TernError.from(error).message });
    }
  }

  async function sendWindow(window: ListWindow) {
    const id = subscriptionId;
    if (!id) return;
    try {
      const snapshot = await engine.mail.moveWindow({ subscriptionId: id, window });
      const state = store.get(threadListAtom);
      if (stopped || subscriptionId !== id || !state.held) return;
      store.set(threadListAtom, { ...state, held: heldFromSnapshot(snapshot, state.held) });
    } catch (error) {
      toast({ tone: 'error', message: TernError.from(error).message });
    }
  }

  function moveThreadListWindow(window: ListWindow) {
    const state = store.get(threadListAtom);
    if (!subscriptionId || state.status !== 'ready') return;
    store.set(threadListAtom, { ...state, window });
    if (moving) {
      queuedWindow = window; // single flight: only the latest wish is sent next
      return;
    }
    moving = (async () => {
      let next: ListWindow | null = window;
      while (next) {
        queuedWindow = null;
        await sendWindow(next);
        next = queuedWindow;
      }
      moving = null;
    })();
  }

  function closeThreadList(scope: ListScope) {
    if (store.get(threadListAtom).scopeKey !== scopeKeyOf(scope)) return;
    listSeq++;
    const id = subscriptionId;
    subscriptionId = null;
    if (id) void engine.mail.unwatch({ subscriptionId: id }).catch(() => undefined);
    store.set(threadListAtom, IDLE_THREAD_LIST);
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
      const early = firstList;
      if (early) {
        void openThreadList(early.scope, early.window);
        openedAtStart = listKeyOf(early.scope, early.window);
      }
      void subscribe('commands', engine.commands.watchCommands(onCommandStatus));
      if (typeof document !== 'undefined') document.addEventListener('visibilitychange', onVisibility);
      void subscribe('sync', engine.mail.watchSync(onSyncStatus));
      try {
        // Asked by the entry already, in the handshake's round trip.
        const early = engine.startup?.accounts;
        setAccounts((await (early ?? engine.accounts.initialise())).accounts);
      } catch (error) {
        // No account service (yet) or a broken store: nobody is logged in, the login screen says what fails.
        console.warn('The engine could not list accounts:', error);
        store.set(accountsAtom, []);
      }
      // A reload after a forced logout still says why it is on the sign-in screen.
      void refreshEndedSessions({ announce: false });
      void subscribe('accounts', engine.accounts.watch((accounts) => !stopped && onAccounts(accounts)));
    },
    stop() {
      stopped = true;
      if (typeof document !== 'undefined') document.removeEventListener('visibilitychange', onVisibility);
      firstList?.drop();
      firstList = null;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      if (subscriptionId) void engine.mail.unwatch({ subscriptionId }).catch(() => undefined);
      subscriptionId = null;
      for (const kind of Object.keys(subscriptions) as (keyof typeof subscriptions)[]) {
        const id = subscriptions[kind];
        if (id) unsubscribe(kind, id);
        subscriptions[kind] = null;
      }
    },
    accountAdded(account) {
      const accounts = store.get(accountsAtom) ?? [];
      setAccounts([...accounts.filter((known) => known.accountId !== account.accountId), account]);
    },
    accountRemoved(accountId) {
      setAccounts((store.get(accountsAtom) ?? []).filter((account) => account.accountId !== accountId));
    },
    openThreadList,
    moveThreadListWindow,
    closeThreadList,
    refreshMailboxes,
    adjustInboxUnread,
    trackCommand(commandId, label, doneMessage, onFailed) {
      const status = early.get(commandId);
      if (status) {
        early.delete(commandId);
        onFailed?.();
        if (!status.notice) showFailure(status, label);
      } else {
        tracked.set(commandId, { label, doneMessage, onFailed });
      }
    },
    toast,
    dismissToast,
    refreshSendNotices,
  };
}
