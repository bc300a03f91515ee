/**
 * Thread commands (archive, move, read, star …) on chosen threads or a whole scope: one
 * engine command per account, the rows changed at once (local edits until the worker's
 * list shows it), the selection tidied, and a confirmation with Undo (and `z`) for moves.
 */
import { TernError } from '../../../shared/errors';
import { commandForThreads } from '../../../shared/scope-command';
import { threadRowEffect } from '../../../shared/command-effects';
import type { ListScope, MailCommand } from '../../../shared/worker-mail-api';
import { indexOfKey, rowAt } from '../thread-list/list-patch';
import type { RowEdit } from '../thread-list/local-edits';
import { groupByAccount, type ThreadRef } from '../thread-list/selection';
import { cursorAtom, foldersAtom, selectionAnchorAtom, selectionAtom, toastsAtom, visibleListAtom } from '../atoms';
import type { WorkerBridge } from '../engine-feeds';
import type { UiEngine } from '../engine-port';
import { createLocalEditsKeeper } from '../local-edits';
import { createScopeRunner } from '../scope-run';
import { inboxUnreadChanges } from '../unread-follow';
import type { Store } from '../engine-feeds/feed-context';
import { errorPhrase } from '../../../shared/strings';
import type { Message, Phrase } from '../../../shared/strings';
import { isImportantKeyword } from '../../../shared/priority-score';

/** Thread commands a toolbar button or a shortcut can ask for. */
export type ThreadCommand =
  | { readonly kind: 'archive' | 'trash' | 'spam' | 'notspam' | 'delete' }
  /** `folderIdByAccount`: threads of several accounts, each to its own account's folder of that name (move-menu.ts). */
  | { readonly kind: 'move'; readonly folderId: string; readonly folderName?: string; readonly folderIdByAccount?: Readonly<Record<string, string>> }
  | { readonly kind: 'markRead'; readonly read: boolean }
  | { readonly kind: 'star'; readonly starred: boolean }
  /** Gives (`add`) or takes a label by its keyword; `labelName` is for the confirmation. */
  | { readonly kind: 'label'; readonly keyword: string; readonly add: boolean; readonly labelName?: string };

export interface RunOptions {
  /**
   * The caller knows the threads leave the list shown (archiving from the inbox): they go
   * from the screen at once. Elsewhere (archiving from a search, a thread with messages in
   * several folders) only the worker can tell, and the rows wait for its list.
   */
  readonly leavesList?: boolean;
}

export interface ThreadCommandActions {
  /**
   * Runs a thread command on threads (one engine command per account); the rows show it at
   * once. A move's toast offers Undo, which puts every message back where it was.
   */
  runOnThreads(command: ThreadCommand, threads: readonly ThreadRef[], options?: RunOptions): Promise<void>;
  /** Runs a thread command on every thread of a scope, loaded or not ("Select all N"): scope-run.ts. */
  runOnScope(command: ThreadCommand, scope: ListScope, options?: RunOptions): Promise<void>;
  /** Undoes the latest move whose toast is still up (the `z` key); false when there is none. */
  undoLast(): boolean;
}

/** What the confirmation toast says (Gmail's words); null for changes that show in the row itself. */
export function confirmation(command: ThreadCommand, count: number): Message | null {
  if (command.kind === 'markRead' || command.kind === 'star') return null;
  if (command.kind === 'label' && isImportantKeyword(command.keyword)) return { id: command.add ? 'priority.markedImportant' : 'priority.markedNotImportant', values: { count } };
  if (command.kind === 'label') return { id: command.add ? 'labels.added' : 'labels.removed', values: { count, name: command.labelName ?? command.keyword } };
  const action = command.kind === 'move' && !command.folderName ? 'moveNowhere' : command.kind;
  return { id: 'app.confirmation', values: { action, count, folder: command.kind === 'move' ? (command.folderName ?? '') : '' } };
}

/** Commands whose toast offers Undo: moves (the engine answers their inverse). "Delete forever" cannot be undone. */
const UNDOABLE = new Set<ThreadCommand['kind']>(['archive', 'trash', 'spam', 'notspam', 'move']);

/** A mark important / not important moves the thread between the Inbox's sections: its toast offers Undo, the opposite mark. */
const isImportanceMark = (command: ThreadCommand) => command.kind === 'label' && isImportantKeyword(command.keyword);
const undoable = (command: ThreadCommand) => UNDOABLE.has(command.kind) || isImportanceMark(command);

/** The inverse the tab makes itself, where the engine answers none (a mark: the opposite mark). */
function ownInverse(command: MailCommand): MailCommand | null {
  return command.kind === 'label' && isImportantKeyword(command.keyword) ? { ...command, add: !command.add } : null;
}

/** What the toast says once an undo is on its way (the rows are back at once). */
export const UNDONE_MESSAGE: Message = { id: 'app.actionUndone' };

/** The MailCommand for some threads of one account (the engine's runOnScope makes its batches the same way). */
const toMailCommand = (command: ThreadCommand, accountId: string, threadIds: readonly string[]): MailCommand =>
  commandForThreads(command.kind === 'move' && command.folderIdByAccount ? { kind: 'move', folderId: command.folderIdByAccount[accountId] ?? command.folderId } : command, accountId, threadIds);

/** Runs `run` once the next frame is out (a timer where there are no frames). */
function afterNextFrame(run: () => void): void {
  if (typeof requestAnimationFrame === 'function') requestAnimationFrame(() => setTimeout(run, 0));
  else setTimeout(run, 0);
}

/** Commands after which the threads leave the list shown. */
const REMOVES_FROM_LIST = new Set<ThreadCommand['kind']>(['archive', 'trash', 'spam', 'notspam', 'delete', 'move']);

/** The row edit a command shows at once; null when the tab cannot know the outcome (it waits for the worker). */
function rowEditOf(command: ThreadCommand, leavesList: boolean): RowEdit | null {
  // The flags by the engine's own rule (shared/command-effects.ts); the ids do not change what a flag command does.
  const flags = threadRowEffect(commandForThreads(command, '', []));
  if (flags) return { kind: 'flags', ...flags };
  return leavesList && REMOVES_FROM_LIST.has(command.kind) ? { kind: 'remove' } : null;
}

export function createThreadCommands(params: { engine: UiEngine; store: Store; bridge: WorkerBridge }): ThreadCommandActions {
  const { engine, store, bridge } = params;
  const localEdits = createLocalEditsKeeper(store);
  /** The latest undoable move while its toast is up: what `z` undoes. */
  let lastUndo: { readonly toastId: number; readonly run: () => void } | null = null;

  /**
   * Runs the inverses the engine answered for a move's commands (one per account). The
   * rows come back at once (the restore is optimistic in the worker, and the move's own
   * row edits are dropped); a refusal is shown like any command's, in the catalogue's words.
   */
  async function runUndo(inverses: Promise<readonly (MailCommand | null)[]>, dropEdits: () => void) {
    const commands = (await inverses).filter((command): command is MailCommand => command !== null);
    if (commands.length === 0) return;
    dropEdits();
    const undoneId = bridge.toast({ tone: 'info', message: UNDONE_MESSAGE });
    await Promise.all(
      commands.map(async (command) => {
        try {
          const { commandId } = await engine.commands.run({ command });
          // A refused undo says so instead of "Action undone.".
          bridge.trackCommand(commandId, undefined, undefined, () => bridge.dismissToast(undoneId));
        } catch (error) {
          bridge.dismissToast(undoneId);
          bridge.toast({ tone: 'error', title: { id: 'app.couldNotUndo' }, message: errorPhrase(TernError.from(error)) });
        }
      }),
    );
  }

  /**
   * The confirmation of a command: with Undo (and `z`) for moves, which runs the inverses
   * the engine answered; `putBack` drops the command's row edits first.
   */
  function confirm(command: ThreadCommand, message: Phrase, inverses: Promise<readonly (MailCommand | null)[]>, putBack: () => void): number {
    if (!undoable(command)) return bridge.toast({ tone: 'info', message });
    let used = false;
    const undo = () => {
      if (used) return;
      used = true;
      if (lastUndo?.run === undo) lastUndo = null;
      bridge.dismissToast(toastId);
      void runUndo(inverses, putBack);
    };
    const toastId = bridge.toast({ tone: 'info', message, action: { label: { id: 'common.undo' }, run: undo } });
    lastUndo = { toastId, run: undo };
    return toastId;
  }

  /** A confirmation whose command failed goes, and `z` no longer undoes it. */
  function withdrawConfirmation(toastId: number) {
    bridge.dismissToast(toastId);
    if (lastUndo?.toastId === toastId) lastUndo = null;
  }

  /** The list's cursor on a thread (put back by a failed command); its index is found once its row is back. */
  function putCursorOn(key: string) {
    const index = indexOfKey(store.get(visibleListAtom).held, key);
    store.set(cursorAtom, (cursor) => ({ key, index: index >= 0 ? index : cursor.index }));
  }
  const scopeRunner = createScopeRunner({ engine, store, bridge, localEdits, confirm });

  return {
    runOnScope: (command, scope, options = {}) => scopeRunner(command, scope, rowEditOf(command, options.leavesList ?? false)),
    async runOnThreads(command, threads, options = {}) {
      if (threads.length === 0) return;
      const groups = groupByAccount(threads);
      if (REMOVES_FROM_LIST.has(command.kind)) {
        const gone = new Set(threads.map((thread) => thread.key));
        const selection = store.get(selectionAtom);
        // A new Map only when something was selected: an unchanged atom re-renders nothing.
        if ([...selection.keys()].some((key) => gone.has(key))) store.set(selectionAtom, new Map([...selection].filter(([key]) => !gone.has(key))));
        if (store.get(selectionAnchorAtom) !== null) store.set(selectionAnchorAtom, null);
      }
      const edit = rowEditOf(command, options.leavesList ?? false);
      // The inbox counts move in the same step as the rows (not after the engine's answer).
      const shown = store.get(visibleListAtom).held;
      const inboxes = store.get(foldersAtom);
      bridge.adjustInboxUnread(
        inboxUnreadChanges(
          command,
          threads.map((thread) => rowAt(shown, indexOfKey(shown, thread.key))),
          (accountId) => inboxes[accountId]?.find((folder) => folder.specialUse === 'inbox')?.id,
        ),
      );
      const settles: ((accepted: boolean) => void)[] = [];
      /**
       * A command that fails (refused at once, or its outcome later) takes its confirmation
       * back: the error toast replaces "Conversation moved to …", whose Undo would have
       * nothing to undo. The threads it put back take the list's cursor, so `j`/`k` and
       * the keys go on from them (the open thread, if it advanced, stays open).
       */
      let failed = false;
      let confirmationId: number | null = null;
      const onFailed = (keys: readonly string[]) => {
        failed = true;
        if (confirmationId !== null) withdrawConfirmation(confirmationId);
        if (REMOVES_FROM_LIST.has(command.kind) && keys[0]) putCursorOn(keys[0]);
      };
      const runs = [...groups].map(async ([accountId, threadIds]): Promise<MailCommand | null> => {
        const keys = threads.filter((thread) => thread.accountId === accountId).map((thread) => thread.key);
        // One edit per engine command, so each settles with its own answer.
        const settle = edit ? localEdits.begin(keys, edit) : () => undefined;
        settles.push(settle);
        try {
          const mailCommand = toMailCommand(command, accountId, threadIds);
          const { commandId, undo } = await engine.commands.run({ command: mailCommand });
          settle(true);
          bridge.trackCommand(commandId, undefined, undefined, () => onFailed(keys));
          return undo ?? ownInverse(mailCommand);
        } catch (error) {
          settle(false);
          onFailed(keys);
          bridge.toast({ tone: 'error', message: errorPhrase(TernError.from(error)) });
          return null;
        }
      });
      const inverses = Promise.all(runs);
      const message = confirmation(command, threads.length);
      // The rows show the change in this frame; the confirmation follows in the next, so
      // rendering it does not hold back the frame that takes the rows away.
      if (message) {
        afterNextFrame(() => {
          if (!failed) confirmationId = confirm(command, message, inverses, () => settles.forEach((settle) => settle(false)));
        });
      }
      await inverses;
    },
    undoLast() {
      const last = lastUndo;
      if (!last || !store.get(toastsAtom).some((toast) => toast.id === last.toastId)) return false;
      last.run();
      return true;
    },
  };
}
