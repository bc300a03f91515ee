import { EventEmitter } from 'node:events';
import type { AccountStore } from '../accounts/account-store';
import type { SmtpConnector } from '../smtp/smtp-connector';
import { classifySmtpError, type SmtpFailure } from '../smtp/smtp-errors';
import type { OutboxRow, OutboxStore } from './outbox-store';

/** What happens to a message once SMTP has taken it (Sent copy, draft removal …). */
export interface SentFiling {
  /** Whether the server already holds the message in Sent (some put it there themselves). */
  isInSent(row: OutboxRow): Promise<boolean>;
  /** Puts the copy in Sent unless one with its Message-ID is there; safe to run again. */
  fileCopy(row: OutboxRow): Promise<void>;
  /**
   * The rest, each step safe to repeat: parent \Answered, the draft's copies (kept when Sent
   * lacks the message: `withCopy` false), uploads released, folders synced.
   */
  finish(row: OutboxRow, withCopy: boolean): Promise<void>;
}

export interface OutboxOptions {
  /** SMTP attempts before a message fails for good (transient failures only; 5xx fails at once). */
  readonly maxAttempts: number;
  /** Wait before attempt n+1, by n (the last value repeats). */
  readonly retryDelaysMs: readonly number[];
  /** Filing attempts before the message is marked sent without its Sent copy (`sentCopy: 'failed'`). */
  readonly maxFilingAttempts: number;
  /** Longest sleep between looks at the table (retries due, rows of other nodes). */
  readonly idleCheckMs: number;
  /** How long `stop()` waits for attempts under way. */
  readonly stopWaitMs: number;
}

export const DEFAULT_OUTBOX_OPTIONS: OutboxOptions = {
  maxAttempts: 4,
  retryDelaysMs: [5_000, 30_000, 120_000],
  maxFilingAttempts: 8,
  idleCheckMs: 30_000,
  stopWaitMs: 3_000,
};

export interface OutboxWorkerDeps {
  readonly store: OutboxStore;
  readonly smtp: SmtpConnector;
  readonly accounts: Pick<AccountStore, 'get' | 'password'>;
  readonly filing: SentFiling;
  /** A send failed for good (e.g. put its draft back to editable); awaited before the attempt ends. */
  readonly onFailed?: (row: OutboxRow) => void | Promise<void>;
  readonly onError?: (error: unknown) => void;
  readonly options?: Partial<OutboxOptions>;
  readonly now?: () => number;
}

type WorkerEvents = { changed: [number] };

const UNKNOWN_AFTER_RESTART = 'The gateway stopped after handing the message to the mail server and before the server answered: it may have been sent.';
const UNKNOWN_NO_REPLY = 'The connection ended after the message was handed to the mail server and before the server answered: it may have been sent.';

/**
 * Sends what the outbox holds, at most once per message. One attempt per account at a
 * time; different accounts go side by side. Every state change is written before the
 * next step starts, so after a crash:
 *
 * - `queued` is simply sent;
 * - `accepted` (SMTP's 250 was recorded) is only filed, never sent again;
 * - `sending` without a commit point (the process died before the final "."): the server
 *   dropped the unfinished transaction, so it is sent again;
 * - `sending` with a commit point (died after the "." and before the reply, RFC 1047's
 *   window): `accepted` if the server filed it in Sent itself, else `unknown` — never sent
 *   again on its own; the person is told it may have been sent and decides (resend/confirm).
 *
 * The same holds without a crash: a connection lost after the "." is `unknown`, not a retry.
 *
 * Single node: at start every `sending` row is an orphan. With several nodes (DESIGN §7)
 * a claim needs a lease with an expiry, and only expired leases are orphans.
 */
export class OutboxWorker extends EventEmitter<WorkerEvents> {
  private readonly options: OutboxOptions;
  private readonly now: () => number;
  private readonly inFlight = new Map<number, Promise<void>>();
  private readonly busyAccounts = new Set<number>();
  private readonly recovered = new Set<number>();
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;

  constructor(private readonly deps: OutboxWorkerDeps) {
    super();
    this.options = { ...DEFAULT_OUTBOX_OPTIONS, ...deps.options };
    this.now = deps.now ?? Date.now;
  }

  start(): void {
    this.stopped = false;
    this.kick();
  }

  /** Looks at the table soon (a new row, a finished attempt). */
  kick(): void {
    this.schedule(0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    // An attempt that does not end in time is abandoned mid-way: its row stays `sending` for the next start.
    await Promise.race([Promise.allSettled([...this.inFlight.values()]), new Promise((resolve) => setTimeout(resolve, this.options.stopWaitMs).unref())]);
  }

  /**
   * One look at the table: resolves orphaned attempts, then starts every due row whose
   * account is free. Resolves when the attempts it started are done (tests await it).
   */
  async runDue(): Promise<void> {
    await this.recoverOrphans();
    const started: Promise<void>[] = [];
    for (const row of await this.deps.store.due(100)) {
      if (this.stopped) break;
      if (this.inFlight.has(row.id) || this.busyAccounts.has(row.accountId)) continue;
      this.busyAccounts.add(row.accountId);
      const work = this.process(row)
        .catch((error: unknown) => this.deps.onError?.(error))
        .finally(() => {
          this.inFlight.delete(row.id);
          this.busyAccounts.delete(row.accountId);
          this.emit('changed', row.id);
          this.kick();
        });
      this.inFlight.set(row.id, work);
      started.push(work);
    }
    await Promise.all(started);
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.pass(), Math.max(0, delayMs));
    this.timer.unref();
  }

  private pass(): void {
    this.timer = null;
    if (this.stopped) return;
    // Attempts run on by themselves; each kicks the loop when it ends.
    this.runDue().catch((error: unknown) => this.deps.onError?.(error));
    // Rows due now are being started, or wait for their account's attempt, which kicks when it ends.
    this.deps.store.nextDueAt().then(
      (next) => {
        const now = this.now();
        const wait = next === null || next <= now ? this.options.idleCheckMs : Math.min(this.options.idleCheckMs, next - now);
        if (!this.timer) this.schedule(wait);
      },
      (error: unknown) => {
        if (this.stopped) return; // the store closed under a stopping gateway
        this.deps.onError?.(error);
        if (!this.timer) this.schedule(this.options.idleCheckMs);
      },
    );
  }

  /** `sending` rows this process is not working on: an attempt died with a gateway. */
  private async recoverOrphans(): Promise<void> {
    for (const row of await this.deps.store.inSending()) {
      if (this.inFlight.has(row.id) || this.recovered.has(row.id)) continue;
      this.recovered.add(row.id);
      try {
        // Died before the final ".": the server threw the unfinished message away (no IMAP needed to know).
        if (row.committedAt === null) await this.deps.store.requeue(row.id, 'interrupted by a gateway restart', this.now());
        // Found in Sent: the server took it (and filed it) before we could record that. Do not send again.
        else if (await this.deps.filing.isInSent(row)) await this.deps.store.markAccepted(row.id, { response: 'found in Sent after a restart', accepted: [], rejected: [] });
        else await this.deps.store.markUnknown(row.id, UNKNOWN_AFTER_RESTART);
      } catch (error) {
        // Cannot look now (IMAP down): leave it `sending` and look again on the next pass.
        this.recovered.delete(row.id);
        this.deps.onError?.(error);
      }
      this.emit('changed', row.id);
    }
  }

  private async process(initial: OutboxRow): Promise<void> {
    let row: OutboxRow | undefined = initial;
    if (row.state === 'queued') {
      if (!(await this.attempt(row))) return;
      row = await this.deps.store.get(row.id);
    }
    if (row?.state === 'accepted') await this.fileSent(row);
  }

  /** One SMTP attempt; true when the server accepted the message. */
  private async attempt(row: OutboxRow): Promise<boolean> {
    const { store, smtp, accounts } = this.deps;
    if (!(await store.claim(row.id))) return false;
    this.emit('changed', row.id);
    const attempt = row.attempts + 1;
    let committed = false;
    // The SMTP connector awaits this before it writes the final ".": the commit point is in the
    // database before the server can take the message (a crash after it reads as `unknown`).
    const onCommit = async () => {
      if (!(await store.markCommitting(row.id))) throw new Error('The outbox row is no longer being sent.');
      committed = true;
    };
    let failure: SmtpFailure;
    try {
      const account = await accounts.get(row.accountId);
      if (!account) throw Object.assign(new Error('The account no longer exists.'), { code: 'EAUTH' });
      const outcome = await smtp.send({ account, password: await accounts.password(row.accountId), envelope: row.envelope, raw: row.raw, onCommit });
      // Recorded even while stopping: a closed store throws, and the next start finds the row committed.
      if (!(await this.record(() => store.markAccepted(row.id, outcome)))) return false;
      return true;
    } catch (error) {
      failure = classifySmtpError(error);
    }
    // No reply after the final ".": the server may have the message. Sending it again could deliver it twice.
    if (committed && failure.responseCode === null) {
      await this.record(() => store.markUnknown(row.id, `${UNKNOWN_NO_REPLY} (${failure.reason})`));
      return false;
    }
    if (this.stopped) return false;
    if (failure.permanent || attempt >= this.options.maxAttempts) {
      await store.markFailed(row.id, failure);
      await this.deps.onFailed?.(row);
    } else {
      await store.requeue(row.id, failure.reason, this.now() + this.delayAfter(attempt));
    }
    return false;
  }

  private async fileSent(row: OutboxRow): Promise<void> {
    const { store, filing } = this.deps;
    let copyFiled = row.sentCopyState === 'filed';
    try {
      if (!copyFiled) {
        await filing.fileCopy(row);
        copyFiled = await store.markCopyFiled(row.id);
      }
      await filing.finish(row, true);
      await store.markSent(row.id);
    } catch (error) {
      if (this.stopped) return;
      const reason = filingReason(error);
      if (row.filingAttempts + 1 < this.options.maxFilingAttempts) {
        await store.deferFiling(row.id, reason, this.now() + this.delayAfter(row.filingAttempts + 1));
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
      if (!this.stopped) throw error;
      return false;
    }
  }

  private delayAfter(attempt: number): number {
    const delays = this.options.retryDelaysMs;
    return delays[Math.min(attempt - 1, delays.length - 1)] ?? 0;
  }
}

/** The IMAP server's own words (imapflow keeps them beside its generic "Command failed"). */
function filingReason(error: unknown): string {
  const e = (typeof error === 'object' && error !== null ? error : {}) as { responseText?: string; serverResponseCode?: string };
  if (e.responseText) return (e.serverResponseCode ? `[${e.serverResponseCode}] ${e.responseText}` : e.responseText).slice(0, 1000);
  return error instanceof Error ? error.message : String(error);
}
