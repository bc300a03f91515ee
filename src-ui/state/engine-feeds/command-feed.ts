/**
 * Command outcomes pushed by the engine (every tab sees every command's status, STYLE item
 * 5): a draft's save and send status for its composer, send notices, counts that move with
 * the command, and this tab's own failures and confirmations as toasts.
 */
import { TernError } from '../../../shared/errors';
import type { CommandStatus } from '../../../shared/worker-mail-api';
import { accountsAtom, draftStatusAtom, sendNoticesAtom } from '../atoms';
import type { FeedContext } from './feed-context';
import type { MailboxCounts } from './mailbox-counts';
import type { ToastFeed } from './toasts';

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

export interface CommandFeed {
  /** The engine's push of one command's status. */
  onCommandStatus(status: CommandStatus): void;
  /** A command this tab ran: see WorkerBridge.trackCommand. */
  trackCommand(commandId: string, label?: string, doneMessage?: string, onFailed?: () => void): void;
  /** Reads the engine's send notices again. */
  refreshSendNotices(): Promise<void>;
  /** The tab came into view: a notice may have changed in another tab. */
  onVisibility(): void;
}

export function createCommandFeed(context: FeedContext, deps: { counts: MailboxCounts; toasts: ToastFeed }): CommandFeed {
  const { engine, store, later, isStopped } = context;
  const { counts, toasts } = deps;
  const tracked = new Map<string, { label: string | undefined; doneMessage: string | undefined; onFailed: (() => void) | undefined }>();
  const early = new Map<string, CommandStatus>();
  function showFailure(status: CommandStatus, label: string | undefined) {
    const error = status.error ? TernError.from({ name: status.error.name, message: status.error.message }) : new TernError('OperationFailed');
    toasts.toast({ tone: 'error', title: label ?? FAILED_TITLE[status.kind], message: status.error?.message || error.message });
  }
  /** The engine keeps the notices (a reload shows them again); the atom mirrors them. */
  async function refreshSendNotices() {
    const accountIds = (store.get(accountsAtom) ?? []).map((account) => account.accountId);
    const notices = accountIds.length === 0 ? [] : await engine.commands.sendNotices({ accountIds }).catch(() => null);
    if (notices && !isStopped()) store.set(sendNoticesAtom, notices);
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
    if (status.kind !== 'saveDraft' && status.kind !== 'send' && status.status !== 'cancelled') void counts.refreshNow([status.accountId]);
    if (status.status === 'pending') return;
    if (status.status === 'cancelled') {
      tracked.delete(status.commandId); // an undone send: nothing to report
      return;
    }
    counts.refreshMailboxes([status.accountId]);
    const mine = tracked.get(status.commandId);
    if (mine) {
      tracked.delete(status.commandId);
      // A send that left a notice is told by the notice (it stays until dismissed), not by a toast as well.
      if (status.status === 'failed') {
        mine.onFailed?.();
        if (!status.notice) showFailure(status, mine.label);
      }
      else if (mine.doneMessage && !status.notice) toasts.toast({ tone: 'info', message: mine.doneMessage });
    } else if (status.status === 'failed') {
      // The outcome may beat `run`'s reply to this tab; keep it until trackCommand or expiry.
      early.set(status.commandId, status);
      later(EARLY_STATUS_MS, () => early.delete(status.commandId));
    }
  }
  function trackCommand(commandId: string, label?: string, doneMessage?: string, onFailed?: () => void) {
    const status = early.get(commandId);
    if (status) {
      early.delete(commandId);
      onFailed?.();
      if (!status.notice) showFailure(status, label);
    } else {
      tracked.set(commandId, { label, doneMessage, onFailed });
    }
  }
  return { onCommandStatus, trackCommand, refreshSendNotices, onVisibility };
}
