import { DEFAULT_PLAN, planSchema, type Plan } from '../../shared/plans';
import type { SqlStore } from '../store/sql';

/** An account and its plan, as the operator's listing shows it. */
export interface AccountPlanRow {
  readonly accountId: number;
  readonly email: string;
  readonly plan: Plan;
}

/** A stored plan this build does not know reads as the default (it enables everything), not as an error. */
const readPlan = (raw: unknown): Plan => planSchema.safeParse(raw).data ?? DEFAULT_PLAN;

const GET = 'SELECT plan FROM account_plans WHERE account_id = ?';
const PUT = `INSERT INTO account_plans (account_id, plan, updated_at) VALUES (?, ?, ?)
  ON CONFLICT (account_id) DO UPDATE SET plan = excluded.plan, updated_at = excluded.updated_at`;
const ACCOUNTS = 'SELECT a.id AS "accountId", a.email AS email, p.plan AS plan FROM accounts a LEFT JOIN account_plans p ON p.account_id = a.id';
const LIST = `${ACCOUNTS} ORDER BY a.email`;
const BY_EMAIL = `${ACCOUNTS} WHERE a.email = ?`;

type PlanRow = { accountId: number; email: string; plan: string | null };
const toAccountPlan = (row: PlanRow): AccountPlanRow => ({ ...row, plan: readPlan(row.plan ?? DEFAULT_PLAN) });

/** The SQL of account plans (table account_plans; no row = DEFAULT_PLAN). */
export class PlanStore {
  constructor(private readonly store: SqlStore) {}

  async planOf(accountId: number): Promise<Plan> {
    const row = await this.store.get<{ plan: string }>(GET, [accountId]);
    return row ? readPlan(row.plan) : DEFAULT_PLAN;
  }

  async put(accountId: number, plan: Plan, now: number): Promise<void> {
    await this.store.run(PUT, [accountId, plan, now]);
  }

  async list(): Promise<AccountPlanRow[]> {
    return (await this.store.all<PlanRow>(LIST)).map(toAccountPlan);
  }

  async byEmail(email: string): Promise<AccountPlanRow | undefined> {
    const row = await this.store.get<PlanRow>(BY_EMAIL, [email]);
    return row && toAccountPlan(row);
  }
}
