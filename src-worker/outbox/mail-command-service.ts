/**
 * MailCommandService (shared/worker-mail-api.ts): what tabs change. A command is applied
 * to the local rows and recorded in one transaction, so it shows at once in every tab and
 * survives a closed tab or a killed worker; the account's outbox then sends it, and its
 * outcome reaches every tab through `watchCommands`.
 */
import { systemClock, type Clock } from '../../shared/clock';
import { MAX_UNDO_HOLD_MS, type Schedule } from '../../shared/send-time';
import { TernError } from '../../shared/errors';
import type {
  CommandRun,
  CommandStatus,
  DraftEdit,
  DraftInput,
  DraftSaveReceipt,
  ListScope,
  MailCommand,
  MailCommandService,
  PendingSendView,
  ScopeCommand,
  ScopeRun,
  ScopeRunProgress,
  SendNotice,
  UploadParams,
} from '../../shared/worker-mail-api';
import type { MailGateway } from '../api/mail-gateway';
import type { MailTable } from '../db/mail-schema';
import { withRead, withWrite, type LocalStore } from '../db/store';
import { isTemporaryId, temporaryId } from '../model/temporary-id';
import type { ChangeFeed } from '../mail-store/change-feed';
import { MAIL_WRITE_TABLES, MailWriter } from '../mail-store/mail-writer';
import { parseParams, subscriptionParamsSchema } from '../queries/query-params';
import { recordAction } from './action-store';
import { AttachmentUploads } from './attachment-uploads';
import { discardDraftParamsSchema, draftInputSchema, mailCommandSchema, openDraftParamsSchema, sendAgainParamsSchema, sendNoticeParamsSchema, sendNoticesParamsSchema, sendParamsSchema } from './command-params';
import type { CommandStatusFeed } from './command-status-feed';
import { draftEditOf, draftEditOfSave, waitingSaveById, waitingSaveOf } from './draft-opening';
import { claimRevision, currentRevision, markSending } from './draft-revisions';
import { adoptGatewayVersion, readDraftLink, recordDiscard, recordDraftSave, recordSend } from './draft-store';
import { heldOf, readHeld, withHeld, writeHeld } from './held-recipients';
import { liveRows, OUTBOX_TABLE, PendingEffects, type OutboxRow } from '../mail-store/outbox-rows';
import { PendingSendsService } from './pending-sends-service';
import { runOnScope, scopeRunParamsSchema } from './scope-run';
import { deleteSendNotice, readSendNotice, readSendNotices } from './send-notices';

export interface MailCommandServiceDeps {
  readonly open: (accountId: string) => Promise<LocalStore<MailTable>>;
  /** The account's gateway (uploads go straight to it; a draft is reopened from it). */
  readonly gateway: (accountId: string) => Promise<Pick<MailGateway, 'upload' | 'draftOfMessage' | 'getDraft' | 'dismissOutbox' | 'undoOutbox' | 'pendingSends' | 'cancelScheduled' | 'deleteScheduled'>>;
  /** Resolves when the account's outbox pass under way has ended (an undo waits for a send being handed over). */
  readonly outboxIdle?: (accountId: string) => Promise<void>;
  /** Who a draft of the account is from: its address and the display name chosen in settings (or the gateway's). */
  readonly sender?: (accountId: string) => Promise<{ name: string; email: string } | undefined>;
  /** Wakes the account's outbox (no-op where this engine does not send). */
  readonly kick: (accountId: string) => void;
  /** Accounts whose outboxes may hold a command (for undoSend, which names only the command). */
  readonly accountIds: () => Promise<readonly string[]>;
  readonly statuses: CommandStatusFeed;
  readonly changes: ChangeFeed;
  readonly clock?: Clock;
  /** Every thread of a list scope per account, newest first (ThreadListReader.threadIds), for runOnScope. */
  readonly scopeThreads?: (scope: ListScope) => Promise<Map<string, string[]>>;
}

export class EngineMailCommands implements MailCommandService {
  private readonly clock: Clock;
  private readonly uploads: AttachmentUploads;
  /** Sends the gateway holds or has scheduled (pending-sends-service.ts). */
  readonly pending: PendingSendsService;

  constructor(private readonly deps: MailCommandServiceDeps) {
    this.clock = deps.clock ?? systemClock;
    this.uploads = new AttachmentUploads({ gateway: deps.gateway });
    this.pending = new PendingSendsService({
      open: deps.open,
      gateway: deps.gateway,
      accountIds: deps.accountIds,
      outboxIdle: deps.outboxIdle ?? (async () => undefined),
      publish: (status) => this.publish(status),
    });
  }

  async run(params: { command: MailCommand }): Promise<CommandRun> {
    const command = parseParams(mailCommandSchema, params.command);
    const commandId = temporaryId();
    const store = await this.deps.open(command.accountId);
    const { threadIds, undo } = await withWrite(store, MAIL_WRITE_TABLES, async (tx) => {
      const writer = new MailWriter(tx, command.accountId, await PendingEffects.load(tx));
      const recorded = await recordAction(tx, writer, { accountId: command.accountId, commandId, command, now: this.clock.now() });
      await writer.finish();
      return { threadIds: [...writer.threadIds], undo: recorded.undo };
    });
    this.deps.changes.emit({ accountId: command.accountId, threadIds, foldersChanged: false });
    this.publish({ commandId, accountId: command.accountId, kind: command.kind, status: 'pending' });
    this.deps.kick(command.accountId);
    return undo ? { commandId, undo } : { commandId };
  }

  /** Every thread of a list, in batches of `run` (scope-run.ts). */
  async runOnScope(params: { scope: ListScope; command: ScopeCommand }, onProgress: (progress: ScopeRunProgress) => void): Promise<ScopeRun> {
    const parsed = parseParams(scopeRunParamsSchema, params);
    const threadIds = this.deps.scopeThreads;
    if (!threadIds) throw new TernError('OperationFailed');
    return await runOnScope({ threadIds, run: (command) => this.run({ command }) }, parsed, onProgress);
  }

  async saveDraft(params: { draft: DraftInput }): Promise<DraftSaveReceipt> {
    const { baseRevision, ...draft } = parseParams(draftInputSchema, params.draft);
    const draftId = draft.draftId ?? temporaryId();
    // Read before the transaction (no unrelated await inside one): the composer's identity, or the From as settings name it now.
    const from = draft.from ?? (await this.deps.sender?.(draft.accountId));
    const { row, revision } = await withWrite(await this.deps.open(draft.accountId), [OUTBOX_TABLE, 'JSONBlob'], async (tx) => {
      // Another tab saved or sent this draft since this composer's last save: refused before anything is written.
      const revision = await claimRevision(tx, draftId, draft.draftId === undefined ? undefined : baseRevision);
      // Invalid recipients stay here (the gateway's draft cannot carry them), to come back with the draft.
      await writeHeld(tx, draftId, heldOf(draft));
      const row = await recordDraftSave(tx, { accountId: draft.accountId, commandId: temporaryId(), draftId, draft: { ...draft, draftId }, ...(from ? { from } : {}), now: this.clock.now() });
      return { row, revision };
    });
    this.publish({ commandId: row.id, accountId: draft.accountId, kind: 'saveDraft', status: 'pending', draftId });
    this.deps.kick(draft.accountId);
    return { draftId, revision, commandId: row.id };
  }

  async openDraft(params: { accountId: string; messageId: string } | { accountId: string; draftId: string }): Promise<DraftEdit> {
    const parsed = parseParams(openDraftParamsSchema, params);
    if ('draftId' in parsed) return this.reopenDraft(parsed.accountId, parsed.draftId);
    const { accountId, messageId } = parsed;
    const store = await this.deps.open(accountId);
    const view = await (await this.deps.gateway(accountId)).draftOfMessage(messageId);
    const { waiting, held, revision } = await withRead(store, [OUTBOX_TABLE, 'JSONBlob'], async (tx) => ({
      waiting: await waitingSaveOf(tx, view.id),
      held: await readHeld(tx, view.id),
      revision: await currentRevision(tx, view.id),
    }));
    if (!waiting) await withWrite(store, ['JSONBlob'], (tx) => adoptGatewayVersion(tx, view.id, view));
    return { ...(waiting ? draftEditOf(accountId, view, waiting) : withHeld(draftEditOf(accountId, view, undefined), held)), revision };
  }

  /**
   * A draft by the id its composer saved it under (a composer open before a reload): the
   * gateway's draft with a save still waiting laid over it, or that save alone when the
   * gateway has not got the draft yet (or cannot be reached). It keeps that id, so the
   * next save continues the same draft.
   */
  private async reopenDraft(accountId: string, draftId: string): Promise<DraftEdit> {
    const store = await this.deps.open(accountId);
    const { serverId, waiting, sending, held, revision } = await withRead(store, [OUTBOX_TABLE, 'JSONBlob'], async (tx) => {
      const serverId = (await readDraftLink(tx, draftId)).serverId ?? (isTemporaryId(draftId) ? null : draftId);
      const sending = (await liveRows(tx)).some((row) => row.kind === 'send' && row.draft_id === draftId);
      return { serverId, waiting: await waitingSaveById(tx, draftId, serverId), sending, held: await readHeld(tx, draftId), revision: await currentRevision(tx, draftId) };
    });
    // On its way out (a reload in the undo window): not a draft to edit any more.
    if (sending) throw new TernError('DraftAlreadySent');
    if (serverId !== null) {
      try {
        const view = await (await this.deps.gateway(accountId)).getDraft(serverId);
        if (!waiting) await withWrite(store, ['JSONBlob'], (tx) => adoptGatewayVersion(tx, draftId, view));
        // A waiting save holds its invalid recipients itself; the gateway's draft has none of them.
        return { ...(waiting ? draftEditOf(accountId, view, waiting) : withHeld(draftEditOf(accountId, view, undefined), held)), draftId, revision };
      } catch (error) {
        if (!waiting) throw error;
      }
    }
    if (!waiting) throw new TernError('DraftDoesNotExist', { detail: { draftId } });
    return { ...draftEditOfSave(accountId, draftId, waiting), revision };
  }

  async discardDraft(params: { accountId: string; draftId: string }): Promise<{ commandId: string }> {
    const { accountId, draftId } = parseParams(discardDraftParamsSchema, params);
    const commandId = temporaryId();
    await withWrite(await this.deps.open(accountId), [OUTBOX_TABLE], (tx) => recordDiscard(tx, { accountId, commandId, draftId, now: this.clock.now() }));
    this.publish({ commandId, accountId, kind: 'discardDraft', status: 'pending' });
    this.deps.kick(accountId);
    return { commandId };
  }

  async send(params: { accountId: string; draftId: string; delayMs: number; subject?: string; schedule?: Schedule; requestReceipt?: boolean }): Promise<{ commandId: string }> {
    const { accountId, draftId, delayMs, subject, schedule, requestReceipt } = parseParams(sendParamsSchema, params);
    const commandId = temporaryId();
    const now = this.clock.now();
    await withWrite(await this.deps.open(accountId), [OUTBOX_TABLE, 'JSONBlob'], async (tx) => {
      // From now on no other tab's composer may change it (its save is refused as a conflict).
      await markSending(tx, draftId, true);
      // Handed to the gateway at once: it holds the undo window (or keeps it until its scheduled time).
      const when = schedule ? { schedule } : { holdMs: Math.min(delayMs, MAX_UNDO_HOLD_MS) };
      await recordSend(tx, { accountId, commandId, draftId, sendAt: now, now, ...when, ...(subject !== undefined ? { subject } : {}), ...(requestReceipt ? { requestReceipt } : {}) });
    });
    this.publish({ commandId, accountId, kind: 'send', status: 'pending', draftId });
    this.deps.kick(accountId);
    return { commandId };
  }

  async undoSend(params: { commandId: string }): Promise<boolean> {
    const { subscriptionId: commandId } = parseParams(subscriptionParamsSchema, { subscriptionId: params.commandId });
    return this.pending.undo(commandId);
  }

  pendingSends(params: { accountIds: readonly string[] }): Promise<readonly PendingSendView[]> {
    return this.pending.list(params);
  }

  cancelScheduled(params: { accountId: string; outboxId: string }): Promise<{ draftId: string | null }> {
    return this.pending.cancel(params);
  }

  deleteScheduled(params: { accountId: string; outboxId: string }): Promise<void> {
    return this.pending.remove(params);
  }

  watchPendingSends(onChange: (accountId: string) => void): Promise<{ subscriptionId: string }> {
    return this.pending.watch(onChange);
  }

  unwatchPendingSends(params: { subscriptionId: string }): Promise<void> {
    return this.pending.unwatch(params);
  }

  async sendNotices(params: { accountIds: readonly string[] }): Promise<readonly SendNotice[]> {
    const { accountIds } = parseParams(sendNoticesParamsSchema, params);
    const known = new Set(await this.deps.accountIds());
    const lists = await Promise.all(accountIds.filter((id) => known.has(id)).map(async (id) => withRead(await this.deps.open(id), ['JSONBlob'], readSendNotices)));
    return lists.flat().sort((a, b) => a.at - b.at);
  }

  async dismissSendNotice(params: { accountId: string; noticeId: string }): Promise<void> {
    const { accountId, noticeId } = parseParams(sendNoticeParamsSchema, params);
    const store = await this.deps.open(accountId);
    const notice = await withRead(store, ['JSONBlob'], (tx) => readSendNotice(tx, noticeId));
    if (notice?.kind === 'maybeSent' && notice.outboxId) {
      // The person takes it as sent: the gateway stops holding it and files it in Sent. Best effort —
      // a gateway that cannot be reached keeps it as unknown, which sends nothing.
      await (await this.deps.gateway(accountId)).dismissOutbox(notice.outboxId).catch(() => undefined);
    }
    await withWrite(store, ['JSONBlob'], (tx) => deleteSendNotice(tx, noticeId));
  }

  /**
   * The person decided a message that may have been sent goes again: the gateway's held
   * message is resent (or, when it named none, the draft is sent under a new key), through
   * the outbox after the undo window; the notice goes.
   */
  async sendAgain(params: { accountId: string; noticeId: string; delayMs: number }): Promise<{ commandId: string }> {
    const { accountId, noticeId, delayMs } = parseParams(sendAgainParamsSchema, params);
    const store = await this.deps.open(accountId);
    const notice = await withRead(store, ['JSONBlob'], (tx) => readSendNotice(tx, noticeId));
    if (!notice) throw new TernError('MessageNotFound', { detail: { noticeId } });
    const commandId = temporaryId();
    const now = this.clock.now();
    const resendOf = notice.kind === 'maybeSent' ? notice.outboxId : undefined;
    await withWrite(store, [OUTBOX_TABLE, 'JSONBlob'], async (tx) => {
      await markSending(tx, notice.draftId, true);
      await recordSend(tx, { accountId, commandId, draftId: notice.draftId, sendAt: now + delayMs, now, subject: notice.subject, ...(resendOf ? { resendOf } : {}) });
      await deleteSendNotice(tx, noticeId);
    });
    this.publish({ commandId, accountId, kind: 'send', status: 'pending', draftId: notice.draftId });
    this.deps.kick(accountId);
    return { commandId };
  }

  uploadAttachment(params: UploadParams, onProgress: (fraction: number) => void): Promise<{ attachmentId: string }> {
    return this.uploads.upload(params, onProgress);
  }

  cancelUpload(params: { uploadId: string }): Promise<boolean> {
    return this.uploads.cancel(params);
  }

  async watchCommands(onStatus: (status: CommandStatus) => void): Promise<{ subscriptionId: string }> {
    return { subscriptionId: this.deps.statuses.watch(onStatus) };
  }

  async unwatchCommands(params: { subscriptionId: string }): Promise<void> {
    this.deps.statuses.unwatch(parseParams(subscriptionParamsSchema, params).subscriptionId);
  }

  private publish(status: CommandStatus): void {
    this.deps.statuses.publish(status);
  }
}
