/**
 * The gateway's preference and plan routes (shapes in shared/preferences.ts, shared/plans.ts):
 *
 *   GET   /api/preferences   → PreferencesDoc (defaults and revision 0 before the first change)
 *   PATCH /api/preferences   { values: PreferencePatch } → PreferencesDoc; the change is written
 *                            to the account's transaction log (object 'preferences'), so every
 *                            device hears of it through delta. A key whose feature the plan
 *                            lacks is FeatureNotInPlan 402 (detail.feature); a bad value
 *                            InvalidRequestData 400. Later keys win (no revision check: each
 *                            preference is one choice, and the newest choice is the person's).
 *   GET   /api/plan          → PlanResponse
 */
export { preferencesDocSchema, preferencesPatchRequestSchema, type PreferencesDoc, type PreferencesPatchRequest } from '../preferences';
export { planResponseSchema, type PlanResponse } from '../plans';
