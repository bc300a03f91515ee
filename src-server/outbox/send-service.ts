import { createHash } from 'node:crypto';
import type { CancelledSend, PendingSends, SendRequest, SendResult } from '../../shared/api/compose';
import { TernError } from '../../shared/errors';
import { checkSchedule, leftLate } from '../../shared/send-time';
import type { AccountStore } from '../accounts/account-store';
import type { DraftService } from '../drafts/draft-service';
import type { DraftFields, DraftParent, DraftStore } from '../drafts/draft-store';
import type { MessageAssembler } from '../drafts/message-assembler';
import type { ParentResolver } from '../drafts/parent-resolver';
import { newMessageIdHeader } from '../smtp/mime-builder';
import type { SqlStore } from '../store/sql';
import type { TransactionLog } from '../store/transaction-log';
import type { OutboxJobs } from './outbox-jobs';
import type { OutboxRow, OutboxStore } from './outbox-store';
import type { OutboxWorker } from './outbox-worker';

export interface SendServiceDeps {
  /** The database, for the one transaction that stores a send (outbox row and draft state together). */
  readonly sql: SqlStore;
  readonly store: OutboxStore;
  /** Each row's job, enqueued in the transaction that queues the row. */
  readonly jobs: OutboxJobs;
  /** The rows' changes as this node's worker makes them (`changed`). */
  readonly worker: Pick<OutboxWorker, 'on' | 'off'>;
  /** Wakes this node's job worker for a job just enqueued. */
  readonly kick: () => void;
  readonly drafts: Pick<DraftService, 'editable' | 'remove'>;
  readonly draftStore: DraftStore;
  readonly assembler: MessageAssembler;
  readonly parents: ParentResolver;
  readonly accounts: Pick<AccountStore, 'get'>;
  readonly txlog: TransactionLog;
  /** How long POST /api/send waits for the outcome before answering 202 (the outbox carries on). */
  readonly waitMs?: number;
  /** The gateway's clock (tests pass one they move): when a held send leaves, whether a time has passed. */
  readonly now?: () => number;
  /** The account's waiting sends changed: every device hears of it (a `scheduled` entry in its log). */
  readonly announceWaiting: (accountId: number) => Promise<void>;
  /** A scheduled draft's copy leaves Drafts while it waits, and comes back when it is cancelled (scheduled-drafts.ts). */
  readonly draftCopies: { hide(accountId: number, draftId: number): Promise<void>; restore(accountId: number, draftId: number): Promise<void> };
  readonly onError?: (accountId: number, error: unknown) => void;
}

/** How long a scheduled send that failed stays in the waiting list (the Scheduled list says so, devices notify). */
const FAILED_SHOWN_MS = 24 * 3600_000;

/** How often a send waiting for its outcome reads its row (another node may be sending it). */
const OTHER_NODE_LOOK_MS = 1_000;

/** Worth answering: done, failed, unknown (the person decides), or an attempt made and a retry scheduled. */
function settled(row: OutboxRow): boolean {
  if (row.state === 'sent' || row.state === 'failed' || row.state === 'unknown' || row.state === 'cancelled') return true;
  // Held or scheduled and not tried yet: its answer is "queued until sendAt".
  if (row.sendAt !== null && row.state === 'queued' && row.attempts === 0) return true;
  if (row.state === 'queued') return row.attempts > 0;
  return row.state === 'accepted' && row.filingAttempts > 0;
}

/**
 * POST /api/send: builds the message (Message-ID fixed now), stores it in the outbox in one
 * transaction with its idempotency key — the same key again is the same row, so a retried
 * request never sends twice — and waits a little for the worker's outcome. A refusal is
 * SendFailed with the server's reason.
 */
export class SendService {
  private readonly waitMs: number;
  private readonly now: () => number;

  constructor(private readonly deps: SendServiceDeps) {
    this.waitMs = deps.waitMs ?? 30_000;
    this.now = deps.now ?? Date.now;
  }

  async send(accountId: number, request: SendRequest): Promise<{ status: 200 | 202; result: SendResult }> {
    const { store, sql, draftStore } = this.deps;
    const { idempotencyKey, ...content } = request;
    const requestHash = createHash('sha256').update(JSON.stringify(content)).digest('hex');
    const earlier = await store.byKey(accountId, idempotencyKey);
    if (earlier) return this.repeat(earlier, requestHash);
    const hold = this.holdOf(request);

    let source: Awaited<ReturnType<SendService['contentOf']>>;
    try {
      source = await this.contentOf(accountId, request);
    } catch (error) {
      // The same key may have committed since the look above (two requests at once on PostgreSQL):
      // its draft is no longer open, and this request is that send, answered as a repeat.
      const committed = await store.byKey(accountId, idempotencyKey);
      if (committed) return this.repeat(committed, requestHash);
      throw error;
    }
    if (source.fields.to.length + source.fields.cc.length + source.fields.bcc.length === 0) {
      throw new TernError('InvalidParameter', { detail: [{ path: 'to', message: 'Add at least one recipient.' }] });
    }
    const account = await this.deps.accounts.get(accountId);
    if (!account) throw new TernError('AccountNotFound');
    const messageIdHeader = newMessageIdHeader(account.email);
    const { message, uploads } = await this.deps.assembler.assemble({ accountId, ...source, messageIdHeader, date: new Date(), sending: true, ...(request.requestReceipt ? { requestReceipt: true } : {}) });
    // The identity's Bcc to the account is among them; the envelope sender is the From address
    // (an alias the server refuses is refused at MAIL FROM: SendFailed with its reply).
    const recipients = [...new Set([...message.to, ...message.cc, ...message.bcc].map((recipient) => recipient.email))];
    const raw = await this.deps.assembler.raw(message, { keepBcc: false });
    const sentCopy = message.bcc.length > 0 ? await this.deps.assembler.raw(message, { keepBcc: true }) : null;

    const { row, created } = await sql.transaction(async () => {
      const racing = await store.byKey(accountId, idempotencyKey);
      if (racing) return { row: racing, created: false };
      if (source.draftId !== null) {
        const draft = await draftStore.get(accountId, source.draftId);
        if (draft?.state === 'open' && draft.version !== source.draftVersion) throw new TernError('InvalidDraftVersion', { detail: { currentVersion: draft.version } });
        if (!(await draftStore.transition(source.draftId, ['open'], 'sending'))) {
          // On PostgreSQL a send with the same key may have committed while this one waited for the
          // draft's row: the same send, answered as a repeat (SQLite runs one transaction at a time).
          const committed = await store.byKey(accountId, idempotencyKey);
          if (committed) return { row: committed, created: false };
          await this.deps.drafts.editable(accountId, source.draftId);
        }
      }
      const stored = await store.enqueue({
        accountId,
        idempotencyKey,
        requestHash,
        draftId: source.draftId,
        parentId: source.parent.parentId,
        messageIdHeader,
        envelope: { from: message.from.email, to: recipients },
        raw,
        sentCopy,
        uploadIds: uploads.map((upload) => upload.id),
        ...(hold ? { sendAt: hold.sendAt, timeZone: hold.timeZone, scheduled: hold.scheduled } : {}),
        summary: { subject: source.fields.subject, to: [...source.fields.to, ...source.fields.cc].map((recipient) => recipient.name || recipient.email) },
      });
      // Held or scheduled: the job is due when the message leaves; undo/cancel remove it before then.
      if (stored.created) await this.deps.jobs.enqueue(stored.row, hold?.sendAt);
      return stored;
    });
    if (!created) return this.repeat(row, requestHash);
    this.deps.kick();
    if (hold) {
      await this.deps.announceWaiting(accountId);
      // Kept apart from Drafts while it waits (other mail programs would offer it as a draft to send).
      if (hold.scheduled && row.draftId !== null) await this.deps.draftCopies.hide(accountId, row.draftId).catch((error: unknown) => this.deps.onError?.(accountId, error));
      return this.answer(row, requestHash);
    }
    return this.answer(await this.outcome(row.id), requestHash);
  }

  /** DELETE /api/scheduled/:id: a scheduled send cancelled and its draft deleted (it was out of Drafts already). */
  async deleteScheduled(accountId: number, outboxId: number): Promise<CancelledSend> {
    const cancelled = await this.cancel(accountId, outboxId, { backToDrafts: false });
    if (cancelled.draftId === null) return cancelled;
    const { latestTxnId } = await this.deps.drafts.remove(accountId, Number(cancelled.draftId));
    return { ...cancelled, latestTxnId };
  }

  /** When a held or scheduled send leaves (null: at once); a scheduled time that cannot be used is refused here, before anything is stored. */
  private holdOf(request: SendRequest): { sendAt: number; timeZone: string | null; scheduled: boolean } | null {
    if (request.schedule) {
      const check = checkSchedule(request.schedule, this.now());
      if (!check.ok) throw new TernError(check.error, { detail: { at: request.schedule.at, timeZone: request.schedule.timeZone } });
      return { sendAt: check.sendAt, timeZone: request.schedule.timeZone, scheduled: true };
    }
    if (request.holdMs) return { sendAt: this.now() + request.holdMs, timeZone: null, scheduled: false };
    return null;
  }

  /** GET /api/scheduled (and the delta's `scheduled` document): the sends held or scheduled, soonest first. */
  async waiting(accountId: number): Promise<PendingSends> {
    const rows = await this.deps.store.waiting(accountId, this.now() - FAILED_SHOWN_MS);
    return {
      sends: rows.map((row) => ({
        outboxId: String(row.id),
        draftId: row.draftId === null ? null : String(row.draftId),
        sendAt: row.sendAt!,
        timeZone: row.timeZone,
        scheduled: row.scheduled,
        state: row.state,
        subject: row.summary.subject,
        to: [...row.summary.to],
      })),
    };
  }

  /**
   * POST /api/outbox/:id/undo and POST /api/scheduled/:id/cancel: a held or scheduled send
   * taken back before it leaves; its draft is open again (and back in Drafts). Its job is
   * removed and the row cancelled in one transaction, so a worker either claimed the job
   * first — then it is too late: SendAlreadyLeft — or never will. Asked twice, the same answer.
   */
  async cancel(accountId: number, outboxId: number, options: { backToDrafts: boolean } = { backToDrafts: true }): Promise<CancelledSend> {
    const { sql, store, draftStore } = this.deps;
    const row = await this.own(accountId, outboxId);
    if (row.sendAt === null) throw new TernError('SendAlreadyLeft', { detail: { outboxId: String(row.id), state: row.state } });
    const cancelled = row.state === 'cancelled' || (await sql.transaction(async () => {
      if (!(await this.deps.jobs.cancel(row))) return false;
      if (!(await store.cancel(row.id))) throw new TernError('SendAlreadyLeft', { detail: { outboxId: String(row.id) } });
      if (row.draftId !== null) await draftStore.transition(row.draftId, ['sending'], 'open');
      return true;
    }));
    if (!cancelled) throw new TernError('SendAlreadyLeft', { detail: { outboxId: String(row.id), state: (await store.get(row.id))?.state } });
    await this.deps.announceWaiting(accountId);
    if (options.backToDrafts && row.scheduled && row.draftId !== null) await this.deps.draftCopies.restore(accountId, row.draftId).catch((error: unknown) => this.deps.onError?.(accountId, error));
    return { outboxId: String(row.id), draftId: row.draftId === null ? null : String(row.draftId), latestTxnId: await this.deps.txlog.latest(accountId) };
  }

  /** The same key again (a retry, or a double click racing the first): the first send's outcome, waited for like it. */
  private async repeat(row: OutboxRow, requestHash: string): Promise<{ status: 200 | 202; result: SendResult }> {
    this.checkKey(row, requestHash); // a reused key is refused before any waiting
    return this.answer(settled(row) ? row : await this.outcome(row.id), requestHash);
  }

  /** GET /api/outbox/:id: where a send stands (a failure is a state here, not an error). */
  async status(accountId: number, outboxId: number): Promise<SendResult> {
    return await this.resultOf(await this.own(accountId, outboxId));
  }

  /**
   * POST /api/outbox/:id/resend: the person checked a message that may have been sent
   * (`unknown`) and wants it sent again; answered like POST /api/send.
   */
  async resend(accountId: number, outboxId: number): Promise<{ status: 200 | 202; result: SendResult }> {
    const row = await this.own(accountId, outboxId);
    if (!(await this.deps.jobs.reopen(row, () => this.deps.store.resend(row.id)))) throw notUnknown(row);
    this.deps.kick();
    // The row is `queued` with its earlier attempts counted: the outcome is that of a new attempt.
    return this.answer(await this.outcome(row.id, (now) => now.attempts > row.attempts && settled(now)), row.requestHash);
  }

  /**
   * POST /api/outbox/:id/dismiss: the person says a message that may have been sent
   * (`unknown`) did arrive; it is filed in Sent (its draft removed) like any sent message.
   */
  async dismiss(accountId: number, outboxId: number): Promise<{ status: 200 | 202; result: SendResult }> {
    const row = await this.own(accountId, outboxId);
    if (!(await this.deps.jobs.reopen(row, () => this.deps.store.confirmSent(row.id)))) throw notUnknown(row);
    this.deps.kick();
    return this.answer(await this.outcome(row.id), row.requestHash);
  }

  private async own(accountId: number, outboxId: number): Promise<OutboxRow> {
    const row = await this.deps.store.get(outboxId);
    if (!row || row.accountId !== accountId) throw new TernError('MessageNotFound', { detail: { outboxId: String(outboxId) } });
    return row;
  }

  private async contentOf(accountId: number, request: SendRequest): Promise<{ draftId: number | null; draftVersion: number; fields: DraftFields; parent: DraftParent; attachmentIds: readonly string[] }> {
    if (request.draftId !== undefined) {
      const draft = await this.deps.drafts.editable(accountId, Number(request.draftId));
      if (request.draftVersion !== undefined && request.draftVersion !== draft.version) {
        throw new TernError('InvalidDraftVersion', { detail: { currentVersion: draft.version } });
      }
      return { draftId: draft.id, draftVersion: draft.version, fields: draft.fields, parent: draft, attachmentIds: draft.attachmentIds };
    }
    const compose = request.compose!;
    const fields = await this.deps.assembler.fieldsOf(accountId, compose);
    const parentId = compose.inReplyTo === undefined ? null : Number(compose.inReplyTo);
    const parent = await this.deps.parents.resolve({ accountId, parentId, fallbackReferences: compose.references ?? [] });
    return { draftId: null, draftVersion: 0, fields, parent, attachmentIds: compose.attachmentIds };
  }

  /** The reply for a row: its result, or the catalogue error of its failure. */
  private async answer(row: OutboxRow, requestHash: string): Promise<{ status: 200 | 202; result: SendResult }> {
    this.checkKey(row, requestHash);
    if (row.state === 'failed') {
      const failure = row.failure;
      throw new TernError(failure?.tooLarge ? 'MessageSizeExceeded' : 'SendFailed', {
        detail: { reason: failure?.reason ?? row.lastError ?? 'unknown', responseCode: failure?.responseCode ?? null, outboxId: String(row.id) },
      });
    }
    // `unknown` is 200: nothing more happens until the person resends or dismisses it.
    const final = row.state === 'sent' || row.state === 'accepted' || row.state === 'unknown' || row.state === 'cancelled';
    return { status: final ? 200 : 202, result: await this.resultOf(row) };
  }

  private checkKey(row: OutboxRow, requestHash: string): void {
    if (row.requestHash !== requestHash) {
      throw new TernError('InvalidParameter', { detail: [{ path: 'idempotencyKey', message: 'This key was already used for another message.' }] });
    }
  }

  private async resultOf(row: OutboxRow): Promise<SendResult> {
    return {
      outboxId: String(row.id),
      state: row.state,
      messageIdHeader: row.messageIdHeader,
      rejected: [...(row.smtp?.rejected ?? [])],
      latestTxnId: await this.deps.txlog.latest(row.accountId),
      lastError: row.lastError,
      ...(row.state === 'accepted' || row.state === 'sent' ? { sentCopy: row.sentCopyState } : {}),
      ...(row.sendAt !== null ? { sendAt: row.sendAt, scheduled: row.scheduled, sentLate: leftLate(row) } : {}),
    };
  }

  /**
   * Waits for the worker to settle the row, or for `waitMs`; the row as it then is. This
   * node's worker says when the row changes; another node's job worker may have claimed it,
   * so the row is also read every OTHER_NODE_LOOK_MS.
   */
  private outcome(id: number, ready: (row: OutboxRow) => boolean = settled): Promise<OutboxRow> {
    const { store, worker } = this.deps;
    return new Promise((resolve, reject) => {
      let done = false;
      let timedOut = false;
      const end = () => {
        done = true;
        clearTimeout(timer);
        clearInterval(otherNodes);
        worker.off('changed', onChange);
      };
      // Each look reads the row anew; the first that finds it ready (or any after the wait) answers.
      const look = () =>
        void store.get(id).then(
          (row) => {
            if (done || !(timedOut || ready(row!))) return;
            end();
            resolve(row!);
          },
          (error: unknown) => {
            if (done) return;
            end();
            reject(error);
          },
        );
      const onChange = (changedId: number) => {
        if (changedId === id) look();
      };
      const timer = setTimeout(() => {
        timedOut = true;
        look();
      }, this.waitMs);
      const otherNodes = setInterval(look, OTHER_NODE_LOOK_MS);
      worker.on('changed', onChange);
      look();
    });
  }
}

/** resend/dismiss apply only to a message that may have been sent. */
function notUnknown(row: OutboxRow): TernError {
  return new TernError('InvalidOperation', { detail: { outboxId: String(row.id), state: row.state } });
}
