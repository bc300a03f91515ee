/**
 * Command outcomes pushed by the engine (every tab sees every command's status, STYLE item
 * 5): a draft's save and send status for its composer, send notices, counts that move with
 * the command, and this tab's own failures and confirmations as toasts.
 */
import { TernError } from '../../../shared/errors';
import type { CommandStatus } from '../../../shared/worker-mail-api';
import { accountsAtom, draftStatusAtom, sendNoticesAtom, syncStatusAtom } from '../atoms';
import type { FeedContext } from './feed-context';
import type { MailboxCounts } from './mailbox-counts';
import type { ToastFeed } from './toasts';
import { errorPhrase, type Message, type Phrase } from '../../../shared/strings';

/** Outcomes of commands this tab has not been told the id of yet are kept this long. */
const EARLY_STATUS_MS = 30_000;

/** The words a failure toast starts with, per command kind. */
const failedTitle = (kind: CommandStatus['kind']): Message => ({ id: 'app.commandFailed', values: { kind } });

export interface CommandFeed {
  /** The engine's push of one command's status. */
  onCommandStatus(status: CommandStatus): void;
  /** A command this tab ran: see WorkerBridge.trackCommand. */
  trackCommand(commandId: string, label?: Phrase, doneMessage?: Phrase, onFailed?: () => void): void;
  /** Reads the engine's send notices again. */
  refreshSendNotices(): Promise<void>;
  /** The tab came into view: a notice may have changed in another tab. */
  onVisibility(): void;
}

export function createCommandFeed(context: FeedContext, deps: { counts: MailboxCounts; toasts: ToastFeed }): CommandFeed {
  const { engine, store, later, isStopped } = context;
  const { counts, toasts } = deps;
  const tracked = new Map<string, { label: Phrase | undefined; doneMessage: Phrase | undefined; onFailed: (() => void) | undefined; toldWaiting?: boolean }>();
  const early = new Map<string, CommandStatus>();
  function showFailure(status: CommandStatus, label: Phrase | undefined) {
    const error = status.error ? TernError.from({ name: status.error.name, message: status.error.message }) : new TernError('OperationFailed');
    toasts.toast({ tone: 'error', title: label ?? failedTitle(status.kind), message: errorPhrase(status.error ?? error) });
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
  /**
   * A send the engine cannot hand over yet (no server, or a server error; often its draft's save
   * is what waits, the send queued behind it): it keeps trying, and the page says so once, so the
   * closed composer is not taken for "sent" ("Message sent" comes when it is).
   */
  const sendOfDraft = new Map<string, string>();
  const waitingEarly = new Map<string, Phrase>();
  function tellWaiting(commandId: string, why: Phrase) {
    const mine = tracked.get(commandId);
    if (!mine) {
      waitingEarly.set(commandId, why);
      later(EARLY_STATUS_MS, () => waitingEarly.delete(commandId));
      return;
    }
    if (mine.toldWaiting) return;
    mine.toldWaiting = true;
    toasts.toast({ tone: 'info', title: { id: 'app.sendWaiting' }, message: why });
  }
  /** The catalogue's generic failure says "try again", which the engine does by itself. */
  const waitingBecause = (error: NonNullable<CommandStatus['error']>): Phrase => (error.name === 'OperationFailed' ? { id: 'app.sendKeptHere' } : errorPhrase(error));
  /**
   * The engine already knows the account cannot reach the gateway (the offline banner): the
   * send waits, and the page says so at once, not after a try that an engine in its offline
   * backoff may not make for half a minute.
   */
  const knownOffline = (accountId: string) => {
    const sync = store.get(syncStatusAtom)[accountId];
    return sync !== undefined && (sync.phase === 'offline' || sync.online === false);
  };
  function noteWaiting(status: CommandStatus, previous: CommandStatus | undefined) {
    if (status.status !== 'pending') return;
    if (status.kind === 'send') {
      if (status.draftId) sendOfDraft.set(status.draftId, status.commandId);
      const error = status.error ?? (previous?.kind === 'saveDraft' && previous.status === 'pending' ? previous.error : undefined);
      if (error) tellWaiting(status.commandId, waitingBecause(error));
      else if (knownOffline(status.accountId)) tellWaiting(status.commandId, { id: 'app.sendWaitsOffline' });
    } else if (status.kind === 'saveDraft' && status.error && status.draftId) {
      const send = sendOfDraft.get(status.draftId);
      if (send) tellWaiting(send, waitingBecause(status.error));
    }
  }
  function onCommandStatus(status: CommandStatus) {
    // The composer of that draft reads its save's or send's latest outcome (its save indicator, a failed send).
    const draftId = status.draftId;
    noteWaiting(status, draftId ? store.get(draftStatusAtom)[draftId] : undefined);
    if (draftId) store.set(draftStatusAtom, (all) => ({ ...all, [draftId]: status }));
    if (status.notice) void refreshSendNotices();
    // Counts move with the action, at once: its optimistic change is in the engine's rows when
    // it says pending, and its revert when it says failed (not 400 ms later, after the list).
    if (status.kind !== 'saveDraft' && status.kind !== 'send' && status.status !== 'cancelled') void counts.refreshNow([status.accountId]);
    if (status.status === 'pending') return;
    if (status.kind === 'send' && status.draftId) sendOfDraft.delete(status.draftId);
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
  function trackCommand(commandId: string, label?: Phrase, doneMessage?: Phrase, onFailed?: () => void) {
    const status = early.get(commandId);
    if (status) {
      early.delete(commandId);
      onFailed?.();
      if (!status.notice) showFailure(status, label);
    } else {
      tracked.set(commandId, { label, doneMessage, onFailed });
      const waiting = waitingEarly.get(commandId);
      waitingEarly.delete(commandId);
      if (waiting) tellWaiting(commandId, waiting);
    }
  }
  return { onCommandStatus, trackCommand, refreshSendNotices, onVisibility };
}
