import type { OutboxState, SendResult } from '../../shared/api/compose';
import type { SmtpEnvelope, SmtpOutcome } from '../smtp/smtp-connector';
import type { SmtpFailure } from '../smtp/smtp-errors';
import type { SqlStore, SqlValue } from '../store/sql';

export interface OutboxRow {
  readonly id: number;
  readonly accountId: number;
  readonly idempotencyKey: string;
  readonly requestHash: string;
  readonly draftId: number | null;
  readonly parentId: number | null;
  readonly messageIdHeader: string;
  readonly envelope: SmtpEnvelope;
  readonly raw: Buffer;
  readonly sentCopy: Buffer | null;
  readonly uploadIds: readonly string[];
  readonly state: OutboxState;
  readonly attempts: number;
  readonly filingAttempts: number;
  readonly nextAttemptAt: number;
  readonly smtp: SmtpOutcome | null;
  readonly lastError: string | null;
  readonly failure: SmtpFailure | null;
  /** When the attempt under way reached its final "." (null: not yet, or no attempt). */
  readonly committedAt: number | null;
  /** The Sent folder's copy: filed, still to file, or given up on after every retry. */
  readonly sentCopyState: NonNullable<SendResult['sentCopy']>;
  readonly createdAt: number;
  /** Held until (undo window, or a scheduled send); null: sent at once. */
  readonly sendAt: number | null;
  /** The IANA zone a scheduled time was chosen in. */
  readonly timeZone: string | null;
  /** A scheduled send (the Scheduled list), not an undo hold. */
  readonly scheduled: boolean;
  /** When SMTP took it. */
  readonly sentAt: number | null;
  /** What the Scheduled list shows of it. */
  readonly summary: SendSummary;
}

/** What lists show of a waiting send. */
export interface SendSummary {
  readonly subject: string;
  readonly to: readonly string[];
}

/** What a new outbox row is made from; the rest (state, attempts, times) the store sets. */
export type NewOutboxRow = Pick<
  OutboxRow,
  'accountId' | 'idempotencyKey' | 'requestHash' | 'draftId' | 'parentId' | 'messageIdHeader' | 'envelope' | 'raw' | 'sentCopy' | 'uploadIds'
> & Partial<Pick<OutboxRow, 'sendAt' | 'timeZone' | 'scheduled' | 'summary'>>;

interface Row {
  id: number;
  account_id: number;
  idempotency_key: string;
  request_hash: string;
  draft_id: number | null;
  parent_id: number | null;
  message_id_header: string;
  envelope_json: string;
  raw: Buffer;
  sent_copy: Buffer | null;
  upload_ids_json: string;
  state: OutboxState;
  attempts: number;
  filing_attempts: number;
  next_attempt_at: number;
  smtp_json: string | null;
  last_error: string | null;
  error_json: string | null;
  committed_at: number | null;
  sent_copy_state: NonNullable<SendResult['sentCopy']>;
  created_at: number;
  send_at: number | null;
  time_zone: string | null;
  scheduled: number;
  sent_at: number | null;
  summary_json: string | null;
}

const toRow = (row: Row): OutboxRow => ({
  id: row.id,
  accountId: row.account_id,
  idempotencyKey: row.idempotency_key,
  requestHash: row.request_hash,
  draftId: row.draft_id,
  parentId: row.parent_id,
  messageIdHeader: row.message_id_header,
  envelope: JSON.parse(row.envelope_json) as SmtpEnvelope,
  raw: row.raw,
  sentCopy: row.sent_copy,
  uploadIds: JSON.parse(row.upload_ids_json) as string[],
  state: row.state,
  attempts: row.attempts,
  filingAttempts: row.filing_attempts,
  nextAttemptAt: row.next_attempt_at,
  smtp: row.smtp_json === null ? null : (JSON.parse(row.smtp_json) as SmtpOutcome),
  lastError: row.last_error,
  failure: row.error_json === null ? null : (JSON.parse(row.error_json) as SmtpFailure),
  committedAt: row.committed_at,
  sentCopyState: row.sent_copy_state,
  createdAt: row.created_at,
  sendAt: row.send_at === null ? null : Number(row.send_at),
  timeZone: row.time_zone,
  scheduled: row.scheduled === 1,
  sentAt: row.sent_at === null ? null : Number(row.sent_at),
  summary: row.summary_json === null ? { subject: '', to: [] } : (JSON.parse(row.summary_json) as SendSummary),
});

const COLUMNS = `id, account_id, idempotency_key, request_hash, draft_id, parent_id, message_id_header, envelope_json, raw, sent_copy,
  upload_ids_json, state, attempts, filing_attempts, next_attempt_at, smtp_json, last_error, error_json, committed_at, sent_copy_state, created_at,
  send_at, time_zone, scheduled, sent_at, summary_json`;
const ENQUEUE = `INSERT INTO outbox (account_id, idempotency_key, request_hash, draft_id, parent_id, message_id_header, envelope_json, raw,
    sent_copy, upload_ids_json, state, next_attempt_at, created_at, updated_at, send_at, time_zone, scheduled, summary_json)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'queued', ?, ?, ?, ?, ?, ?, ?)
  ON CONFLICT (account_id, idempotency_key) DO NOTHING`;
const BY_ID = `SELECT ${COLUMNS} FROM outbox WHERE id = ?`;
const BRIEF_BY_ID = `SELECT id, account_id AS "accountId", state, send_at AS "sendAt" FROM outbox WHERE id = ?`;
const BY_KEY = `SELECT ${COLUMNS} FROM outbox WHERE account_id = ? AND idempotency_key = ?`;
/** Sends still waiting on the gateway (held or scheduled, not yet accepted by SMTP), soonest first. */
// With the scheduled sends that failed since `failedSince`: every device says so (the Scheduled list, a notification).
const WAITING = `SELECT ${COLUMNS} FROM outbox WHERE account_id = ? AND send_at IS NOT NULL
  AND (state IN ('queued', 'sending') OR (scheduled = 1 AND state = 'failed' AND send_at >= ?)) ORDER BY send_at, id`;
/** An account's rows SMTP took whose Sent copy is still to file and not waiting for a retry, oldest first. */
const TO_FILE = `SELECT ${COLUMNS} FROM outbox WHERE account_id = ? AND state = 'accepted' AND sent_copy_state = 'pending' AND next_attempt_at <= ? ORDER BY id LIMIT ?`;
const UNFINISHED = `SELECT id, account_id AS "accountId", next_attempt_at AS "nextAttemptAt" FROM outbox WHERE state IN ('queued', 'sending', 'accepted') ORDER BY id`;
/** What a sent row keeps of its message once Sent holds it: nothing (`raw` is NOT NULL). */
const NO_BYTES = Buffer.alloc(0);

/**
 * The outbox: a message is written here, whole and with its Message-ID, before SMTP is
 * tried, and each step is a guarded state change (`UPDATE … WHERE state = …`), so two
 * workers can never both claim a row and a restart finds every message where it was. Who
 * works on a row when is the job queue's business (outbox-jobs.ts); the steps of an attempt
 * are also fenced by its number (`attempts`), so an attempt whose worker was given up for
 * dead cannot write — above all not its commit point — once a later attempt claimed the row:
 *
 *   queued ──claim──▶ sending ──SMTP ok──▶ accepted ──filed in Sent──▶ sent
 *     ▲                 │  │  └──refused for good──▶ failed
 *     └──will retry─────┘  └──no reply after the final "."──▶ unknown ──the person: send again──▶ queued
 *                                                                 └──the person: it was sent──▶ accepted
 *
 * `committed_at` is written just before an attempt's final ".": it tells an attempt that died
 * before the dot (nothing was delivered) from one that died waiting for the reply (unknown).
 */
export class OutboxStore {
  constructor(
    private readonly store: SqlStore,
    private readonly now: () => number = Date.now,
  ) {}

  /** Stores a message; with a key already used by the account, returns that row instead (created: false). */
  async enqueue(params: NewOutboxRow): Promise<{ row: OutboxRow; created: boolean }> {
    const now = this.now();
    const result = await this.store.run(ENQUEUE, [params.accountId, params.idempotencyKey, params.requestHash, params.draftId, params.parentId,
      params.messageIdHeader, JSON.stringify(params.envelope), params.raw, params.sentCopy, JSON.stringify(params.uploadIds), params.sendAt ?? now, now, now,
      params.sendAt ?? null, params.timeZone ?? null, params.scheduled ? 1 : 0, params.summary ? JSON.stringify(params.summary) : null]);
    return { row: (await this.byKey(params.accountId, params.idempotencyKey))!, created: result.changes > 0 };
  }

  async get(id: number): Promise<OutboxRow | undefined> {
    const row = await this.store.get<Row>(BY_ID, [id]);
    return row && toRow(row);
  }

  /** Where a row stands, without its message (a burst reads this after every step). */
  async brief(id: number): Promise<Pick<OutboxRow, 'id' | 'accountId' | 'state' | 'sendAt'> | undefined> {
    const row = await this.store.get<{ id: number; accountId: number; state: OutboxState; sendAt: number | null }>(BRIEF_BY_ID, [id]);
    return row && { ...row, sendAt: row.sendAt === null ? null : Number(row.sendAt) };
  }

  async byKey(accountId: number, idempotencyKey: string): Promise<OutboxRow | undefined> {
    const row = await this.store.get<Row>(BY_KEY, [accountId, idempotencyKey]);
    return row && toRow(row);
  }

  /** The account's sends held or scheduled and not yet gone, soonest first. */
  /** Held and scheduled sends not gone yet, and the scheduled ones due since `failedSince` that failed. */
  async waiting(accountId: number, failedSince: number): Promise<OutboxRow[]> {
    return (await this.store.all<Row>(WAITING, [accountId, failedSince])).map(toRow);
  }

  /**
   * queued → cancelled before its first attempt (undo, cancel): never sent. Call it in the
   * transaction that removed the row's pending job, so no worker can claim it meanwhile.
   */
  cancel(id: number): Promise<boolean> {
    return this.change(id, ['queued'], `last_error = NULL, state = 'cancelled'`, []);
  }

  /**
   * The attempt's message with the Date: it leaves at (a held or scheduled send was built
   * earlier): what SMTP gets and what Sent keeps carry the real send time. Fenced by the attempt.
   */
  redate(id: number, raw: Buffer, sentCopy: Buffer | null, attempt: number): Promise<boolean> {
    return this.change(id, ['sending'], `raw = ?, sent_copy = ?`, [raw, sentCopy], attempt);
  }

  /** The account's accepted rows still to file in Sent and due, oldest first, at most `limit`. */
  async toFile(accountId: number, now: number, limit: number): Promise<OutboxRow[]> {
    return (await this.store.all<Row>(TO_FILE, [accountId, now, limit])).map(toRow);
  }

  /** Rows with work left (to send, being sent, to file), oldest first: each must have its job. */
  unfinished(): Promise<{ id: number; accountId: number; nextAttemptAt: number }[]> {
    return this.store.all(UNFINISHED);
  }

  /** queued → sending, counting the attempt; false if another worker took it. The attempt's number fences its later steps. */
  claim(id: number): Promise<boolean> {
    return this.change(id, ['queued'], `state = 'sending', attempts = attempts + 1`, []);
  }

  /**
   * The attempt is about to write its final ".": from now on the server may take the message at
   * any moment. The caller awaits it before the dot leaves (the SMTP connector waits for its
   * onCommit), so the commit point is in the database first.
   */
  markCommitting(id: number, attempt?: number): Promise<boolean> {
    return this.change(id, ['sending'], `committed_at = ?`, [this.now()], attempt);
  }

  /** sending → accepted: the marker that SMTP took the message; from here on it is never sent again. */
  markAccepted(id: number, outcome: SmtpOutcome, attempt?: number): Promise<boolean> {
    const now = this.now();
    return this.change(id, ['sending'], `state = 'accepted', smtp_json = ?, last_error = NULL, next_attempt_at = ?, sent_at = ?`, [JSON.stringify(outcome), now, now], attempt);
  }

  /** sending → queued: try again at `at` (the server refused it, or the attempt ended before its final "."). */
  requeue(id: number, reason: string, at: number, attempt?: number): Promise<boolean> {
    return this.change(id, ['sending'], `state = 'queued', committed_at = NULL, last_error = ?, next_attempt_at = ?`, [reason, at], attempt);
  }

  /** sending → unknown: the final "." went out and no reply came back; never sent again on its own. */
  markUnknown(id: number, reason: string, attempt?: number): Promise<boolean> {
    return this.change(id, ['sending'], `state = 'unknown', last_error = ?`, [reason], attempt);
  }

  /** unknown → queued: the person checked and asks to send it again. */
  resend(id: number): Promise<boolean> {
    return this.change(id, ['unknown'], `state = 'queued', committed_at = NULL, last_error = NULL, next_attempt_at = ?`, [this.now()]);
  }

  /** unknown → accepted: the person says it arrived; it is filed in Sent like any sent message. */
  confirmSent(id: number): Promise<boolean> {
    return this.change(id, ['unknown'], `state = 'accepted', smtp_json = ?, last_error = NULL, next_attempt_at = ?`, [
      JSON.stringify({ response: 'confirmed as sent by the person', accepted: [], rejected: [] }),
      this.now(),
    ]);
  }

  /** sending → failed, for good. */
  markFailed(id: number, failure: SmtpFailure, attempt?: number): Promise<boolean> {
    return this.change(id, ['sending'], `state = 'failed', last_error = ?, error_json = ?`, [failure.reason, JSON.stringify(failure)], attempt);
  }

  /** accepted stays accepted: filing failed, try it again at `at` (SMTP is not repeated). */
  deferFiling(id: number, reason: string, at: number): Promise<boolean> {
    return this.change(id, ['accepted'], `filing_attempts = filing_attempts + 1, last_error = ?, next_attempt_at = ?`, [reason, at]);
  }

  /** The copy in Sent is there (filed by us or found); the rest of filing may still be retried. */
  markCopyFiled(id: number): Promise<boolean> {
    return this.change(id, ['accepted'], `sent_copy_state = 'filed'`, []);
  }

  /** accepted → sent with its copy in Sent. The raw copies are dropped: the message now lives in Sent. */
  markSent(id: number, note: string | null = null): Promise<boolean> {
    return this.change(id, ['accepted'], `state = 'sent', sent_copy_state = 'filed', last_error = ?, raw = ?, sent_copy = NULL`, [note, NO_BYTES]);
  }

  /**
   * accepted → sent without a Sent copy: every filing attempt failed. The reason is kept for the
   * person, and so is the message (raw), the only copy the mailbox would otherwise lack.
   */
  markSentWithoutCopy(id: number, reason: string): Promise<boolean> {
    return this.change(id, ['accepted'], `state = 'sent', sent_copy_state = 'failed', last_error = ?`, [reason]);
  }

  /** A guarded state change; with `attempt`, only while the row is still that attempt's (the fence). */
  private async change(id: number, from: readonly OutboxState[], set: string, values: readonly SqlValue[], attempt?: number): Promise<boolean> {
    const states = from.map(() => '?').join(', ');
    const fence = attempt === undefined ? '' : ' AND attempts = ?';
    const { changes } = await this.store.run(`UPDATE outbox SET ${set}, updated_at = ? WHERE id = ? AND state IN (${states})${fence}`, [
      ...values, this.now(), id, ...from, ...(attempt === undefined ? [] : [attempt]),
    ]);
    return changes > 0;
  }
}
