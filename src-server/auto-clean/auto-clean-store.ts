import type { AutoCleanAction, AutoCleanRule, AutoCleanRun } from '../../shared/auto-clean';
import type { SqlExecutor } from '../store/sql';
import { placeholders } from '../store/sql-lists';

/** A rule as stored (migration 27), its numbers as numbers. */
export interface RuleRow {
  readonly id: number;
  readonly accountId: number;
  readonly name: string;
  readonly sender: string;
  readonly newsletters: boolean;
  readonly folderId: number | null;
  readonly folderPath: string;
  readonly ageDays: number;
  readonly action: AutoCleanAction;
  readonly keepNewest: number;
  readonly enabled: boolean;
  readonly confirmed: boolean;
  readonly lastRunAt: number | null;
}

export type RuleFields = Omit<RuleRow, 'id' | 'accountId' | 'lastRunAt'>;

/** One message a run moved: enough to find it again in the target folder. */
export interface MoveRow {
  readonly fromUid: number;
  readonly toUid: number | null;
  readonly toUidValidity: number | null;
  readonly messageIdHeader: string | null;
}

export interface RunRecord {
  readonly accountId: number;
  readonly ruleId: number;
  readonly ruleName: string;
  readonly trigger: 'schedule' | 'manual';
  readonly at: number;
  readonly fromPath: string;
  readonly toPath: string;
  readonly subjects: readonly string[];
  readonly error: string | null;
  readonly moves: readonly MoveRow[];
}

const RULE_COLUMNS = `id, account_id AS "accountId", name, sender, newsletters, folder_id AS "folderId", folder_path AS "folderPath", age_days AS "ageDays",
  action, keep_newest AS "keepNewest", enabled, confirmed, last_run_at AS "lastRunAt"`;
const RUN_COLUMNS = `id, rule_id AS "ruleId", rule_name AS "ruleName", trigger_kind AS "trigger", at, from_path AS "fromPath", to_path AS "toPath", count,
  subjects_json AS "subjectsJson", error, undone_at AS "undoneAt", restored, lost`;
/** Runs the log shows, newest first. */
const LOG_LENGTH = 30;

type Raw<T> = { [K in keyof T]: unknown };
const num = (value: unknown) => Number(value);
const numOrNull = (value: unknown) => (value === null || value === undefined ? null : Number(value));

function toRule(row: Raw<RuleRow>): RuleRow {
  return {
    id: num(row.id),
    accountId: num(row.accountId),
    name: String(row.name),
    sender: String(row.sender),
    newsletters: num(row.newsletters) === 1,
    folderId: numOrNull(row.folderId),
    folderPath: String(row.folderPath),
    ageDays: num(row.ageDays),
    action: row.action === 'archive' ? 'archive' : 'trash',
    keepNewest: num(row.keepNewest),
    enabled: num(row.enabled) === 1,
    confirmed: num(row.confirmed) === 1,
    lastRunAt: numOrNull(row.lastRunAt),
  };
}

export const toWireRule = (row: RuleRow): AutoCleanRule => ({
  id: String(row.id),
  name: row.name,
  sender: row.sender,
  newsletters: row.newsletters,
  folderId: row.folderId === null ? null : String(row.folderId),
  folderPath: row.folderPath,
  ageDays: row.ageDays,
  action: row.action,
  keepNewest: row.keepNewest,
  enabled: row.enabled,
  confirmed: row.confirmed,
  lastRunAt: row.lastRunAt,
});

function toRun(row: Record<string, unknown>): AutoCleanRun {
  let subjects: string[] = [];
  try {
    const parsed: unknown = JSON.parse(String(row.subjectsJson));
    if (Array.isArray(parsed)) subjects = parsed.map(String);
  } catch {
    // a row this build cannot read shows no subjects
  }
  return {
    id: String(row.id),
    ruleId: String(row.ruleId),
    ruleName: String(row.ruleName),
    at: num(row.at),
    trigger: row.trigger === 'manual' ? 'manual' : 'schedule',
    fromPath: String(row.fromPath),
    toPath: String(row.toPath),
    count: num(row.count),
    subjects,
    error: row.error === null ? null : String(row.error),
    undoneAt: numOrNull(row.undoneAt),
    restored: num(row.restored),
    lost: num(row.lost),
  };
}

const flag = (value: boolean) => (value ? 1 : 0);

/** The SQL of auto_clean_rules, auto_clean_runs and auto_clean_moves (migration 27). */
export class AutoCleanStore {
  constructor(private readonly store: SqlExecutor) {}

  async rules(accountId: number): Promise<RuleRow[]> {
    return (await this.store.all<Raw<RuleRow>>(`SELECT ${RULE_COLUMNS} FROM auto_clean_rules WHERE account_id = ? ORDER BY id`, [accountId])).map(toRule);
  }

  async rule(accountId: number, id: number): Promise<RuleRow | null> {
    const row = await this.store.get<Raw<RuleRow>>(`SELECT ${RULE_COLUMNS} FROM auto_clean_rules WHERE account_id = ? AND id = ?`, [accountId, id]);
    return row ? toRule(row) : null;
  }

  async count(accountId: number): Promise<number> {
    return Number((await this.store.get<{ n: number }>('SELECT COUNT(*) AS "n" FROM auto_clean_rules WHERE account_id = ?', [accountId]))?.n ?? 0);
  }

  /** Whether any rule of the account is enabled (its hourly job then goes on). */
  async anyEnabled(accountId: number): Promise<boolean> {
    return Boolean(await this.store.get('SELECT 1 AS "one" FROM auto_clean_rules WHERE account_id = ? AND enabled = 1', [accountId]));
  }

  async insert(accountId: number, fields: RuleFields, now: number): Promise<number> {
    const row = await this.store.get<{ id: number }>(
      `INSERT INTO auto_clean_rules (account_id, name, sender, newsletters, folder_id, folder_path, age_days, action, keep_newest, enabled, confirmed, created_at, updated_at)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
      [accountId, fields.name, fields.sender, flag(fields.newsletters), fields.folderId, fields.folderPath, fields.ageDays, fields.action, fields.keepNewest, flag(fields.enabled), flag(fields.confirmed), now, now],
    );
    return Number(row!.id);
  }

  /** False when the rule is gone. */
  async update(accountId: number, id: number, fields: RuleFields, now: number): Promise<boolean> {
    const { changes } = await this.store.run(
      `UPDATE auto_clean_rules SET name = ?, sender = ?, newsletters = ?, folder_id = ?, folder_path = ?, age_days = ?, action = ?, keep_newest = ?, enabled = ?, confirmed = ?, updated_at = ?
        WHERE account_id = ? AND id = ?`,
      [fields.name, fields.sender, flag(fields.newsletters), fields.folderId, fields.folderPath, fields.ageDays, fields.action, fields.keepNewest, flag(fields.enabled), flag(fields.confirmed), now, accountId, id],
    );
    return changes === 1;
  }

  async remove(accountId: number, id: number): Promise<boolean> {
    return (await this.store.run('DELETE FROM auto_clean_rules WHERE account_id = ? AND id = ?', [accountId, id])).changes === 1;
  }

  /** A run and the messages it moved; the rule's last run time. Its id. */
  async recordRun(run: RunRecord): Promise<number> {
    const row = await this.store.get<{ id: number }>(
      `INSERT INTO auto_clean_runs (account_id, rule_id, rule_name, trigger_kind, at, from_path, to_path, count, subjects_json, error)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
      [run.accountId, run.ruleId, run.ruleName, run.trigger, run.at, run.fromPath, run.toPath, run.moves.length, JSON.stringify(run.subjects), run.error],
    );
    const id = Number(row!.id);
    // A few hundred rows of 5 values per statement: far under both engines' parameter limits.
    for (let start = 0; start < run.moves.length; start += 200) {
      const chunk = run.moves.slice(start, start + 200);
      await this.store.run(
        `INSERT INTO auto_clean_moves (run_id, from_uid, to_uid, to_uidvalidity, message_id_header) VALUES ${chunk.map(() => '(?, ?, ?, ?, ?)').join(', ')}`,
        chunk.flatMap((move) => [id, move.fromUid, move.toUid, move.toUidValidity, move.messageIdHeader]),
      );
    }
    await this.store.run('UPDATE auto_clean_rules SET last_run_at = ? WHERE account_id = ? AND id = ?', [run.at, run.accountId, run.ruleId]);
    return id;
  }

  /** The rule ran and found nothing to move. */
  async touch(accountId: number, ruleId: number, at: number): Promise<void> {
    await this.store.run('UPDATE auto_clean_rules SET last_run_at = ? WHERE account_id = ? AND id = ?', [at, accountId, ruleId]);
  }

  /** The account's latest runs, newest first. */
  async runs(accountId: number): Promise<AutoCleanRun[]> {
    const rows = await this.store.all<Record<string, unknown>>(`SELECT ${RUN_COLUMNS} FROM auto_clean_runs WHERE account_id = ? ORDER BY at DESC, id DESC LIMIT ${LOG_LENGTH}`, [accountId]);
    return rows.map(toRun);
  }

  async run(accountId: number, id: number): Promise<AutoCleanRun | null> {
    const row = await this.store.get<Record<string, unknown>>(`SELECT ${RUN_COLUMNS} FROM auto_clean_runs WHERE account_id = ? AND id = ?`, [accountId, id]);
    return row ? toRun(row) : null;
  }

  async moves(runId: number): Promise<MoveRow[]> {
    const rows = await this.store.all<Raw<MoveRow>>(
      'SELECT from_uid AS "fromUid", to_uid AS "toUid", to_uidvalidity AS "toUidValidity", message_id_header AS "messageIdHeader" FROM auto_clean_moves WHERE run_id = ? ORDER BY from_uid',
      [runId],
    );
    return rows.map((row) => ({ fromUid: num(row.fromUid), toUid: numOrNull(row.toUid), toUidValidity: numOrNull(row.toUidValidity), messageIdHeader: row.messageIdHeader === null ? null : String(row.messageIdHeader) }));
  }

  /** Marks the run undone once: false when another undo came first. */
  async markUndone(accountId: number, runId: number, result: { restored: number; lost: number }, now: number): Promise<boolean> {
    const { changes } = await this.store.run('UPDATE auto_clean_runs SET undone_at = ?, restored = ?, lost = ? WHERE account_id = ? AND id = ? AND undone_at IS NULL', [
      now,
      result.restored,
      result.lost,
      accountId,
      runId,
    ]);
    return changes === 1;
  }

  /** The mirror's thread of each of these UIDs of a folder (UIDs the mirror does not know are absent). */
  async threadsOf(folderId: number, uids: readonly number[]): Promise<Map<number, number>> {
    const found = new Map<number, number>();
    for (let start = 0; start < uids.length; start += 500) {
      const chunk = uids.slice(start, start + 500);
      const rows = await this.store.all<{ uid: number; threadId: number }>(`SELECT uid, thread_id AS "threadId" FROM messages WHERE folder_id = ? AND uid IN (${placeholders(chunk.length)})`, [folderId, ...chunk]);
      for (const row of rows) found.set(Number(row.uid), Number(row.threadId));
    }
    return found;
  }

  /** The messages of these threads outside the folders left out (Trash, Spam), newest first per thread. */
  async threadMembers(accountId: number, threadIds: readonly number[], leftOut: readonly number[]): Promise<{ threadId: number; folderId: number; uid: number }[]> {
    const members: { threadId: number; folderId: number; uid: number }[] = [];
    const skip = leftOut.length > 0 ? ` AND folder_id NOT IN (${placeholders(leftOut.length)})` : '';
    for (let start = 0; start < threadIds.length; start += 500) {
      const chunk = threadIds.slice(start, start + 500);
      const rows = await this.store.all<{ threadId: number; folderId: number; uid: number }>(
        `SELECT thread_id AS "threadId", folder_id AS "folderId", uid FROM messages WHERE account_id = ? AND thread_id IN (${placeholders(chunk.length)})${skip}
          ORDER BY thread_id, date DESC, id DESC`,
        [accountId, ...chunk, ...leftOut],
      );
      members.push(...rows.map((row) => ({ threadId: Number(row.threadId), folderId: Number(row.folderId), uid: Number(row.uid) })));
    }
    return members;
  }
}
