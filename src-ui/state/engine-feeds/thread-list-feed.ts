/**
 * The thread list shown: the engine's snapshot of a scope's window, then its patches, held
 * in threadListAtom. One list is watched at a time; moving the window is single-flight.
 */
import { TernError } from '../../../shared/errors';
import type { ListPatch, ListScope, ListWindow } from '../../../shared/worker-mail-api';
import { applyListPatch, heldFromSnapshot } from '../thread-list/list-patch';
import { IDLE_THREAD_LIST, threadListAtom } from '../atoms';
import type { FeedContext } from './feed-context';
import type { MailboxCounts } from './mailbox-counts';
import type { ToastFeed } from './toasts';
import { errorPhrase } from '../../../shared/strings';

export const scopeKeyOf = (scope: ListScope): string => JSON.stringify(scope);

export interface ThreadListFeed {
  /** Opens the list the entry asked for at start-up, so its rows are in the store before the mailbox renders. */
  openFirstList(): void;
  /** Shows a scope's threads; replaces the list shown before. */
  openThreadList(scope: ListScope, window: ListWindow): Promise<void>;
  /**
   * Opens the list a mailbox is about to show, ahead of it: the search box asks for a query's
   * results in its input event, so the engine searches while the address changes and the
   * mailbox renders for it. The mailbox's own open of that list (or of a query typed over
   * since) then keeps it. Only while a mailbox shows a list: nothing would close it else.
   */
  openThreadListAhead(scope: ListScope, window: ListWindow): void;
  /** Moves the shown list's window; calls made while one is under way collapse into the latest. */
  moveThreadListWindow(window: ListWindow): void;
  /** Ends the list of a scope if it is still the one shown. */
  closeThreadList(scope: ListScope): void;
  /** Ends the watch (the bridge stops). */
  stop(): void;
}

export function createThreadListFeed(context: FeedContext, deps: { counts: MailboxCounts; toasts: ToastFeed }): ThreadListFeed {
  const { engine, store, isStopped } = context;
  const { counts, toasts } = deps;
  let listSeq = 0;
  let subscriptionId: string | null = null;
  let moving: Promise<void> | null = null;
  let queuedWindow: ListWindow | null = null;

  function onListPatch(patch: ListPatch) {
    if (isStopped()) return;
    const state = store.get(threadListAtom);
    if (state.held && state.held.subscriptionId === patch.subscriptionId) {
      store.set(threadListAtom, { ...state, held: applyListPatch(state.held, patch) });
      const scope = state.scope;
      counts.refreshMailboxes(scope && 'accountId' in scope ? [scope.accountId] : undefined);
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
   * Lists opened ahead of the mailbox that shows them, oldest first: the start-up list,
   * opened by `start` itself so its rows are in the store before the mailbox first renders,
   * and the queries the search box opened as they were typed. The mailbox's own open of one
   * of them keeps the list shown: the latest, or one typed over (the address will catch up
   * with the latest, which is shown already). Any other list ends the run.
   */
  let openedAhead: string[] = [];
  const listKeyOf = (scope: ListScope, window: ListWindow) => `${scopeKeyOf(scope)} ${window.offset} ${window.limit}`;

  /** Whether the mailbox's open of this list is one opened ahead (and the list shown is still good). */
  function keptFromAhead(scope: ListScope, window: ListWindow): boolean {
    const at = openedAhead.indexOf(listKeyOf(scope, window));
    if (at === -1 || at === openedAhead.length - 1) openedAhead = [];
    const { status } = store.get(threadListAtom);
    return at !== -1 && status !== 'failed' && status !== 'idle';
  }

  async function openThreadList(scope: ListScope, window: ListWindow) {
    if (openedAhead.length > 0 && keptFromAhead(scope, window)) return;
    await openList(scope, window);
  }

  async function openList(scope: ListScope, window: ListWindow) {
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
      if (seq !== listSeq || isStopped()) {
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
      if (isStopped() || subscriptionId !== id || !state.held) return;
      store.set(threadListAtom, { ...state, held: heldFromSnapshot(snapshot, state.held) });
    } catch (error) {
      toasts.toast({ tone: 'error', message: errorPhrase(TernError.from(error)) });
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
    openFirstList() {
      const early = firstList;
      if (!early) return;
      void openList(early.scope, early.window);
      openedAhead = [listKeyOf(early.scope, early.window)];
    },
    openThreadList,
    openThreadListAhead(scope, window) {
      const shown = store.get(threadListAtom);
      if (shown.status === 'idle' || shown.scopeKey === scopeKeyOf(scope)) return;
      void openList(scope, window);
      openedAhead = [...openedAhead.slice(-20), listKeyOf(scope, window)];
    },
    moveThreadListWindow,
    closeThreadList,
    stop() {
      firstList?.drop();
      firstList = null;
      if (subscriptionId) void engine.mail.unwatch({ subscriptionId }).catch(() => undefined);
      subscriptionId = null;
    },
  };
}
