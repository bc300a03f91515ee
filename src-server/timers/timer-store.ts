import type { RaisedMark, ThreadTimer, TimerKind } from '../../shared/api/timers';
import type { SqlExecutor } from '../store/sql';
import { inChunks, placeholders } from '../store/sql-lists';

/** A timer row as the service needs it (the wire shape plus what only the gateway reads). */
export interface TimerRow {
  readonly id: number;
  readonly accountId: number;
  readonly threadId: number;
  readonly kind: TimerKind;
  readonly state: 'waiting' | 'raised' | 'done' | 'cancelled';
  readonly dueAt: number;
  readonly timeZone: string;
  readonly raisedAt: number | null;
  readonly messageId: number | null;
  readonly since: number | null;
  readonly subject: string;
}

const COLUMNS = `id, account_id AS "accountId", thread_id AS "threadId", kind, state, due_at AS "dueAt", time_zone AS "timeZone",
  raised_at AS "raisedAt", message_id AS "messageId", since, subject`;

/** PostgreSQL's BIGINT comes back as a string through pg: numbers again. */
const toRow = (row: TimerRow): TimerRow => ({
  ...row,
  id: Number(row.id),
  accountId: Number(row.accountId),
  threadId: Number(row.threadId),
  dueAt: Number(row.dueAt),
  raisedAt: row.raisedAt === null ? null : Number(row.raisedAt),
  messageId: row.messageId === null ? null : Number(row.messageId),
  since: row.since === null ? null : Number(row.since),
});

export const toThreadTimer = (row: TimerRow): ThreadTimer => ({
  id: String(row.id),
  threadId: String(row.threadId),
  kind: row.kind,
  state: row.state === 'raised' ? 'raised' : 'waiting',
  dueAt: row.dueAt,
  timeZone: row.timeZone,
  raisedAt: row.raisedAt,
  messageId: row.messageId === null ? null : String(row.messageId),
  subject: row.subject,
});

/** The SQL of thread_timers (migration 23): one live row per thread and kind, waiting or raised. */
export class TimerStore {
  constructor(private readonly store: SqlExecutor) {}

  async get(accountId: number, id: number): Promise<TimerRow | null> {
    const row = await this.store.get<TimerRow>(`SELECT ${COLUMNS} FROM thread_timers WHERE account_id = ? AND id = ?`, [accountId, id]);
    return row ? toRow(row) : null;
  }

  /** The thread's live timer of a kind (waiting or raised). */
  async live(accountId: number, threadId: number, kind: TimerKind): Promise<TimerRow | null> {
    const row = await this.store.get<TimerRow>(
      `SELECT ${COLUMNS} FROM thread_timers WHERE account_id = ? AND thread_id = ? AND kind = ? AND state IN ('waiting', 'raised') ORDER BY id DESC`,
      [accountId, threadId, kind],
    );
    return row ? toRow(row) : null;
  }

  /** The account's waiting and raised timers, soonest first. */
  async list(accountId: number): Promise<TimerRow[]> {
    const rows = await this.store.all<TimerRow>(`SELECT ${COLUMNS} FROM thread_timers WHERE account_id = ? AND state IN ('waiting', 'raised') ORDER BY due_at, id`, [accountId]);
    return rows.map(toRow);
  }

  async insert(params: Omit<TimerRow, 'id' | 'state' | 'raisedAt'> & { now: number }): Promise<number> {
    const row = await this.store.get<{ id: number }>(
      `INSERT INTO thread_timers (account_id, thread_id, kind, state, due_at, time_zone, message_id, since, subject, created_at, updated_at)
        VALUES (?, ?, ?, 'waiting', ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
      [params.accountId, params.threadId, params.kind, params.dueAt, params.timeZone, params.messageId, params.since, params.subject, params.now, params.now],
    );
    return Number(row!.id);
  }

  /** A new time: waiting again (a raised reminder set again is no longer raised). */
  async reschedule(id: number, params: { dueAt: number; timeZone: string; now: number }): Promise<void> {
    await this.store.run(`UPDATE thread_timers SET state = 'waiting', due_at = ?, time_zone = ?, raised_at = NULL, updated_at = ? WHERE id = ?`, [params.dueAt, params.timeZone, params.now, id]);
  }

  /** From one state to another; false when the row was not in `from` (a cancel or a second worker came first). */
  async transition(id: number, from: readonly TimerRow['state'][], to: TimerRow['state'], now: number, raisedAt: number | null = null): Promise<boolean> {
    const { changes } = await this.store.run(
      `UPDATE thread_timers SET state = ?, raised_at = ?, updated_at = ? WHERE id = ? AND state IN (${placeholders(from.length)})`,
      [to, raisedAt, now, id, ...from],
    );
    return changes === 1;
  }

  /** The raised marks of these threads (the newest per thread), for their summaries. */
  async raisedMarks(accountId: number, threadIds: readonly number[]): Promise<Map<number, RaisedMark>> {
    const rows = await inChunks(threadIds, (chunk) =>
      this.store.all<{ id: number; threadId: number; kind: TimerKind; raisedAt: number }>(
        `SELECT id, thread_id AS "threadId", kind, raised_at AS "raisedAt" FROM thread_timers
          WHERE account_id = ? AND state = 'raised' AND thread_id IN (${placeholders(chunk.length)}) ORDER BY raised_at, id`,
        [accountId, ...chunk],
      ),
    );
    return new Map(rows.map((row) => [Number(row.threadId), { timerId: String(row.id), kind: row.kind, at: Number(row.raisedAt) }]));
  }

  /** The thread's messages as a timer needs them: where each is, who sent it, when. */
  async threadMessages(accountId: number, threadId: number): Promise<{ id: number; folderId: number; fromJson: string; date: number; subject: string }[]> {
    const rows = await this.store.all<{ id: number; folderId: number; fromJson: string; date: number; subject: string }>(
      'SELECT id, folder_id AS "folderId", from_json AS "fromJson", date, subject FROM messages WHERE account_id = ? AND thread_id = ? ORDER BY date, id',
      [accountId, threadId],
    );
    return rows.map((row) => ({ ...row, id: Number(row.id), folderId: Number(row.folderId), date: Number(row.date) }));
  }

  /** The message a follow-up is set on: its thread and date. */
  async message(accountId: number, messageId: number): Promise<{ threadId: number; date: number; fromJson: string; subject: string } | null> {
    const row = await this.store.get<{ threadId: number; date: number; fromJson: string; subject: string }>(
      'SELECT thread_id AS "threadId", date, from_json AS "fromJson", subject FROM messages WHERE account_id = ? AND id = ?',
      [accountId, messageId],
    );
    return row ? { ...row, threadId: Number(row.threadId), date: Number(row.date) } : null;
  }
}
