import { PREFERENCE_FEATURES, type PreferenceKey, type PreferencePatch, type PreferencesDoc } from '../../shared/preferences';
import type { PlanService, TxnAnnouncer } from '../plans/plan-service';
import type { SqlStore } from '../store/sql';
import type { TransactionLog } from '../store/transaction-log';
import { PreferenceStore } from './preference-store';

export interface PreferencePatchParams {
  readonly accountId: number;
  /** The keys to change, already parsed (preferencesPatchRequestSchema). */
  readonly patch: PreferencePatch;
}

/**
 * The spec's user-preferences service: one document per account, changed by any device.
 * A change bumps the revision and writes a 'preferences' entry to the account's
 * transaction log in the same transaction; the push hub then tells every device,
 * whose engine pulls the whole document through delta.
 */
export class PreferenceService {
  private readonly store: PreferenceStore;

  constructor(private readonly deps: { store: SqlStore; txlog: Pick<TransactionLog, 'append'>; push: TxnAnnouncer; plans: PlanService; now?: () => number }) {
    this.store = new PreferenceStore(deps.store);
  }

  /** The account's document: the defaults at revision 0 before the first change. */
  get(accountId: number): Promise<PreferencesDoc> {
    return this.store.get(accountId);
  }

  /**
   * Merges the patch into the document. A key whose feature the plan lacks refuses the
   * whole patch, changing nothing (FeatureNotInPlan, detail.feature). Later patches win:
   * each preference is one choice, and the newest choice is the person's.
   */
  async patch({ accountId, patch }: PreferencePatchParams): Promise<PreferencesDoc> {
    for (const key of Object.keys(patch) as PreferenceKey[]) {
      const feature = PREFERENCE_FEATURES[key];
      if (feature) await this.deps.plans.require(accountId, feature);
    }
    const { store, txlog } = this.deps;
    const { doc, latest } = await store.transaction(async () => {
      // The log entry first: its bump of the account's row holds that row on PostgreSQL until
      // commit, so two patches of one account at once take turns instead of both building on
      // the same revision (SQLite's transactions take turns anyway).
      const latest = await txlog.append(accountId, [{ object: 'preferences', objectId: accountId }]);
      const current = await this.store.get(accountId);
      const next: PreferencesDoc = { revision: current.revision + 1, values: { ...current.values, ...patch }, updatedAt: (this.deps.now ?? Date.now)() };
      await this.store.put(accountId, next);
      return { doc: next, latest };
    });
    this.deps.push.announce(accountId, latest);
    return doc;
  }
}
