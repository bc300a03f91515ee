/**
 * Plans and the features they may gate (spec §6: paywall assets exist for these). The
 * gateway's entitlement table (src-server/plans/) says which plan has which feature and
 * refuses a gated route with FeatureNotInPlan; the UI asks the engine's cached copy
 * "may I?" (useFeature) to show the paywall instead of a control that would be refused.
 */
import * as z from 'zod';

/** The features a plan may leave out (spec §6's paywall list, in its order). */
export const FEATURES = [
  'emailAlias',
  'autoClean',
  'spellChecker',
  'allowBlockLists',
  'labels',
  'templates',
  'contactGroups',
  'campaigns',
  'insertHtml',
  'bookingLink',
  'businessAutoReply',
] as const;
export type Feature = (typeof FEATURES)[number];
export const featureSchema = z.enum(FEATURES);

/** `paid` is every account's plan until the operator says otherwise; it enables everything. */
export const PLANS = ['paid', 'free'] as const;
export type Plan = (typeof PLANS)[number];
export const planSchema = z.enum(PLANS);
export const DEFAULT_PLAN: Plan = 'paid';

/** GET /api/plan: the account's plan and the features it includes. */
export const planResponseSchema = z.object({
  plan: planSchema,
  features: z.array(featureSchema),
});
export type PlanResponse = z.infer<typeof planResponseSchema>;
