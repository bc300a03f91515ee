/**
 * "Apply to existing mail" runs (table rule_runs): a filter run once over the Inbox by a
 * 'rules.apply' job (jobs/), so it goes on with every tab closed and survives a reload. Each
 * step (matched N, then n of N after each batch, then done or failed) is a row update plus a
 * 'rules' entry in the account's transaction log, announced: every device's delta brings the
 * progress (shared/mail-rules.ts RulesActivity), no polling. A run's row is kept an hour after
 * its last change, so a page opened later still says how it went.
 */
import { mailFilterSchema, type MailFilter, type RuleRun } from '../../shared/mail-rules';
import type { SqlStore } from '../store/sql';

/** Finished runs are shown (and kept) this long after their last change. */
export const RUN_KEEP_MS = 60 * 60_000;
/**
 * A run with no step for this long has lost its job (a node died on its last attempt): it reads
 * as failed, so its filter can be run again. A step is one batch of IMAP commands: seconds.
 */
export const RUN_STALL_MS = 5 * 60_000;
/** The runs an activity lists at most, newest first. */
const RECENT_RUNS = 20;

const COLUMNS = 'id, account_id AS "accountId", filter_json AS "filterJson", state, total, done, error, started_at AS "startedAt", updated_at AS "updatedAt"';

interface RunRow {
  id: number;
  accountId: number;
  filterJson: string;
  state: string;
  total: number;
  done: number;
  error: string | null;
  startedAt: number;
  updatedAt: number;
}

export interface StoredRun {
  readonly accountId: number;
  readonly filter: MailFilter;
  readonly run: RuleRun;
}

export type RunChange = Partial<Pick<RuleRun, 'state' | 'total' | 'done' | 'error'>>;

export class RuleRunStore {
  constructor(private readonly store: SqlStore) {}

  /** A new run, 'running' with nothing done; runs finished over RUN_KEEP_MS ago go. */
  async create(accountId: number, filter: MailFilter, now: number): Promise<RuleRun> {
    await this.store.run("DELETE FROM rule_runs WHERE account_id = ? AND state <> 'running' AND updated_at < ?", [accountId, now - RUN_KEEP_MS]);
    const row = await this.store.get<{ id: number }>(
      "INSERT INTO rule_runs (account_id, filter_json, state, total, done, error, started_at, updated_at) VALUES (?, ?, 'running', 0, 0, NULL, ?, ?) RETURNING id",
      [accountId, JSON.stringify(filter), now, now],
    );
    if (!row) throw new Error('rule_runs: no id returned');
    return { id: Number(row.id), filterId: filter.id, filterName: filter.name, state: 'running', total: 0, done: 0, error: null, startedAt: now, updatedAt: now };
  }

  async get(runId: number): Promise<StoredRun | undefined> {
    const row = await this.store.get<RunRow>(`SELECT ${COLUMNS} FROM rule_runs WHERE id = ?`, [runId]);
    if (!row) return undefined;
    const filter = readFilter(row.filterJson);
    return filter ? { accountId: Number(row.accountId), filter, run: toRun(row, filter) } : undefined;
  }

  async update(runId: number, change: RunChange, now: number): Promise<void> {
    const sets: string[] = ['updated_at = ?'];
    const values: (string | number | null)[] = [now];
    for (const [key, value] of Object.entries(change) as [keyof RunChange, string | number | null][]) {
      sets.push(`${key} = ?`);
      values.push(value);
    }
    await this.store.run(`UPDATE rule_runs SET ${sets.join(', ')} WHERE id = ?`, [...values, runId]);
  }

  /** The account's runs under way and those that changed within RUN_KEEP_MS, newest first. */
  async recent(accountId: number, now: number): Promise<RuleRun[]> {
    const rows = await this.store.all<RunRow>(
      `SELECT ${COLUMNS} FROM rule_runs WHERE account_id = ? AND (state = 'running' OR updated_at >= ?) ORDER BY id DESC LIMIT ${RECENT_RUNS}`,
      [accountId, now - RUN_KEEP_MS],
    );
    return rows.flatMap((row) => {
      const filter = readFilter(row.filterJson);
      if (!filter) return [];
      const run = toRun(row, filter);
      return [run.state === 'running' && now - run.updatedAt > RUN_STALL_MS ? { ...run, state: 'failed' as const, error: 'OperationFailed' } : run];
    });
  }
}

function toRun(row: RunRow, filter: MailFilter): RuleRun {
  const state = row.state === 'done' || row.state === 'failed' ? row.state : 'running';
  return { id: Number(row.id), filterId: filter.id, filterName: filter.name, state, total: Number(row.total), done: Number(row.done), error: row.error, startedAt: Number(row.startedAt), updatedAt: Number(row.updatedAt) };
}

/** A stored filter this build cannot read is no run (it is not shown, and its job does nothing). */
function readFilter(json: string): MailFilter | null {
  try {
    const parsed = mailFilterSchema.safeParse(JSON.parse(json));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
