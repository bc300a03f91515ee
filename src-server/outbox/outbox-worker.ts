import { EventEmitter } from 'node:events';
import type { AccountStore } from '../accounts/account-store';
import type { SmtpConnector } from '../smtp/smtp-connector';
import { classifySmtpError, type SmtpFailure } from '../smtp/smtp-errors';
import { PermanentJobError, RetryJobError, type JobContext, type JobHandler } from '../jobs/job-worker';
import type { RetryPolicy } from '../jobs/retry-policy';
import { OUTBOX_RETRY_POLICY } from './outbox-jobs';
import type { OutboxRow, OutboxStore } from './outbox-store';
import { withDate } from './redate';

/** What happens to a message once SMTP has taken it (Sent copy, draft removal …). */
export interface SentFiling {
  /** Whether the server already holds the message in Sent (some put it there themselves). */
  isInSent(row: OutboxRow): Promise<boolean>;
  /** Puts the copy in Sent unless one with its Message-ID is there; safe to run again. */
  fileCopy(row: OutboxRow): Promise<void>;
  /** The same for several rows of one account, in order; throws at the first that fails (those before it are filed). */
  fileCopies(rows: readonly OutboxRow[]): Promise<void>;
  /**
   * The rest, each step safe to repeat: parent \Answered, the draft's copies (kept when Sent
   * lacks the message: `withCopy` false), uploads released, and (unless `settle` is false)
   * waits until the mirror has synced those folders.
   */
  finish(row: OutboxRow, withCopy: boolean, settle?: boolean): Promise<void>;
}

export interface OutboxOptions {
  /** SMTP attempts before a message fails for good (transient failures only; 5xx fails at once). */
  readonly maxAttempts: number;
  /** Filing attempts before the message is marked sent without its Sent copy (`sentCopy: 'failed'`). */
  readonly maxFilingAttempts: number;
  /** The wait between attempts (the job's backoff); default OUTBOX_RETRY_POLICY. */
  readonly retry: Partial<RetryPolicy>;
}

export const DEFAULT_OUTBOX_OPTIONS: OutboxOptions = {
  maxAttempts: 4,
  maxFilingAttempts: 8,
  retry: {},
};

export interface OutboxWorkerDeps {
  readonly store: OutboxStore;
  readonly smtp: SmtpConnector;
  readonly accounts: Pick<AccountStore, 'get' | 'password'>;
  readonly filing: SentFiling;
  /** Gives an accepted row its filing job (OutboxJobs.enqueueFiling), run by `handleFiling`. */
  readonly fileLater: (row: Pick<OutboxRow, 'id' | 'accountId'>) => Promise<unknown>;
  /** A send failed for good (e.g. put its draft back to editable); awaited before the attempt ends. */
  readonly onFailed?: (row: OutboxRow) => void | Promise<void>;
  readonly onError?: (error: unknown) => void;
  readonly now?: () => number;
}

type WorkerEvents = { changed: [number] };

/** Rows of an account filed in Sent by one filing job at most. */
const FILING_BATCH = 10;

const UNKNOWN_AFTER_RESTART = 'The gateway stopped after handing the message to the mail server and before the server answered: it may have been sent.';
const UNKNOWN_NO_REPLY = 'The connection ended after the message was handed to the mail server and before the server answered: it may have been sent.';

/**
 * Sends what the outbox holds, at most once per message, as the handler of the row's
 * `outbox.send` job (outbox-jobs.ts): the job queue decides who works on a row and when —
 * one account's rows one at a time (the job's lane), retries after the job's backoff, on
 * any node. Every state change is written before the next step starts, so whoever claims
 * the row next finds it where it was:
 *
 * - `queued` is simply sent;
 * - `accepted` (SMTP's 250 was recorded) is only filed, never sent again;
 * - `sending` means the attempt's worker is gone — its node died, or stopped and handed the
 *   claim back — since a row's job has one live claim at a time. Without a commit point (it
 *   died before the final ".") the server dropped the unfinished transaction: it is sent
 *   again. With one (after the ".", before the reply, RFC 1047's window): `accepted` if the
 *   server filed it in Sent itself, else `unknown` — never sent again on its own; the person
 *   is told it may have been sent and decides (resend/confirm).
 *
 * The same holds without a crash: a connection lost after the "." is `unknown`, not a retry.
 * A worker given up for dead that still runs is fenced by its attempt number (OutboxStore):
 * it cannot write its commit point, so it sends no ".", once another attempt took the row.
 */
export class OutboxWorker extends EventEmitter<WorkerEvents> {
  readonly options: OutboxOptions;
  private readonly now: () => number;

  constructor(private readonly deps: OutboxWorkerDeps & { readonly options?: Partial<OutboxOptions> }) {
    super();
    this.options = { ...DEFAULT_OUTBOX_OPTIONS, ...deps.options };
    this.now = deps.now ?? Date.now;
  }

  /** The retry policy of the outbox's jobs. */
  get retryPolicy(): RetryPolicy {
    return { ...OUTBOX_RETRY_POLICY, ...this.options.retry };
  }

  /**
   * The `outbox.send` job: the row to SMTP, from where it stands. Once accepted (now, before a
   * crash, or confirmed by the person) its filing is a job of its own (`handleFiling`), so the
   * account's next message need not wait for the Sent copy.
   */
  readonly handle: JobHandler = async (payload, context) => {
    const { outboxId } = payload as { outboxId: number };
    try {
      let row = await this.deps.store.get(outboxId);
      if (row?.state === 'sending') row = await this.resolveOrphan(row);
      const accepted = row?.state === 'accepted' || (row?.state === 'queued' && (await this.attempt(row, context)));
      if (row && accepted) await this.deps.fileLater(row);
      // A resend that came while this job still ran found it pending and added none: the row
      // has work again, so the job runs again.
      const after = await this.deps.store.brief(outboxId);
      if (!context.signal.aborted && after?.state === 'queued') throw new RetryJobError('queued again while its job ran');
    } finally {
      this.emit('changed', outboxId);
    }
  };

  /**
   * The `outbox.file` job: an accepted row's copy in Sent and the rest (OutboxJobs.enqueueFiling).
   * The account's other rows waiting to be filed go along, with one wait for the mirror's sync
   * of Sent at the end (a burst of sends: one sync for up to FILING_BATCH copies instead of one
   * each, and one job claim). Their own jobs, held by the filing lane meanwhile, then find them
   * sent; one that failed here is left to its own job and its retries.
   */
  readonly handleFiling: JobHandler = async (payload, context) => {
    const { outboxId } = payload as { outboxId: number };
    const along: OutboxRow[] = [];
    try {
      const row = await this.deps.store.get(outboxId);
      if (row?.state !== 'accepted') return;
      along.push(...(await this.deps.store.toFile(row.accountId, this.now(), FILING_BATCH)).filter((other) => other.id !== row.id));
      await this.fileSent(row, context, along.length === 0);
      if (along.length > 0 && !context.signal.aborted) await this.fileAlong(along);
    } finally {
      this.emit('changed', outboxId);
      for (const other of along) this.emit('changed', other.id);
    }
  };

  /** Other accepted rows of the account, best effort: what fails stays accepted for its own job. */
  private async fileAlong(rows: readonly OutboxRow[]): Promise<void> {
    const { store, filing } = this.deps;
    try {
      await filing.fileCopies(rows);
    } catch (error) {
      this.deps.onError?.(error);
      return;
    }
    for (const [index, row] of rows.entries()) {
      try {
        await store.markCopyFiled(row.id);
        await filing.finish(row, true, index === rows.length - 1);
        await store.markSent(row.id);
      } catch (error) {
        this.deps.onError?.(error);
      }
    }
  }

  /** A row left `sending` by a worker that is gone: what the server may have, from the commit point and Sent. */
  private async resolveOrphan(row: OutboxRow): Promise<OutboxRow | undefined> {
    const { store, filing } = this.deps;
    // Died before the final ".": the server threw the unfinished message away (no IMAP needed to know).
    if (row.committedAt === null) await store.requeue(row.id, 'interrupted: its gateway stopped', this.now(), row.attempts);
    // Found in Sent: the server took it (and filed it) before that was recorded. Do not send again.
    // An IMAP failure here throws: the row stays `sending` and the job looks again after its backoff.
    else if (await filing.isInSent(row)) await store.markAccepted(row.id, { response: 'found in Sent after its gateway stopped', accepted: [], rejected: [] }, row.attempts);
    else await store.markUnknown(row.id, UNKNOWN_AFTER_RESTART, row.attempts);
    this.emit('changed', row.id);
    return store.get(row.id);
  }

  /** One SMTP attempt; true when the server accepted the message. Throws to be retried after the job's backoff. */
  private async attempt(row: OutboxRow, context: JobContext): Promise<boolean> {
    const { store, smtp, accounts } = this.deps;
    if (!(await store.claim(row.id))) return false;
    this.emit('changed', row.id);
    const attempt = row.attempts + 1;
    // Built when Send was pressed, leaving now: recipients and Sent see the real send time.
    if (row.sendAt !== null) {
      const now = this.now();
      row = { ...row, raw: withDate(row.raw, now), sentCopy: row.sentCopy && withDate(row.sentCopy, now) };
      if (!(await store.redate(row.id, row.raw, row.sentCopy, attempt))) return false;
    }
    let committed = false;
    // The SMTP connector awaits this before it writes the final ".": the commit point is in the
    // database before the server can take the message (a crash after it reads as `unknown`).
    // A worker whose claim was lost, or whose row another attempt took, sends no ".".
    const onCommit = async () => {
      if (context.signal.aborted || !(await store.markCommitting(row.id, attempt))) throw new Error('The outbox row is no longer this attempt’s to send.');
      committed = true;
    };
    let failure: SmtpFailure;
    try {
      const account = await accounts.get(row.accountId);
      if (!account) throw Object.assign(new Error('The account no longer exists.'), { code: 'EAUTH' });
      const outcome = await smtp.send({ account, password: await accounts.password(row.accountId), envelope: row.envelope, raw: row.raw, onCommit });
      // Recorded even when the claim was handed back: the 250 is the best news there is (fenced by the attempt).
      return await this.record(() => store.markAccepted(row.id, outcome, attempt));
    } catch (error) {
      failure = classifySmtpError(error);
    }
    // No reply after the final ".": the server may have the message. Sending it again could deliver it twice.
    if (committed && failure.responseCode === null) {
      await this.record(() => store.markUnknown(row.id, `${UNKNOWN_NO_REPLY} (${failure.reason})`, attempt));
      return false;
    }
    // Given up on (a stop, a lost claim): the row stays `sending` for the next claim to resolve.
    if (context.signal.aborted) return false;
    const retryAt = context.retryAt();
    if (failure.permanent || attempt >= this.options.maxAttempts || retryAt === null) {
      if (await store.markFailed(row.id, failure, attempt)) await this.deps.onFailed?.(row);
      throw new PermanentJobError(failure.reason);
    }
    await store.requeue(row.id, failure.reason, retryAt, attempt);
    throw new RetryJobError(failure.reason);
  }

  private async fileSent(row: OutboxRow, context: JobContext, settle = true): Promise<void> {
    const { store, filing } = this.deps;
    let copyFiled = row.sentCopyState === 'filed';
    try {
      if (!copyFiled) {
        await filing.fileCopy(row);
        copyFiled = await store.markCopyFiled(row.id);
      }
      await filing.finish(row, true, settle);
      await store.markSent(row.id);
    } catch (error) {
      if (context.signal.aborted) return;
      const reason = filingReason(error);
      const retryAt = context.retryAt();
      if (row.filingAttempts + 1 < this.options.maxFilingAttempts && retryAt !== null) {
        await store.deferFiling(row.id, reason, retryAt);
        throw new RetryJobError(reason);
      } else if (copyFiled) {
        // In Sent; only a later step (e.g. removing the draft's copy) kept failing.
        await store.markSent(row.id, `filed in Sent, but: ${reason}`);
      } else {
        // The message is out but Sent lacks it: said so (sentCopy 'failed'), never marked filed.
        await store.markSentWithoutCopy(row.id, `not filed in Sent: ${reason}`);
        await filing.finish(row, false).catch((finishError: unknown) => this.deps.onError?.(finishError));
      }
    }
  }

  /** A state write that may meet a store already closed by a stopping gateway; false when it did not happen. */
  private async record(write: () => Promise<boolean>): Promise<boolean> {
    try {
      return await write();
    } catch (error) {
      this.deps.onError?.(error);
      return false;
    }
  }
}

/** The IMAP server's own words (imapflow keeps them beside its generic "Command failed"). */
function filingReason(error: unknown): string {
  const e = (typeof error === 'object' && error !== null ? error : {}) as { responseText?: string; serverResponseCode?: string };
  if (e.responseText) return (e.serverResponseCode ? `[${e.serverResponseCode}] ${e.responseText}` : e.responseText).slice(0, 1000);
  return error instanceof Error ? error.message : String(error);
}
