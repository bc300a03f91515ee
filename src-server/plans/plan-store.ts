import { DEFAULT_PLAN, planSchema, type Plan } from '../../shared/plans';
import type { Db } from '../store/database';

/** An account and its plan, as the operator's listing shows it. */
export interface AccountPlanRow {
  readonly accountId: number;
  readonly email: string;
  readonly plan: Plan;
}

/** A stored plan this build does not know reads as the default (it enables everything), not as an error. */
const readPlan = (raw: unknown): Plan => planSchema.safeParse(raw).data ?? DEFAULT_PLAN;

/** The SQL of account plans (table account_plans; no row = DEFAULT_PLAN). */
export class PlanStore {
  private readonly getStmt;
  private readonly putStmt;
  private readonly listStmt;
  private readonly byEmailStmt;

  constructor(db: Db) {
    this.getStmt = db.prepare<[number]>('SELECT plan FROM account_plans WHERE account_id = ?');
    this.putStmt = db.prepare<[number, string, number]>(
      `INSERT INTO account_plans (account_id, plan, updated_at) VALUES (?, ?, ?)
       ON CONFLICT (account_id) DO UPDATE SET plan = excluded.plan, updated_at = excluded.updated_at`,
    );
    this.listStmt = db.prepare(
      'SELECT a.id AS accountId, a.email AS email, p.plan AS plan FROM accounts a LEFT JOIN account_plans p ON p.account_id = a.id ORDER BY a.email',
    );
    this.byEmailStmt = db.prepare<[string]>(
      'SELECT a.id AS accountId, a.email AS email, p.plan AS plan FROM accounts a LEFT JOIN account_plans p ON p.account_id = a.id WHERE a.email = ?',
    );
  }

  planOf(accountId: number): Plan {
    const row = this.getStmt.get(accountId) as { plan: string } | undefined;
    return row ? readPlan(row.plan) : DEFAULT_PLAN;
  }

  put(accountId: number, plan: Plan, now: number): void {
    this.putStmt.run(accountId, plan, now);
  }

  list(): AccountPlanRow[] {
    return (this.listStmt.all() as { accountId: number; email: string; plan: string | null }[]).map((row) => ({ ...row, plan: readPlan(row.plan ?? DEFAULT_PLAN) }));
  }

  byEmail(email: string): AccountPlanRow | undefined {
    const row = this.byEmailStmt.get(email) as { accountId: number; email: string; plan: string | null } | undefined;
    return row && { ...row, plan: readPlan(row.plan ?? DEFAULT_PLAN) };
  }
}
