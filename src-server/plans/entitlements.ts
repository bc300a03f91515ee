import { FEATURES, type Feature, type Plan } from '../../shared/plans';

/**
 * The one entitlement table: which plan includes which feature. `paid` (everyone's plan
 * until the operator says otherwise) has them all; `free` has none of the gated ones.
 * A feature that becomes gated is added to shared/plans.ts FEATURES and listed here.
 */
export const ENTITLEMENTS: Readonly<Record<Plan, readonly Feature[]>> = {
  paid: FEATURES,
  free: [],
};

export function featuresOf(plan: Plan): Feature[] {
  return [...ENTITLEMENTS[plan]];
}
