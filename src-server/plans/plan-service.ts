import type { Feature, Plan, PlanResponse } from '../../shared/plans';
import { TernError } from '../../shared/errors';
import type { SqlStore } from '../store/sql';
import type { TransactionLog } from '../store/transaction-log';
import { featuresOf } from './entitlements';
import { PlanStore, type AccountPlanRow } from './plan-store';

/** Who hears "account X has transactions up to N" (the PushHub in the gateway; nobody in the command line). */
export interface TxnAnnouncer {
  announce(accountId: number, latestTxnId: number): void;
}

/**
 * Account plans and what they entitle to. Every gated route asks `require` (through the
 * route guard, http/route-guards.ts, or its service for a gate that depends on the body),
 * so a refusal is always FeatureNotInPlan 402 with `detail.feature`.
 */
export class PlanService {
  private readonly store: PlanStore;

  constructor(private readonly deps: { store: SqlStore; txlog: Pick<TransactionLog, 'append'>; push?: TxnAnnouncer; now?: () => number }) {
    this.store = new PlanStore(deps.store);
  }

  /** The account's plan and its features (GET /api/plan, the delta's 'plan' upsert). */
  async planOf(accountId: number): Promise<PlanResponse> {
    const plan = await this.store.planOf(accountId);
    return { plan, features: featuresOf(plan) };
  }

  async has(accountId: number, feature: Feature): Promise<boolean> {
    return featuresOf(await this.store.planOf(accountId)).includes(feature);
  }

  /** Throws FeatureNotInPlan (402, detail.feature) unless the account's plan includes the feature. */
  async require(accountId: number, feature: Feature): Promise<void> {
    if (!(await this.has(accountId, feature))) throw new TernError('FeatureNotInPlan', { detail: { feature } });
  }

  /**
   * Sets the account's plan and writes a 'plan' entry to its transaction log in the same
   * transaction, so every device gets it through delta: at once where a push hub is at
   * hand; from the command line (another process, no hub) when the gateway's push socket
   * next reads the log (at each ping).
   */
  async setPlan(accountId: number, plan: Plan): Promise<PlanResponse> {
    const { store, txlog } = this.deps;
    const latest = await store.transaction(async () => {
      await this.store.put(accountId, plan, (this.deps.now ?? Date.now)());
      return txlog.append(accountId, [{ object: 'plan', objectId: accountId }]);
    });
    this.deps.push?.announce(accountId, latest);
    return this.planOf(accountId);
  }

  /** Every account with its plan, by address (the operator's listing). */
  list(): Promise<AccountPlanRow[]> {
    return this.store.list();
  }

  byEmail(email: string): Promise<AccountPlanRow | undefined> {
    return this.store.byEmail(email);
  }
}
