/**
 * The command functions components call (STYLE item 13): every change goes to the
 * engine from here, never from a component. Thread commands are optimistic in the
 * worker; this module dispatches them, shows their effect on the rows at once (local
 * edits, until the worker's list shows it: see local-edits.ts), tidies the selection,
 * and leaves failures to the bridge, which shows them as toasts with the catalogue's
 * sentence.
 */
import type { createStore } from 'jotai';
import { TernError } from '../../shared/errors';
import { commandForThreads } from '../../shared/scope-command';
import type { FolderChange, FolderChangeResult } from '../../shared/worker-mail-api';
import type { Address } from '../../shared/api/mail';
import type { BodyView, DraftEdit, DraftInput, DraftSaveReceipt, ListScope, ListWindow, MailCommand, SendNotice, ThreadView, UploadParams } from '../../shared/worker-mail-api';
import type { ViewMode } from '../settings/view-mode';
import type { ThemeChoice } from '../theme/theme';
import { groupByAccount, type ThreadRef } from '../thread-list/selection';
import type { ComposerInitial } from '../composer/compose-initial';
import { accountsAtom, composerAtom, cursorAtom, foldersAtom, loggedOutAtom, selectionAnchorAtom, selectionAtom, toastsAtom, visibleListAtom, type Toast } from './atoms';
import { indexOfKey, rowAt } from '../thread-list/list-patch';
import { inboxUnreadChanges } from './unread-follow';
import { restoredDraftsMessage } from './ended-sessions';
import type { AddAccountParams, AddAccountResult, UiEngine } from './engine-port';
import type { Preferences } from './preferences';
import type { WorkerBridge } from './worker-bridge';
import { createLocalEditsKeeper } from './local-edits';
import { createScopeRunner } from './scope-run';
import type { RowEdit } from '../thread-list/local-edits';

type Store = ReturnType<typeof createStore>;

/** Thread commands a toolbar button or a shortcut can ask for. */
export type ThreadCommand =
  | { readonly kind: 'archive' | 'trash' | 'spam' | 'notspam' | 'delete' }
  /** `folderIdByAccount`: threads of several accounts, each to its own account's folder of that name (move-menu.ts). */
  | { readonly kind: 'move'; readonly folderId: string; readonly folderName?: string; readonly folderIdByAccount?: Readonly<Record<string, string>> }
  | { readonly kind: 'markRead'; readonly read: boolean }
  | { readonly kind: 'star'; readonly starred: boolean };

/** "Conversation" or "3 conversations", as a sentence starts. */
const subjectOf = (count: number) => (count === 1 ? 'Conversation' : `${count.toLocaleString()} conversations`);

/** What the confirmation toast says (Gmail's words); null for changes that show in the row itself. */
export function confirmation(command: ThreadCommand, count: number): string | null {
  switch (command.kind) {
    case 'archive':
      return `${subjectOf(count)} archived.`;
    case 'trash':
      return `${subjectOf(count)} moved to Trash.`;
    case 'spam':
      return `${subjectOf(count)} marked as spam.`;
    case 'notspam':
      return `${subjectOf(count)} marked as not spam and moved to Inbox.`;
    case 'delete':
      return `${subjectOf(count)} deleted forever.`;
    case 'move':
      return `${subjectOf(count)} moved${command.folderName ? ` to ${command.folderName}` : ''}.`;
    case 'markRead':
    case 'star':
      return null;
  }
}

/** Commands whose toast offers Undo: moves (the engine answers their inverse). "Delete forever" cannot be undone. */
const UNDOABLE = new Set<ThreadCommand['kind']>(['archive', 'trash', 'spam', 'notspam', 'move']);

/** The toast after logging out of one account while others stay. */
export const loggedOutMessage = (email: string) => `Logged out of ${email}.`;

/** What the toast says once an undo is on its way (the rows are back at once). */
export const UNDONE_MESSAGE = 'Action undone.';

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
  if (command.kind === 'markRead') return { kind: 'flags', unread: !command.read };
  if (command.kind === 'star') return { kind: 'flags', starred: command.starred };
  return leavesList && REMOVES_FROM_LIST.has(command.kind) ? { kind: 'remove' } : null;
}

export interface RunOptions {
  /**
   * The caller knows the threads leave the list shown (archiving from the inbox): they go
   * from the screen at once. Elsewhere (archiving from a search, a thread with messages in
   * several folders) only the worker can tell, and the rows wait for its list.
   */
  readonly leavesList?: boolean;
}

export interface MailActions {
  // Accounts
  /** One login attempt; throws a TernError with the catalogue sentence when refused. */
  login(params: AddAccountParams): Promise<AddAccountResult>;
  /** The email step's check: resolves when the gateway can serve the address's domain; throws its TernError when not. */
  checkAddress(email: string): Promise<void>;
  /** Logs one account out; the others stay. */
  logout(accountId: string): Promise<void>;
  /** Logs every account out; the login screen then shows LOGGED_OUT. */
  logoutAll(): Promise<void>;
  /** Drafts and sends of these accounts not on the server yet (a logout deletes them); 0 when the engine cannot say. */
  unsentDrafts(accountIds: readonly string[]): Promise<number>;
  /** The login screen has shown its "logged out" notice. */
  clearLoggedOut(): void;
  /** The name the account's mail is sent under ('' for the gateway's); throws a TernError when refused. */
  setDisplayName(accountId: string, displayName: string): Promise<void>;

  // The thread list
  openThreadList(scope: ListScope, window: ListWindow): Promise<void>;
  moveThreadListWindow(window: ListWindow): void;
  closeThreadList(scope: ListScope): void;
  /**
   * Runs a thread command on threads (one engine command per account); the rows show it at
   * once. A move's toast offers Undo, which puts every message back where it was.
   */
  runOnThreads(command: ThreadCommand, threads: readonly ThreadRef[], options?: RunOptions): Promise<void>;
  /**
   * A folder change from the sidebar (create, rename, move, delete); resolves once the
   * sidebar has it. Throws the catalogue's TernError (FolderAlreadyExist …) for the dialog.
   */
  changeFolder(change: FolderChange): Promise<FolderChangeResult>;
  /** Empty Trash / Empty Spam: every message of it deleted for good; resolves with how many. Throws a TernError. */
  emptyFolder(params: { accountId: string; role: 'trash' | 'junk' }): Promise<number>;
  /** Runs a thread command on every thread of a scope, loaded or not ("Select all N"): scope-run.ts. */
  runOnScope(command: ThreadCommand, scope: ListScope, options?: RunOptions): Promise<void>;
  /** Undoes the latest move whose toast is still up (the `z` key); false when there is none. */
  undoLast(): boolean;

  // Reading and writing (for the conversation view and the composer)
  loadThread(params: { accountId: string; threadId: string }): Promise<ThreadView>;
  /** `whole`: a very large HTML body in full ("Show the whole message"). */
  loadBody(params: { accountId: string; messageId: string; whole?: boolean }): Promise<BodyView>;
  suggestAddresses(params: { accountIds: readonly string[]; prefix: string; limit: number }): Promise<readonly Address[]>;
  saveDraft(draft: DraftInput): Promise<DraftSaveReceipt>;
  /** A draft to edit, by its message in Drafts (Bcc and attachments included), or by the id a composer saved it under (composers restored after a reload). */
  openDraft(params: { accountId: string; messageId: string } | { accountId: string; draftId: string }): Promise<DraftEdit>;
  /** The composer's Discard: the draft leaves Drafts (the composer keeps its content for Undo). */
  discardDraft(params: { accountId: string; draftId: string }): Promise<{ commandId: string }>;
  send(params: { accountId: string; draftId: string; delayMs: number; subject?: string }): Promise<{ commandId: string }>;
  undoSend(commandId: string): Promise<boolean>;
  /** Forgets a send notice (sendNoticesAtom); a "may have been sent" one is taken as sent. */
  dismissSendNotice(notice: Pick<SendNotice, 'accountId' | 'noticeId'>): Promise<void>;
  /** "Send again" on a "may have been sent" notice: the person decided; it leaves after the undo window. */
  sendAgain(notice: Pick<SendNotice, 'accountId' | 'noticeId'>, delayMs: number): Promise<{ commandId: string }>;
  uploadAttachment(params: UploadParams, onProgress: (fraction: number) => void): Promise<{ attachmentId: string }>;
  /** Stops an upload by the id it was started with; false when it is no longer running. */
  cancelUpload(uploadId: string): Promise<boolean>;
  /** An attachment's bytes (preview, download, forward). */
  loadAttachment(params: { accountId: string; messageId: string; index: number }): Promise<Blob>;
  /** A sandboxed gateway address showing one previewable attachment (never a blob: of the app's origin). */
  previewAttachment(params: { accountId: string; messageId: string; index: number }): Promise<string>;
  /** Opens the composer (one at a time; a new one replaces a closed-and-saved one). */
  openComposer(initial: ComposerInitial): void;
  closeComposer(): void;
  /** Remote images of this sender always show (persisted). */
  trustSender(email: string): void;
  /** Undoes trustSender (persisted the same way). */
  distrustSender(email: string): void;

  // The tab itself
  toast(toast: Omit<Toast, 'id'>): number;
  dismissToast(id: number): void;
  setTheme(choice: ThemeChoice): void;
  setViewMode(mode: ViewMode): void;
  setListWidth(width: number): void;
}

export function createMailActions(params: { engine: UiEngine; store: Store; bridge: WorkerBridge; preferences: Preferences }): MailActions {
  const { engine, store, bridge, preferences } = params;
  const localEdits = createLocalEditsKeeper(store);
  let composerOpenings = 0;
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
          bridge.toast({ tone: 'error', title: 'Could not undo', message: TernError.from(error).message });
        }
      }),
    );
  }

  /**
   * The confirmation of a command: with Undo (and `z`) for moves, which runs the inverses
   * the engine answered; `putBack` drops the command's row edits first.
   */
  function confirm(command: ThreadCommand, message: string, inverses: Promise<readonly (MailCommand | null)[]>, putBack: () => void): number {
    if (!UNDOABLE.has(command.kind)) return bridge.toast({ tone: 'info', message });
    let used = false;
    const undo = () => {
      if (used) return;
      used = true;
      if (lastUndo?.run === undo) lastUndo = null;
      bridge.dismissToast(toastId);
      void runUndo(inverses, putBack);
    };
    const toastId = bridge.toast({ tone: 'info', message, action: { label: 'Undo', run: undo } });
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

  async function logout(accountId: string) {
    const email = (store.get(accountsAtom) ?? []).find((account) => account.accountId === accountId)?.emailAddress;
    try {
      await engine.accounts.remove({ accountId });
    } catch (error) {
      bridge.toast({ tone: 'error', title: 'Could not log out', message: TernError.from(error).message });
      throw error;
    }
    bridge.accountRemoved(accountId);
    // The last one: the login screen says so ("You have logged out of all accounts."); else a toast does.
    if ((store.get(accountsAtom) ?? []).length === 0) store.set(loggedOutAtom, true);
    else if (email) bridge.toast({ tone: 'info', message: loggedOutMessage(email) });
  }

  return {
    async login(credentials) {
      let result: AddAccountResult;
      try {
        result = await engine.accounts.add(credentials);
      } catch (error) {
        throw TernError.from(error);
      }
      if (result.kind === 'added') {
        store.set(loggedOutAtom, false);
        bridge.accountAdded(result.account);
        // Work a forced logout kept (src-worker/accounts/kept-work.ts) is in Drafts now: say so.
        if (result.restoredDrafts || result.sendsInDrafts) bridge.toast({ tone: 'info', message: restoredDraftsMessage(result) });
      }
      return result;
    },
    async checkAddress(email) {
      try {
        await engine.accounts.checkAddress({ email });
      } catch (error) {
        throw TernError.from(error);
      }
    },
    logout,
    async unsentDrafts(accountIds) {
      return (await engine.accounts.unsentDrafts?.({ accountIds }).catch(() => 0)) ?? 0;
    },
    async logoutAll() {
      const ids = (store.get(accountsAtom) ?? []).map((account) => account.accountId);
      for (const id of ids) await logout(id);
    },
    clearLoggedOut: () => store.set(loggedOutAtom, false),
    async setDisplayName(accountId, displayName) {
      try {
        // The account list of every tab follows through the engine's account watch.
        await engine.accounts.setDisplayName({ accountId, displayName });
      } catch (error) {
        throw TernError.from(error);
      }
    },

    openThreadList: (scope, window) => bridge.openThreadList(scope, window),
    moveThreadListWindow: (window) => bridge.moveThreadListWindow(window),
    closeThreadList: (scope) => bridge.closeThreadList(scope),
    runOnScope: (command, scope, options = {}) => scopeRunner(command, scope, rowEditOf(command, options.leavesList ?? false)),
    async changeFolder(change) {
      let result: FolderChangeResult;
      try {
        result = await engine.folders.changeFolder({ change });
      } catch (error) {
        throw TernError.from(error);
      }
      // The engine has pulled the change: the sidebar asks for the account's folders again.
      bridge.refreshMailboxes([change.accountId]);
      return result;
    },
    async emptyFolder({ accountId, role }) {
      let removed: number;
      try {
        ({ removed } = await engine.folders.emptyFolder({ accountId, role }));
      } catch (error) {
        throw TernError.from(error);
      }
      bridge.refreshMailboxes([accountId]);
      return removed;
    },
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
          const { commandId, undo } = await engine.commands.run({ command: toMailCommand(command, accountId, threadIds) });
          settle(true);
          bridge.trackCommand(commandId, undefined, undefined, () => onFailed(keys));
          return undo ?? null;
        } catch (error) {
          settle(false);
          onFailed(keys);
          bridge.toast({ tone: 'error', message: TernError.from(error).message });
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

    loadThread: (thread) => engine.mail.getThread(thread),
    loadBody: (body) => engine.mail.getBody(body),
    suggestAddresses: (query) => engine.mail.suggestAddresses(query),
    saveDraft: (draft) => engine.commands.saveDraft({ draft }),
    async openDraft(draft) {
      try {
        return await engine.commands.openDraft(draft);
      } catch (error) {
        throw TernError.from(error);
      }
    },
    async send(sending) {
      const result = await engine.commands.send(sending);
      // The gateway's answer comes after the undo window, when the composer has gone: the toast says it left.
      bridge.trackCommand(result.commandId, 'Message not sent', 'Message sent');
      return result;
    },
    undoSend: (commandId) => engine.commands.undoSend({ commandId }),
    async dismissSendNotice({ accountId, noticeId }) {
      await engine.commands.dismissSendNotice({ accountId, noticeId });
      await bridge.refreshSendNotices();
    },
    async sendAgain({ accountId, noticeId }, delayMs) {
      const result = await engine.commands.sendAgain({ accountId, noticeId, delayMs });
      bridge.trackCommand(result.commandId, 'Message not sent', 'Message sent');
      await bridge.refreshSendNotices();
      return result;
    },
    discardDraft: (params) => engine.commands.discardDraft(params),
    uploadAttachment: (upload, onProgress) => engine.commands.uploadAttachment(upload, onProgress),
    cancelUpload: (uploadId) => engine.commands.cancelUpload({ uploadId }),
    async loadAttachment(attachment) {
      try {
        return await engine.mail.getAttachment(attachment);
      } catch (error) {
        throw TernError.from(error);
      }
    },
    async previewAttachment(attachment) {
      try {
        return (await engine.mail.previewAttachment(attachment)).url;
      } catch (error) {
        throw TernError.from(error);
      }
    },
    openComposer(initial) {
      store.set(composerAtom, { id: ++composerOpenings, initial });
    },
    closeComposer: () => store.set(composerAtom, null),
    trustSender: (email) => preferences.trustSender(email),
    distrustSender: (email) => preferences.distrustSender(email),

    toast: (toast) => bridge.toast(toast),
    dismissToast: (id) => bridge.dismissToast(id),
    setTheme: (choice) => preferences.setTheme(choice),
    setViewMode: (mode) => preferences.setViewMode(mode),
    setListWidth: (width) => preferences.setListWidth(width),
  };
}
